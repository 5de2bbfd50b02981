//! The frame around one widget on the canvas: grid placement, a header to drag it by, a corner to
//! resize it, keyboard moves (arrows) and resizes (Shift+arrows), and a toolbar (a bound widget's
//! source, duplicate, export, remove) with the provenance badge. Every change is an `Op` applied by
//! the user. The source editor comes with the engine chunk (`ui::source_editor`). A widget placed at
//! its kind's default size is fitted, when first shown, to show its content whole (up to
//! [`FIT_ROWS`]), and one sized by its content (a short table, a few fields) to leave no empty rows.

use std::sync::Arc;

use autoui_core::binding::source::Binding;
use autoui_core::canvas::event::WidgetAction;
use autoui_core::canvas::model::Layout;
use autoui_core::canvas::op::Op;
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{KeyboardEvent, PointerEvent};

use crate::adapters::clock::{BrowserRandom, local_time};
use crate::deferred::Status;
use crate::state::attachments::{PointedWidget, use_attachments};
use crate::state::canvas::{BlockCell, CanvasCtx, FrameState, use_canvas};
use crate::state::engine::use_engine;
use crate::state::notices::{NoticesCtx, use_notices};
use crate::state::refresh::use_refresh;
use crate::ui::canvas::placement;
use crate::ui::chat::use_chat;
use crate::ui::export::ExportMenu;
use crate::ui::icons::{Icon, IconSvg};
use crate::ui::events::use_widget_events;
use crate::ui::views::{render_widget, views};
use crate::widgets::WidgetProps;
use crate::widgets::common::ContentResized;

/// Pixel size of one grid step, measured from the canvas grid when a drag starts.
#[derive(Clone, Copy, Debug)]
struct GridStep {
    x: f64,
    y: f64,
}

/// The computed style and width of the canvas grid that holds `from`.
fn grid_of(from: &web_sys::Element) -> Option<(web_sys::CssStyleDeclaration, f64)> {
    let grid = from.closest(".au-canvas__grid").ok()??;
    let style = window().get_computed_style(&grid).ok()??;
    Some((style, grid.get_bounding_client_rect().width()))
}

/// A computed length in pixels; `None` for anything else (`auto`).
fn pixels(style: &web_sys::CssStyleDeclaration, property: &str) -> Option<f64> {
    style.get_property_value(property).ok()?.trim().strip_suffix("px")?.parse().ok()
}

/// Whether the canvas is too narrow for its 12 columns and shows its frames one after another instead
/// (app.css sets `--au-reflow` on the grid): the layout a drag or a fit would edit is not on screen.
fn reflowed(grid: &web_sys::CssStyleDeclaration) -> bool {
    grid.get_property_value("--au-reflow").is_ok_and(|value| !value.trim().is_empty())
}

fn grid_step(from: &web_sys::Element) -> GridStep {
    let grid = grid_of(from);
    let px = |name: &str, fallback: f64| grid.as_ref().and_then(|(style, _)| pixels(style, name)).unwrap_or(fallback);
    let width = grid.as_ref().map_or(1200.0, |&(_, width)| width);
    let gap = px("column-gap", 12.0);
    let row = px("grid-auto-rows", 56.0);
    let column = (width - gap * 11.0) / 12.0;
    GridStep { x: column + gap, y: row + gap }
}

/// What a pointer gesture on the frame is doing.
#[derive(Clone, Copy, Debug)]
enum Gesture {
    Move { start: Layout, x: f64, y: f64, step: GridStep },
    Resize { start: Layout, x: f64, y: f64, step: GridStep },
}

fn shifted(start: u32, delta_px: f64, step: f64) -> u32 {
    (f64::from(start) + (delta_px / step).round()).max(0.0) as u32
}

fn sized(start: u32, delta_px: f64, step: f64) -> u32 {
    (f64::from(start) + (delta_px / step).round()).max(1.0) as u32
}

