//! Saving a file the app made (JSON, CSV, SVG, PNG) through a temporary Blob URL and a link click.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// Offers `content` for download as `filename`; returns false when the browser refused.
pub fn download_text(filename: &str, mime: &str, content: &str) -> bool {
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &options) else { return false };
    download_blob(filename, &blob)
}

/// Offers `bytes` for download as `filename`; returns false when the browser refused.
pub fn download_bytes(filename: &str, mime: &str, bytes: &[u8]) -> bool {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = Blob::new_with_u8_array_sequence_and_options(&parts, &options) else { return false };
    download_blob(filename, &blob)
}

pub fn download_blob(filename: &str, blob: &Blob) -> bool {
    let Ok(url) = Url::create_object_url_with_blob(blob) else { return false };
    let clicked = (|| {
        let document = web_sys::window()?.document()?;
        let anchor: HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
        anchor.set_href(&url);
        anchor.set_download(filename);
        anchor.click();
        Some(())
    })()
    .is_some();
    let _ = Url::revoke_object_url(&url);
    clicked
}

/// `<kind>-<yyyy-mm-dd-hhmmss>.<ext>`, a name that sorts and says what it is.
pub fn timestamped_name(stem: &str, extension: &str) -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{stem}-{:04}-{:02}-{:02}-{:02}{:02}{:02}.{extension}",
        now.get_full_year(),
        now.get_month() + 1,
        now.get_date(),
        now.get_hours(),
        now.get_minutes(),
        now.get_seconds()
    )
}
