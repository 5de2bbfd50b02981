//! Entry point: install the panic hook, replace the static shell of `index.html` by the app.
//! Everything else lives in the library.

fn main() {
    console_error_panic_hook::set_once();
    autoui::chunks::install();
    if let Some(boot) = leptos::prelude::document().get_element_by_id("au-boot") {
        boot.remove();
    }
    // The gallery and the recipes are made of the views chunk: a page opened on them starts loading
    // it first and builds the app in the next task, so the chunk compiles while the app is built.
    if autoui::ui::route::initial_view() == autoui::ui::route::View::Canvas {
        mount();
    } else {
        autoui::ui::views::views().request();
        leptos::prelude::set_timeout(mount, std::time::Duration::ZERO);
    }
}

fn mount() {
    leptos::mount::mount_to_body(autoui::ui::app::App);
}