/// A short title from the data (its `title`, `label` or `name`), for the header and labels.
pub fn block_title(data: &Value) -> Option<String> {
    ["title", "label", "name"]
        .iter()
        .find_map(|key| data.get(*key).and_then(Value::as_str))
        .map(str::trim)
        .filter(|title| !title.is_empty())
        .map(str::to_owned)
}

/// Who placed a widget ("agent", "you" or "another agent") and, for the agent, from which server's
/// tool ("server/tool"): the badge's second part gives way first where the header is short of room.
fn provenance_parts(origin: &Origin) -> (&'static str, Option<String>) {
    match origin {
        Origin::Agent { source: Some(source), .. } => ("agent", Some(format!("{}/{}", source.server, source.tool))),
        Origin::Agent { source: None, .. } => ("agent", None),
        Origin::User => ("you", None),
        Origin::ExternalAgent => ("another agent", None),
    }
}

/// How tall (in grid rows) a frame may grow to show its content when first shown; past that it scrolls.
const FIT_ROWS: u32 = 8;

/// Once the widget's code has come and the browser has laid the widget out, fits block `id` to its
/// content, unless somebody has sized it meanwhile: as many rows taller as the content overflows the
/// frame's body, up to [`FIT_ROWS`] rows in all, and for a kind sized by its content as many rows
/// shorter as it leaves empty. A canvas too narrow for its 12 columns shows another layout than the
/// one a fit edits: the fit waits until the canvas has its columns again (a wider window, the chat
/// closed).
fn fit_when_shown(canvas: CanvasCtx, fit: Fit) {
    let waiting = fit.id.clone();
    let columns = columns_shown(fit.body, move || canvas.awaits_fit(&waiting));
    Effect::new(move |_| {
        if !matches!(views().status(), Status::Ready(_)) || !columns.get() {
            return;
        }
        let fit = fit.clone();
        // In the next frame, once the widget is in the page: reading its height lays out what that
        // frame would lay out anyway.
        request_animation_frame(move || {
            if columns.get_untracked() && canvas.end_fit(&fit.id) {
                fit.apply(canvas);
            }
        });
    });
}

type GridObserver = (web_sys::ResizeObserver, Closure<dyn FnMut()>);

/// Whether the canvas grid holding `body` shows its 12 columns, not the reflowed layout of a narrow
/// canvas; followed as the grid is resized while `wanted` (the block still waits for its fit).
fn columns_shown(body: NodeRef<leptos::html::Div>, wanted: impl Fn() -> bool + Clone + 'static) -> ReadSignal<bool> {
    let (shown, set_shown) = signal(false);
    let observer = StoredValue::new_local(None::<GridObserver>);
    Effect::new(move |_| {
        let Some(grid) = body.get().and_then(|body| body.closest(".au-canvas__grid").ok().flatten()) else { return };
        if observer.with_value(Option::is_some) {
            return;
        }
        let observed = grid.clone();
        let wanted = wanted.clone();
        let callback = Closure::<dyn FnMut()>::new(move || {
            if !wanted() {
                return;
            }
            let columns = window().get_computed_style(&observed).ok().flatten().is_some_and(|style| !reflowed(&style));
            if shown.get_untracked() != columns {
                set_shown.set(columns);
            }
        });
        if let Ok(resize) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            resize.observe(&grid);
            observer.set_value(Some((resize, callback)));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|slot| {
            if let Some((resize, _callback)) = slot.take() {
                resize.disconnect();
            }
        });
    });
    shown
}

/// For a widget whose height comes later ([`ContentResized`]): each time it says its content changed
/// size, the frame grows to show it if it still waits for its fit; the wait ends with the first fit
/// that changes something, or when somebody sizes the block.
fn fit_when_resized(canvas: CanvasCtx, fit: Fit) -> ContentResized {
    ContentResized(Callback::new(move |()| {
        let fit = fit.clone();
        request_animation_frame(move || {
            if canvas.awaits_fit(&fit.id) && fit.apply(canvas) {
                canvas.end_fit(&fit.id);
            }
        });
    }))
}

