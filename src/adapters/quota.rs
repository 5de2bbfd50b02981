//! The browser's storage quota for this site (`navigator.storage`): asking for persistent storage,
//! whether it was granted, and how much space is used and available.

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

fn manager() -> Option<web_sys::StorageManager> {
    Some(web_sys::window()?.navigator().storage())
}

/// Asks the browser not to clear this site's storage when space runs low; `None` when it cannot
/// be asked (no Storage API in this browser).
pub async fn ask_to_persist() -> Option<bool> {
    let promise = manager()?.persist().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}

/// Whether storage is persistent already (asking nothing).
pub async fn persisted() -> Option<bool> {
    let promise = manager()?.persisted().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}

/// Space this site uses and may use, in bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub usage: f64,
    pub quota: f64,
}

pub async fn estimate() -> Option<Estimate> {
    let promise = manager()?.estimate().ok()?;
    let value = JsFuture::from(promise).await.ok()?;
    let field = |name: &str| js_sys::Reflect::get(&value, &JsValue::from_str(name)).ok()?.as_f64();
    Some(Estimate { usage: field("usage")?, quota: field("quota")? })
}
