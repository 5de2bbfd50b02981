//! The chunks: the top of the app's layers (`main -> chunks -> ui -> widgets -> state -> adapters ->
//! core`). Each module declares the entry points of a wasm chunk, naming the panels, pages and widgets
//! it carries; [`install`] hands the declarations to the lower layers, which use them through the entry
//! points' types (`state::engine::Engine`, `ui::views::Views`, `ui::files::Files`) only. The engine
//! chunk also carries `files`; the code that writes the store is a small chunk of its own
//! (`state::writing`), fetched after first paint even when the engine is not, and the chart engine's
//! code another (`adapters::vega`), fetched with vega's scripts, and the widgets' frames on the canvas
//! another (`frames`), fetched with the views chunk when the canvas shows a widget, and the settings
//! drawer another (`settings`), fetched when first opened or at the person's first press. Each chunk more
//! multiplies the shared chunks wasm-split makes, one per set of chunks sharing code.

pub mod engine;
pub mod files;
pub mod frames;
pub mod settings;
pub mod views;

/// Makes the chunks reachable from the layers below; runs before the app is mounted.
pub fn install() {
    crate::state::engine::ENGINE.install(engine::engine);
    crate::ui::files::FILES.install(files::files);
    crate::ui::canvas::FRAMES.install(frames::frames);
    crate::ui::settings::SETTINGS.install(settings::settings);
    crate::ui::views::VIEWS.install(views::views);
}
