//! One component per widget kind; this module holds the only `match WidgetKind -> component`.
