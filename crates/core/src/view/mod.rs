//! What the widgets show, decided without a browser: layouts, scales, cell rules, colours, safe markup
//! and export formats. The components in the app only turn these answers into DOM.

pub mod bar;
pub mod chart;
pub mod contrast;
pub mod fields;
pub mod export;
pub mod hemicycle;
pub mod markdown;
pub mod numeric;
pub mod people;
pub mod present;
pub mod sandbox_doc;
pub mod sankey;
pub mod table;
pub mod vega_lite;
