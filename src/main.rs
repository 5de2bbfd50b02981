//! Entry point: install the panic hook, replace the static shell of `index.html` by the app.
//! Everything else lives in the library.

fn main() {
    console_error_panic_hook::set_once();
    autoui::chunks::install();
    // The gallery and the recipes are made of the views chunk: a page opened on them asks for it
    // before reading the saved session, so the chunk arrives while the browser store answers.
    if autoui::ui::route::initial_view() != autoui::ui::route::View::Canvas {
        autoui::ui::views::views().request();
    }
    mount();
}

/// Reads the saved session from the browser store (IndexedDB answers asynchronously), then builds
/// the app over it; the static shell stays on screen meanwhile.
fn mount() {
    wasm_bindgen_futures::spawn_local(async {
        let span = autoui::adapters::clock::Span::start("autoui-restore");
        let restored = autoui::state::persist::restore().await;
        drop(span);
        if let Some(boot) = leptos::prelude::document().get_element_by_id("au-boot") {
            boot.remove();
        }
        leptos::mount::mount_to_body(move || autoui::ui::app::restored_app(restored));
    });
}
