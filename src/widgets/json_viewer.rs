//! `json-viewer` widget: a collapsible tree (`details`/`summary`) of any JSON value. Nodes read the
//! shared data through a path (nothing is copied), children render only once their node is opened,
//! and large containers render a page at a time behind "show more".

use std::sync::Arc;

use autoui_core::view::fields::{Fields, Read};
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Children rendered per page of a large array or object.
const PAGE: usize = 100;
/// `maxDepth` when the data gives none.
const DEFAULT_MAX_DEPTH: usize = 5;
/// Levels opened at first when `expanded` is true.
const OPEN_LEVELS: usize = 2;

struct ViewerOptions {
    title: Option<String>,
    max_depth: Option<f64>,
    expanded: Option<bool>,
}

impl ViewerOptions {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(ViewerOptions {
            title: fields.text("title")?,
            max_depth: fields.number("maxDepth")?,
            expanded: fields.flag("expanded")?,
        })
    }
}

/// One step from a container to a child.
#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// The shared document and the display options every node needs.
#[derive(Clone)]
struct Tree {
    root: Arc<Value>,
    max_depth: usize,
    expanded: bool,
}

impl Tree {
    /// The value at `path` under the widget's `data`.
    fn at(&self, path: &[Step]) -> Option<&Value> {
        path.iter()
            .try_fold(self.root.get("data")?, |value, step| match step {
                Step::Key(key) => value.get(key.as_str()),
                Step::Index(index) => value.get(*index),
            })
    }

    /// A node starts open at the root, and on the first levels when `expanded`, never at or past `maxDepth`.
    fn starts_open(&self, depth: usize) -> bool {
        depth < self.max_depth && (depth == 0 || (self.expanded && depth < OPEN_LEVELS))
    }
}

#[component]
pub fn JsonViewer(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        let root = data.get();
        let options = match parse(&root, ViewerOptions::read) {
            Ok(options) => options,
            Err(error) => {
                return view! { <WidgetError message=format!("the json-viewer options are not valid: {error}") /> }.into_any();
            }
        };
        if root.get("data").is_none() {
            return view! {
                <div class="au-json">
                    <WidgetTitle title=options.title />
                    <EmptyState message="No JSON data to show" />
                </div>
            }
            .into_any();
        }
        let max_depth = options
            .max_depth
            .filter(|depth| depth.is_finite() && *depth >= 1.0)
            .map_or(DEFAULT_MAX_DEPTH, |depth| depth as usize);
        let tree = Tree {
            root,
            max_depth,
            expanded: options.expanded.unwrap_or(true),
        };
        view! {
            <div class="au-json">
                <WidgetTitle title=options.title />
                <ul class="au-json__tree">{node_view(tree, Vec::new(), 0)}</ul>
            </div>
        }
        .into_any()
    }
}

/// One value: a leaf row, or a collapsible container.
fn node_view(tree: Tree, path: Vec<Step>, depth: usize) -> AnyView {
    let label = path.last().map(label_view);
    let Some(value) = tree.at(&path) else {
        return ().into_any();
    };
    let (len, array) = match value {
        Value::Array(items) if !items.is_empty() => (items.len(), true),
        Value::Object(fields) if !fields.is_empty() => (fields.len(), false),
        leaf => {
            let (class, text) = leaf_text(leaf);
            return view! {
                <li class="au-json__leaf">{label}<span class=class>{text}</span></li>
            }
            .into_any();
        }
    };
    let summary = match array {
        true => format!("[Array({len})]"),
        false => format!("{{Object({len})}}"),
    };
    let starts_open = tree.starts_open(depth);
    // Children are built the first time the node opens, then kept (with their own open state). A
    // click on the summary (mouse, Enter or Space) builds them at once; `toggle` covers other ways
    // of opening (the browser's find-in-page).
    let opened = RwSignal::new(starts_open);
    let pages = RwSignal::new(1_usize);
    let on_toggle = move |event: leptos::ev::Event| {
        let open = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|details| details.has_attribute("open"));
        if open {
            opened.set(true);
        }
    };
    let children = move || {
        opened.get().then(|| {
            let tree = tree.clone();
            let path = path.clone();
            let more = move || {
                let shown = pages.get() * PAGE;
                (shown < len).then(|| {
                    view! {
                        <li class="au-json__more">
                            <button type="button" class="au-json__more-button" on:click=move |_| pages.update(|pages| *pages += 1)>
                                {format!("Show {} more ({} of {len} shown)", (len - shown).min(PAGE), shown)}
                            </button>
                        </li>
                    }
                })
            };
            view! {
                <For each=move || 0..pages.get() key=|page| *page
                    children=move |page| page_view(tree.clone(), path.clone(), depth, page) />
                {more}
            }
        })
    };
    view! {
        <li class="au-json__branch">
            <details class="au-json__details" open=starts_open on:toggle=on_toggle>
                <summary class="au-json__summary" on:click=move |_| opened.set(true)>
                    {label}
                    <span class="au-json__type">{summary}</span>
                </summary>
                <ul class="au-json__children">{children}</ul>
            </details>
        </li>
    }
    .into_any()
}

/// Children `page * PAGE ..` of the container at `path`.
fn page_view(tree: Tree, path: Vec<Step>, depth: usize, page: usize) -> AnyView {
    let steps: Vec<Step> = match tree.at(&path) {
        Some(Value::Array(items)) => (0..items.len())
            .skip(page * PAGE)
            .take(PAGE)
            .map(Step::Index)
            .collect(),
        Some(Value::Object(fields)) => fields
            .keys()
            .skip(page * PAGE)
            .take(PAGE)
            .map(|key| Step::Key(key.clone()))
            .collect(),
        _ => Vec::new(),
    };
    steps
        .into_iter()
        .map(|step| {
            let mut child = path.clone();
            child.push(step);
            node_view(tree.clone(), child, depth + 1)
        })
        .collect_view()
        .into_any()
}

fn label_view(step: &Step) -> AnyView {
    match step {
        Step::Key(key) => view! {
            <span class="au-json__key">{Value::String(key.clone()).to_string()}</span>
            <span class="au-json__colon">": "</span>
        }
        .into_any(),
        Step::Index(index) => view! {
            <span class="au-json__index">{index.to_string()}</span>
            <span class="au-json__colon">": "</span>
        }
        .into_any(),
    }
}

/// A leaf as JSON text (strings quoted and escaped) with the class of its type.
fn leaf_text(value: &Value) -> (&'static str, String) {
    let class = match value {
        Value::Null => "au-json__null",
        Value::Bool(_) => "au-json__bool",
        Value::Number(_) => "au-json__number",
        Value::String(_) => "au-json__string",
        Value::Array(_) | Value::Object(_) => "au-json__empty",
    };
    (class, value.to_string())
}