/// A block to fit and what its fit reads: its kind, its layout and the frame's body.
#[derive(Clone)]
struct Fit {
    id: BlockId,
    kind: WidgetKind,
    frame: ArcRwSignal<FrameState>,
    body: NodeRef<leptos::html::Div>,
}

impl Fit {
    /// Fits the block to the body's content now; whether that changed its size.
    fn apply(&self, canvas: CanvasCtx) -> bool {
        let Some(body) = self.body.get_untracked() else { return false };
        let h = self.frame.with_untracked(|frame| frame.layout.h);
        let Some(rows) = rows_to_show(&body, h, self.kind.sized_by_content()) else { return false };
        apply(canvas, Op::Fit { id: self.id.clone(), h: rows });
        true
    }
}

/// The rows a frame `h` rows tall needs for `body`'s content to show whole (at most [`FIT_ROWS`]),
/// if that is more; for a kind sized by its content, also if it is fewer (at least one).
fn rows_to_show(body: &web_sys::HtmlElement, h: u32, sized_by_content: bool) -> Option<u32> {
    let (grid, _) = grid_of(body)?;
    if reflowed(&grid) {
        return None;
    }
    let pitch = pixels(&grid, "grid-auto-rows")? + pixels(&grid, "row-gap").unwrap_or(0.0);
    let needed = if sized_by_content { content_height(body) } else { body.scroll_height() };
    let spare = body.client_height() - needed;
    if spare < -1 {
        let more = (f64::from(-spare) / pitch).ceil() as u32;
        let rows = (h + more).min(FIT_ROWS.max(h));
        return (rows > h).then_some(rows);
    }
    let fewer = (f64::from(spare) / pitch).floor() as u32;
    let rows = h.saturating_sub(fewer).max(1);
    (sized_by_content && rows < h).then_some(rows)
}

/// The height `body` takes when it is as tall as its content rather than the rest of its frame (let
/// out of the frame's flex for this one read; a table's scroller then holds every row).
fn content_height(body: &web_sys::HtmlElement) -> i32 {
    let style = body.style();
    let _ = style.set_property("flex", "none");
    let _ = style.set_property("height", "auto");
    let height = body.offset_height();
    let _ = style.remove_property("flex");
    let _ = style.remove_property("height");
    height
}

/// Removes block `id` at the person's request (its Remove button, or Delete on its frame) and says
/// how to bring it back; the frame hands the focus on as it goes (`hand_focus_on`).
fn remove_by_hand(canvas: CanvasCtx, notices: NoticesCtx, id: &BlockId) {
    let name = canvas.with_store(|store| {
        store.canvas().get(id).map(|block| match block_title(&block.data) {
            Some(title) => format!("\u{201c}{title}\u{201d}"),
            None => format!("the {} widget", block.kind),
        })
    });
    let Some(name) = name else { return };
    if let Err(error) = canvas.apply(Op::Remove { id: id.clone() }, Origin::User) {
        notices.error(format!("Could not remove {name}: {error}"));
        return;
    }
    notices.info(format!("Removed {name}. Undo (Ctrl+Z) brings it back."));
}

/// Gives the keyboard focus, which was in a frame being removed, to the frame of `successor` (the
/// widget taking its place in reading order) or, on a canvas left empty, to Undo, once the removed
/// frame has left the page: not to the page's start, where a keyboard user would have to find their
/// way back.
fn hand_focus_on(successor: Option<BlockId>) {
    request_animation_frame(move || {
        let document = document();
        let target = match successor {
            Some(next) => document
                .query_selector_all(".au-frame[data-widget-id]")
                .ok()
                .and_then(|frames| {
                    (0..frames.length())
                        .filter_map(|index| frames.item(index)?.dyn_into::<web_sys::Element>().ok())
                        .find(|frame| frame.get_attribute("data-widget-id").as_deref() == Some(next.as_str()))
                }),
            None => document.query_selector(".au-canvas-toolbar [data-testid=undo]").ok().flatten(),
        };
        if let Some(target) = target.and_then(|target| target.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = target.focus();
        }
    });
}

