//! Per-widget style overrides: an allow-list of CSS properties with sanitised values.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Allow-listed CSS properties and their values, applied inline on the widget frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Style(pub BTreeMap<String, String>);

impl Style {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
