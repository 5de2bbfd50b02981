//! Reactive state shared by the panels, each with a `provide_*`/`use_*` pair.

pub mod agent;
pub mod approval;
pub mod attachments;
pub mod autoui;
pub mod canvas;
pub mod elicitation;
pub mod engine;
pub mod notices;
pub mod oauth;
pub mod paper;
pub mod pending;
pub mod persist;
pub mod refresh;
pub mod samples;
pub mod sampling;
pub mod servers;
pub mod settings;
pub mod tabs;
pub mod webmcp;
pub mod writing;
