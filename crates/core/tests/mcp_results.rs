//! Tool results reach the model in a form it can use: text stays text, images stay images,
//! audio and resources are described, `structuredContent` stands in for empty `content`,
//! and `isError: true` becomes an error result; a resource's image blob comes as the image, other
//! blobs only described. Also: where a legacy `endpoint` event may point.

use autoui_core::mcp::endpoint::{EndpointError, resolve, server_host};
use autoui_core::mcp::model::call::CallToolResult;
use autoui_core::mcp::normalize::{to_resource_result, to_tool_result};
use autoui_core::tool::{ResultPart, ToolResult};
use serde_json::json;

fn normalise(fixture: &str) -> ToolResult {
    let path = format!(
        "{}/tests/fixtures/mcp/{fixture}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    to_tool_result(serde_json::from_str::<CallToolResult>(&text).unwrap())
}

fn texts(result: &ToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .filter_map(|part| match part {
            ResultPart::Text { text } => Some(text.as_str()),
            ResultPart::Image { .. } => None,
        })
        .collect()
}

#[test]
fn every_content_kind_becomes_something_the_model_can_read() {
    let result = normalise("call_mixed_content.json");
    assert!(!result.is_error);
    assert_eq!(result.content.len(), 7);
    assert_eq!(
        result.content[0],
        ResultPart::Text {
            text: "Here is the image:".into()
        }
    );
    assert!(
        matches!(&result.content[1], ResultPart::Image { media_type, data } if media_type == "image/png" && data.starts_with("iVBOR")),
        "the image stays an image: {:?}",
        result.content[1]
    );
    let texts = texts(&result);
    assert_eq!(texts[1], "[audio audio/wav, about 44 bytes, not shown]");
    assert_eq!(
        texts[2],
        "[resource link Resource 1 <test://static/resource/1> text/plain] A static text resource"
    );
    assert_eq!(
        texts[3],
        "[resource <test://static/resource/2> text/plain]\nResource 2 body"
    );
    assert_eq!(
        texts[4],
        "[resource <test://static/resource/3> application/octet-stream, binary, about 6 bytes, not shown]"
    );
    assert!(
        texts[5].starts_with("[content of type \"hologram\""),
        "{}",
        texts[5]
    );
    assert!(
        texts[5].contains("\"frames\":3"),
        "unknown blocks are kept whole: {}",
        texts[5]
    );
}

#[test]
fn structured_content_is_the_text_when_content_is_empty() {
    let result = normalise("call_structured_only.json");
    let rows = json!({ "rows": [ { "city": "Paris", "temperature": 21.5 }, { "city": "Lyon", "temperature": 24 } ] });
    assert_eq!(result.structured, Some(rows.clone()));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&result.text_content()).unwrap(),
        rows
    );
}

#[test]
fn structured_content_does_not_replace_content_that_is_there() {
    let result = to_tool_result(
        serde_json::from_value(json!({
            "content": [{"type": "text", "text": "2 rows"}],
            "structuredContent": {"rows": 2}
        }))
        .unwrap(),
    );
    assert_eq!(result.text_content(), "2 rows");
    assert_eq!(result.structured, Some(json!({"rows": 2})));
}

#[test]
fn is_error_true_makes_an_error_result_with_the_servers_words() {
    let result = normalise("call_tool_error.json");
    assert!(result.is_error);
    assert_eq!(result.text_content(), "city \"Atlantis\" not found");
}

#[test]
fn an_empty_result_says_so_instead_of_being_blank() {
    let result = to_tool_result(serde_json::from_value(json!({})).unwrap());
    assert_eq!(result.text_content(), "(the tool returned no content)");
}

#[test]
fn the_endpoint_event_resolves_against_the_sse_url() {
    assert_eq!(
        resolve("http://127.0.0.1:3001/sse", "/message?sessionId=abc").unwrap(),
        "http://127.0.0.1:3001/message?sessionId=abc"
    );
    assert_eq!(
        resolve("http://host/mcp/sse", "messages/?session_id=1").unwrap(),
        "http://host/mcp/messages/?session_id=1"
    );
    assert_eq!(
        resolve("https://host/a/sse#frag", "../m").unwrap(),
        "https://host/m"
    );
    assert_eq!(
        resolve("http://host:8000/sse", "http://host:8000/messages/?s=2").unwrap(),
        "http://host:8000/messages/?s=2"
    );
}

#[test]
fn an_endpoint_on_another_origin_is_refused() {
    let refused = resolve("http://127.0.0.1:3001/sse", "http://evil.example/collect").unwrap_err();
    assert!(
        matches!(refused, EndpointError::OtherOrigin { .. }),
        "{refused:?}"
    );
    assert!(
        resolve("http://127.0.0.1:3001/sse", "https://127.0.0.1:3001/m").is_err(),
        "another scheme is another origin"
    );
}

#[test]
fn only_absolute_http_urls_are_accepted_as_servers() {
    assert_eq!(
        server_host("http://127.0.0.1:3001/mcp").unwrap(),
        "127.0.0.1"
    );
    assert_eq!(
        server_host("https://mcp.example.com/").unwrap(),
        "mcp.example.com"
    );
    for bad in ["", "mcp.example.com", "/mcp", "ftp://host/x", "http://"] {
        assert!(server_host(bad).is_err(), "{bad:?} should be refused");
    }
}

#[test]
fn a_resources_image_blob_comes_as_the_image_and_other_blobs_only_as_a_description() {
    let read = to_resource_result(
        "demo://both",
        vec![
            json!({"uri": "demo://logo.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}),
            json!({"uri": "demo://data.bin", "mimeType": "application/octet-stream", "blob": "AAAA"}),
        ],
    );
    assert_eq!(
        texts(&read),
        [
            "[resource <demo://logo.png> image/png, an image of about 8 bytes from the server; a widget shows it with \"demo://logo.png\" as its image URL]",
            "[resource <demo://data.bin> application/octet-stream, binary, about 3 bytes, not shown]",
        ]
    );
    assert_eq!(read.content[1], ResultPart::Image { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() });
}
