//! Entry point: install the panic hook and mount the app. Everything else lives in the library.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(autoui::ui::app::App);
}
