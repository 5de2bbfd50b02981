//! User settings: which LLM to call and how the agent behaves. Persisted by the app in local storage.
//! The API key is bound to the endpoint it was entered for: it is sent only to that origin.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::llm::profile::{DerivedLimits, ModelProfile, ProfileSource, UNKNOWN_MODEL, known_profile};
use crate::weburl::{cleartext_remote_host, origin};

/// Wire format of the LLM provider.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    #[default]
    Anthropic,
    /// Any OpenAI-compatible chat-completions endpoint (OpenAI, LM Studio, OpenRouter, vLLM, Ollama's `/v1`...).
    OpenAi,
    /// Ollama's native `/api/chat`, which can set the context size (`num_ctx`).
    Ollama,
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
    /// The base URL the key was entered for; empty in settings stored before keys were bound (the
    /// key then belongs to the stored base URL).
    pub key_base_url: String,
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
    /// Origins (`http://host:port`) on another machine the person agreed to send the key to over
    /// plain http, where anyone on the network between can read it.
    pub cleartext_key_origins: Vec<String>,
    /// Offer the dashboard's tools to other agents in this browser (WebMCP); off unregisters them all.
    pub webmcp_tools: bool,
    /// Offer `recall` (every stored MCP result) among those tools: off unless the person turns it on,
    /// since it hands third-party data from every server to whatever agent asks.
    pub webmcp_recall: bool,
    /// The context window a model's server reported (Ollama's `/api/show`), learnt by a run
    /// (`AgentSession::run_sized`); it counts while that endpoint and model are the active ones.
    /// Asked again each visit, so never stored.
    #[serde(skip)]
    pub reported_context: Option<ReportedContext>,
}

/// A context window the model's server reported, for one endpoint and model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportedContext {
    pub base_url: String,
    pub model: String,
    pub tokens: u32,
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
            key_base_url: String::new(),
            max_iterations: 12,
            result_limit: 10_000,
            system_prompt_prefix: String::new(),
            theme: Theme::System,
            profiles: BTreeMap::new(),
            limits_from_profile: true,
            token_param: TokenParam::Auto,
            first_byte_timeout_s: 120,
            idle_timeout_s: 60,
            cleartext_key_origins: Vec::new(),
            webmcp_tools: true,
            webmcp_recall: false,
            reported_context: None,
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
        provider: ProviderKind::Ollama,
        base_url: "http://localhost:11434",
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
        self.key_base_url = self.base_url.clone();
        self.model = preset.model.to_owned();
    }

    /// The key as typed by the person, for the current endpoint.
    pub fn set_key(&mut self, key: &str) {
        self.api_key = key.trim().to_owned();
        self.key_base_url = self.base_url.clone();
    }

    /// Changes the endpoint by hand. A key entered for another origin is removed and returned, so the
    /// app can ask whether to send it there ([`Settings::confirm_key`]); it is never kept silently.
    pub fn change_base_url(&mut self, url: &str) -> Option<String> {
        let bound = self.key_endpoint().to_owned();
        self.base_url = url.trim().to_owned();
        if self.api_key.is_empty() || same_origin(&bound, &self.base_url) {
            self.key_base_url = self.base_url.clone();
            return None;
        }
        self.key_base_url = self.base_url.clone();
        Some(std::mem::take(&mut self.api_key))
    }

    /// The person agreed to send `key` to the current endpoint.
    pub fn confirm_key(&mut self, key: String) {
        self.api_key = key;
        self.key_base_url = self.base_url.clone();
    }

    /// The key to send to the current endpoint: empty when it was entered for another origin.
    pub fn key_for_endpoint(&self) -> &str {
        match same_origin(self.key_endpoint(), &self.base_url) {
            true => self.api_key.trim(),
            false => "",
        }
    }

    fn key_endpoint(&self) -> &str {
        if self.key_base_url.is_empty() { &self.base_url } else { &self.key_base_url }
    }

    /// The preset these settings match (same provider and endpoint), if any.
    pub fn preset(&self) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.provider == self.provider && p.base_url == self.base_url.trim_end_matches('/'))
    }

    /// Whether a run can start: a key is needed unless the endpoint is on this machine or is Ollama
    /// (on the local network, which needs none).
    pub fn missing_key(&self) -> bool {
        let local = ["://localhost", "://127.0.0.1", "://[::1]"].iter().any(|host| self.base_url.contains(host));
        self.key_for_endpoint().is_empty() && !local && self.provider != ProviderKind::Ollama
    }

    /// The host the key would travel to unencrypted, before the person agreed to it: the endpoint
    /// is plain http on another machine (a LAN server) and a key is set for it. No request is made
    /// to it until [`Settings::allow_cleartext_key`].
    pub fn unconfirmed_cleartext_key(&self) -> Option<String> {
        if self.key_for_endpoint().is_empty() {
            return None;
        }
        let host = cleartext_remote_host(&self.base_url)?;
        let origin = origin(&self.base_url)?;
        (!self.cleartext_key_origins.contains(&origin)).then_some(host)
    }

    /// The person agreed to send the key to the current endpoint over plain http; remembered for it.
    pub fn allow_cleartext_key(&mut self) {
        if let Some(origin) = origin(&self.base_url).filter(|origin| !self.cleartext_key_origins.contains(origin)) {
            self.cleartext_key_origins.push(origin);
        }
    }
}

