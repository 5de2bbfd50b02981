//! User settings: which LLM to call and how the agent behaves. Persisted by the app in local storage.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::llm::profile::{DerivedLimits, ModelProfile, ProfileSource, UNKNOWN_MODEL, known_profile};

/// Wire format of the LLM provider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    #[default]
    Anthropic,
    /// Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, LM Studio, OpenRouter, vLLM...).
    OpenAi,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    System,
    Light,
    Dark,
}

/// Settings as stored. The API key never appears in `Debug` output or logs.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub provider: ProviderKind,
    pub model: String,
    pub base_url: String,
    pub api_key: String,
    pub max_iterations: u32,
    /// Tool results longer than this many characters are truncated for the model (the full text stays recallable).
    pub result_limit: usize,
    /// Text put before the generated system prompt.
    pub system_prompt_prefix: String,
    pub theme: Theme,
    /// Profiles the person set, by model id: they win over the built-in table.
    pub profiles: BTreeMap<String, ModelProfile>,
    /// Take the request budget, result limit and iteration cap from the model profile (the two
    /// fields above are then ignored).
    pub limits_from_profile: bool,
    /// The field that carries the output limit on OpenAI-compatible requests.
    pub token_param: TokenParam,
    /// Seconds to wait for a reply to start (headers and first event); 0 waits forever.
    pub first_byte_timeout_s: u32,
    /// Seconds to wait between two events of a streaming reply; 0 waits forever.
    pub idle_timeout_s: u32,
}

/// How an OpenAI-compatible endpoint wants `max_tokens` spelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenParam {
    /// `max_completion_tokens` for api.openai.com (its newer models refuse `max_tokens`), else `max_tokens`.
    #[default]
    Auto,
    MaxTokens,
    MaxCompletionTokens,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            provider: ProviderKind::Anthropic,
            model: "claude-sonnet-4-5".to_owned(),
            base_url: "https://api.anthropic.com".to_owned(),
            api_key: String::new(),
            max_iterations: 12,
            result_limit: 10_000,
            system_prompt_prefix: String::new(),
            theme: Theme::System,
            profiles: BTreeMap::new(),
            limits_from_profile: true,
            token_param: TokenParam::Auto,
            first_byte_timeout_s: 120,
            idle_timeout_s: 60,
        }
    }
}

/// A ready-made provider configuration offered in the settings panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static str,
    pub provider: ProviderKind,
    pub base_url: &'static str,
    /// A sensible default model; the person can type any other.
    pub model: &'static str,
    /// Suggestions for the model field.
    pub models: &'static [&'static str],
    /// Whether the endpoint needs an API key (local servers usually do not).
    pub needs_key: bool,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "anthropic",
        label: "Anthropic",
        provider: ProviderKind::Anthropic,
        base_url: "https://api.anthropic.com",
        model: "claude-sonnet-4-5",
        models: &["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5"],
        needs_key: true,
    },
    Preset {
        id: "openai",
        label: "OpenAI",
        provider: ProviderKind::OpenAi,
        base_url: "https://api.openai.com/v1",
        model: "gpt-4.1-mini",
        models: &["gpt-4.1-mini", "gpt-4.1", "gpt-4o-mini", "gpt-5-mini"],
        needs_key: true,
    },
    Preset {
        id: "openrouter",
        label: "OpenRouter",
        provider: ProviderKind::OpenAi,
        base_url: "https://openrouter.ai/api/v1",
        model: "anthropic/claude-sonnet-4.5",
        models: &["anthropic/claude-sonnet-4.5", "openai/gpt-4.1-mini", "google/gemini-2.5-flash"],
        needs_key: true,
    },
    Preset {
        id: "ollama",
        label: "Ollama (this computer)",
        provider: ProviderKind::OpenAi,
        base_url: "http://localhost:11434/v1",
        model: "qwen2.5:7b",
        models: &["qwen2.5:7b", "llama3.1:8b", "mistral-nemo"],
        needs_key: false,
    },
    Preset {
        id: "lmstudio",
        label: "LM Studio (this computer)",
        provider: ProviderKind::OpenAi,
        base_url: "http://localhost:1234/v1",
        model: "qwen2.5-7b-instruct",
        models: &["qwen2.5-7b-instruct", "llama-3.1-8b-instruct"],
        needs_key: false,
    },
];

impl Settings {
    /// Switches to `preset`'s provider, endpoint and default model; the key is kept only when the
    /// endpoint stays the same (a key is never sent to another provider by accident).
    pub fn apply_preset(&mut self, preset: &Preset) {
        if self.base_url != preset.base_url {
            self.api_key.clear();
        }
        self.provider = preset.provider;
        self.base_url = preset.base_url.to_owned();
        self.model = preset.model.to_owned();
    }

