//! `sankey` widget: a real sankey diagram. Nodes sit in columns, node heights and flow bands are
//! proportional to value (layout in `autoui_core::view::sankey`), bands are cubic Bezier shapes
//! shaded from source to target colour; hovering or focusing a node or flow highlights what it
//! touches, and clicking (or Enter) reports it as `NodeClick` / `LinkClick`.

use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::chart::num;
use autoui_core::view::present::{format_number, safe_color, series_color};
use autoui_core::view::sankey::{LinkSpec, SankeyConfig, SankeyLayout, SankeyNote, layout};
use leptos::html::Div;
use leptos::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use web_sys::KeyboardEvent;

use crate::widgets::WidgetProps;
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::{short_label, tooltip_transform};
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Longest node label drawn beside its node; the tooltip shows it whole.
const LABEL_CHARS: usize = 26;

#[derive(Deserialize)]
struct SankeyData {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    nodes: Vec<NodeData>,
    #[serde(default)]
    links: Vec<LinkData>,
}

#[derive(Deserialize)]
struct NodeData {
    id: Key,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    summary: Option<String>,
}

#[derive(Deserialize)]
struct LinkData {
    source: Key,
    target: Key,
    #[serde(default)]
    value: Value,
    #[serde(default)]
    label: Option<String>,
}

/// A node id: text, or a number read as text.
#[derive(Deserialize)]
#[serde(try_from = "Value")]
struct Key(String);

impl TryFrom<Value> for Key {
    type Error = String;

    fn try_from(value: Value) -> Result<Key, String> {
        match value {
            Value::String(text) => Ok(Key(text)),
            Value::Number(number) => Ok(Key(number.to_string())),
            other => Err(format!("a node id must be text, not {other}")),
        }
    }
}

/// A node ready to draw: its id, shown label and colour.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    id: String,
    label: String,
    color: String,
    summary: Option<String>,
}

/// The diagram's data, read once per data change; the layout is redone per size.
#[derive(Clone, Debug, PartialEq)]
struct Diagram {
    title: Option<String>,
    nodes: Vec<Node>,
    links: Vec<(String, String, f64, Option<String>)>,
    /// Nodes listed twice or missing, found while reading; the layout adds notes about flows.
    notes: Vec<SankeyNote>,
}

impl Diagram {
    fn read(value: &Value) -> Result<Diagram, String> {
        let data: SankeyData = parse(value)?;
        let mut notes = Vec::new();
        let mut nodes: Vec<Node> = Vec::with_capacity(data.nodes.len());
        for node in data.nodes {
            if nodes.iter().any(|known| known.id == node.id.0) {
                notes.push(SankeyNote::DuplicateNode { id: node.id.0 });
                continue;
            }
            nodes.push(Node {
                label: node
                    .label
                    .filter(|l| !l.trim().is_empty())
                    .unwrap_or_else(|| node.id.0.clone()),
                color: node
                    .color
                    .as_deref()
                    .and_then(safe_color)
                    .unwrap_or_else(|| series_color(nodes.len())),
                summary: node.summary.filter(|s| !s.trim().is_empty()),
                id: node.id.0,
            });
        }
        let links: Vec<(String, String, f64, Option<String>)> = data
            .links
            .into_iter()
            .map(|link| {
                (
                    link.source.0,
                    link.target.0,
                    number(&link.value),
                    link.label,
                )
            })
            .collect();
        // A node only named by links still gets drawn, labelled by its id, and the note says so.
        for id in links.iter().flat_map(|(s, t, _, _)| [s, t]) {
            if !nodes.iter().any(|node| &node.id == id) {
                notes.push(SankeyNote::MissingNode { id: id.clone() });
                let color = series_color(nodes.len());
                nodes.push(Node {
                    id: id.clone(),
                    label: id.clone(),
                    color,
                    summary: None,
                });
            }
        }
        Ok(Diagram {
            title: data.title,
            nodes,
            links,
            notes,
        })
    }

