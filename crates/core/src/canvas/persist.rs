//! The versioned storage format for the canvas, the conversation and named dashboards.
