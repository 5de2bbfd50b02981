//! The path from a model's raw params to data a renderer can trust: repair, sanitise, validate.
//!
//! Sanitising runs before validation so that dropping an unusable image from a field the widget
//! requires (a gallery image's `src`) is reported as a validation error, and stored data always
//! matches its schema.

use serde_json::Value;

use crate::recipes::Recipe;
use crate::recipes::repair::{self, Repair};
use crate::recipes::sanitize::{self, Dropped};
use crate::recipes::validate::{self, Detail};
use crate::widget_kind::WidgetKind;

/// Params that passed: the data to render and what was changed on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub data: Value,
    pub repairs: Vec<Repair>,
    pub dropped: Vec<Dropped>,
}

/// Params that failed validation after repair and sanitising.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    pub details: Vec<Detail>,
    pub repairs: Vec<Repair>,
    pub dropped: Vec<Dropped>,
}

impl Recipe {
    /// Repairs, sanitises and validates `params` against this recipe's schema.
    pub fn check(&self, mut params: Value) -> Result<Checked, Rejected> {
        let repairs = repair::repair(&mut params, &self.schema, self.kind);
        // The JSON viewer shows data verbatim and renders no image, so its data is left whole.
        let dropped = if self.kind == WidgetKind::JsonViewer {
            Vec::new()
        } else {
            sanitize::sanitize(&mut params)
        };
        let details = match self.validator() {
            Ok(validator) => validate::validate(validator, &self.schema, &params),
            Err(error) => vec![Detail {
                path: String::new(),
                message: error.to_string(),
            }],
        };
        if details.is_empty() {
            Ok(Checked {
                data: params,
                repairs,
                dropped,
            })
        } else {
            Err(Rejected {
                details,
                repairs,
                dropped,
            })
        }
    }
}
