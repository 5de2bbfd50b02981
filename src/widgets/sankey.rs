//! `sankey` widget: a real sankey diagram. Nodes sit in columns, node heights and flow bands are
//! proportional to value (layout in `autoui_core::view::sankey`), bands are cubic Bezier shapes
//! shaded from source to target colour; hovering or focusing a node or flow highlights what it
//! touches, and clicking (or Enter) reports it as `NodeClick` / `LinkClick`.

use std::fmt::Write as _;
use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::chart::num;
use autoui_core::view::fields::{FieldError, Fields, Read, expected};
use autoui_core::view::markdown::escape_html;
use autoui_core::view::numeric::number_in;
use autoui_core::view::present::{format_number, safe_color, series_color};
use autoui_core::view::sankey::{LinkSpec, SankeyConfig, SankeyLayout, SankeyNote, layout};
use leptos::html::Div;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};

use crate::widgets::WidgetProps;
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::{short_label, tooltip_transform};
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, matching, parse};

/// Longest node label drawn beside its node; the tooltip shows it whole.
const LABEL_CHARS: usize = 26;

struct SankeyData {
    title: Option<String>,
    nodes: Vec<NodeData>,
    links: Vec<LinkData>,
}

impl SankeyData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(SankeyData {
            title: fields.text("title")?,
            nodes: fields.items("nodes", NodeData::read)?,
            links: fields.items("links", LinkData::read)?,
        })
    }
}

struct NodeData {
    id: Key,
    label: Option<String>,
    color: Option<String>,
    summary: Option<String>,
}

impl NodeData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(NodeData {
            id: Key::read(fields, "id")?,
            label: fields.text("label")?,
            color: fields.text("color")?,
            summary: fields.text("summary")?,
        })
    }
}

struct LinkData {
    source: Key,
    target: Key,
    value: f64,
    label: Option<String>,
}

impl LinkData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(LinkData {
            source: Key::read(fields, "source")?,
            target: Key::read(fields, "target")?,
            // Anything but a number or numeric text is not a number, and the flow is not drawn.
            value: number_in(fields.required_value("value")?).unwrap_or(f64::NAN),
            label: fields.text("label")?,
        })
    }
}

/// A node id: text, or a number read as text.
struct Key(String);

