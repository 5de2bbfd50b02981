//! A scripted LLM: each call takes the next step of a script, streams its text and tool inputs in
//! small pieces the way a provider does, and records the request it was given.

use std::cell::RefCell;
use std::collections::VecDeque;

use autoui_core::agent::frame::is_frame_line;
use autoui_core::cancel::CancelToken;
use autoui_core::llm::anthropic;
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::llm::model::{ChatModel, ChatRequest, FinishReason, LlmError, ModelEvent, ModelReply, Usage};
use autoui_core::settings::Settings;
use autoui_core::tool::ResultPart;
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// A reply computed from the request the model was sent.
pub type ComputedReply = Box<dyn Fn(&SeenRequest) -> Vec<ContentBlock>>;

/// What the scripted model does on one call.
pub enum Step {
    Reply(Vec<ContentBlock>),
    /// A reply computed from the request (e.g. to use an id a tool returned earlier).
    Compute(ComputedReply),
    Fail(LlmError),
    /// Streams `text`, then waits until the run is cancelled.
    HangAfter(String),
}

/// What the model was sent on one call.
#[derive(Clone, Debug)]
pub struct SeenRequest {
    pub system: String,
    pub tools: Vec<String>,
    pub messages: Vec<Message>,
    /// The same request as an Anthropic body (model `claude-sonnet-4-5`).
    pub anthropic_body: String,
}

impl SeenRequest {
    /// Text of the tool result for call `id`, wherever it is in the conversation.
    pub fn result_of(&self, id: &str) -> Option<String> {
        self.messages.iter().flat_map(|message| &message.content).find_map(|block| match block {
            ContentBlock::ToolResult { tool_use_id, content, .. } if tool_use_id == id => Some(
                content
                    .iter()
                    .filter_map(|part| match part {
                        // The line naming a remote server's data is not part of the result itself.
                        ResultPart::Text { text } if is_frame_line(text) => None,
                        ResultPart::Text { text } => Some(text.as_str()),
                        ResultPart::Image { .. } => None,
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => None,
        })
    }

    /// The result of call `id` parsed as JSON.
    pub fn json_result_of(&self, id: &str) -> Option<Value> {
        self.result_of(id).and_then(|text| serde_json::from_str(&text).ok())
    }

    /// The last user message's text blocks.
    pub fn last_user_text(&self) -> String {
        self.messages
            .iter()
            .rev()
            .find(|message| message.role == Role::User)
            .map(|message| {
                message
                    .content
                    .iter()
                    .filter_map(|block| match block {
                        ContentBlock::Text { text } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default()
    }
}

pub struct ScriptedModel {
    steps: RefCell<VecDeque<Step>>,
    seen: RefCell<Vec<SeenRequest>>,
    /// Pieces of this many characters are streamed for text and tool inputs.
    pub piece: usize,
    pub usage: Usage,
}

impl ScriptedModel {
    pub fn new(steps: impl IntoIterator<Item = Step>) -> ScriptedModel {
        ScriptedModel {
            steps: RefCell::new(steps.into_iter().collect()),
            seen: RefCell::new(Vec::new()),
            piece: 7,
            usage: Usage { input_tokens: 1_000, output_tokens: 100, ..Usage::default() },
        }
    }

    pub fn seen(&self) -> Vec<SeenRequest> {
        self.seen.borrow().clone()
    }

    pub fn remaining(&self) -> usize {
        self.steps.borrow().len()
    }
}

pub fn text(text: &str) -> ContentBlock {
    ContentBlock::Text { text: text.to_owned() }
}

pub fn call(id: &str, name: &str, input: Value) -> ContentBlock {
    ContentBlock::ToolUse { id: id.to_owned(), name: name.to_owned(), input }
}

fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(size.max(1)).map(|chunk| chunk.iter().collect()).collect()
}

impl ChatModel for ScriptedModel {
    fn request_bytes(&self, request: &ChatRequest<'_>, _settings: &Settings) -> usize {
        anthropic::request_body(request, "claude-sonnet-4-5").len()
    }

    fn complete<'a>(
        &'a self,
        request: ChatRequest<'a>,
        _settings: &'a Settings,
        cancel: CancelToken,
        events: &'a dyn Fn(ModelEvent),
    ) -> LocalBoxFuture<'a, Result<ModelReply, LlmError>> {
        let anthropic_body = anthropic::request_body(&request, "claude-sonnet-4-5");
        let anthropic_bytes = anthropic_body.len();
        let seen = SeenRequest {
            system: request.system.to_owned(),
            tools: request.tools.iter().map(|tool| tool.name.clone()).collect(),
            messages: request.messages.to_vec(),
            anthropic_body,
        };
        self.seen.borrow_mut().push(seen.clone());
        let step = self.steps.borrow_mut().pop_front();
        Box::pin(async move {
            let content = match step {
                None => panic!("the scripted model has no step left for request {}", self.seen.borrow().len()),
                Some(Step::Fail(error)) => return Err(error),
                Some(Step::HangAfter(text)) => {
                    for piece in pieces(&text, self.piece) {
                        events(ModelEvent::TextDelta(piece));
                    }
                    cancel.cancelled().await;
                    return Err(LlmError::Cancelled);
                }
                Some(Step::Reply(content)) => content,
                Some(Step::Compute(compute)) => compute(&seen),
            };
            for block in &content {
                match block {
                    ContentBlock::Text { text } => {
                        for piece in pieces(text, self.piece) {
                            events(ModelEvent::TextDelta(piece));
                        }
                    }
                    ContentBlock::ToolUse { id, name, input } => {
                        events(ModelEvent::ToolUseStarted { id: id.clone(), name: name.clone() });
                        for piece in pieces(&input.to_string(), self.piece) {
                            events(ModelEvent::ToolInputDelta { id: id.clone(), delta: piece });
                        }
                    }
                    _ => {}
                }
            }
            let calls_tools = content.iter().any(|block| matches!(block, ContentBlock::ToolUse { .. }));
            Ok(ModelReply {
                content,
                finish: if calls_tools { FinishReason::ToolUse } else { FinishReason::EndTurn },
                usage: self.usage,
                malformed: Vec::new(),
                request_bytes: anthropic_bytes,
            })
        })
    }
}
