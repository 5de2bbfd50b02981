//! Entry point: install the panic hook, replace the static shell of `index.html` by the app.
//! Everything else lives in the library.

fn main() {
    console_error_panic_hook::set_once();
    if let Some(boot) = leptos::prelude::document().get_element_by_id("au-boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(autoui::ui::app::App);
}
