//! Reactive state shared by the panels, each with a `provide_*`/`use_*` pair.

pub mod canvas;
pub mod servers;
pub mod settings;
