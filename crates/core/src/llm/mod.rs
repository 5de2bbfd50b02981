//! Talking to LLM providers: the neutral message model, and one module per wire format.

pub mod message;
