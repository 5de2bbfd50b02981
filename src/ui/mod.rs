//! The app's panels: header, canvas, chat, console, settings and servers, and what they share.

pub mod app;
pub mod approval;
pub mod backup;
pub mod canvas;
pub mod canvas_toolbar;
pub mod chat;
pub mod console;
pub mod dismiss;
pub mod elicitation;
pub mod events;
pub mod export;
pub mod files;
pub mod gallery;
pub mod header;
pub mod icons;
pub mod notices;
pub mod recipes;
pub mod route;
pub mod servers;
pub mod settings;
pub mod settings_agent;
pub mod settings_model;
pub mod settings_storage;
pub mod theme;
pub mod views;
pub mod widget_frame;