    fn layout(&self, (width, height): (f64, f64)) -> SankeyLayout {
        let ids: Vec<&str> = self.nodes.iter().map(|node| node.id.as_str()).collect();
        let links: Vec<LinkSpec> = self
            .links
            .iter()
            .map(|(source, target, value, _)| LinkSpec {
                source,
                target,
                value: *value,
            })
            .collect();
        let config = SankeyConfig {
            width,
            height: (height - 4.0).max(20.0),
            node_width: 12.0,
            node_gap: 14.0,
        };
        layout(&ids, &links, &config)
    }
}

/// What the pointer or keyboard is on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hover {
    Node(usize),
    /// A flow, by its position in the data's links.
    Flow(usize),
}

#[component]
pub fn Sankey(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let diagram = Memo::new(move |_| data.with(|value| Diagram::read(value).map(Arc::new)));
    let gradient_prefix = format!(
        "au-sankey-{}",
        props
            .id
            .to_string()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    );
    let emit = props.emit;
    move || match diagram.get() {
        Err(message) => view! { <WidgetError message /> }.into_any(),
        Ok(diagram) if diagram.links.is_empty() => {
            view! { <EmptyState message="No flows to show yet" /> }.into_any()
        }
        Ok(diagram) => {
            view! { <SankeyView diagram gradient_prefix=gradient_prefix.clone() emit /> }.into_any()
        }
    }
}

