//! The path from a model's raw params to data a renderer can trust: repair, sanitise, validate.
//!
//! Sanitising runs before validation so that dropping an unusable image from a field the widget
//! requires (a gallery image's `src`) is reported as a validation error, and stored data always
//! matches its schema.

use serde_json::Value;

use crate::provenance::ImageSources;
use crate::recipes::repair::{self, Repair};
use crate::recipes::sanitize::{self, Dropped};
use crate::recipes::validate::{Detail, SchemaValidator, ValidatorError};
use crate::recipes::{Recipe, RecipeError};
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

/// Why [`Recipe::check_with`] let params through no further.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CheckError {
    #[error("validation failed")]
    Rejected(Rejected),
    /// Nothing could validate the params, so nothing was decided about them.
    #[error(transparent)]
    Validator(ValidatorError),
}

impl Recipe {
    /// Repairs, sanitises and validates `params` against this recipe's schema with `validator`;
    /// web images load only from `sources`.
    pub fn check_with(
        &self,
        mut params: Value,
        validator: &dyn SchemaValidator,
        sources: ImageSources<'_>,
    ) -> Result<Checked, CheckError> {
        let (repairs, dropped) = self.prepare(&mut params, sources);
        let mut details = match validator.validate(&self.schema, &params) {
            Ok(details) => details,
            Err(ValidatorError::Schema(reason)) => vec![self.schema_error(reason)],
            Err(error) => return Err(CheckError::Validator(error)),
        };
        details.extend(self.own_checks(&params));
        verdict(params, details, repairs, dropped).map_err(CheckError::Rejected)
    }

    /// Repairs, sanitises and validates `params` with this recipe's own compiled schema.
    #[cfg(feature = "jsonschema")]
    pub fn check(&self, mut params: Value) -> Result<Checked, Rejected> {
        let (repairs, dropped) = self.prepare(&mut params, ImageSources::Any);
        let mut details = match self.validator() {
            Ok(validator) => crate::recipes::validate::validate(validator, &self.schema, &params),
            Err(error) => vec![Detail {
                path: String::new(),
                message: error.to_string(),
            }],
        };
        details.extend(self.own_checks(&params));
        verdict(params, details, repairs, dropped)
    }

    /// Repairs then sanitises `params` in place.
    fn prepare(&self, params: &mut Value, sources: ImageSources<'_>) -> (Vec<Repair>, Vec<Dropped>) {
        let repairs = repair::repair(params, &self.schema, self.kind);
        // The JSON viewer shows data verbatim and renders no image, so its data is left whole.
        let dropped = match self.kind {
            WidgetKind::JsonViewer => Vec::new(),
            WidgetKind::VegaLite => sanitize::sanitize_links(params),
            _ => sanitize::sanitize_with(params, sources),
        };
        (repairs, dropped)
    }

    /// What a schema cannot say: a Vega-Lite spec's data stays inline and within its cap.
    fn own_checks(&self, params: &Value) -> Vec<Detail> {
        match self.kind {
            WidgetKind::VegaLite => crate::view::vega_lite::check(params),
            WidgetKind::ChartRich => gauge_range(params),
            _ => Vec::new(),
        }
    }

    fn schema_error(&self, reason: String) -> Detail {
        Detail {
            path: String::new(),
            message: RecipeError::Schema {
                widget: self.kind,
                reason,
            }
            .to_string(),
        }
    }
}

/// A `chart-rich` gauge's dial runs from `min` (0) up to `max` (100): a range that does not rise
/// draws nothing, so it is refused here rather than shown as a broken widget.
fn gauge_range(params: &Value) -> Vec<Detail> {
    if params.get("type").and_then(Value::as_str) != Some("gauge") {
        return Vec::new();
    }
    let bound = |key: &str, default: f64| params.get(key).map_or(Some(default), crate::view::numeric::number_in);
    let (min, max) = crate::view::chart::GAUGE_RANGE;
    match (bound("min", min), bound("max", max)) {
        (Some(min), Some(max)) if max <= min => vec![Detail {
            path: "/max".to_owned(),
            message: format!("a gauge needs max above min (min {min}, max {max}): give the range the value is read against"),
        }],
        _ => Vec::new(),
    }
}

fn verdict(
    params: Value,
    details: Vec<Detail>,
    repairs: Vec<Repair>,
    dropped: Vec<Dropped>,
) -> Result<Checked, Rejected> {
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
