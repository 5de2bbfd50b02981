//! Resources the person attached to their next chat message from the servers panel: read from the
//! server when attached, sent with the message framed as that server's data, then cleared.

use autoui_core::agent::frame::attached_resource;
use autoui_core::ids::ServerId;
use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// The name the agent knows the server by.
    pub server: ServerId,
    pub name: String,
    pub uri: String,
    pub text: String,
}

/// Context handle; `Copy`.
#[derive(Clone, Copy)]
pub struct AttachmentsCtx(RwSignal<Vec<Attachment>>);

impl AttachmentsCtx {
    /// Adds `attachment`, replacing an earlier one of the same resource.
    pub fn add(&self, attachment: Attachment) {
        self.0.update(|list| {
            list.retain(|kept| kept.server != attachment.server || kept.uri != attachment.uri);
            list.push(attachment);
        });
    }

    pub fn remove(&self, uri: &str) {
        self.0.update(|list| list.retain(|kept| kept.uri != uri));
    }

    /// Whether nothing is attached (untracked: for event handlers).
    pub fn is_empty(&self) -> bool {
        self.0.with_untracked(Vec::is_empty)
    }

    /// The attached resources (tracked).
    pub fn list(&self) -> Vec<Attachment> {
        self.0.get()
    }

    /// The message the model gets: each attached resource framed as its server's data and cut to
    /// `limit` characters, then `text`; the attachments are cleared. `text` alone when there are none.
    pub fn take_into(&self, text: &str, limit: usize) -> String {
        let attached = self.0.try_update(std::mem::take).unwrap_or_default();
        let mut parts: Vec<String> = attached
            .iter()
            .map(|item| {
                let read_tool = format!("{}_mcp_read_resource", item.server);
                attached_resource(&item.server, &item.uri, &item.text, limit, &read_tool)
            })
            .collect();
        parts.push(text.to_owned());
        parts.join("\n\n")
    }
}

pub fn provide_attachments() -> AttachmentsCtx {
    let ctx = AttachmentsCtx(RwSignal::new(Vec::new()));
    provide_context(ctx);
    ctx
}

/// Absent where a panel is mounted alone (browser tests).
pub fn use_attachments() -> Option<AttachmentsCtx> {
    use_context::<AttachmentsCtx>()
}
