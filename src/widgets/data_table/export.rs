//! Saves text as a file through a Blob URL and a temporary download link (the CSV export).

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlElement, Url};

/// How long the Blob URL stays valid after the click: long enough for the browser to start the
/// download, after which the memory is released.
const URL_LIFETIME: Duration = Duration::from_secs(60);

/// Starts the download of `text` as `file_name`; the error says what the browser refused.
pub fn download(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?;
    let url = Url::create_object_url_with_blob(&blob).map_err(describe)?;
    let document = document();
    let link = document
        .create_element("a")
        .map_err(describe)?
        .unchecked_into::<HtmlElement>();
    link.set_attribute("href", &url).map_err(describe)?;
    link.set_attribute("download", file_name)
        .map_err(describe)?;
    link.set_hidden(true);
    let body = document.body().ok_or("the page has no body")?;
    body.append_child(&link).map_err(describe)?;
    link.click();
    link.remove();
    set_timeout(move || drop(Url::revoke_object_url(&url)), URL_LIFETIME);
    Ok(())
}

fn describe(error: JsValue) -> String {
    error
        .as_string()
        .or_else(|| js_sys::Error::from(error).message().as_string())
        .unwrap_or_else(|| "the browser refused".to_owned())
}
