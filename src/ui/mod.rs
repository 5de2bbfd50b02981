//! The app's panels: header, canvas, chat and settings.

pub mod app;
pub mod canvas;
pub mod chat;
pub mod header;
pub mod settings;
pub mod theme;
