//! The request budget's last stage: when compression cannot bring a request within its budget (a
//! small context window, a long run), whole old steps are left out of the request, oldest first:
//! first tool rounds (an assistant message of tool calls and the results answering it), then earlier
//! turns whole. The newest round and the person's current message always stay. Leaving out a round
//! takes its calls and their results together, so every tool_use that is sent is still answered in
//! the next message (both providers require it). A note in front of the conversation names each
//! left-out call with the `recall` that returns its result: nothing is lost, only not resent.
//! The session keeps its messages whole; only the request is condensed.

use std::ops::Range;

use serde_json::Value;

use crate::llm::message::{ContentBlock, Message, Role};

/// Characters of a left-out call's input the note shows.
const INPUT_CHARS: usize = 80;

/// The spans of `messages` that may be left out, in the order they go.
pub(crate) fn droppable(messages: &[Message]) -> Vec<Range<usize>> {
    let rounds: Vec<usize> =
        (1..messages.len()).filter(|&answer| is_round(&messages[answer - 1], &messages[answer])).collect();
    let mut steps: Vec<Range<usize>> = match rounds.split_last() {
        Some((_, older)) => older.iter().map(|&answer| answer - 1..answer + 1).collect(),
        None => Vec::new(),
    };
    // Earlier turns, each from a message of the person's to the next one; the last one is current.
    let starts: Vec<usize> = (0..messages.len()).filter(|&at| is_persons(&messages[at])).collect();
    steps.extend(starts.windows(2).map(|pair| pair[0]..pair[1]));
    steps
}

/// `messages` without the spans in `left_out`, opened by a note naming what was left out.
pub(crate) fn without(messages: &[Message], left_out: &[Range<usize>]) -> Vec<Message> {
    let mut kept = vec![true; messages.len()];
    for span in left_out {
        kept[span.clone()].fill(false);
    }
    let mut calls = Vec::new();
    let mut dropped_messages = 0;
    for (message, _) in messages.iter().zip(&kept).filter(|(_, kept)| !**kept) {
        if is_persons(message) {
            dropped_messages += 1;
        }
        if message.role == Role::Assistant {
            calls.extend(message.content.iter().filter_map(describe_call));
        }
    }
    let mut condensed: Vec<Message> =
        messages.iter().zip(&kept).filter(|(_, kept)| **kept).map(|(message, _)| message.clone()).collect();
    let note = ContentBlock::Text { text: note_text(dropped_messages, &calls) };
    match condensed.first_mut() {
        Some(first) if is_persons(first) => first.content.insert(0, note),
        _ => condensed.insert(0, Message { role: Role::User, content: vec![note] }),
    }
    condensed
}

fn note_text(dropped_messages: usize, calls: &[String]) -> String {
    let mut text = String::from("<context>\nLeft out of this request to fit the model's context window:");
    if dropped_messages > 0 {
        text.push_str(&format!(" {dropped_messages} earlier message(s) of the person and the replies to them;"));
    }
    if !calls.is_empty() {
        text.push_str(" these earlier tool calls (each one's recall returns its result):");
        for call in calls {
            text.push_str("\n- ");
            text.push_str(call);
        }
    }
    text.push_str("\n</context>");
    text
}

/// `recall('r1'): orders_mcp_fetch_page {"page":1}`, the input cut to [`INPUT_CHARS`].
fn describe_call(block: &ContentBlock) -> Option<String> {
    let ContentBlock::ToolUse { id, name, input } = block else { return None };
    let input = match input {
        Value::Object(fields) if fields.is_empty() => String::new(),
        input => {
            let json = input.to_string();
            match json.char_indices().nth(INPUT_CHARS) {
                Some((end, _)) => format!(" {}…", &json[..end]),
                None => format!(" {json}"),
            }
        }
    };
    Some(format!("recall('{id}'): {name}{input}"))
}

/// An assistant message of tool calls and the message of their results right after it.
fn is_round(calls: &Message, answers: &Message) -> bool {
    calls.role == Role::Assistant
        && calls.content.iter().any(|block| matches!(block, ContentBlock::ToolUse { .. }))
        && answers.role == Role::User
        && answers.content.iter().any(|block| matches!(block, ContentBlock::ToolResult { .. }))
}

/// A message the person sent (a user message that answers no tool call).
fn is_persons(message: &Message) -> bool {
    message.role == Role::User && !message.content.iter().any(|block| matches!(block, ContentBlock::ToolResult { .. }))
}
