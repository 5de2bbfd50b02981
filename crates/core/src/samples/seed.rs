//! Deterministic variation for the generated datasets: a fixed hash of a seed, so "random-looking"
//! figures are the same on every machine and every run, and rounding helpers shared by the datasets.

/// SplitMix64's finaliser: a well-mixed 64-bit value for any seed.
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A value in `low..=high` drawn from `seed`.
pub fn between(seed: u64, low: i64, high: i64) -> i64 {
    let span = (high - low + 1).max(1) as u64;
    low + (mix(seed) % span) as i64
}

/// Whether an event of probability `per_mille`/1000 happens for `seed`.
pub fn chance(seed: u64, per_mille: u64) -> bool {
    mix(seed) % 1_000 < per_mille
}

/// `part / whole` as a percentage with one decimal (0 when `whole` is 0).
pub fn percent(part: i64, whole: i64) -> f64 {
    if whole == 0 { 0.0 } else { (part as f64 * 1_000.0 / whole as f64).round() / 10.0 }
}

/// `numerator / denominator` rounded to the nearest integer (half away from zero), for positive values.
pub fn div_round(numerator: i64, denominator: i64) -> i64 {
    (numerator + denominator / 2) / denominator
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_fixed_and_stay_in_range() {
        assert_eq!(mix(1), mix(1));
        assert_ne!(mix(1), mix(2));
        for seed in 0..1_000 {
            assert!((940..=1_060).contains(&between(seed, 940, 1_060)));
        }
        let hits = (0..10_000).filter(|seed| chance(*seed, 100)).count();
        assert!((900..1_100).contains(&hits), "{hits}");
    }

    #[test]
    fn percentages_have_one_decimal() {
        assert_eq!(percent(1, 3), 33.3);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(5, 0), 0.0);
        assert_eq!(div_round(7, 2), 4);
    }
}
