//! Paging of the list methods (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`).

use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PageParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}
