//! Widget recipes (`recipes/*.md`): the single source of truth for schemas, discovery and docs.
//!
//! Each recipe gives one widget its description, group, search tags, JSON Schema (draft 2020-12)
//! and a markdown body with complete example calls. The files are compiled into the binary by
//! `build.rs`; [`registry()`] loads them once. [`check`] turns a model's raw params into data a
//! renderer can trust: repair, sanitise, validate (through the [`validate::SchemaValidator`] port).

pub mod check;
pub mod listing;
mod embedded;
pub mod repair;
pub mod sanitize;
pub mod search;
pub mod showcase;
pub mod validate;

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::sort::sort_by_key;
use crate::widget_kind::WidgetKind;

/// How the gallery and `list_recipes` group widgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecipeGroup {
    /// One value or a few lines: stat, kv, list, chart, alert, code, text, tags.
    Simple,
    /// Structured data in a card: tables, charts, timelines, people, flows.
    Rich,
    /// Images: gallery, carousel.
    Media,
    /// Widgets whose point is the user's input: actions, chat-input, js-sandbox.
    Interactive,
}

impl RecipeGroup {
    pub fn as_str(self) -> &'static str {
        match self {
            RecipeGroup::Simple => "simple",
            RecipeGroup::Rich => "rich",
            RecipeGroup::Media => "media",
            RecipeGroup::Interactive => "interactive",
        }
    }
}

/// One widget's recipe.
pub struct Recipe {
    pub kind: WidgetKind,
    pub description: String,
    pub group: RecipeGroup,
    pub tags: Vec<String>,
    /// The JSON Schema of the widget's params.
    pub schema: Arc<Value>,
    /// The markdown body: when to use, how to use, common mistakes, examples.
    pub body: String,
    /// The `params` of each complete example call in the body; the first is what the gallery renders.
    pub examples: Vec<Value>,
    #[cfg(feature = "jsonschema")]
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl Recipe {
    pub(crate) fn new(
        kind: WidgetKind,
        description: String,
        group: RecipeGroup,
        tags: Vec<String>,
        schema: Value,
        body: String,
        examples: Vec<Value>,
    ) -> Recipe {
        Recipe {
            kind,
            description,
            group,
            tags,
            schema: Arc::new(schema),
            body,
            examples,
            #[cfg(feature = "jsonschema")]
            validator: OnceLock::new(),
        }
    }

    /// The wire name, e.g. `stat-card`.
    pub fn name(&self) -> &'static str {
        self.kind.as_str()
    }

    /// The compiled schema, built on first use.
    #[cfg(feature = "jsonschema")]
    pub fn validator(&self) -> Result<&jsonschema::Validator, RecipeError> {
        self.validator
            .get_or_init(|| {
                jsonschema::draft202012::new(&self.schema).map_err(|error| error.to_string())
            })
            .as_ref()
            .map_err(|reason| RecipeError::Schema {
                widget: self.kind,
                reason: reason.clone(),
            })
    }

    /// `{name, description, group}`, as discovery tools list it.
    pub fn summary_json(&self) -> Value {
        json!({ "name": self.name(), "description": self.description, "group": self.group.as_str() })
    }
}

impl std::fmt::Debug for Recipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recipe")
            .field("kind", &self.kind)
            .field("group", &self.group)
            .field("tags", &self.tags)
            .field("examples", &self.examples.len())
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RecipeError {
    #[error("recipe {file}.md does not parse: {reason}")]
    Unparsed { file: String, reason: String },
    #[error(
        "recipe {file}.md declares widget \"{widget}\", but its file name must be the widget name"
    )]
    NameMismatch { file: String, widget: String },
    #[error("recipe {file}.md is not one of the 27 widget kinds")]
    UnknownWidget { file: String },
    #[error("two recipes describe {0}")]
    Duplicate(WidgetKind),
    #[error(
        "example #{index} of {widget} is not a complete call {{\"name\": \"{widget}\", \"params\": {{...}}}}"
    )]
    Example { widget: WidgetKind, index: usize },
    #[error("the schema of {widget} does not compile: {reason}")]
    Schema { widget: WidgetKind, reason: String },
}

/// All recipes, in gallery order ([`WidgetKind::ALL`]).
#[derive(Debug, Default)]
pub struct Registry {
    recipes: Vec<Recipe>,
}

impl Registry {
    /// The recipes compiled into the binary, and those that failed to load (the self-check test
    /// keeps that list empty).
    pub fn from_embedded() -> (Registry, Vec<RecipeError>) {
        let (mut recipes, errors) = embedded::load();
        sort_by_key(&mut recipes, |recipe| WidgetKind::ALL.iter().position(|kind| *kind == recipe.kind));
        (Registry { recipes }, errors)
    }

    pub fn all(&self) -> &[Recipe] {
        &self.recipes
    }

    pub fn get(&self, kind: WidgetKind) -> Option<&Recipe> {
        self.recipes.iter().find(|recipe| recipe.kind == kind)
    }

    /// Resolves a name as the model may write it, legacy `render_stat_card` included.
    pub fn find(&self, name: &str) -> Option<&Recipe> {
        WidgetKind::from_name(name).and_then(|kind| self.get(kind))
    }

    /// Recipes matching `query` by name, tags or description, best first; an empty query lists all.
    pub fn search(&self, query: &str) -> Vec<&Recipe> {
        search::rank(&self.recipes, query)
    }

    /// Up to `limit` recipe names closest to a name that matched nothing.
    pub fn closest(&self, name: &str, limit: usize) -> Vec<&'static str> {
        search::closest(&self.recipes, name, limit)
    }
}

/// The embedded recipes, loaded once.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::from_embedded().0)
}
