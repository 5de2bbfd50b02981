//! Talking to LLM providers: the neutral message model, the [`model::ChatModel`] seam the agent loop calls,
//! one module per wire format (Anthropic, OpenAI-compatible, Ollama), and the HTTP model that sends them with retries.

pub mod anthropic;
pub mod cost;
pub mod http;
pub mod message;
pub mod model;
pub mod ollama;
pub mod openai;
pub mod partial_json;
pub mod profile;
pub mod retry;
