//! One component per widget kind; this module holds the only `match WidgetKind -> component`.
//!
//! Every widget component has the same shape: `#[component] pub fn Kind(props: WidgetProps)`. It
//! reads its data with `common::parse` and its type's `read` (`autoui_core::view::fields`), renders an
//! `EmptyState` when there is nothing to show and a `WidgetError` when the data cannot be rendered,
//! renders text as text nodes or, where a widget builds many similar nodes (table rows, seats, marks),
//! as markup with every text through `escape_html`; the `text` widget's markdown is sanitised. It
//! reports user interactions through `props.emit`. Its CSS lives in `style/widgets/<kind>.css` under the
//! `au-<kind>` block and reads only theme tokens.

pub mod common;
pub mod actions;
pub mod alert;
pub mod cards;
pub mod carousel;
pub mod chart;
pub mod chart_rich;
pub mod chat_input;
pub mod code;
pub mod data_table;
pub mod gallery;
pub mod grid_data;
pub mod hemicycle;
pub mod js_sandbox;
pub mod json_viewer;
pub mod kv;
pub mod list;
pub mod log;
pub mod mcp_app;
pub mod profile;
pub mod sankey;
pub mod stat;
pub mod stat_card;
pub mod tags;
pub mod text;
pub mod timeline;
pub mod trombinoscope;
pub mod vega_lite;

use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::ids::BlockId;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;

/// What a widget receives from its frame.
#[derive(Clone)]
pub struct WidgetProps {
    pub id: BlockId,
    /// The widget's validated data; it fires only when the data itself changed.
    pub data: Signal<Arc<Value>>,
    /// Reports a user interaction (button click, row click...) with its payload.
    pub emit: Callback<(WidgetAction, Value)>,
}

/// The component for `kind`.
pub fn render(kind: WidgetKind, props: WidgetProps) -> AnyView {
    match kind {
        WidgetKind::Stat => view! { <stat::Stat props /> }.into_any(),
        WidgetKind::Kv => view! { <kv::Kv props /> }.into_any(),
        WidgetKind::List => view! { <list::List props /> }.into_any(),
        WidgetKind::Chart => view! { <chart::Chart props /> }.into_any(),
        WidgetKind::Alert => view! { <alert::Alert props /> }.into_any(),
        WidgetKind::Code => view! { <code::Code props /> }.into_any(),
        WidgetKind::Text => view! { <text::Text props /> }.into_any(),
        WidgetKind::Actions => view! { <actions::Actions props /> }.into_any(),
        WidgetKind::Tags => view! { <tags::Tags props /> }.into_any(),
        WidgetKind::StatCard => view! { <stat_card::StatCard props /> }.into_any(),
        WidgetKind::DataTable => view! { <data_table::DataTable props /> }.into_any(),
        WidgetKind::Timeline => view! { <timeline::Timeline props /> }.into_any(),
        WidgetKind::Profile => view! { <profile::Profile props /> }.into_any(),
        WidgetKind::Trombinoscope => view! { <trombinoscope::Trombinoscope props /> }.into_any(),
        WidgetKind::JsonViewer => view! { <json_viewer::JsonViewer props /> }.into_any(),
        WidgetKind::Hemicycle => view! { <hemicycle::Hemicycle props /> }.into_any(),
        WidgetKind::ChartRich => view! { <chart_rich::ChartRich props /> }.into_any(),
        WidgetKind::Cards => view! { <cards::Cards props /> }.into_any(),
        WidgetKind::GridData => view! { <grid_data::GridData props /> }.into_any(),
        WidgetKind::Sankey => view! { <sankey::Sankey props /> }.into_any(),
        WidgetKind::Log => view! { <log::Log props /> }.into_any(),
        WidgetKind::Gallery => view! { <gallery::Gallery props /> }.into_any(),
        WidgetKind::Carousel => view! { <carousel::Carousel props /> }.into_any(),
        WidgetKind::JsSandbox => view! { <js_sandbox::JsSandbox props /> }.into_any(),
        WidgetKind::McpApp => view! { <mcp_app::McpApp props /> }.into_any(),
        WidgetKind::ChatInput => view! { <chat_input::ChatInput props /> }.into_any(),
        WidgetKind::VegaLite => view! { <vega_lite::VegaLite props /> }.into_any(),
    }
}
