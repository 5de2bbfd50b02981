//! Per-widget style overrides: an allow-list of CSS properties with sanitised values.
//!
//! Styles come from the model, an external agent or a share link and end up inline on the widget
//! frame, so only cosmetic properties pass (no layout, no positioning: the grid owns those) and
//! values are limited to plain CSS tokens: no `url(`, no `expression`, no `javascript:`, no escapes
//! or `;` that could smuggle another declaration.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Allow-listed CSS properties and their values, applied inline on the widget frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Style(pub BTreeMap<String, String>);

/// The properties a style may set.
pub const ALLOWED_PROPERTIES: &[&str] = &[
    "accent-color",
    "background",
    "background-color",
    "border",
    "border-color",
    "border-radius",
    "border-style",
    "border-width",
    "box-shadow",
    "color",
    "font-family",
    "font-size",
    "font-style",
    "font-weight",
    "letter-spacing",
    "line-height",
    "opacity",
    "outline",
    "padding",
    "text-align",
    "text-transform",
];

/// Properties whose bare numbers mean pixels (as in a JavaScript style object).
const PIXEL_PROPERTIES: &[&str] = &[
    "border-radius",
    "border-width",
    "font-size",
    "letter-spacing",
    "padding",
];

/// Functions and words that load resources or run code.
const FORBIDDEN: &[&str] = &[
    "url(",
    "image(",
    "image-set(",
    "element(",
    "expression",
    "javascript",
    "@import",
];

const MAX_VALUE_LEN: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StyleError {
    #[error("\"{0}\" is not an allowed style property; allowed: {list}", list = ALLOWED_PROPERTIES.join(", "))]
    Property(String),
    #[error("the value of {property} contains \"{pattern}\", which is not allowed in styles")]
    Forbidden {
        property: String,
        pattern: &'static str,
    },
    #[error(
        "the value of {property} contains {character:?}; use plain CSS values such as #1e293b, 12px, bold or 1px solid #ccc"
    )]
    Character { property: String, character: char },
    #[error("the value of {property} is longer than {MAX_VALUE_LEN} characters")]
    TooLong { property: String },
    #[error("the value of {property} must be a string or a number")]
    NotText { property: String },
}

impl Style {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// This style with `patch` applied: each property is set (after sanitising), or removed when its
    /// value is `null` or `""`. Rejected declarations are left out and returned.
    pub fn patched(&self, patch: &Map<String, Value>) -> (Style, Vec<StyleError>) {
        let mut style = self.clone();
        let mut rejected = Vec::new();
        for (property, value) in patch {
            let removal =
                value.is_null() || value.as_str().is_some_and(|text| text.trim().is_empty());
            if removal {
                style.0.remove(&kebab_case(property));
                continue;
            }
            match declaration(property, value) {
                Ok((property, value)) => {
                    style.0.insert(property, value);
                }
                Err(error) => rejected.push(error),
            }
        }
        (style, rejected)
    }

    /// Keeps only the declarations that would pass [`declaration`] (for styles read back from storage
    /// or a share link); returns what it removed.
    pub fn retain_safe(&mut self) -> Vec<StyleError> {
        let mut rejected = Vec::new();
        self.0.retain(|property, value| {
            match declaration(property, &Value::String(value.clone())) {
                Ok(_) => true,
                Err(error) => {
                    rejected.push(error);
                    false
                }
            }
        });
        rejected
    }
}

/// One sanitised declaration: the property in kebab-case (`backgroundColor` -> `background-color`)
/// and a value made only of plain CSS tokens.
pub fn declaration(property: &str, value: &Value) -> Result<(String, String), StyleError> {
    let property = kebab_case(property);
    if !ALLOWED_PROPERTIES.contains(&property.as_str()) {
        return Err(StyleError::Property(property));
    }
    let value = match value {
        Value::String(text) => text.trim().to_owned(),
        Value::Number(number) if PIXEL_PROPERTIES.contains(&property.as_str()) => {
            format!("{number}px")
        }
        Value::Number(number) => number.to_string(),
        _ => return Err(StyleError::NotText { property }),
    };
    if value.chars().count() > MAX_VALUE_LEN {
        return Err(StyleError::TooLong { property });
    }
    let lowered = value.to_ascii_lowercase();
    if let Some(pattern) = FORBIDDEN.iter().find(|pattern| lowered.contains(**pattern)) {
        return Err(StyleError::Forbidden { property, pattern });
    }
    if let Some(character) = value.chars().find(|c| !allowed_char(*c)) {
        return Err(StyleError::Character {
            property,
            character,
        });
    }
    Ok((property, value))
}

