//! The local `autoui` tool server: search/list/get recipes, widget_display, canvas, recall.
