//! `hemicycle` widget: a parliament drawn as SVG, seats as dots on concentric half rings, each group
//! a contiguous wedge from left to right in the data's order (layout in
//! `autoui_core::view::hemicycle`), vacant seats grey, the total and the majority line; a legend
//! with seat counts. Hovering a group shows a tooltip; clicking a group or its legend entry reports
//! `GroupClick`.

use std::fmt::Write as _;
use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::sort::sort_by_key;
use autoui_core::view::chart::num;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::hemicycle::{Chamber, chamber, majority};
use autoui_core::view::markdown::escape_html;
use autoui_core::view::numeric::number_in;
use autoui_core::view::present::{format_number, safe_color, series_color};
use leptos::html::Div;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

use crate::widgets::WidgetProps;
use crate::widgets::chart_rich::tooltip_transform;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, matching, parse};

/// Room above the chamber for the majority label, in layout units.
const HEADROOM: f64 = 14.0;
/// More seats than any assembly has; beyond it the data is surely wrong, and drawing would stall.
const MAX_SEATS: u32 = 5_000;

struct HemicycleData {
    title: Option<String>,
    groups: Vec<GroupData>,
    total_seats: Option<Value>,
    rows: Option<Value>,
}

impl HemicycleData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(HemicycleData {
            title: fields.text("title")?,
            groups: fields.items("groups", GroupData::read)?,
            total_seats: fields.value("totalSeats").cloned(),
            rows: fields.value("rows").cloned(),
        })
    }
}

struct GroupData {
    id: Option<Value>,
    label: Option<String>,
    seats: Value,
    color: Option<String>,
}

