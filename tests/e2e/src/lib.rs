//! Harness for the end-to-end tier.
