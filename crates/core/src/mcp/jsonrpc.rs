//! JSON-RPC 2.0 framing for MCP: the one envelope type, request ids, the closed set of methods, error codes.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Method not found: the answer to any server request this client does not implement.
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

/// The deepest nesting a message may have. serde_json's own limit (128) would refuse a whole tool
/// list for one deep schema; past this bound a message is refused, so parsing stays stack-safe.
pub const MAX_MESSAGE_DEPTH: usize = 256;

/// The `"jsonrpc": "2.0"` marker; any other value fails to deserialize.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Version;

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str("2.0")
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Version, D::Error> {
        let found = String::deserialize(deserializer)?;
        if found == "2.0" {
            Ok(Version)
        } else {
            Err(serde::de::Error::custom(format!(
                "expected jsonrpc \"2.0\", found \"{found}\""
            )))
        }
    }
}

/// A request id: servers may use numbers or strings, and the answer must echo the same type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    Number(i64),
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(number) => write!(f, "{number}"),
            RequestId::String(text) => f.write_str(text),
        }
    }
}

/// Every method this client sends or understands. A method outside this set arrives as `Other`,
/// so a server request for it can be refused by name with [`METHOD_NOT_FOUND`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    Initialize,
    Initialized,
    Ping,
    ToolsList,
    ToolsCall,
    ResourcesList,
    ResourceTemplatesList,
    ResourcesRead,
    ResourcesSubscribe,
    ResourceUpdated,
    PromptsList,
    PromptsGet,
    CompletionComplete,
    LoggingSetLevel,
    Cancelled,
    Progress,
    ToolsListChanged,
    ResourcesListChanged,
    PromptsListChanged,
    ElicitationCreate,
    SamplingCreateMessage,
    LoggingMessage,
    Other(String),
}

impl Method {
    pub fn as_str(&self) -> &str {
        match self {
            Method::Initialize => "initialize",
            Method::Initialized => "notifications/initialized",
            Method::Ping => "ping",
            Method::ToolsList => "tools/list",
            Method::ToolsCall => "tools/call",
            Method::ResourcesList => "resources/list",
            Method::ResourceTemplatesList => "resources/templates/list",
            Method::ResourcesRead => "resources/read",
            Method::ResourcesSubscribe => "resources/subscribe",
            Method::ResourceUpdated => "notifications/resources/updated",
            Method::PromptsList => "prompts/list",
            Method::PromptsGet => "prompts/get",
            Method::CompletionComplete => "completion/complete",
            Method::LoggingSetLevel => "logging/setLevel",
            Method::Cancelled => "notifications/cancelled",
            Method::Progress => "notifications/progress",
            Method::ToolsListChanged => "notifications/tools/list_changed",
            Method::ResourcesListChanged => "notifications/resources/list_changed",
            Method::PromptsListChanged => "notifications/prompts/list_changed",
            Method::ElicitationCreate => "elicitation/create",
            Method::SamplingCreateMessage => "sampling/createMessage",
            Method::LoggingMessage => "notifications/message",
            Method::Other(name) => name,
        }
    }

    pub fn from_wire(name: &str) -> Method {
        const KNOWN: [Method; 22] = [
            Method::Initialize,
            Method::Initialized,
            Method::Ping,
            Method::ToolsList,
            Method::ToolsCall,
            Method::ResourcesList,
            Method::ResourceTemplatesList,
            Method::ResourcesRead,
            Method::ResourcesSubscribe,
            Method::ResourceUpdated,
            Method::PromptsList,
            Method::PromptsGet,
            Method::CompletionComplete,
            Method::LoggingSetLevel,
            Method::Cancelled,
            Method::Progress,
            Method::ToolsListChanged,
            Method::ResourcesListChanged,
            Method::PromptsListChanged,
            Method::ElicitationCreate,
            Method::SamplingCreateMessage,
            Method::LoggingMessage,
        ];
        KNOWN
            .into_iter()
            .find(|method| method.as_str() == name)
            .unwrap_or_else(|| Method::Other(name.to_owned()))
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Method {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Method, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(Method::from_wire(&name))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub jsonrpc: Version,
    pub id: RequestId,
    pub method: Method,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notification {
    pub jsonrpc: Version,
    pub method: Method,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub jsonrpc: Version,
    pub id: RequestId,
    /// Required: a message without `result` is not a success response.
    pub result: Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorResponse {
    pub jsonrpc: Version,
    /// `null` when the server could not read the request's id (a parse error).
    pub id: Option<RequestId>,
    pub error: RpcError,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// One JSON-RPC message in either direction.
///
/// Variant order matters for `untagged`: `Request` must come before `Notification` (a request
/// would otherwise lose its id), and `Response` before `Error` only works because `result` is
/// required. `tests/mcp_jsonrpc.rs` pins both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Message {
    Request(Request),
    Notification(Notification),
    Response(Response),
    Error(ErrorResponse),
}

impl Message {
    pub fn request(id: RequestId, method: Method, params: Option<Value>) -> Message {
        Message::Request(Request {
            jsonrpc: Version,
            id,
            method,
            params,
        })
    }

    pub fn notification(method: Method, params: Option<Value>) -> Message {
        Message::Notification(Notification {
            jsonrpc: Version,
            method,
            params,
        })
    }

    pub fn response(id: RequestId, result: Value) -> Message {
        Message::Response(Response {
            jsonrpc: Version,
            id,
            result,
        })
    }

    pub fn error(id: Option<RequestId>, code: i64, message: impl Into<String>) -> Message {
        Message::Error(ErrorResponse {
            jsonrpc: Version,
            id,
            error: RpcError {
                code,
                message: message.into(),
                data: None,
            },
        })
    }

    /// The compact JSON text sent on the wire.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses one message or a batch (2025-03-26 servers may still answer with an array).
    pub fn parse_all(text: &str) -> Result<Vec<Message>, serde_json::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum OneOrBatch {
            One(Message),
            Batch(Vec<Message>),
        }
        let depth = nesting_depth(text);
        if depth > MAX_MESSAGE_DEPTH {
            return Err(serde::de::Error::custom(format!(
                "the message is nested {depth} levels deep, more than the {MAX_MESSAGE_DEPTH} this client reads"
            )));
        }
        let mut deserializer = serde_json::Deserializer::from_str(text);
        deserializer.disable_recursion_limit();
        let parsed = OneOrBatch::deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(match parsed {
            OneOrBatch::One(message) => vec![message],
            OneOrBatch::Batch(messages) => messages,
        })
    }
}

/// How deeply arrays and objects nest in JSON `text` (brackets inside strings do not count).
pub fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for byte in text.bytes() {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (true, _) => {}
            (false, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            (false, _) => {}
        }
    }
    deepest
}

/// How deeply arrays and objects nest in `value` (a scalar is 0).
pub fn value_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Object(fields) => 1 + fields.values().map(value_depth).max().unwrap_or(0),
        _ => 0,
    }
}