fn apply(canvas: CanvasCtx, op: Op) {
    if let Err(error) = canvas.apply(op, Origin::User) {
        leptos::logging::warn!("canvas change refused: {error}");
    }
}

#[component]
pub fn WidgetFrame(cell: BlockCell, #[prop(into)] read_only: Signal<bool>) -> impl IntoView {
    let canvas = use_canvas();
    let notices = use_notices();
    let events = use_widget_events();
    let id = cell.id.clone();
    let kind = cell.kind;
    let frame = cell.frame.clone();
    let data = cell.data.clone();
    let preview = RwSignal::new(None::<Layout>);
    let gesture = StoredValue::new(None::<Gesture>);
    let body = NodeRef::<leptos::html::Div>::new();
    let element = NodeRef::<leptos::html::Article>::new();
    // Removed while it holds the focus, by the person, the agent, another agent or an undo alike,
    // the frame hands the focus on.
    {
        let gone = id.clone();
        let token = canvas.before_removal(id.clone(), move || {
            let focused = document().active_element();
            if element.get_untracked().is_some_and(|frame| frame.contains(focused.as_ref().map(|f| f.unchecked_ref()))) {
                hand_focus_on(canvas.taking_place_of(&gone));
            }
        });
        let id = id.clone();
        on_cleanup(move || canvas.forget_before_removal(&id, token));
    }
    if canvas.awaits_fit(&id) && !read_only.get_untracked() {
        let fit = Fit { id: id.clone(), kind, frame: frame.clone(), body };
        // An MCP Apps view says its height once loaded, after its frame first shows it.
        if kind == WidgetKind::McpApp {
            provide_context(fit_when_resized(canvas, fit));
        } else {
            fit_when_shown(canvas, fit);
        }
    }

    let layout = {
        let frame = frame.clone();
        move || preview.get().unwrap_or_else(|| frame.with(|f| f.layout))
    };
    let placement = move || placement(layout());
    let custom_style = {
        let frame = frame.clone();
        move || frame.with(|f| f.style.0.iter().map(|(k, v)| format!("{k}: {v};")).collect::<String>())
    };
    let title = {
        let data = data.clone();
        move || data.with(|d| block_title(d))
    };
    let provenance = {
        let frame = frame.clone();
        move || frame.with(|f| provenance_parts(&f.provenance))
    };
    // Each widget's content is a landmark, named by its title and place on the canvas, so two widgets
    // of one kind (a duplicate among them) can be told apart.
    let content_label = {
        let title = title.clone();
        let id = id.clone();
        move || {
            let place = canvas.reading_position(&id).map_or(0, |place| place + 1);
            match title() {
                Some(title) => format!("{kind} content: {title}, widget {place}"),
                None => format!("{kind} content, widget {place}"),
            }
        }
    };
    let binding = {
        let frame = frame.clone();
        Memo::new(move |_| frame.with(|f| f.binding.clone()))
    };

    let begin = {
        let frame = frame.clone();
        move |event: PointerEvent, resize: bool| {
            if read_only.get_untracked() || event.button() != 0 {
                return;
            }
            let Some(target) = event.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            else {
                return;
            };
            if grid_of(&target).is_some_and(|(grid, _)| reflowed(&grid)) {
                return;
            }
            event.prevent_default();
            let _ = target.set_pointer_capture(event.pointer_id());
            let start = frame.with_untracked(|f| f.layout);
            let step = grid_step(&target);
            let (x, y) = (f64::from(event.client_x()), f64::from(event.client_y()));
            gesture.set_value(Some(if resize {
                Gesture::Resize { start, x, y, step }
            } else {
                Gesture::Move { start, x, y, step }
            }));
        }
    };
    let track = move |event: PointerEvent| {
        let Some(active) = gesture.get_value() else { return };
        let (cx, cy) = (f64::from(event.client_x()), f64::from(event.client_y()));
        let next = match active {
            Gesture::Move { start, x, y, step } => {
                Layout { x: shifted(start.x, cx - x, step.x).min(12 - start.w), y: shifted(start.y, cy - y, step.y), ..start }
            }
            Gesture::Resize { start, x, y, step } => Layout {
                w: sized(start.w, cx - x, step.x).min(12 - start.x),
                h: sized(start.h, cy - y, step.y).min(40),
                ..start
            },
        };
        if preview.get_untracked() != Some(next) {
            preview.set(Some(next));
        }
    };
    let finish = {
        let id = id.clone();
        move |_: PointerEvent| {
            let Some(active) = gesture.get_value() else { return };
            gesture.set_value(None);
            let Some(next) = preview.get_untracked() else { return };
            preview.set(None);
            let id = id.clone();
            match active {
                Gesture::Move { start, .. } if (next.x, next.y) != (start.x, start.y) => {
                    apply(canvas, Op::Move { id, x: next.x, y: next.y })
                }
                Gesture::Resize { start, .. } if (next.w, next.h) != (start.w, start.h) => {
                    apply(canvas, Op::Resize { id, w: next.w, h: next.h })
                }
                _ => {}
            }
        }
    };
    let cancel = move |_: PointerEvent| {
        gesture.set_value(None);
        preview.set(None);
    };

    // Renaming by hand (double-click the title, or F2 on the frame): a box in the title's place; Enter
    // or leaving it renames (undoable), Escape keeps the name. The focus goes back to the frame.
    let renaming = RwSignal::new(false);
    let rename_box = NodeRef::<leptos::html::Input>::new();
    Effect::new(move || {
        if let Some(input) = rename_box.get() {
            let _ = input.focus();
            input.select();
        }
    });
    let finish_rename = {
        let id = id.clone();
        move |keep: bool| {
            if !renaming.get_untracked() {
                return;
            }
            renaming.set(false);
            let typed = rename_box.get_untracked().map(|input| input.value()).unwrap_or_default();
            if keep {
                apply(canvas, Op::Rename { id: id.clone(), title: typed });
            }
            if let Some(frame) = element.get_untracked() {
                let _ = frame.focus();
            }
        }
    };

    let on_key = {
        let id = id.clone();
        let frame = frame.clone();
        move |event: KeyboardEvent| {
            if read_only.get_untracked() {
                return;
            }
            let on_frame = event.target().zip(event.current_target()).is_some_and(|(t, c)| t == c);
            if !on_frame {
                return;
            }
            let l = frame.with_untracked(|f| f.layout);
            let (dx, dy): (i64, i64) = match event.key().as_str() {
                "F2" if kind.title_key().is_some() => {
                    event.prevent_default();
                    renaming.set(true);
                    return;
                }
                "ArrowLeft" => (-1, 0),
                "ArrowRight" => (1, 0),
                "ArrowUp" => (0, -1),
                "ArrowDown" => (0, 1),
                "Delete" => {
                    event.prevent_default();
                    remove_by_hand(canvas, notices, &id);
                    return;
                }
                _ => return,
            };
            event.prevent_default();
            let nudge = |value: u32, delta: i64, min: i64| (i64::from(value) + delta).max(min) as u32;
            let op = if event.shift_key() {
                Op::Resize { id: id.clone(), w: nudge(l.w, dx, 1), h: nudge(l.h, dy, 1) }
            } else {
                Op::Move { id: id.clone(), x: nudge(l.x, dx, 0), y: nudge(l.y, dy, 0) }
            };
            apply(canvas, op);
        }
    };

    let duplicate = {
        let data = data.clone();
        let frame = frame.clone();
        move |_| {
            let style = frame.with_untracked(|f| f.style.clone());
            let op = Op::Add {
                id: BlockId::generate(&BrowserRandom),
                kind,
                data: data.get_untracked(),
                layout: None,
                style,
            };
            apply(canvas, op);
        }
    };
    let remove = {
        let id = id.clone();
        move |_| remove_by_hand(canvas, notices, &id)
    };
    // Points the agent at this widget for the person's next message, in the chat, ready to write.
    let ask = {
        let (id, title) = (id.clone(), title.clone());
        let (attachments, chat) = (use_attachments(), use_chat());
        move |_| {
            if let Some(attachments) = attachments {
                let title = title().unwrap_or_else(|| kind.as_str().to_owned());
                attachments.point_at(PointedWidget { id: id.clone(), kind, title });
            }
            if let Some(chat) = chat {
                chat.open_to_write();
            }
        }
    };

    // The bound widget's source editor, open while `editing`; closing it gives focus back to its button.
    let editing = RwSignal::new(false);
    let source_button = NodeRef::<leptos::html::Button>::new();
    let close_source = Callback::new(move |()| {
        editing.set(false);
        if let Some(button) = source_button.get_untracked() {
            let _ = button.focus();
        }
    });
    let source_editor = {
        let id = id.clone();
        let engine = use_engine();
        move || {
            let id = id.clone();
            editing.get().then(|| engine.view(move |loaded| (loaded.source_editor)(id.clone(), close_source)))
        }
    };

    let emit_id = id.clone();
    let emit = Callback::new(move |(action, payload): (WidgetAction, Value)| {
        events.emit(emit_id.clone(), kind, action, payload);
    });
    let props = WidgetProps { id: id.clone(), data: data.clone().into(), emit };
    // Expand: the widget large over the page, in a dialog, for any viewer; the layout is unchanged.
    let expanded = RwSignal::new(false);
    let expanded_view = {
        let (id, data, title) = (id.clone(), data.clone(), title.clone());
        move || {
            expanded.get().then(|| {
                let title = title.clone();
                view! {
                    <Expanded kind id=id.clone() data=data.clone().into() emit
                        title=Signal::derive(move || title().unwrap_or_else(|| kind.as_str().to_owned()))
                        on_close=Callback::new(move |()| expanded.set(false)) />
                }
            })
        }
    };
    let label = {
        let title = title.clone();
        move || {
            let name = title().map(|t| format!(": {t}")).unwrap_or_default();
            let moves = match read_only.get() {
                true => "",
                false if kind.title_key().is_some() => " Arrow keys move it, Shift and arrow keys resize it, F2 renames it, Delete removes it.",
                false => " Arrow keys move it, Shift and arrow keys resize it, Delete removes it.",
            };
            format!("{kind} widget{name}.{moves}")
        }
    };
    let export_data: Signal<Arc<Value>> = data.clone().into();
    let title_tip = title.clone();
    let provenance_tip = {
        let provenance = provenance.clone();
        move || match provenance() {
            (by, Some(source)) => format!("Made by {by} \u{b7} {source}"),
            (by, None) => format!("Made by {by}"),
        }
    };
    let badge = move || {
        let (by, source) = provenance();
        view! {
            <span class="au-frame__who">{by}</span>
            {source.map(|source| view! { <span class="au-frame__source">{format!("\u{b7} {source}")}</span> })}
        }
    };

    view! {
        <article class="au-frame au-widget" class:au-frame--dragging=move || preview.get().is_some()
            class:au-frame--fixed=move || read_only.get()
            style=move || format!("{}{}", placement(), custom_style())
            tabindex="0" aria-label=label on:keydown=on_key node_ref=element
            data-testid="widget" data-widget-id=id.to_string() data-widget-type=kind.as_str()>
            <header class="au-frame__header"
                on:pointerdown={let begin = begin.clone(); move |e| begin(e, false)}
                on:pointermove=track on:pointerup=finish.clone() on:pointercancel=cancel>
                <Show when=move || !read_only.get()>
                    <span class="au-frame__grip" aria-hidden="true"><IconSvg icon=Icon::Grip /></span>
                </Show>
                {move || match renaming.get() {
                    true => {
                        let finish = finish_rename.clone();
                        let leave = finish_rename.clone();
                        // A press elsewhere leaves the box even where it moves no focus (a frame's
                        // header, which may start a drag); presses in the box stop before the window.
                        let outside = finish_rename.clone();
                        let press = window_event_listener(leptos::ev::pointerdown, move |_| outside(true));
                        on_cleanup(move || press.remove());
                        // The name as it was when the box opened: a refresh meanwhile must not
                        // recreate the box under the person's typing.
                        view! {
                            <input class="au-frame__rename" type="text" data-testid="widget-rename" aria-label="Widget name"
                                maxlength="200" prop:value=untrack(title.clone()).unwrap_or_default() node_ref=rename_box
                                on:pointerdown=|e: PointerEvent| e.stop_propagation()
                                on:keydown=move |e: KeyboardEvent| {
                                    // Not the frame's keys (arrows move it) nor the page's.
                                    e.stop_propagation();
                                    match e.key().as_str() {
                                        "Enter" => { e.prevent_default(); finish(true); }
                                        "Escape" => { e.prevent_default(); finish(false); }
                                        _ => {}
                                    }
                                }
                                on:blur=move |_| leave(true) />
                        }.into_any()
                    }
                    false => view! {
                        <span class="au-frame__title" title=title_tip.clone()
                            on:dblclick=move |_| if kind.title_key().is_some() && !read_only.get_untracked() { renaming.set(true) }>
                            {title.clone()().unwrap_or_else(|| kind.as_str().to_owned())}
                        </span>
                    }.into_any(),
                }}
                <span class="au-frame__kind">{kind.as_str()}</span>
                <span class="au-frame__badge" data-testid="provenance" title=provenance_tip>{badge}</span>
                <Freshness id=id.clone() binding=binding.into() read_only=read_only />
                <div class="au-frame__tools" on:pointerdown=|e: PointerEvent| e.stop_propagation()>
                    {expandable(kind).then(|| view! {
                        <button class="au-icon-button" title="Expand" aria-label="Expand widget" data-testid="widget-expand"
                            aria-haspopup="dialog" on:click=move |_| expanded.set(true)><IconSvg icon=Icon::Expand /></button>
                    })}
                    <Show when=move || !read_only.get()>
                        <button class="au-icon-button" title="Ask the agent about this widget" aria-label="Ask the agent about this widget"
                            data-testid="widget-ask" on:click=ask.clone()><IconSvg icon=Icon::Chat /></button>
                        <Show when=move || binding.with(Option::is_some)>
                            <button class="au-icon-button" title="Data source" aria-label="Edit the widget's data source" data-testid="widget-source"
                                aria-haspopup="dialog" aria-expanded=move || editing.get().to_string() node_ref=source_button
                                on:click=move |_| editing.set(true)><IconSvg icon=Icon::Source /></button>
                        </Show>
                        <button class="au-icon-button" title="Duplicate" aria-label="Duplicate widget" data-testid="widget-duplicate"
                            on:click=duplicate.clone()><IconSvg icon=Icon::Duplicate /></button>
                        <ExportMenu kind=kind data=export_data />
                        <button class="au-icon-button" title="Remove" aria-label="Remove widget" data-testid="widget-remove"
                            on:click=remove.clone()><IconSvg icon=Icon::Close /></button>
                    </Show>
                </div>
            </header>
            // Focusable, so a keyboard user can scroll a widget taller than its cell (arrow keys
            // here scroll; on the frame itself they move it).
            <div class="au-frame__body" tabindex="0" role="region" aria-label=content_label node_ref=body>{render_widget(kind, props)}</div>
            <Show when=move || !read_only.get()>{source_editor.clone()}</Show>
            {expanded_view}
            <Show when=move || !read_only.get()>
                <div class="au-frame__resize" aria-hidden="true" title="Drag to resize"
                    on:pointerdown={let begin = begin.clone(); move |e| begin(e, true)}
                    on:pointermove=track on:pointerup=finish.clone() on:pointercancel=cancel></div>
            </Show>
        </article>
    }
}

