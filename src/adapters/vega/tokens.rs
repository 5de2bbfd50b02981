//! The design tokens as the page shows them now, written into a chart drawn on a canvas (a canvas
//! cannot read CSS variables). Reading a token makes the browser compute styles, and a chart names
//! about twenty: each is read once per theme.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::JsCast;
use web_sys::{CssStyleDeclaration, Element, HtmlElement, Window};

use crate::adapters::theme::shows_dark;

thread_local! {
    /// Whether the values were read under the dark theme, and each token's value (as JSON string content).
    static KNOWN: RefCell<(bool, HashMap<String, Option<String>>)> = RefCell::new((false, HashMap::new()));
}

/// `text` (JSON) with every `var(--name)` replaced by the token's value now (the light theme's for
/// `paper`), left as it is when the page does not define it.
pub fn resolve(text: String, paper: bool) -> String {
    if !text.contains("var(--") {
        return text;
    }
    let dark = !paper && shows_dark();
    KNOWN.with(|known| {
        let (read_dark, values) = &mut *known.borrow_mut();
        if *read_dark != dark {
            *read_dark = dark;
            values.clear();
        }
        let mut reader = None;
        replace_vars(&text, |name| {
            values
                .entry(name.to_owned())
                .or_insert_with(|| reader.get_or_insert_with(|| Reader::new(dark)).as_ref()?.value(name))
                .clone()
        })
    })
}

/// `text` with every `var(--name)` replaced by `value(--name)` (left as it is when unknown).
fn replace_vars(text: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("var(--") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 4..];
        let Some(end) = after.find(')') else {
            rest = &rest[start..];
            break;
        };
        match value(&after[..end]).filter(|value| !value.is_empty()) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[start..start + 4 + end + 1]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Reads tokens from the root element's computed style; a `light-dark(...)` colour is resolved by
/// giving it to a hidden probe's `color`, under the colour scheme asked for (the page may show the
/// other: a print is light).
struct Reader {
    window: Window,
    style: CssStyleDeclaration,
    probe: Option<HtmlElement>,
}

impl Reader {
    fn new(dark: bool) -> Option<Reader> {
        let window = web_sys::window()?;
        let document = window.document()?;
        let root: Element = document.document_element()?;
        let style = window.get_computed_style(&root).ok().flatten()?;
        let probe = document.create_element("span").ok().and_then(|probe| probe.dyn_into::<HtmlElement>().ok());
        if let Some(probe) = &probe {
            probe.set_hidden(true);
            let _ = probe.style().set_property("color-scheme", if dark { "dark" } else { "light" });
            let _ = root.append_child(probe);
        }
        Some(Reader { window, style, probe })
    }

    /// The token `name`'s value, escaped for a JSON string.
    fn value(&self, name: &str) -> Option<String> {
        let text = self.style.get_property_value(name).ok()?;
        let text = text.trim();
        let colour = self.probe.as_ref().filter(|_| text.contains("light-dark(")).and_then(|probe| {
            probe.style().set_property("color", text).ok()?;
            self.window.get_computed_style(probe).ok().flatten()?.get_property_value("color").ok()
        });
        let value = colour.filter(|colour| !colour.is_empty()).unwrap_or_else(|| text.to_owned());
        Some(value.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        if let Some(probe) = &self.probe {
            probe.remove();
        }
    }
}