/// Letters, digits, spaces and the punctuation of colours, lengths, lists and functions; no `:`,
/// `;`, `\`, braces, `<`, `>` or `@`.
fn allowed_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            ' ' | '#' | '%' | '.' | ',' | '(' | ')' | '+' | '-' | '*' | '/' | '\'' | '"' | '!'
        )
}

/// `backgroundColor`, `background_color` and `Background-Color` -> `background-color`.
fn kebab_case(property: &str) -> String {
    let mut out = String::with_capacity(property.len() + 4);
    for c in property.trim().chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn patch(value: Value) -> (Style, Vec<StyleError>) {
        Style::default().patched(value.as_object().unwrap())
    }

    #[test]
    fn allowed_properties_pass_in_kebab_case_whatever_case_they_came_in() {
        let (style, rejected) = patch(json!({
            "backgroundColor": "#0f172a", "border_radius": 8, "Font-Weight": 600, "box-shadow": "0 1px 2px rgba(0,0,0,.2)"
        }));
        assert!(rejected.is_empty(), "{rejected:?}");
        assert_eq!(style.0.get("background-color").unwrap(), "#0f172a");
        assert_eq!(style.0.get("border-radius").unwrap(), "8px");
        assert_eq!(style.0.get("font-weight").unwrap(), "600");
        assert_eq!(
            style.0.get("box-shadow").unwrap(),
            "0 1px 2px rgba(0,0,0,.2)"
        );
    }

    #[test]
    fn layout_and_unknown_properties_are_refused_with_the_allowed_list() {
        let (style, rejected) = patch(json!({"position": "fixed", "width": "400px", "z-index": 9}));
        assert!(style.is_empty());
        assert_eq!(rejected.len(), 3);
        assert!(
            rejected[0]
                .to_string()
                .contains("allowed: accent-color, background")
        );
    }

    #[test]
    fn values_that_load_resources_or_run_code_are_refused() {
        for bad in [
            "url(https://evil.org/x.png)",
            "URL( 'x' )",
            "expression(alert(1))",
            "javascript:alert(1)",
            "image-set('a.png' 1x)",
            "red; position: fixed",
            "red\\3b position:fixed",
            "</style><script>",
            "@import 'x'",
        ] {
            let (style, rejected) = patch(json!({"background": bad}));
            assert!(style.is_empty(), "{bad} passed");
            assert_eq!(rejected.len(), 1, "{bad}");
        }
    }

    #[test]
    fn null_or_empty_values_remove_a_property_and_others_are_kept() {
        let (style, _) = patch(json!({"color": "#fff", "opacity": 0.9}));
        let (style, rejected) = style.patched(
            json!({"color": null, "padding": "4px 8px"})
                .as_object()
                .unwrap(),
        );
        assert!(rejected.is_empty());
        assert_eq!(
            style.0,
            BTreeMap::from([
                ("opacity".into(), "0.9".into()),
                ("padding".into(), "4px 8px".into())
            ])
        );
    }

    #[test]
    fn stored_styles_are_filtered_again_when_read_back() {
        let mut style = Style(BTreeMap::from([
            ("color".into(), "teal".into()),
            ("background".into(), "url(x.png)".into()),
            ("position".into(), "absolute".into()),
        ]));
        assert_eq!(style.retain_safe().len(), 2);
        assert_eq!(style.0, BTreeMap::from([("color".into(), "teal".into())]));
    }
}