/// Whether a widget can be shown expanded: a second rendering of its data. Not a server's view or a
/// sandboxed script, whose second copy would run again (and an MCP Apps view would call its server).
fn expandable(kind: WidgetKind) -> bool {
    !matches!(kind, WidgetKind::McpApp | WidgetKind::JsSandbox)
}

/// A widget shown large in a modal dialog (Expand), its layout unchanged: a second rendering of the
/// same data, with ids and state (sorting, scroll) of its own, whose events are the widget's. Escape or
/// Close ends it, and the browser gives the focus back to the Expand button.
#[component]
fn Expanded(
    kind: WidgetKind,
    id: BlockId,
    data: Signal<Arc<Value>>,
    emit: Callback<(WidgetAction, Value)>,
    title: Signal<String>,
    on_close: Callback<()>,
) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    Effect::new(move || {
        if let Some(dialog) = dialog.get()
            && !dialog.open()
        {
            let _ = dialog.show_modal();
        }
    });
    // Its own ids: a widget names parts of itself (a table's rows) by its id.
    let props = WidgetProps { id: BlockId::new(format!("{id}-expanded")), data, emit };
    view! {
        <dialog class="au-frame au-expanded" node_ref=dialog data-testid="widget-expanded" aria-label=move || title.get()
            on:close=move |_| on_close.run(())>
            <header class="au-frame__header">
                <h2 class="au-frame__title">{move || title.get()}</h2>
                <span class="au-frame__kind">{kind.as_str()}</span>
                <button class="au-icon-button au-expanded__close" title="Close (Esc)" aria-label="Close" data-testid="widget-expanded-close"
                    on:click=move |_| if let Some(dialog) = dialog.get_untracked() { dialog.close() }><IconSvg icon=Icon::Close /></button>
            </header>
            <div class="au-frame__body" tabindex="0" role="region" aria-label=move || format!("{kind} content: {}", title.get())>
                {render_widget(kind, props)}
            </div>
        </dialog>
    }
}

