//! The app's panels: header, canvas, chat, settings and servers.

pub mod app;
pub mod canvas;
pub mod canvas_toolbar;
pub mod chat;
pub mod console;
pub mod events;
pub mod export;
pub mod gallery;
pub mod header;
pub mod notices;
pub mod recipes;
pub mod route;
pub mod servers;
pub mod settings;
pub mod theme;
pub mod views;
pub mod widget_frame;