    /// The preset these settings match (same provider and endpoint), if any.
    pub fn preset(&self) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.provider == self.provider && p.base_url == self.base_url.trim_end_matches('/'))
    }

    /// Whether a run can start: a key is needed unless the endpoint is on this machine.
    pub fn missing_key(&self) -> bool {
        let local = ["://localhost", "://127.0.0.1", "://[::1]"].iter().any(|host| self.base_url.contains(host));
        self.api_key.trim().is_empty() && !local
    }
}

impl Settings {
    /// The active model's profile: the person's own, else the built-in one, else a small safe one.
    pub fn profile(&self) -> (ModelProfile, ProfileSource) {
        if let Some(custom) = self.profiles.get(self.model.trim()) {
            return (*custom, ProfileSource::Custom);
        }
        match known_profile(&self.model) {
            Some(known) => (known, ProfileSource::Known),
            None => (UNKNOWN_MODEL, ProfileSource::Unknown),
        }
    }

    /// Changes the active model's profile (kept under its model id).
    pub fn set_profile(&mut self, change: impl FnOnce(&mut ModelProfile)) {
        let mut profile = self.profile().0;
        change(&mut profile);
        profile.max_output_tokens = profile.max_output_tokens.max(profile.output_tokens);
        self.profiles.insert(self.model.trim().to_owned(), profile);
    }

    /// The request budget, result limit and iteration cap derived from the profile, when they are
    /// to be used: `limits_from_profile` is on and the model's profile is known or the person's.
    /// An unknown model keeps the fields' limits (the seed's small ones) until its context is given.
    pub fn derived_limits(&self) -> Option<DerivedLimits> {
        let (profile, source) = self.profile();
        (self.limits_from_profile && source != ProfileSource::Unknown).then(|| profile.derived())
    }

    /// These settings with the result limit and iteration cap the run uses.
    pub fn effective(&self) -> Settings {
        let mut settings = self.clone();
        if let Some(derived) = self.derived_limits() {
            settings.result_limit = derived.result_limit;
            settings.max_iterations = derived.max_iterations;
        }
        settings
    }
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("api_key", &if self.api_key.is_empty() { "<none>" } else { "<redacted>" })
            .field("max_iterations", &self.max_iterations)
            .field("result_limit", &self.result_limit)
            .field("theme", &self.theme)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_contains_the_api_key() {
        let settings = Settings { api_key: "sk-ant-secret-123".to_owned(), ..Settings::default() };
        let printed = format!("{settings:?}");
        assert!(!printed.contains("secret"), "{printed}");
        assert!(printed.contains("<redacted>"));
    }

    #[test]
    fn a_preset_sets_provider_endpoint_and_model_and_drops_the_key_of_another_endpoint() {
        let mut settings = Settings { api_key: "sk-ant-1".to_owned(), ..Settings::default() };
        let ollama = PRESETS.iter().find(|p| p.id == "ollama").unwrap();
        settings.apply_preset(ollama);
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.base_url, "http://localhost:11434/v1");
        assert_eq!(settings.api_key, "", "the Anthropic key is not sent to another endpoint");
        assert!(!settings.missing_key(), "a local endpoint needs no key");
        assert_eq!(settings.preset().map(|p| p.id), Some("ollama"));
    }

    #[test]
    fn a_remote_endpoint_without_a_key_cannot_run() {
        assert!(Settings::default().missing_key());
        let settings = Settings { api_key: "k".to_owned(), ..Settings::default() };
        assert!(!settings.missing_key());
    }

    #[test]
    fn a_profile_set_for_a_model_wins_over_the_table_and_an_unknown_model_gets_a_small_one() {
        let mut settings = Settings::default();
        assert_eq!(settings.profile().1, ProfileSource::Known);
        assert_eq!(settings.effective().max_iterations, 18, "200k tokens of context: 12 + 6");
        settings.set_profile(|profile| profile.context_tokens = 50_000);
        let sonnet = known_profile("claude-sonnet-4-5").unwrap();
        assert_eq!(settings.profile(), (ModelProfile { context_tokens: 50_000, ..sonnet }, ProfileSource::Custom));
        assert_eq!(settings.effective().max_iterations, 13);
        settings.limits_from_profile = false;
        assert_eq!(settings.effective().result_limit, 10_000);
        settings.limits_from_profile = true;
        settings.model = "my-finetune".to_owned();
        assert_eq!(settings.profile(), (UNKNOWN_MODEL, ProfileSource::Unknown));
        assert_eq!(settings.derived_limits(), None, "an unknown model keeps the small fixed limits");
        assert_eq!(settings.effective().max_iterations, 12);
        settings.set_profile(|profile| profile.context_tokens = 32_768);
        assert_eq!(settings.effective().max_iterations, 13, "its context, once given, counts");
    }

    #[test]
    fn missing_fields_take_defaults_so_old_stored_settings_still_load() {
        let settings: Settings = serde_json::from_str(r#"{"model":"gpt-4o","provider":"open_ai"}"#).unwrap();
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.model, "gpt-4o");
        assert_eq!(settings.max_iterations, 12);
    }
}
