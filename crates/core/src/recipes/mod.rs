//! Widget recipes (`recipes/*.md`): the single source of truth for schemas, discovery and docs.
