//! User settings: which LLM to call and how the agent behaves. Persisted by the app in local storage.

use serde::{Deserialize, Serialize};

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
        }
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
    fn missing_fields_take_defaults_so_old_stored_settings_still_load() {
        let settings: Settings = serde_json::from_str(r#"{"model":"gpt-4o","provider":"open_ai"}"#).unwrap();
        assert_eq!(settings.provider, ProviderKind::OpenAi);
        assert_eq!(settings.model, "gpt-4o");
        assert_eq!(settings.max_iterations, 12);
    }
}