impl GroupData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(GroupData {
            id: fields.value("id").cloned(),
            label: fields.text("label")?,
            seats: fields.required_value("seats")?.clone(),
            color: fields.text("color")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Group {
    id: String,
    label: String,
    seats: u32,
    color: String,
}

/// The parliament ready to draw.
#[derive(Clone, Debug, PartialEq)]
struct Parliament {
    title: Option<String>,
    groups: Vec<Group>,
    total: u32,
    chamber: Chamber,
    notes: Vec<String>,
}

impl Parliament {
    fn read(value: &Value) -> Result<Parliament, String> {
        let data = parse(value, HemicycleData::read)?;
        let mut notes = Vec::new();
        let groups: Vec<Group> = data
            .groups
            .into_iter()
            .enumerate()
            .map(|(index, group)| {
                let id = match group.id {
                    Some(Value::String(id)) if !id.trim().is_empty() => id,
                    Some(Value::Number(id)) => id.to_string(),
                    _ => group
                        .label
                        .clone()
                        .unwrap_or_else(|| format!("group {}", index + 1)),
                };
                let label = group
                    .label
                    .filter(|l| !l.trim().is_empty())
                    .unwrap_or_else(|| id.clone());
                let seats = match count(&group.seats) {
                    Some(seats) => seats,
                    None => {
                        notes.push(format!(
                            "{label}: seats {} is not a seat count; counted as 0",
                            group.seats
                        ));
                        0
                    }
                };
                let color = group
                    .color
                    .as_deref()
                    .and_then(safe_color)
                    .unwrap_or_else(|| series_color(index));
                Group {
                    id,
                    label,
                    seats,
                    color,
                }
            })
            .collect();
        let held: u32 = groups.iter().map(|g| g.seats).fold(0, u32::saturating_add);
        let asked = data.total_seats.as_ref().and_then(count);
        let total = match asked {
            Some(total) if total < held => {
                notes.push(format!(
                    "the groups hold {held} seats, more than the {total} given as the total"
                ));
                held
            }
            Some(total) => total,
            None => held,
        };
        if total > MAX_SEATS {
            return Err(format!(
                "a hemicycle draws at most {} seats; this one has {}",
                format_number(f64::from(MAX_SEATS)),
                format_number(f64::from(total))
            ));
        }
        let rows = data
            .rows
            .as_ref()
            .and_then(count)
            .map(|rows| rows.clamp(1, 12) as usize);
        let chamber = chamber(
            &groups.iter().map(|g| g.seats).collect::<Vec<_>>(),
            total,
            rows,
        );
        Ok(Parliament {
            title: data.title,
            groups,
            total,
            chamber,
            notes,
        })
    }
}

#[component]
pub fn Hemicycle(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let parliament = Memo::new(move |_| data.with(|value| Parliament::read(value).map(Arc::new)));
    let emit = props.emit;
    move || match parliament.get() {
        Err(message) => view! { <WidgetError message /> }.into_any(),
        Ok(parliament) if parliament.total == 0 => {
            view! { <EmptyState message="No seats to show yet" /> }.into_any()
        }
        Ok(parliament) => view! { <ChamberView parliament emit /> }.into_any(),
    }
}

/// The seat centres of one group (`None`: vacant seats), drawn as one `<g>`.
type SeatRun = (Option<usize>, Vec<(f64, f64)>);

#[component]
fn ChamberView(
    parliament: Arc<Parliament>,
    emit: Callback<(WidgetAction, Value)>,
) -> impl IntoView {
    let hover = RwSignal::new(None::<usize>);
    let chamber = &parliament.chamber;
    let total = parliament.total;
    let held: u32 = parliament.groups.iter().map(|g| g.seats).sum();
    let vacant = total - held.min(total);
    let threshold = majority(total);
    let click = {
        let parliament = parliament.clone();
        move |index: usize| {
            if let Some(group) = parliament.groups.get(index) {
                emit.run((
                    WidgetAction::GroupClick,
                    json!({ "id": group.id, "label": group.label, "seats": group.seats }),
                ));
            }
        }
    };

    let mut runs: Vec<SeatRun> = Vec::new();
    let mut seats = chamber.seats.clone();
    sort_by_key(&mut seats, |seat| seat.group.unwrap_or(usize::MAX));
    for seat in seats {
        match runs.last_mut() {
            Some((group, points)) if *group == seat.group => points.push((seat.x, seat.y)),
            _ => runs.push((seat.group, vec![(seat.x, seat.y)])),
        }
    }
    let radius = num(chamber.seat_radius);
    let centroids: Arc<Vec<(f64, f64)>> = Arc::new(
        (0..parliament.groups.len())
            .map(|index| {
                runs.iter().find(|(group, _)| *group == Some(index)).map_or(
                    (0.0, 0.0),
                    |(_, points)| {
                        let n = points.len() as f64;
                        (
                            points.iter().map(|p| p.0).sum::<f64>() / n,
                            points.iter().map(|p| p.1).sum::<f64>() / n,
                        )
                    },
                )
            })
            .collect(),
    );
    let seats = seats_markup(runs, &parliament.groups, &radius);

    let (cx, cy) = chamber.centre;
    let top = cy - chamber.outer_radius - chamber.seat_radius - 3.0;
    let inner = chamber.inner_radius - chamber.seat_radius - 3.0;
    let set_hover = move |group: Option<usize>| {
        if hover.get_untracked() != group {
            hover.set(group);
        }
    };
    let on_click = {
        let click = click.clone();
        move |event: web_sys::MouseEvent| {
            if let Some(group) = marked(&event, "data-group") {
                click(group);
            }
        }
    };

    let tooltip = {
        let (parliament, centroids) = (parliament.clone(), centroids.clone());
        let (width, height) = (chamber.width, chamber.height + HEADROOM);
        move || {
            let index = hover.get()?;
            let group = parliament.groups.get(index)?;
            let (x, y) = centroids.get(index).copied()?;
            let share = f64::from(group.seats) / f64::from(total.max(1)) * 100.0;
            Some(view! {
                <div class="au-hemicycle__tooltip" role="status" data-testid="hemicycle-tooltip"
                    style:left=format!("{:.2}%", x / width * 100.0)
                    style:top=format!("{:.2}%", (y + HEADROOM) / height * 100.0)
                    style:transform=tooltip_transform(x / width, (y + HEADROOM) / height)>
                    <strong>{group.label.clone()}</strong>
                    <span>{format!("{} seats · {}%", format_number(f64::from(group.seats)), format_number((share * 10.0).round() / 10.0))}</span>
                </div>
            })
        }
    };

    let legend = legend_markup(&parliament.groups, vacant);
    let on_legend_click = move |event: web_sys::MouseEvent| {
        if let Some(group) = marked(&event, "data-legend") {
            click(group);
        }
    };
    let root = NodeRef::<Div>::new();
    // Hover and focus change classes, never the markup, so the focused button stays focused.
    Effect::new(move || {
        let hover = hover.get();
        if let Some(root) = root.get() {
            light(&root, hover);
        }
    });
    let summary = parliament
        .groups
        .iter()
        .map(|g| format!("{} {}", g.label, g.seats))
        .collect::<Vec<_>>()
        .join(", ");
    let description = format!("Hemicycle of {total} seats, majority {threshold}: {summary}");
    let notes = (!parliament.notes.is_empty()).then(|| {
        let items = parliament
            .notes
            .iter()
            .map(|note| view! { <li>{note.clone()}</li> })
            .collect_view();
        view! { <ul class="au-hemicycle__notes">{items}</ul> }
    });

    view! {
        <div class="au-hemicycle" node_ref=root>
            <WidgetTitle title=parliament.title.clone() />
            <div class="au-hemicycle__plot">
                <svg class="au-hemicycle__svg" role="img" aria-label=description
                    viewBox=format!("0 {} {} {}", num(-HEADROOM), num(chamber.width), num(chamber.height + HEADROOM))
                    on:pointerover=move |event| set_hover(marked(&event, "data-group"))
                    on:pointerleave=move |_| set_hover(None) on:click=on_click>
                    <g inner_html=seats></g>
                    <line class="au-hemicycle__majority" x1=num(cx) x2=num(cx) y1=num(top) y2=num(cy - inner) />
                    <text class="au-hemicycle__majority-label" x=num(cx) y=num(top - 4.0) text-anchor="middle">
                        {format!("majority {}", format_number(f64::from(threshold)))}
                    </text>
                    <text class="au-hemicycle__total" x=num(cx) y=num(cy - 11.0) text-anchor="middle">
                        {format_number(f64::from(total))}
                    </text>
                    <text class="au-hemicycle__total-label" x=num(cx) y=num(cy) text-anchor="middle">"seats"</text>
                </svg>
                {tooltip}
            </div>
            <ul class="au-hemicycle__legend" aria-label="Groups" inner_html=legend on:click=on_legend_click
                on:pointerover=move |event| set_hover(marked(&event, "data-legend")) on:pointerleave=move |_| set_hover(None)
                on:focusin=move |event| set_hover(marked(&event, "data-legend")) on:focusout=move |_| set_hover(None)>
            </ul>
            {notes}
        </div>
    }
}

/// One `<g>` per group (its seats are contiguous), so hover touches a dozen nodes, not every seat;
/// as markup the browser parses in one call: hundreds of circles built one by one were the
/// gallery's largest build cost. Colours are `safe_color`'s or the palette's, escaped all the same.
fn seats_markup(runs: Vec<SeatRun>, groups: &[Group], radius: &str) -> String {
    let mut out = String::new();
    for (group, points) in runs {
        match group {
            Some(index) => {
                let color = groups.get(index).map_or(String::new(), |g| escape_html(&g.color));
                let _ = write!(out, r#"<g class="au-hemicycle__group" style="fill: {color}" data-group="{index}">"#);
            }
            None => out.push_str(r#"<g class="au-hemicycle__group au-hemicycle__group--vacant" data-group="vacant">"#),
        }
        for (x, y) in points {
            let _ = write!(out, r#"<circle cx="{}" cy="{}" r="{radius}"></circle>"#, num(x), num(y));
        }
        out.push_str("</g>");
    }
    out
}

/// A button per group (its colour, its label, its seats, read as "label: N seats"; the visible
/// text is the button's name), then the vacant seats.
fn legend_markup(groups: &[Group], vacant: u32) -> String {
    let mut out = String::new();
    for (index, group) in groups.iter().enumerate() {
        let label = escape_html(&group.label);
        let _ = write!(
            out,
            r#"<li><button type="button" class="au-hemicycle__legend-item" title="{label}" data-legend="{index}"><span class="au-hemicycle__swatch" style="background: {}"></span><span class="au-hemicycle__legend-label">{label}</span><span class="au-visually-hidden">: </span><span class="au-hemicycle__legend-seats">{}</span><span class="au-visually-hidden"> seats</span></button></li>"#,
            escape_html(&group.color),
            format_number(f64::from(group.seats))
        );
    }
    if vacant > 0 {
        let _ = write!(
            out,
            r#"<li class="au-hemicycle__legend-item au-hemicycle__legend-item--vacant"><span class="au-hemicycle__swatch"></span><span class="au-hemicycle__legend-label">Vacant</span><span class="au-hemicycle__legend-seats">{}</span></li>"#,
            format_number(f64::from(vacant))
        );
    }
    out
}

/// The group the event happened in: the `name` attribute (`data-group` on the seats, `data-legend`
/// on the legend) of the closest element that has it.
fn marked(event: &Event, name: &str) -> Option<usize> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    target.closest(&format!("[{name}]")).ok().flatten()?.get_attribute(name)?.parse().ok()
}

/// Dims every group but the hovered one and marks its legend entry; with nothing hovered, nothing.
fn light(root: &Element, hover: Option<usize>) {
    let index = |element: &Element, name: &str| element.get_attribute(name).and_then(|value| value.parse::<usize>().ok());
    for group in matching::<Element>(root, ".au-hemicycle__group") {
        let dim = hover.is_some_and(|hover| index(&group, "data-group") != Some(hover));
        let _ = group.class_list().toggle_with_force("au-hemicycle__group--dim", dim);
    }
    for item in matching::<Element>(root, "[data-legend]") {
        let active = hover.is_some() && index(&item, "data-legend") == hover;
        let _ = item.class_list().toggle_with_force("au-hemicycle__legend-item--active", active);
    }
}

/// A seat count: a non-negative integer, a float rounded, or numeric text.
fn count(value: &Value) -> Option<u32> {
    let number = number_in(value)?;
    (number >= 0.0).then(|| number.round().min(f64::from(u32::MAX)) as u32)
}
