//! Measures an element's content box with a `ResizeObserver`, so SVG charts draw at their real
//! pixel size (crisp text at any width) and follow their grid cell when it is resized.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{ResizeObserver, ResizeObserverEntry};

type Observer = (ResizeObserver, Closure<dyn FnMut(js_sys::Array)>);

/// The content size of the element behind `node` in CSS pixels; `fallback` until it is measured.
/// Follows the element when a re-render replaces it, and stops observing on cleanup.
pub fn use_element_size(node: NodeRef<Div>, fallback: (f64, f64)) -> ReadSignal<(f64, f64)> {
    let (size, set_size) = signal(fallback);
    let observer = StoredValue::new_local(None::<Observer>);
    Effect::new(move |_| {
        let Some(element) = node.get() else { return };
        let observing = observer.with_value(|slot| {
            slot.as_ref().map(|(resize, _)| {
                resize.disconnect();
                resize.observe(&element);
            })
        });
        if observing.is_some() {
            return;
        }
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Ok(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>() else {
                return;
            };
            let rect = entry.content_rect();
            let next = (rect.width().floor(), rect.height().floor());
            // A detached or hidden element measures 0: keep the last real size.
            if next.0 >= 1.0 && next.1 >= 1.0 && size.get_untracked() != next {
                set_size.set(next);
            }
        });
        if let Ok(resize) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            resize.observe(&element);
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
    size
}
