//! Data bindings: a widget's `source` (a tool call or a resource read, a jq `map` and a `refresh`
//! schedule), what its result reads as, and the params a refresh produces.

pub mod jq;
