//! Model profiles: each known model's context window, output token limits and list prices, read from
//! `profiles.json` (the one place to update when providers change them), and what the agent derives
//! from a profile (request budget, result limit, iteration cap).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// US dollars per million tokens.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prices {
    pub input: f64,
    pub output: f64,
    pub cache_write: f64,
    pub cache_read: f64,
}

/// What the app knows of one model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelProfile {
    /// Tokens the model reads and writes in one call, request and reply together.
    pub context_tokens: u32,
    /// Output tokens asked for on each call (`max_tokens`).
    pub output_tokens: u32,
    /// The most output the model allows: the ceiling of the retry after a tool call was cut off.
    pub max_output_tokens: u32,
    /// `None` when the price is not known (local models are free whatever this says).
    pub prices: Option<Prices>,
}

/// A profile for a model the app does not know: small enough for an 8k-context local model.
pub const UNKNOWN_MODEL: ModelProfile =
    ModelProfile { context_tokens: 8_192, output_tokens: 2_048, max_output_tokens: 4_096, prices: None };

/// Where the active profile came from, for the settings panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileSource {
    /// The built-in table.
    Known,
    /// The person's values in settings.
    Custom,
    /// The context window the model's server reported (Ollama's `/api/show`), on the built-in
    /// profile or the unknown model's.
    Reported,
    /// Neither: [`UNKNOWN_MODEL`] until the person gives the model's context size.
    Unknown,
}

#[derive(Deserialize)]
struct Entry {
    /// Matched as a substring of the model id with dots read as dashes, most specific first.
    #[serde(rename = "match")]
    needle: String,
    #[serde(flatten)]
    profile: ModelProfile,
}

fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    // The file is checked by this module's tests, so a parse failure cannot ship.
    TABLE.get_or_init(|| serde_json::from_str(include_str!("profiles.json")).unwrap_or_default())
}

/// The built-in profile of `model` (dated ids and OpenRouter's `vendor/model` ids match too).
pub fn known_profile(model: &str) -> Option<ModelProfile> {
    let id = model.to_ascii_lowercase().replace('.', "-");
    table().iter().find(|entry| id.contains(&entry.needle)).map(|entry| entry.profile)
}

/// Bytes of text per token assumed when turning a token count into a request size: JSON and
/// English run at about 3 to 4; the lower figure keeps a request inside the window.
pub const BYTES_PER_TOKEN: usize = 3;
/// The request budget never goes below this (the system prompt and the autoui tools must fit).
pub const MIN_REQUEST_BUDGET: usize = 8_000;
/// Nor above this: a 1M-token window would otherwise resend megabytes (and their cost) on every iteration.
pub const MAX_REQUEST_BUDGET: usize = 240_000;
/// One result never shows more than this many characters, however large the window.
pub const MAX_RESULT_LIMIT: usize = 40_000;
/// The tool budget never goes below this: the discovery set offered in every request (about 4 KB)
/// and a few of a server's tools, so a small window still gets staged tools.
pub const MIN_TOOL_BUDGET: usize = 6_000;

/// Limits of one run derived from the profile's context window (see ARCHITECTURE.md, "Model profiles").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DerivedLimits {
    /// Bytes of request body the agent keeps each request within.
    pub request_budget: usize,
    /// Characters of one tool result shown to the model.
    pub result_limit: usize,
    /// Iterations one turn may take.
    pub max_iterations: u32,
    /// Bytes of tool definitions offered in one request (part of the request budget).
    pub tool_budget: usize,
}

impl ModelProfile {
    /// `request_budget = BYTES_PER_TOKEN × (context − output) × 2/3` (a third of the input room left
    /// for the estimate's error), within [`MIN_REQUEST_BUDGET`]..[`MAX_REQUEST_BUDGET`];
    /// `result_limit = request_budget / 5` (at least 1,000, at most [`MAX_RESULT_LIMIT`]);
    /// `tool_budget = request_budget / 4` (at least [`MIN_TOOL_BUDGET`]); `max_iterations = 12 +
    /// context / 32,768`, at most 40.
    pub fn derived(&self) -> DerivedLimits {
        let room = self.context_tokens.saturating_sub(self.output_tokens) as usize;
        let request_budget = (BYTES_PER_TOKEN * room * 2 / 3).clamp(MIN_REQUEST_BUDGET, MAX_REQUEST_BUDGET);
        DerivedLimits {
            request_budget,
            result_limit: (request_budget / 5).clamp(1_000, MAX_RESULT_LIMIT),
            max_iterations: (12 + self.context_tokens / 32_768).min(40),
            tool_budget: (request_budget / 4).max(MIN_TOOL_BUDGET),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profile_file_parses_and_every_preset_model_has_a_profile() {
        assert!(table().len() > 10);
        for preset in crate::settings::PRESETS {
            for model in preset.models {
                assert!(known_profile(model).is_some(), "{model} has no profile");
            }
        }
    }

    #[test]
    fn every_profile_fits_its_output_in_its_window() {
        for entry in table() {
            let p = entry.profile;
            assert!(p.output_tokens <= p.max_output_tokens && p.max_output_tokens < p.context_tokens, "{}", entry.needle);
        }
    }

    #[test]
    fn the_most_specific_name_wins_and_dated_and_routed_ids_match() {
        assert_eq!(known_profile("claude-opus-4-5-20251101").map(|p| p.max_output_tokens), Some(64_000));
        assert_eq!(known_profile("claude-opus-4-1").map(|p| p.max_output_tokens), Some(32_000));
        assert_eq!(known_profile("openai/gpt-4.1-mini").and_then(|p| p.prices).map(|p| p.input), Some(0.4));
        assert_eq!(known_profile("mystery-model"), None);
    }

    #[test]
    fn a_large_window_gets_a_larger_budget_and_a_small_one_is_not_overrun() {
        let large = known_profile("claude-sonnet-4-5").expect("known").derived();
        let small = UNKNOWN_MODEL.derived();
        assert_eq!(large.request_budget, MAX_REQUEST_BUDGET, "3 × 191,808 × 2/3 is over the cap");
        assert_eq!(large.max_iterations, 18);
        assert_eq!(small.request_budget, 3 * (8_192 - 2_048) * 2 / 3);
        assert!(small.request_budget / BYTES_PER_TOKEN < 8_192 - 2_048, "the request fits the window");
        assert_eq!(small.max_iterations, 12);
        assert_eq!(small.result_limit, small.request_budget / 5);
        assert_eq!(small.tool_budget, MIN_TOOL_BUDGET, "room for the discovery set and a few staged tools");
        assert_eq!(large.tool_budget, MAX_REQUEST_BUDGET / 4);
    }
}
