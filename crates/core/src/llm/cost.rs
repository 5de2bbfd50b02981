//! Estimated cost of a model call from its token usage and the model profile's list prices.

use crate::llm::model::Usage;
use crate::llm::profile::Prices;
use crate::view::present::format_number;

/// The estimated cost in USD at `prices`: `Some(0.0)` for a model served from this machine, `None`
/// when the price is unknown.
pub fn estimate_at(prices: Option<Prices>, base_url: &str, usage: &Usage) -> Option<f64> {
    if is_local(base_url) {
        return Some(0.0);
    }
    let price = prices?;
    let per_token = |tokens: u64, dollars_per_million: f64| tokens as f64 * dollars_per_million / 1_000_000.0;
    Some(
        per_token(usage.input_tokens, price.input)
            + per_token(usage.output_tokens, price.output)
            + per_token(usage.cache_creation_input_tokens, price.cache_write)
            + per_token(usage.cache_read_input_tokens, price.cache_read),
    )
}

/// Token counts as a person reads them: "12,345 in · 678 out", with "· 10,000 cached" when the
/// provider's cache served some of the input.
pub fn usage_text(usage: &Usage) -> String {
    let mut text = format!("{} in \u{b7} {} out", format_number(usage.input_tokens as f64), format_number(usage.output_tokens as f64));
    if usage.cache_read_input_tokens > 0 {
        text.push_str(&format!(" \u{b7} {} cached", format_number(usage.cache_read_input_tokens as f64)));
    }
    text
}

/// An estimated cost as a person reads it ("$0.0123", "$0" for a model on this machine), or that the
/// model's prices are unknown.
pub fn cost_text(cost_usd: Option<f64>) -> String {
    match cost_usd {
        None => "cost unknown for this model".to_owned(),
        Some(cost) if cost <= 0.0 => "$0".to_owned(),
        Some(cost) if cost < 0.000_05 => "under $0.0001".to_owned(),
        Some(cost) => format!("${cost:.4}"),
    }
}

fn is_local(base_url: &str) -> bool {
    let host = base_url.split("://").nth(1).unwrap_or(base_url);
    ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"].iter().any(|local| host.starts_with(local))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::profile::known_profile;

    /// At the built-in list prices of `model`.
    fn estimate_usd(model: &str, base_url: &str, usage: &Usage) -> Option<f64> {
        estimate_at(known_profile(model).and_then(|profile| profile.prices), base_url, usage)
    }

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
    fn usage_and_cost_read_as_a_person_reads_them() {
        assert_eq!(usage_text(&usage(12_345, 678, 0, 0)), "12,345 in \u{b7} 678 out");
        assert_eq!(usage_text(&usage(2_000, 50, 300, 10_000)), "2,000 in \u{b7} 50 out \u{b7} 10,000 cached");
        assert_eq!(cost_text(Some(0.012_34)), "$0.0123");
        assert_eq!(cost_text(Some(0.0)), "$0", "a model on this machine");
        assert_eq!(cost_text(Some(0.000_01)), "under $0.0001", "not $0.0000");
        assert_eq!(cost_text(None), "cost unknown for this model");
    }

    #[test]
    fn local_models_are_free_and_unknown_models_have_no_estimate() {
        assert_eq!(estimate_usd("llama3.1", "http://localhost:11434/v1", &usage(5, 5, 0, 0)), Some(0.0));
        assert_eq!(estimate_usd("mystery-model", "https://example.org/v1", &usage(5, 5, 0, 0)), None);
    }
}