/// `base` with the window a server reported; the output asked for keeps half of it for the request.
fn reported_profile(base: ModelProfile, context_tokens: u32) -> ModelProfile {
    let output_tokens = base.output_tokens.min(context_tokens / 2).max(1);
    let max_output_tokens = base.max_output_tokens.min(context_tokens / 2).max(output_tokens);
    ModelProfile { context_tokens, output_tokens, max_output_tokens, ..base }
}

/// Two endpoints on one origin (scheme, host, port), or two spellings of one unparsable string.
fn same_origin(a: &str, b: &str) -> bool {
    match (origin(a), origin(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a.trim().trim_end_matches('/') == b.trim().trim_end_matches('/'),
    }
}

impl Settings {
    /// The active model's profile: the person's own, else the built-in one with the context window
    /// the model's server reported (the window it runs with), else a small safe one.
    pub fn profile(&self) -> (ModelProfile, ProfileSource) {
        if let Some(custom) = self.profiles.get(self.model.trim()) {
            return (*custom, ProfileSource::Custom);
        }
        let reported = self
            .reported_context
            .as_ref()
            .filter(|reported| reported.model == self.model.trim() && reported.base_url == self.base_url.trim())
            .map(|reported| reported.tokens);
        match (known_profile(&self.model), reported) {
            (known, Some(context_tokens)) => {
                (reported_profile(known.unwrap_or(UNKNOWN_MODEL), context_tokens), ProfileSource::Reported)
            }
            (Some(known), None) => (known, ProfileSource::Known),
            (None, None) => (UNKNOWN_MODEL, ProfileSource::Unknown),
        }
    }

    /// Records the context window the active endpoint reported for the active model (`None`: it
    /// reported none).
    pub fn report_context(&mut self, tokens: Option<u32>) {
        self.reported_context = tokens.map(|tokens| ReportedContext {
            base_url: self.base_url.trim().to_owned(),
            model: self.model.trim().to_owned(),
            tokens,
        });
    }

    /// Changes the active model's profile (kept under its model id).
    pub fn set_profile(&mut self, change: impl FnOnce(&mut ModelProfile)) {
        let mut profile = self.profile().0;
        change(&mut profile);
        profile.max_output_tokens = profile.max_output_tokens.max(profile.output_tokens);
        self.profiles.insert(self.model.trim().to_owned(), profile);
    }

    /// The request budget, result limit, iteration cap and tool budget derived from the profile,
    /// when `limits_from_profile` is on. An unknown model gets those of [`UNKNOWN_MODEL`], a small
    /// safe window, until the person gives its context size.
    pub fn derived_limits(&self) -> Option<DerivedLimits> {
        self.limits_from_profile.then(|| self.profile().0.derived())
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
        assert_eq!(settings.provider, ProviderKind::Ollama, "the native API, which sets the context size");
        assert_eq!(settings.base_url, "http://localhost:11434");
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
        assert_eq!(settings.derived_limits(), Some(UNKNOWN_MODEL.derived()), "an unknown model gets a small safe window");
        assert!(settings.derived_limits().is_some_and(|limits| limits.tool_budget > 0), "and staged activation");
        assert_eq!(settings.effective().max_iterations, 12);
        settings.set_profile(|profile| profile.context_tokens = 32_768);
        assert_eq!(settings.effective().max_iterations, 13, "its context, once given, counts");
    }

    #[test]
    fn a_reported_window_counts_for_its_endpoint_and_model_only_and_the_persons_wins() {
        let mut settings = Settings { model: "my-finetune:3b".to_owned(), ..Settings::default() };
        settings.apply_preset(PRESETS.iter().find(|p| p.id == "ollama").unwrap());
        settings.model = "my-finetune:3b".to_owned();
        settings.report_context(Some(32_768));
        let (profile, source) = settings.profile();
        assert_eq!((profile.context_tokens, source), (32_768, ProfileSource::Reported));
        assert_eq!(settings.effective().max_iterations, 13, "12 + 32,768 / 32,768");
        assert!(!serde_json::to_string(&settings).unwrap().contains("32768"), "never stored");

        let mut other = settings.clone();
        other.model = "another:1b".to_owned();
        assert_eq!(other.profile().1, ProfileSource::Unknown, "another model's window is not this one's");
        settings.set_profile(|profile| profile.context_tokens = 16_384);
        assert_eq!(settings.profile().0.context_tokens, 16_384, "the person's window wins");

        let mut tiny = Settings { model: "tiny".to_owned(), ..Settings::default() };
        tiny.report_context(Some(2_048));
        let profile = tiny.profile().0;
        assert!(profile.output_tokens <= 1_024 && profile.max_output_tokens < profile.context_tokens, "{profile:?}");
    }

    #[test]
    fn a_key_follows_a_path_change_but_not_a_new_host_unless_confirmed() {
        let mut settings = Settings::default();
        settings.set_key("sk-ant-1");
        assert_eq!(settings.change_base_url("https://api.anthropic.com/"), None, "same origin");
        assert_eq!(settings.key_for_endpoint(), "sk-ant-1");
        let removed = settings.change_base_url("https://evil.example/v1");
        assert_eq!(removed.as_deref(), Some("sk-ant-1"));
        assert_eq!(settings.api_key, "", "not kept for the new host");
        assert_eq!(settings.key_for_endpoint(), "");
        settings.confirm_key(removed.unwrap());
        assert_eq!(settings.key_for_endpoint(), "sk-ant-1", "sent there once the person agreed");
    }

    #[test]
    fn a_key_goes_over_plain_http_to_another_machine_only_once_the_person_agreed_for_that_endpoint() {
        let mut settings = Settings { provider: ProviderKind::Ollama, ..Settings::default() };
        settings.change_base_url("http://192.168.1.20:11434");
        assert_eq!(settings.unconfirmed_cleartext_key(), None, "no key, nothing to protect");
        settings.set_key("secret");
        assert_eq!(settings.unconfirmed_cleartext_key().as_deref(), Some("192.168.1.20"));
        settings.allow_cleartext_key();
        assert_eq!(settings.unconfirmed_cleartext_key(), None, "remembered for this endpoint");
        settings.change_base_url("http://192.168.1.20:11434/api");
        assert_eq!(settings.unconfirmed_cleartext_key(), None, "same origin, another path");
        let moved = settings.change_base_url("http://192.168.1.21:11434");
        settings.confirm_key(moved.expect("another host: the key was held back"));
        assert_eq!(settings.unconfirmed_cleartext_key().as_deref(), Some("192.168.1.21"), "another machine asks again");
        settings.change_base_url("http://localhost:11434");
        assert_eq!(settings.unconfirmed_cleartext_key(), None, "this machine: nothing crosses a network");
    }

    #[test]
    fn a_key_bound_to_another_endpoint_is_never_sent_to_this_one() {
        let stored = r#"{"base_url":"https://other.example/v1","api_key":"k","key_base_url":"https://api.openai.com/v1"}"#;
        let settings: Settings = serde_json::from_str(stored).unwrap();
        assert_eq!(settings.key_for_endpoint(), "");
        let legacy: Settings = serde_json::from_str(r#"{"base_url":"https://api.openai.com/v1","api_key":"k"}"#).unwrap();
        assert_eq!(legacy.key_for_endpoint(), "k", "a key stored before binding belongs to its stored URL");
    }

    #[test]
    fn missing_fields_take_defaults_so_old_stored_settings_still_load() {
        let settings: Settings = serde_json::from_str(r#"{"model":"gpt-4o","provider":"open_ai"}"#).unwrap();
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.model, "gpt-4o");
        assert_eq!(settings.max_iterations, 12);
        assert!(settings.webmcp_tools, "settings stored before the switch keep the page's tools on");
        assert!(!settings.webmcp_recall, "and recall off");
    }
}
