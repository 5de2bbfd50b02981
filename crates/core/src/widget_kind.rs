//! The closed set of 27 widget kinds: wire names, legacy `render_*` aliases and default grid sizes.

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! widget_kinds {
    ($($variant:ident => $name:literal, $w:literal x $h:literal;)*) => {
        /// A widget type. The wire name (`stat-card`) is also the recipe file name and the CSS block.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum WidgetKind {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl WidgetKind {
            /// Every kind, in gallery order.
            pub const ALL: &'static [WidgetKind] = &[$(WidgetKind::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(WidgetKind::$variant => $name,)*
                }
            }

            /// Default size in grid units (12 columns) when the agent does not give one.
            pub fn default_size(self) -> (u32, u32) {
                match self {
                    $(WidgetKind::$variant => ($w, $h),)*
                }
            }
        }
    };
}

widget_kinds! {
    Stat => "stat", 3 x 2;
    Kv => "kv", 4 x 3;
    List => "list", 4 x 3;
    Chart => "chart", 6 x 4;
    Alert => "alert", 6 x 2;
    Code => "code", 6 x 4;
    Text => "text", 6 x 3;
    Actions => "actions", 6 x 1;
    Tags => "tags", 4 x 1;
    StatCard => "stat-card", 3 x 2;
    DataTable => "data-table", 12 x 6;
    Timeline => "timeline", 4 x 5;
    Profile => "profile", 4 x 5;
    Trombinoscope => "trombinoscope", 8 x 5;
    JsonViewer => "json-viewer", 6 x 5;
    Hemicycle => "hemicycle", 6 x 5;
    ChartRich => "chart-rich", 6 x 5;
    Cards => "cards", 12 x 5;
    GridData => "grid-data", 8 x 5;
    Sankey => "sankey", 8 x 6;
    Log => "log", 6 x 5;
    Gallery => "gallery", 8 x 5;
    Carousel => "carousel", 6 x 5;
    JsSandbox => "js-sandbox", 6 x 5;
    // Two rows: one grid row (56 px) cannot hold the frame header, the question and the field.
    ChatInput => "chat-input", 6 x 2;
    VegaLite => "vega-lite", 6 x 5;
    // A server's own interactive view (MCP Apps), placed when the model calls a tool that has one.
    McpApp => "mcp-app", 6 x 6;
}

impl WidgetKind {
    /// Whether this kind draws an SVG chart, which can be exported as SVG or PNG.
    pub fn is_chart(self) -> bool {
        matches!(
            self,
            WidgetKind::Chart | WidgetKind::ChartRich | WidgetKind::Sankey | WidgetKind::Hemicycle | WidgetKind::VegaLite
        )
    }

    /// Whether a frame at this kind's default size is fitted to the widget's content both ways
    /// (`Op::Fit`): the kinds whose height is their content's (text, fields, lists, tables). Charts
    /// and views fill whatever frame they get, and images or pages that load later change their
    /// height after the fit, so those frames only ever grow.
    pub fn sized_by_content(self) -> bool {
        matches!(
            self,
            WidgetKind::Stat
                | WidgetKind::Kv
                | WidgetKind::List
                | WidgetKind::Alert
                | WidgetKind::Code
                | WidgetKind::Text
                | WidgetKind::Actions
                | WidgetKind::Tags
                | WidgetKind::StatCard
                | WidgetKind::DataTable
                | WidgetKind::Timeline
                | WidgetKind::JsonViewer
                | WidgetKind::GridData
                | WidgetKind::Log
                | WidgetKind::ChatInput
        )
    }

    /// The parameter that names a widget of this kind, shown as its frame's title, which the person
    /// can rename by hand (a code widget has none). A native test holds it to the recipes' schemas.
    pub fn title_key(self) -> Option<&'static str> {
        match self {
            WidgetKind::Code => None,
            WidgetKind::Stat | WidgetKind::StatCard | WidgetKind::Tags => Some("label"),
            WidgetKind::Profile => Some("name"),
            _ => Some("title"),
        }
    }

    /// Whether it shows something only a connected MCP server has (an MCP Apps view): its recipe
    /// example cannot render alone, so the gallery leaves it out.
    pub fn needs_server(self) -> bool {
        self == WidgetKind::McpApp
    }

    /// Resolves a name as the agent may write it: `stat-card`, or the legacy `render_stat_card`,
    /// `stat_card` and any letter case.
    pub fn from_name(name: &str) -> Option<WidgetKind> {
        let trimmed = name.trim();
        let stripped = trimmed
            .strip_prefix("render_")
            .or_else(|| trimmed.strip_prefix("render-"))
            .unwrap_or(trimmed);
        let normalised = stripped.to_ascii_lowercase().replace('_', "-");
        WidgetKind::ALL.iter().copied().find(|kind| kind.as_str() == normalised)
    }
}

impl fmt::Display for WidgetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_twenty_seven_distinct_kinds() {
        let mut names: Vec<&str> = WidgetKind::ALL.iter().map(|k| k.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 27);
    }

    #[test]
    fn legacy_and_loose_names_resolve() {
        assert_eq!(WidgetKind::from_name("stat-card"), Some(WidgetKind::StatCard));
        assert_eq!(WidgetKind::from_name("render_stat_card"), Some(WidgetKind::StatCard));
        assert_eq!(WidgetKind::from_name("render_data_table"), Some(WidgetKind::DataTable));
        assert_eq!(WidgetKind::from_name("Chart_Rich"), Some(WidgetKind::ChartRich));
        assert_eq!(WidgetKind::from_name("pie-chart"), None);
    }

    #[test]
    fn serde_uses_the_wire_name() {
        assert_eq!(serde_json::to_string(&WidgetKind::JsSandbox).unwrap(), "\"js-sandbox\"");
        let kind: WidgetKind = serde_json::from_str("\"grid-data\"").unwrap();
        assert_eq!(kind, WidgetKind::GridData);
    }
}
