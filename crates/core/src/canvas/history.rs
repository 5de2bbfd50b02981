//! Undo/redo history of canvas states.
