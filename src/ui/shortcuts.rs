//! The keyboard shortcuts, listed in a dialog that "?" opens anywhere but in a field (or the Settings
//! drawer's "Keyboard shortcuts"). The list is static markup, kept short to keep it out of the way of
//! the first load's bytes; on Apple systems it says ⌘ where others press Ctrl.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::ui::icons::{Icon, IconSvg};
use crate::ui::present::PresentCtx;

/// Context handle; `Copy`.
#[derive(Clone, Copy)]
pub struct ShortcutsCtx {
    open: RwSignal<bool>,
}

impl ShortcutsCtx {
    pub fn open(&self) {
        self.open.set(true);
    }
}

pub fn provide_shortcuts() -> ShortcutsCtx {
    let shortcuts = ShortcutsCtx { open: RwSignal::new(false) };
    provide_context(shortcuts);
    shortcuts
}

pub fn use_shortcuts() -> Option<ShortcutsCtx> {
    use_context()
}

/// Whether a key press goes to a field the person types in (where a letter or Ctrl+Z is the field's).
pub fn typing_in_field(event: &KeyboardEvent) -> bool {
    event.target().and_then(|target| target.dyn_into::<web_sys::Element>().ok()).is_some_and(|element| {
        matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
            || element.closest("[contenteditable]").ok().flatten().is_some()
    })
}

/// Whether a modal dialog is open (a widget expanded, this list): the page below it is out of reach.
pub fn modal_open() -> bool {
    document().query_selector("dialog:modal").ok().flatten().is_some()
}

const LIST: &str = "\
<h3>Anywhere</h3><dl>\
<dt><kbd>Ctrl</kbd> <kbd>Z</kbd></dt><dd>Undo a change to the canvas</dd>\
<dt><kbd>Ctrl</kbd> <kbd>Shift</kbd> <kbd>Z</kbd> or <kbd>Ctrl</kbd> <kbd>Y</kbd></dt><dd>Redo it</dd>\
<dt><kbd>Ctrl</kbd> <kbd>S</kbd></dt><dd>Save the dashboard (type its name, then <kbd>Enter</kbd>)</dd>\
<dt><kbd>Esc</kbd></dt><dd>Close a menu, panel or dialog; stop presenting</dd>\
<dt><kbd>?</kbd></dt><dd>This list</dd></dl>\
<h3>On a widget (<kbd>Tab</kbd> goes from one to the next)</h3><dl>\
<dt>Arrow keys</dt><dd>Move it on the grid</dd>\
<dt><kbd>Shift</kbd> and arrow keys</dt><dd>Resize it</dd>\
<dt><kbd>F2</kbd></dt><dd>Rename it (<kbd>Enter</kbd> keeps the name, <kbd>Esc</kbd> does not)</dd>\
<dt><kbd>Delete</kbd></dt><dd>Remove it (undo brings it back)</dd></dl>\
<h3>Inside a widget</h3><dl>\
<dt>Arrow keys, <kbd>Home</kbd>, <kbd>End</kbd></dt><dd>Go through a table's rows, a grid's cells, a chart's points, a carousel's slides</dd>\
<dt><kbd>Enter</kbd> or <kbd>Space</kbd></dt><dd>Choose a table's row or a grid's cell (the agent sees what you chose)</dd></dl>\
<h3>In the chat</h3><dl>\
<dt><kbd>Enter</kbd></dt><dd>Send the message</dd>\
<dt><kbd>Shift</kbd> <kbd>Enter</kbd></dt><dd>A new line</dd></dl>";

/// The list as this system's keyboard says it (⌘ for Ctrl on Apple systems).
fn shortcut_list() -> String {
    let apple = window().navigator().user_agent().is_ok_and(|agent| ["Mac OS X", "iPhone", "iPad"].iter().any(|apple| agent.contains(apple)));
    if apple { LIST.replace("<kbd>Ctrl</kbd>", "<kbd>\u{2318}</kbd>") } else { LIST.to_owned() }
}

/// The dialog, opened by "?" (not in a field, not while presenting) or [`ShortcutsCtx::open`].
#[component]
pub fn ShortcutsDialog(shortcuts: ShortcutsCtx, present: PresentCtx) -> impl IntoView {
    let open = shortcuts.open;
    let keys = window_event_listener(ev::keydown, move |event| {
        let plain = !(event.ctrl_key() || event.meta_key() || event.alt_key());
        if event.key() == "?" && plain && !event.default_prevented() && !typing_in_field(&event) && !present.is_presenting_untracked() {
            event.prevent_default();
            open.set(true);
        }
    });
    on_cleanup(move || keys.remove());
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    Effect::new(move || {
        let Some(dialog) = dialog.get() else { return };
        match (open.get(), dialog.open()) {
            (true, false) => {
                let _ = dialog.show_modal();
            }
            (false, true) => dialog.close(),
            _ => {}
        }
    });
    view! {
        // Esc closes it as any modal dialog (its `close` event).
        <dialog class="au-shortcuts" node_ref=dialog aria-labelledby="shortcuts-title" data-testid="shortcuts"
            on:close=move |_| open.set(false)>
            <div class="au-shortcuts__header">
                <h2 id="shortcuts-title">"Keyboard shortcuts"</h2>
                <button class="au-icon-button" aria-label="Close" title="Close (Esc)" data-testid="shortcuts-close"
                    on:click=move |_| open.set(false)>
                    <IconSvg icon=Icon::Close />
                </button>
            </div>
            // Built while open: the page's start makes no nodes for it.
            <div class="au-shortcuts__list" inner_html=move || open.get().then(shortcut_list).unwrap_or_default()></div>
        </dialog>
    }
}
