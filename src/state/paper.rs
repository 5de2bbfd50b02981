//! Printing. A print is always light (app.css's print rules), but a chart drawn on a canvas has the
//! colours of the theme it was drawn in written into its pixels: while the page prints, such charts
//! are drawn again in the light theme's colours (`widgets::vega_lite`), and once more afterwards.
//! The browser's own print (Ctrl+P, its menu) announces itself with `beforeprint`, and the drawing,
//! which needs no network once a chart was drawn, finishes in that event's microtasks, before the
//! page is laid out for paper; the app's Print buttons draw first and open the dialog after.

use leptos::ev;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct PaperCtx {
    printing: RwSignal<bool>,
}

impl PaperCtx {
    /// Whether the page is being printed (tracked).
    pub fn printing(&self) -> bool {
        self.printing.get()
    }

    pub fn printing_untracked(&self) -> bool {
        self.printing.get_untracked()
    }

    fn set(&self, printing: bool) {
        if self.printing.get_untracked() != printing {
            self.printing.set(printing);
        }
    }

    /// Opens the browser's print dialog (which also saves a PDF) once the charts are drawn for paper:
    /// on the next task, after their drawing's microtasks have run.
    pub fn print(&self) {
        self.set(true);
        let paper = *self;
        set_timeout(
            move || {
                // Returns once the dialog is closed.
                let _ = window().print();
                paper.set(false);
            },
            std::time::Duration::ZERO,
        );
    }
}

pub fn provide_paper() -> PaperCtx {
    let paper = PaperCtx { printing: RwSignal::new(false) };
    let before = window_event_listener(ev::beforeprint, move |_| paper.set(true));
    let after = window_event_listener(ev::afterprint, move |_| paper.set(false));
    on_cleanup(move || {
        before.remove();
        after.remove();
    });
    provide_context(paper);
    paper
}

pub fn use_paper() -> PaperCtx {
    expect_context::<PaperCtx>()
}