#[component]
fn SankeyView(
    diagram: Arc<Diagram>,
    gradient_prefix: String,
    emit: Callback<(WidgetAction, Value)>,
) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (560.0, 300.0));
    let placed = Memo::new({
        let diagram = diagram.clone();
        move |_| Arc::new(diagram.layout(size.get()))
    });
    let hover = RwSignal::new(None::<Hover>);
    let notes: Vec<String> = placed.with_untracked(|layout| {
        diagram
            .notes
            .iter()
            .chain(&layout.notes)
            .map(ToString::to_string)
            .collect()
    });
    let drawn = placed.with_untracked(|layout| layout.flows.len());

    if drawn == 0 {
        let notes = notes
            .into_iter()
            .map(|note| view! { <li>{note}</li> })
            .collect_view();
        return view! {
            <div class="au-sankey">
                <WidgetTitle title=diagram.title.clone() />
                <EmptyState message="No positive flows to draw" />
                <ul class="au-sankey__notes" data-testid="sankey-notes">{notes}</ul>
            </div>
        }
        .into_any();
    }

    let flows = {
        let (diagram, prefix) = (diagram.clone(), gradient_prefix.clone());
        move || {
            let layout = placed.get();
            layout
                .flows
                .iter()
                .map(|flow| {
                    let (source, target) = (&diagram.nodes[flow.source], &diagram.nodes[flow.target]);
                    let link = flow.link;
                    let (from, to) = (flow.source, flow.target);
                    let label = diagram.links[link].3.clone();
                    let name = format!(
                        "{} → {}: {}{}",
                        source.label,
                        target.label,
                        format_number(flow.value),
                        label.as_deref().map(|l| format!(" ({l})")).unwrap_or_default()
                    );
                    let payload = json!({
                        "source": source.id, "target": target.id, "value": flow.value,
                        "sourceLabel": source.label, "targetLabel": target.label, "label": label,
                    });
                    let click = {
                        let payload = payload.clone();
                        move || emit.run((WidgetAction::LinkClick, payload.clone()))
                    };
                    let lit = move || match hover.get() {
                        None => None,
                        Some(Hover::Flow(other)) => Some(other == link),
                        Some(Hover::Node(node)) => Some(node == from || node == to),
                    };
                    let gradient = format!("{prefix}-{link}");
                    view! {
                        <linearGradient id=gradient.clone() gradientUnits="userSpaceOnUse"
                            x1=num(layout.nodes[from].x1) x2=num(layout.nodes[to].x0)>
                            <stop offset="0" style:stop-color=source.color.clone() />
                            <stop offset="1" style:stop-color=target.color.clone() />
                        </linearGradient>
                        <path class="au-sankey__flow" class:au-sankey__flow--lit=move || lit() == Some(true)
                            class:au-sankey__flow--dim=move || lit() == Some(false)
                            d=layout.band_path(flow) fill=format!("url(#{gradient})")
                            data-link=link.to_string() tabindex="0" role="button" aria-label=name
                            on:pointerenter=move |_| hover.set(Some(Hover::Flow(link)))
                            on:focus=move |_| hover.set(Some(Hover::Flow(link)))
                            on:blur=move |_| hover.set(None)
                            on:click={
                                let click = click.clone();
                                move |_| click()
                            }
                            on:keydown=move |event: KeyboardEvent| activate(&event, &click) />
                    }
                })
                .collect_view()
        }
    };

    let nodes = {
        let diagram = diagram.clone();
        move || {
            let layout = placed.get();
            let last = layout.columns.saturating_sub(1);
            layout
                .nodes
                .iter()
                .enumerate()
                .filter(|(_, placed)| placed.placed)
                .map(|(index, placed)| {
                    let node = &diagram.nodes[index];
                    let value = placed.value();
                    let name = format!("{}: {}", node.label, format_number(value));
                    let payload = json!({
                        "id": node.id, "label": node.label, "in": placed.value_in, "out": placed.value_out,
                    });
                    let click = move || emit.run((WidgetAction::NodeClick, payload.clone()));
                    let on_right = placed.column == last && last > 0;
                    let (label_x, anchor) =
                        if on_right { (placed.x0 - 6.0, "end") } else { (placed.x1 + 6.0, "start") };
                    let dim = move || match hover.get() {
                        Some(Hover::Node(other)) => other != index,
                        _ => false,
                    };
                    view! {
                        <g class="au-sankey__node" class:au-sankey__node--dim=dim>
                            <rect class="au-sankey__node-box" x=num(placed.x0) y=num(placed.y0)
                                width=num(placed.x1 - placed.x0) height=num((placed.y1 - placed.y0).max(1.5)) rx="2"
                                style:fill=node.color.clone() data-node=node.id.clone() tabindex="0" role="button"
                                aria-label=name on:pointerenter=move |_| hover.set(Some(Hover::Node(index)))
                                on:focus=move |_| hover.set(Some(Hover::Node(index)))
                                on:blur=move |_| hover.set(None)
                                on:click={
                                    let click = click.clone();
                                    move |_| click()
                                }
                                on:keydown=move |event: KeyboardEvent| activate(&event, &click) />
                            <text class="au-sankey__label" x=num(label_x) y=num((placed.y0 + placed.y1) / 2.0)
                                text-anchor=anchor dominant-baseline="middle" aria-hidden="true">
                                <tspan class="au-sankey__label-name">{short_label(&node.label, LABEL_CHARS)}</tspan>
                                <tspan class="au-sankey__label-value" dx="6">{format_number(value)}</tspan>
                            </text>
                        </g>
                    }
                })
                .collect_view()
        }
    };

    let tooltip = {
        let diagram = diagram.clone();
        move || {
            let layout = placed.get();
            let (width, height) = size.get();
            let (x, y, transform, title, detail, summary) = match hover.get()? {
                Hover::Node(index) => {
                    let (placed, node) = (layout.nodes.get(index)?, diagram.nodes.get(index)?);
                    let detail = match (placed.value_in > 0.0, placed.value_out > 0.0) {
                        (true, true) => format!(
                            "in {} · out {}",
                            format_number(placed.value_in),
                            format_number(placed.value_out)
                        ),
                        (true, false) => format!("receives {}", format_number(placed.value_in)),
                        _ => format!("sends {}", format_number(placed.value_out)),
                    };
                    // Beside the node, towards the middle of the diagram.
                    let on_right = placed.x0 > width / 2.0;
                    let (x, transform) = if on_right {
                        (placed.x0, "translate(calc(-100% - 8px), -50%)")
                    } else {
                        (placed.x1, "translate(8px, -50%)")
                    };
                    (
                        x,
                        (placed.y0 + placed.y1) / 2.0,
                        transform.to_owned(),
                        node.label.clone(),
                        detail,
                        node.summary.clone(),
                    )
                }
                Hover::Flow(link) => {
                    let flow = layout.flows.iter().find(|flow| flow.link == link)?;
                    let (from, to) = (&layout.nodes[flow.source], &layout.nodes[flow.target]);
                    let title = format!(
                        "{} → {}",
                        diagram.nodes[flow.source].label, diagram.nodes[flow.target].label
                    );
                    let (x, y) = (
                        (from.x1 + to.x0) / 2.0,
                        (flow.y_source + flow.y_target + flow.width) / 2.0,
                    );
                    let share = if from.value_out > 0.0 {
                        flow.value / from.value_out * 100.0
                    } else {
                        0.0
                    };
                    let detail = format!(
                        "{} · {}% of {}",
                        format_number(flow.value),
                        format_number(share.round()),
                        diagram.nodes[flow.source].label
                    );
                    (
                        x,
                        y,
                        tooltip_transform(x / width, y / height),
                        title,
                        detail,
                        diagram.links[link].3.clone(),
                    )
                }
            };
            Some(view! {
                <div class="au-sankey__tooltip" role="status" data-testid="sankey-tooltip"
                    style:left=format!("{:.2}%", x / width * 100.0) style:top=format!("{:.2}%", y / height * 100.0)
                    style:transform=transform>
                    <strong>{title}</strong>
                    <span>{detail}</span>
                    {summary.map(|text| view! { <span class="au-sankey__tooltip-note">{text}</span> })}
                </div>
            })
        }
    };

    let counts = placed.with_untracked(|layout| {
        let shown = layout.nodes.iter().filter(|node| node.placed).count();
        format!("{shown} nodes · {} flows", layout.flows.len())
    });
    let notes = (!notes.is_empty()).then(|| {
        let items = notes
            .into_iter()
            .map(|note| view! { <li>{note}</li> })
            .collect_view();
        view! { <ul class="au-sankey__notes" data-testid="sankey-notes">{items}</ul> }
    });
    let view_box = move || size.with(|(w, h)| format!("0 -2 {} {}", num(*w), num(*h)));
    let description = format!(
        "Sankey diagram{}: {counts}",
        diagram
            .title
            .as_deref()
            .map(|t| format!(" of {t}"))
            .unwrap_or_default()
    );

    view! {
        <div class="au-sankey">
            <div class="au-sankey__head">
                <WidgetTitle title=diagram.title.clone() />
                <span class="au-sankey__counts">{counts}</span>
            </div>
            <div class="au-sankey__plot" node_ref=node>
                <svg class="au-sankey__svg" viewBox=view_box role="group" aria-label=description
                    on:pointerleave=move |_| hover.set(None)>
                    <g class="au-sankey__flows">{flows}</g>
                    <g class="au-sankey__nodes">{nodes}</g>
                </svg>
                {tooltip}
            </div>
            {notes}
        </div>
    }
    .into_any()
}

/// Enter and Space act like a click on a focused node or flow.
fn activate(event: &KeyboardEvent, click: &impl Fn()) {
    if matches!(event.key().as_str(), "Enter" | " ") {
        event.prevent_default();
        click();
    }
}

/// A flow value: a number or numeric text; anything else is not a number (and not drawn).
fn number(value: &Value) -> f64 {
    match value {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(text) => text.trim().parse().unwrap_or(f64::NAN),
        _ => f64::NAN,
    }
}