/// A bound widget's source line: when its data was fetched (or the error that left it stale) and
/// its refresh button.
#[component]
fn Freshness(id: BlockId, binding: Signal<Option<Arc<Binding>>>, read_only: Signal<bool>) -> impl IntoView {
    // The refresher comes with the engine, which may start after this widget first renders.
    let engine = use_engine();
    let refresher = move || engine.is_ready().then(use_refresh).flatten();
    let busy = {
        let id = id.clone();
        move || refresher().is_some_and(|refresher| refresher.is_busy(&id))
    };
    let refresh = move |_| {
        if let Some(refresher) = refresher() {
            refresher.refresh(id.clone());
        }
    };
    move || {
        binding.get().map(|binding| {
            let fetched = binding.fetched_ms.map(local_time).unwrap_or_else(|| "not yet".to_owned());
            let stale = binding.error.clone();
            let tip = match &stale {
                Some(error) => format!("Stale: the last refresh failed ({error}); showing data fetched {fetched}"),
                None => format!("Data from {} ({}), fetched {fetched}", binding.source.label(), binding.source.refresh),
            };
            let refresh = refresh.clone();
            let busy = busy.clone();
            view! {
                <span class="au-frame__fresh" class:au-frame__fresh--stale=stale.is_some() data-testid="widget-freshness"
                    data-stale=stale.is_some().to_string() title=tip
                    on:pointerdown=|e: PointerEvent| e.stop_propagation()>
                    <span data-testid="widget-fetched">{if stale.is_some() { format!("stale, {fetched}") } else { fetched }}</span>
                    <Show when=move || !read_only.get() && refresher().is_some()>
                        <button class="au-icon-button" title="Refresh" aria-label="Refresh widget data" data-testid="widget-refresh"
                            disabled=busy.clone() on:click=refresh.clone()>"\u{21bb}"</button>
                    </Show>
                </span>
            }
        })
    }
}
