//! JSON-RPC framing: one envelope for every message, typed ids and methods, and the `untagged`
//! variant-order traps pinned (a request must never be read as a notification, an error never as a
//! success, a known content block never as an unknown one).

use autoui_core::mcp::jsonrpc::{METHOD_NOT_FOUND, Message, Method, RequestId};
use autoui_core::mcp::model::content::{Content, ContentBlock, ResourceContents};
use serde_json::json;

fn parse_one(text: &str) -> Message {
    let mut messages = Message::parse_all(text).unwrap();
    assert_eq!(messages.len(), 1);
    messages.remove(0)
}

#[test]
fn a_request_keeps_its_id_instead_of_being_read_as_a_notification() {
    let message = parse_one(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
    let Message::Request(request) = message else {
        panic!("read as {message:?}")
    };
    assert_eq!(request.id, RequestId::Number(7));
    assert_eq!(request.method, Method::Ping);
}

#[test]
fn a_message_without_id_is_a_notification() {
    let message = parse_one(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert!(
        matches!(message, Message::Notification(ref n) if n.method == Method::ToolsListChanged),
        "{message:?}"
    );
}

#[test]
fn an_error_answer_is_never_read_as_a_success() {
    let message =
        parse_one(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"unknown tool"}}"#);
    let Message::Error(error) = message else {
        panic!("read as {message:?}")
    };
    assert_eq!(error.id, Some(RequestId::Number(3)));
    assert_eq!(error.error.code, -32602);
}

#[test]
fn an_error_with_a_null_id_is_still_an_error() {
    let message =
        parse_one(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}"#);
    assert!(
        matches!(message, Message::Error(ref e) if e.id.is_none()),
        "{message:?}"
    );
}

#[test]
fn a_null_result_is_a_success() {
    let message = parse_one(r#"{"jsonrpc":"2.0","id":"a","result":null}"#);
    assert!(
        matches!(message, Message::Response(ref r) if r.id == RequestId::String("a".into())),
        "{message:?}"
    );
}

#[test]
fn numeric_and_string_ids_keep_their_type_when_echoed() {
    let number = parse_one(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    let text = parse_one(r#"{"jsonrpc":"2.0","id":"1","method":"ping"}"#);
    let (Message::Request(number), Message::Request(text)) = (number, text) else {
        panic!()
    };
    assert_eq!(
        Message::response(number.id, json!({})).to_json(),
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
    );
    assert_eq!(
        Message::response(text.id, json!({})).to_json(),
        r#"{"jsonrpc":"2.0","id":"1","result":{}}"#
    );
}

#[test]
fn anything_but_version_2_0_is_refused() {
    assert!(Message::parse_all(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#).is_err());
    assert!(Message::parse_all(r#"{"id":1,"method":"ping"}"#).is_err());
}

#[test]
fn unknown_methods_arrive_by_name_so_they_can_be_refused() {
    let message =
        parse_one(r#"{"jsonrpc":"2.0","id":9,"method":"roots/list","params":{}}"#);
    let Message::Request(request) = message else {
        panic!()
    };
    assert_eq!(
        request.method,
        Method::Other("roots/list".to_owned())
    );
    let refusal = Message::error(
        Some(request.id),
        METHOD_NOT_FOUND,
        format!("method not found: {}", request.method),
    );
    assert_eq!(
        refusal.to_json(),
        r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"method not found: roots/list"}}"#
    );
}

#[test]
fn outgoing_messages_have_the_exact_wire_shape() {
    let request = Message::request(
        RequestId::Number(0),
        Method::ToolsList,
        Some(json!({"cursor": "p2"})),
    );
    assert_eq!(
        request.to_json(),
        r#"{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{"cursor":"p2"}}"#
    );
    let notification = Message::notification(Method::Initialized, None);
    assert_eq!(
        notification.to_json(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    );
}

#[test]
fn a_batch_answer_is_read_as_several_messages() {
    let messages = Message::parse_all(
        r#"[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},
            {"jsonrpc":"2.0","id":1,"result":{"content":[]}}]"#,
    )
    .unwrap();
    assert!(
        matches!(
            messages.as_slice(),
            [Message::Notification(_), Message::Response(_)]
        ),
        "{messages:?}"
    );
}

#[test]
fn known_content_blocks_are_typed_and_unknown_ones_kept_whole() {
    let text: Content = serde_json::from_value(json!({"type": "text", "text": "hi"})).unwrap();
    assert_eq!(
        text,
        Content::Known(ContentBlock::Text { text: "hi".into() })
    );
    let odd = json!({"type": "hologram", "frames": 3});
    assert_eq!(
        serde_json::from_value::<Content>(odd.clone()).unwrap(),
        Content::Unknown(odd)
    );
}

#[test]
fn an_embedded_blob_resource_is_not_read_as_text() {
    let blob: ContentBlock = serde_json::from_value(json!({
        "type": "resource",
        "resource": {"uri": "file:///a.png", "mimeType": "image/png", "blob": "iVBORw=="}
    }))
    .unwrap();
    assert!(
        matches!(blob, ContentBlock::Resource { resource: ResourceContents::Blob { ref uri, .. } } if uri == "file:///a.png"),
        "{blob:?}"
    );
}
