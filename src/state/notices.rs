//! Short messages for the person using the app (a session that could not be restored, an import
//! that failed, a link copied), shown as dismissible toasts.

use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeLevel {
    Info,
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub id: u64,
    pub level: NoticeLevel,
    pub text: String,
}

#[derive(Clone, Copy)]
pub struct NoticesCtx {
    list: RwSignal<Vec<Notice>>,
    next: StoredValue<u64>,
}

impl NoticesCtx {
    pub fn info(&self, text: impl Into<String>) {
        self.push(NoticeLevel::Info, text.into());
    }

    pub fn error(&self, text: impl Into<String>) {
        self.push(NoticeLevel::Error, text.into());
    }

    pub fn dismiss(&self, id: u64) {
        self.list.update(|list| list.retain(|notice| notice.id != id));
    }

    pub fn list(&self) -> Vec<Notice> {
        self.list.get()
    }

    fn push(&self, level: NoticeLevel, text: String) {
        let id = self.next.get_value();
        self.next.set_value(id + 1);
        self.list.update(|list| list.push(Notice { id, level, text }));
        if level == NoticeLevel::Info {
            let ctx = *self;
            set_timeout(move || ctx.dismiss(id), std::time::Duration::from_secs(6));
        }
    }
}

pub fn provide_notices() -> NoticesCtx {
    let ctx = NoticesCtx { list: RwSignal::new(Vec::new()), next: StoredValue::new(0) };
    provide_context(ctx);
    ctx
}

pub fn use_notices() -> NoticesCtx {
    expect_context::<NoticesCtx>()
}
