//! Estimated cost of a model call from its token usage and the provider's public list prices.

use crate::llm::model::Usage;

/// US dollars per million tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Prices {
    input: f64,
    output: f64,
    cache_write: f64,
    cache_read: f64,
}

const fn prices(input: f64, output: f64, cache_write: f64, cache_read: f64) -> Prices {
    Prices { input, output, cache_write, cache_read }
}

/// List prices (USD per million tokens) as published by the providers in 2025, most specific name first.
/// Names are matched as substrings of the model id with dots read as dashes, so OpenRouter ids
/// (`anthropic/claude-sonnet-4.5`) and dated ids (`claude-haiku-4-5-20251001`) match too.
const PRICE_LIST: &[(&str, Prices)] = &[
    ("claude-opus-4-5", prices(5.0, 25.0, 6.25, 0.5)),
    ("claude-opus-4", prices(15.0, 75.0, 18.75, 1.5)),
    ("claude-sonnet-4", prices(3.0, 15.0, 3.75, 0.3)),
    ("claude-3-7-sonnet", prices(3.0, 15.0, 3.75, 0.3)),
    ("claude-3-5-sonnet", prices(3.0, 15.0, 3.75, 0.3)),
    ("claude-haiku-4-5", prices(1.0, 5.0, 1.25, 0.1)),
    ("claude-3-5-haiku", prices(0.8, 4.0, 1.0, 0.08)),
    ("gpt-4o-mini", prices(0.15, 0.6, 0.15, 0.075)),
    ("gpt-4o", prices(2.5, 10.0, 2.5, 1.25)),
    ("gpt-4-1-nano", prices(0.1, 0.4, 0.1, 0.025)),
    ("gpt-4-1-mini", prices(0.4, 1.6, 0.4, 0.1)),
    ("gpt-4-1", prices(2.0, 8.0, 2.0, 0.5)),
    ("gpt-5-nano", prices(0.05, 0.4, 0.05, 0.005)),
    ("gpt-5-mini", prices(0.25, 2.0, 0.25, 0.025)),
    ("gpt-5", prices(1.25, 10.0, 1.25, 0.125)),
    ("o4-mini", prices(1.1, 4.4, 1.1, 0.275)),
];

/// The estimated cost in USD, `Some(0.0)` for a model served from this machine, `None` when the price is unknown.
pub fn estimate_usd(model: &str, base_url: &str, usage: &Usage) -> Option<f64> {
    if is_local(base_url) {
        return Some(0.0);
    }
    let id = model.to_ascii_lowercase().replace('.', "-");
    let (_, price) = PRICE_LIST.iter().find(|(needle, _)| id.contains(needle))?;
    let per_token = |tokens: u64, dollars_per_million: f64| tokens as f64 * dollars_per_million / 1_000_000.0;
    Some(
        per_token(usage.input_tokens, price.input)
            + per_token(usage.output_tokens, price.output)
            + per_token(usage.cache_creation_input_tokens, price.cache_write)
            + per_token(usage.cache_read_input_tokens, price.cache_read),
    )
}

fn is_local(base_url: &str) -> bool {
    let host = base_url.split("://").nth(1).unwrap_or(base_url);
    ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"].iter().any(|local| host.starts_with(local))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64, write: u64, read: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_creation_input_tokens: write,
            cache_read_input_tokens: read,
        }
    }

    #[test]
    fn sonnet_costs_three_and_fifteen_dollars_per_million_with_cheap_cache_reads() {
        let cost =
            estimate_usd("claude-sonnet-4-5", "https://api.anthropic.com", &usage(1_000_000, 100_000, 0, 1_000_000));
        assert_eq!(cost.map(|c| (c * 100.0).round() / 100.0), Some(3.0 + 1.5 + 0.3));
    }

    #[test]
    fn the_most_specific_name_wins_and_openrouter_ids_match() {
        let mini = estimate_usd("gpt-4o-mini", "https://api.openai.com/v1", &usage(1_000_000, 0, 0, 0));
        assert_eq!(mini, Some(0.15));
        let routed =
            estimate_usd("anthropic/claude-haiku-4.5", "https://openrouter.ai/api/v1", &usage(1_000_000, 0, 0, 0));
        assert_eq!(routed, Some(1.0));
    }

    #[test]
    fn local_models_are_free_and_unknown_models_have_no_estimate() {
        assert_eq!(estimate_usd("llama3.1", "http://localhost:11434/v1", &usage(5, 5, 0, 0)), Some(0.0));
        assert_eq!(estimate_usd("mystery-model", "https://example.org/v1", &usage(5, 5, 0, 0)), None);
    }
}