impl Key {
    fn read(fields: Fields<'_>, key: &str) -> Read<Key> {
        match fields.required_value(key)? {
            Value::String(text) => Ok(Key(text.clone())),
            Value::Number(number) => Ok(Key(number.to_string())),
            other => Err(FieldError::at(key, expected("text or a number", other))),
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
        let data = parse(value, SankeyData::read)?;
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
                    link.value,
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

    // Flows and nodes are markup (one string each per layout, every value from the data escaped);
    // the handlers on the SVG find the node or flow an event is about (`hovered`), and the effect below
    // lights and dims them by their classes, so hovering or focusing one never rewrites the markup.
    let flows = {
        let (diagram, prefix) = (diagram.clone(), gradient_prefix.clone());
        move || placed.with(|layout| flows_markup(&diagram, layout, &prefix))
    };
    let nodes = {
        let diagram = diagram.clone();
        move || placed.with(|layout| nodes_markup(&diagram, layout))
    };
    let svg = NodeRef::<leptos::svg::Svg>::new();
    Effect::new(move || {
        let hover = hover.get();
        placed.track();
        if let Some(svg) = svg.get() {
            light(&svg, hover);
        }
    });
    let click = {
        let diagram = diagram.clone();
        move |on: Hover| {
            let payload = placed.with_untracked(|layout| match on {
                Hover::Node(index) => node_payload(&diagram, layout, index).map(|payload| (WidgetAction::NodeClick, payload)),
                Hover::Flow(link) => flow_payload(&diagram, layout, link).map(|payload| (WidgetAction::LinkClick, payload)),
            });
            if let Some(payload) = payload {
                emit.run(payload);
            }
        }
    };
    let on_key = {
        let click = click.clone();
        move |event: KeyboardEvent| {
            if let Some(on) = hovered(&event).filter(|_| matches!(event.key().as_str(), "Enter" | " ")) {
                event.prevent_default();
                click(on);
            }
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
                <svg class="au-sankey__svg" viewBox=view_box role="group" aria-label=description node_ref=svg
                    on:pointerleave=move |_| hover.set(None)
                    on:pointerenter:capture=move |event| if let Some(on) = hovered(&event) { hover.set(Some(on)) }
                    on:focus:capture=move |event| if let Some(on) = hovered(&event) { hover.set(Some(on)) }
                    on:blur:capture=move |event| if hovered(&event).is_some() { hover.set(None) }
                    on:click=move |event| if let Some(on) = hovered(&event) { click(on) }
                    on:keydown=on_key>
                    <g class="au-sankey__flows" inner_html=flows></g>
                    <g class="au-sankey__nodes" inner_html=nodes></g>
                </svg>
                {tooltip}
            </div>
            {notes}
        </div>
    }
    .into_any()
}

/// The flows as markup: each band with its gradient from the source's colour to the target's.
/// A band carries its link (`data-link`) and its two nodes (`data-from`, `data-to`) for [`light`].
fn flows_markup(diagram: &Diagram, layout: &SankeyLayout, prefix: &str) -> String {
    let mut out = String::new();
    for flow in &layout.flows {
        let (from, to, link) = (flow.source, flow.target, flow.link);
        let (source, target) = (&diagram.nodes[from], &diagram.nodes[to]);
        let label = diagram.links[link].3.as_deref();
        let name = format!(
            "{} \u{2192} {}: {}{}",
            source.label,
            target.label,
            format_number(flow.value),
            label.map(|l| format!(" ({l})")).unwrap_or_default()
        );
        let gradient = escape_html(&format!("{prefix}-{link}"));
        let _ = write!(
            out,
            "<linearGradient id=\"{gradient}\" gradientUnits=\"userSpaceOnUse\" x1=\"{}\" x2=\"{}\">\
             <stop offset=\"0\" style=\"stop-color:{}\"></stop><stop offset=\"1\" style=\"stop-color:{}\"></stop></linearGradient>\
             <path class=\"au-sankey__flow\" d=\"{}\" fill=\"url(#{gradient})\" data-link=\"{link}\" data-from=\"{from}\" \
             data-to=\"{to}\" tabindex=\"0\" role=\"button\" aria-label=\"{}\"></path>",
            num(layout.nodes[from].x1),
            num(layout.nodes[to].x0),
            escape_html(&source.color),
            escape_html(&target.color),
            escape_html(&layout.band_path(flow)),
            escape_html(&name)
        );
    }
    out
}

/// The placed nodes as markup: a box (`data-index`, its place in the diagram's nodes) and its label,
/// on the right of the box but in the last column.
fn nodes_markup(diagram: &Diagram, layout: &SankeyLayout) -> String {
    let mut out = String::new();
    let last = layout.columns.saturating_sub(1);
    for (index, placed) in layout.nodes.iter().enumerate().filter(|(_, placed)| placed.placed) {
        let node = &diagram.nodes[index];
        let value = format_number(placed.value());
        let on_right = placed.column == last && last > 0;
        let (label_x, anchor) = if on_right { (placed.x0 - 6.0, "end") } else { (placed.x1 + 6.0, "start") };
        let _ = write!(
            out,
            "<g class=\"au-sankey__node\"><rect class=\"au-sankey__node-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             rx=\"2\" style=\"fill:{}\" data-node=\"{}\" data-index=\"{index}\" tabindex=\"0\" role=\"button\" aria-label=\"{}\"></rect>\
             <text class=\"au-sankey__label\" x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" dominant-baseline=\"middle\" aria-hidden=\"true\">\
             <tspan class=\"au-sankey__label-name\">{}</tspan><tspan class=\"au-sankey__label-value\" dx=\"6\">{value}</tspan></text></g>",
            num(placed.x0),
            num(placed.y0),
            num(placed.x1 - placed.x0),
            num((placed.y1 - placed.y0).max(1.5)),
            escape_html(&node.color),
            escape_html(&node.id),
            escape_html(&format!("{}: {value}", node.label)),
            num(label_x),
            num((placed.y0 + placed.y1) / 2.0),
            escape_html(&short_label(&node.label, LABEL_CHARS))
        );
    }
    out
}

/// The node or flow an event happened on, if any.
fn hovered(event: &web_sys::Event) -> Option<Hover> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    let number = |name: &str| target.get_attribute(name)?.parse().ok();
    number("data-link").map(Hover::Flow).or_else(|| number("data-index").map(Hover::Node))
}

/// Lights the flows `hover` is about (a flow, or every flow of a node) and dims the others, and dims
/// the other nodes when it is on a node; with nothing hovered, nothing is lit or dimmed.
fn light(svg: &Element, hover: Option<Hover>) {
    let number = |element: &Element, name: &str| element.get_attribute(name).and_then(|value| value.parse::<usize>().ok());
    for flow in matching::<Element>(svg, "[data-link]") {
        let lit = hover.map(|hover| match hover {
            Hover::Flow(link) => number(&flow, "data-link") == Some(link),
            Hover::Node(node) => number(&flow, "data-from") == Some(node) || number(&flow, "data-to") == Some(node),
        });
        let classes = flow.class_list();
        let _ = classes.toggle_with_force("au-sankey__flow--lit", lit == Some(true));
        let _ = classes.toggle_with_force("au-sankey__flow--dim", lit == Some(false));
    }
    for node in matching::<Element>(svg, "[data-index]") {
        let dim = matches!(hover, Some(Hover::Node(index)) if number(&node, "data-index") != Some(index));
        if let Some(group) = node.parent_element() {
            let _ = group.class_list().toggle_with_force("au-sankey__node--dim", dim);
        }
    }
}

/// What a node click reports.
fn node_payload(diagram: &Diagram, layout: &SankeyLayout, index: usize) -> Option<Value> {
    let (node, placed) = (diagram.nodes.get(index)?, layout.nodes.get(index)?);
    Some(json!({ "id": node.id, "label": node.label, "in": placed.value_in, "out": placed.value_out }))
}

/// What a flow click reports.
fn flow_payload(diagram: &Diagram, layout: &SankeyLayout, link: usize) -> Option<Value> {
    let flow = layout.flows.iter().find(|flow| flow.link == link)?;
    let (source, target) = (diagram.nodes.get(flow.source)?, diagram.nodes.get(flow.target)?);
    Some(json!({
        "source": source.id, "target": target.id, "value": flow.value,
        "sourceLabel": source.label, "targetLabel": target.label, "label": diagram.links.get(link)?.3,
    }))
}
