//! Why a run stopped: one distinct reason per way a run can end, each with the sentence the user sees.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum StopReason {
    /// The model answered without calling a tool.
    Completed,
    /// The user pressed Stop.
    Cancelled,
    /// The iteration cap was reached while the model still wanted to call tools.
    IterationLimit { limit: u32 },
    /// The LLM request failed (after retries, when the failure was transient). `settings`: what to
    /// change is in the settings (the key, the model, the base URL or a limit).
    ProviderFailed {
        message: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        settings: bool,
    },
    /// The reply reached the output token limit before it was complete; Continue goes on.
    OutputCut { limit: u32 },
    /// The model declined to answer.
    Refused,
    /// The provider's content filter stopped the reply.
    Filtered,
    /// The model ended its reply with no text and no tool call (some do after a tool result).
    EmptyReply,
    /// The page was reloaded (or closed) while the run was going; what it did so far was kept.
    Interrupted,
}

impl StopReason {
    /// Whether what stopped the run is changed in the settings, so the chat offers to open them.
    pub fn fixed_in_settings(&self) -> bool {
        matches!(self, StopReason::ProviderFailed { settings: true, .. })
    }

    /// The sentence shown in the chat when the run ends.
    pub fn describe(&self) -> String {
        match self {
            StopReason::Completed => "Done.".to_owned(),
            StopReason::Cancelled => "Stopped: you pressed Stop.".to_owned(),
            StopReason::IterationLimit { limit } => format!(
                "Stopped after {limit} iterations (the limit set in settings); send a message to let the agent continue."
            ),
            // The provider's own words (its status and message, or why it could not be reached).
            StopReason::ProviderFailed { message, .. } => format!("Stopped: {message}"),
            StopReason::OutputCut { limit } => format!(
                "The reply was cut off: it reached the output limit of {limit} tokens (set in settings). Press Continue to let the agent go on."
            ),
            StopReason::Refused => "The model declined to answer this request (a refusal).".to_owned(),
            StopReason::Filtered => "The provider's content filter stopped the reply.".to_owned(),
            StopReason::EmptyReply => "The model ended its reply without saying anything. Retry, or rephrase.".to_owned(),
            StopReason::Interrupted => "This turn was interrupted by a reload of the page before the agent finished. \
                 Your message and what the agent did so far are kept: press Retry to send it again."
                .to_owned(),
        }
    }
}
