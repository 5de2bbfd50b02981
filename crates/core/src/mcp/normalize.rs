//! Turns a `tools/call` result into the neutral [`ToolResult`] the agent feeds to the model.
//!
//! Text stays text and images stay images (the model can look at them); audio, resource links and
//! embedded resources become short descriptions; `structuredContent` stands in for empty `content`;
//! `isError: true` makes an error result the model can react to. A `resources/read` result becomes
//! its text, binary parts summarised with their type and size; an image (`image/*` blob) also comes
//! as the image itself, which a widget may then show by the resource's URI (`provenance`).

use serde_json::Value;

use crate::mcp::model::call::CallToolResult;
use crate::mcp::model::content::{Content, ContentBlock, ResourceContents};
use crate::tool::{ResultPart, ToolResult};

pub fn to_tool_result(result: CallToolResult) -> ToolResult {
    let mut content: Vec<ResultPart> = result.content.into_iter().map(to_part).collect();
    if content.is_empty() {
        let text = match &result.structured_content {
            Some(structured) => structured.to_string(),
            None => "(the tool returned no content)".to_owned(),
        };
        content.push(ResultPart::Text { text });
    }
    ToolResult {
        content,
        is_error: result.is_error.unwrap_or(false),
        structured: result.structured_content,
    }
}

/// The contents of resource `uri`: one text part as it is (JSON stays JSON, so a long one is cut
/// at whole items), several with a line naming each, blobs summarised and never dumped, and a part
/// this client cannot read named with the reason rather than hiding the others.
pub fn to_resource_result(uri: &str, contents: Vec<Value>) -> ToolResult {
    let only_text = contents.len() == 1 && contents[0].get("text").is_some_and(Value::is_string);
    let mut parts: Vec<ResultPart> = Vec::new();
    for (index, raw) in contents.into_iter().enumerate() {
        let text = match serde_json::from_value::<ResourceContents>(raw) {
            Ok(ResourceContents::Text { text, .. }) if only_text => text,
            Ok(ResourceContents::Blob { uri, mime_type: Some(media_type), blob }) if media_type.starts_with("image/") => {
                parts.push(ResultPart::Text { text: describe_image(&uri, &media_type, &blob) });
                parts.push(ResultPart::Image { media_type, data: blob });
                continue;
            }
            Ok(resource) => describe_resource(resource),
            Err(error) => format!("[part {} of resource <{uri}> could not be read: {error}]", index + 1),
        };
        parts.push(ResultPart::Text { text });
    }
    if parts.is_empty() {
        parts.push(ResultPart::Text { text: format!("(the resource <{uri}> is empty)") });
    }
    ToolResult { content: parts, is_error: false, structured: None }
}

fn to_part(content: Content) -> ResultPart {
    match content {
        Content::Known(ContentBlock::Text { text }) => ResultPart::Text { text },
        Content::Known(ContentBlock::Image { data, mime_type }) => ResultPart::Image {
            media_type: mime_type,
            data,
        },
        Content::Known(ContentBlock::Audio { data, mime_type }) => ResultPart::Text {
            text: format!(
                "[audio {mime_type}, about {} bytes, not shown]",
                decoded_len(&data)
            ),
        },
        Content::Known(ContentBlock::ResourceLink {
            uri,
            name,
            description,
            mime_type,
        }) => {
            let mut text = format!("[resource link {}", name.as_deref().unwrap_or(&uri));
            text.push_str(&format!(" <{uri}>"));
            if let Some(mime_type) = mime_type {
                text.push_str(&format!(" {mime_type}"));
            }
            text.push(']');
            if let Some(description) = description {
                text.push_str(&format!(" {description}"));
            }
            ResultPart::Text { text }
        }
        Content::Known(ContentBlock::Resource { resource }) => ResultPart::Text {
            text: describe_resource(resource),
        },
        Content::Unknown(value) => ResultPart::Text {
            text: describe_unknown(&value),
        },
    }
}

fn describe_resource(resource: ResourceContents) -> String {
    match resource {
        ResourceContents::Text {
            uri,
            mime_type,
            text,
        } => match mime_type {
            Some(mime_type) => format!("[resource <{uri}> {mime_type}]\n{text}"),
            None => format!("[resource <{uri}>]\n{text}"),
        },
        ResourceContents::Blob {
            uri,
            mime_type,
            blob,
        } => format!(
            "[resource <{uri}> {}, binary, about {} bytes, not shown]",
            mime_type.as_deref().unwrap_or("application/octet-stream"),
            decoded_len(&blob)
        ),
    }
}

/// An image resource: what it is, and how a widget shows it (by its URI, resolved by the page).
fn describe_image(uri: &str, media_type: &str, blob: &str) -> String {
    format!(
        "[resource <{uri}> {media_type}, an image of about {} bytes from the server; a widget shows it with \"{uri}\" as its image URL]",
        decoded_len(blob)
    )
}

/// Keeps the whole block as JSON, so nothing the server sent is lost to the model.
fn describe_unknown(value: &Value) -> String {
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("untyped");
    format!("[content of type \"{kind}\" this client does not interpret] {value}")
}

/// Size of base64 `data` once decoded, without decoding it.
fn decoded_len(data: &str) -> usize {
    let padding = data.bytes().rev().take_while(|byte| *byte == b'=').count();
    (data.len() * 3 / 4).saturating_sub(padding)
}
