//! The agent loop: send the conversation, dispatch tool calls, repeat until done, stopped or capped.
