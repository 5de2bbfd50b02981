//! The file tools: a canvas or widget saved to a file, dashboard and backup files read back, share
//! links (with their compression) and "Export all" (what the UI uses of them: `ui::files`). They come
//! with the engine's chunk (fetched after first paint, or on first use); a click before it is here waits for it.

use crate::deferred::part;
use crate::ui::backup::download_backup;
use crate::ui::canvas_toolbar::{export_canvas, import_file, share_link};
use crate::ui::export::export_widget;
use crate::ui::files::Files;

part! {
    #[chunk(engine, "the file tools")]
    pub fn files() -> Part<Files> {
        Files {
            export_canvas,
            import_file: |file, targets| Box::pin(import_file(file, targets)),
            share_link,
            export_all: download_backup,
            export_widget,
        }
    }
}
