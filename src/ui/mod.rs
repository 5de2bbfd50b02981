//! The app's panels: header, canvas, chat, settings and servers.

pub mod app;
pub mod canvas;
pub mod chat;
pub mod gallery;
pub mod header;
pub mod route;
pub mod servers;
pub mod settings;
pub mod theme;
pub mod widget_frame;
