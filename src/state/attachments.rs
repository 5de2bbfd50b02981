//! What goes with the person's next chat message: resources attached from the servers panel (read
//! from the server when attached, sent framed as that server's data) and widgets pointed at from
//! their frames (sent by id); cleared once sent.

use autoui_core::agent::frame::{attached_resource, pointed_widgets};
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// The name the agent knows the server by.
    pub server: ServerId,
    pub name: String,
    pub uri: String,
    pub text: String,
}

/// A widget the person points at for their next message ("Ask about this widget").
#[derive(Clone, Debug, PartialEq)]
pub struct PointedWidget {
    pub id: BlockId,
    pub kind: WidgetKind,
    /// What the chat shows of it (its title when it was pointed at); the model gets id and kind.
    pub title: String,
}

/// Context handle; `Copy`.
#[derive(Clone, Copy)]
pub struct AttachmentsCtx {
    resources: RwSignal<Vec<Attachment>>,
    widgets: RwSignal<Vec<PointedWidget>>,
}

impl AttachmentsCtx {
    /// Points at `widget` for the next message (once, however often).
    pub fn point_at(&self, widget: PointedWidget) {
        self.widgets.update(|list| {
            list.retain(|kept| kept.id != widget.id);
            list.push(widget);
        });
    }

    pub fn unpoint(&self, id: &BlockId) {
        self.widgets.update(|list| list.retain(|kept| &kept.id != id));
    }

    /// The widgets pointed at (tracked).
    pub fn pointed(&self) -> Vec<PointedWidget> {
        self.widgets.get()
    }

    /// Adds `attachment`, replacing an earlier one of the same resource.
    pub fn add(&self, attachment: Attachment) {
        self.resources.update(|list| {
            list.retain(|kept| kept.server != attachment.server || kept.uri != attachment.uri);
            list.push(attachment);
        });
    }

    pub fn remove(&self, uri: &str) {
        self.resources.update(|list| list.retain(|kept| kept.uri != uri));
    }

    /// Whether nothing is attached or pointed at (untracked: for event handlers).
    pub fn is_empty(&self) -> bool {
        self.resources.with_untracked(Vec::is_empty) && self.widgets.with_untracked(Vec::is_empty)
    }

    /// The attached resources (tracked).
    pub fn list(&self) -> Vec<Attachment> {
        self.resources.get()
    }

    /// What goes out with `text`, and everything is cleared: to the model, the widgets pointed at that
    /// are still on the canvas (`on_canvas`), by id, then each attached resource framed as its server's
    /// data and cut to `limit` characters, then `text`; in the transcript, `text` with the widgets'
    /// titles and the resources' names.
    pub fn take_into(&self, text: &str, limit: usize, on_canvas: impl Fn(&BlockId) -> bool) -> Outgoing {
        let mut pointed = self.widgets.try_update(std::mem::take).unwrap_or_default();
        pointed.retain(|widget| on_canvas(&widget.id));
        let attached = self.resources.try_update(std::mem::take).unwrap_or_default();
        let ids: Vec<(BlockId, WidgetKind)> = pointed.iter().map(|widget| (widget.id.clone(), widget.kind)).collect();
        let mut parts: Vec<String> = pointed_widgets(&ids).into_iter().collect();
        parts.extend(attached.iter().map(|item| {
            let read_tool = format!("{}_mcp_read_resource", item.server);
            attached_resource(&item.server, &item.uri, &item.text, limit, &read_tool)
        }));
        parts.push(text.to_owned());
        let mut shown = text.to_owned();
        let titles: Vec<&str> = pointed.iter().map(|widget| widget.title.as_str()).collect();
        if !titles.is_empty() {
            shown.push_str(&format!("\n\u{21b3} {}", titles.join(", ")));
        }
        let names: Vec<&str> = attached.iter().map(|item| item.name.as_str()).collect();
        if !names.is_empty() {
            shown.push_str(&format!("\n\u{1f4ce} {}", names.join(", ")));
        }
        Outgoing { message: parts.join("\n\n"), shown }
    }
}

/// A message with what went with it ([`AttachmentsCtx::take_into`]).
pub struct Outgoing {
    /// What the model gets.
    pub message: String,
    /// What the transcript shows.
    pub shown: String,
}

pub fn provide_attachments() -> AttachmentsCtx {
    let ctx = AttachmentsCtx { resources: RwSignal::new(Vec::new()), widgets: RwSignal::new(Vec::new()) };
    provide_context(ctx);
    ctx
}

/// Absent where a panel is mounted alone (browser tests).
pub fn use_attachments() -> Option<AttachmentsCtx> {
    use_context::<AttachmentsCtx>()
}
