//! The only code that calls browser APIs (fetch, EventSource, storage, `modelContext`, the validator module).

pub mod clock;
pub mod confirm;
pub mod download;
pub mod event_source;
pub mod http;
pub mod indexed_db;
pub mod oauth_popup;
pub mod oauth_redirect;
pub mod open_url;
pub mod quota;
pub mod storage;
pub mod tabs;
pub mod theme;
pub mod validator;
pub mod vega;
pub mod visibility;
pub mod webmcp;
