//! When to send a failed LLM request again: exponential backoff with jitter, honouring `retry-after`.

use crate::ports::Random;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// The first backoff step; each retry doubles it.
    pub base_delay_ms: u32,
    /// No wait is longer than this. A server asking for more gets no retry: the error is shown instead.
    pub max_delay_ms: u32,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy { max_retries: 3, base_delay_ms: 1_000, max_delay_ms: 60_000 }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (1-based), or `None` when no retry should be made.
    /// The server's `retry-after` wins over backoff; backoff is half fixed, half random ("equal jitter")
    /// so that many tabs hitting the same rate limit do not come back in lockstep.
    pub fn delay_ms(&self, retry: u32, retry_after_ms: Option<u32>, random: &dyn Random) -> Option<u32> {
        if retry == 0 || retry > self.max_retries {
            return None;
        }
        if let Some(asked) = retry_after_ms {
            return (asked <= self.max_delay_ms).then_some(asked);
        }
        let exponential = u64::from(self.base_delay_ms) << (retry - 1).min(20);
        let capped = exponential.min(u64::from(self.max_delay_ms));
        let half = capped / 2;
        let jitter = if half == 0 { 0 } else { random.next_u64() % (half + 1) };
        u32::try_from(half + jitter).ok()
    }
}

/// Reads `retry-after-ms` (OpenAI) or `retry-after` in seconds; an HTTP date is ignored (backoff applies).
pub fn retry_after_ms(header: impl Fn(&str) -> Option<String>) -> Option<u32> {
    if let Some(ms) = header("retry-after-ms").and_then(|value| value.trim().parse::<f64>().ok()) {
        return to_ms(ms);
    }
    let seconds = header("retry-after")?.trim().parse::<f64>().ok()?;
    to_ms(seconds * 1_000.0)
}

fn to_ms(value: f64) -> Option<u32> {
    (value.is_finite() && value >= 0.0).then(|| value.ceil().min(f64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(u64);

    impl Random for Fixed {
        fn next_u64(&self) -> u64 {
            self.0
        }
    }

    #[test]
    fn backoff_doubles_and_stays_between_half_and_the_full_step() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay_ms(1, None, &Fixed(0)), Some(500));
        assert_eq!(policy.delay_ms(2, None, &Fixed(0)), Some(1_000));
        assert_eq!(policy.delay_ms(3, None, &Fixed(0)), Some(2_000));
        assert_eq!(policy.delay_ms(3, None, &Fixed(2_000)), Some(4_000));
    }

    #[test]
    fn no_fourth_retry_and_no_retry_zero() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay_ms(4, None, &Fixed(0)), None);
        assert_eq!(policy.delay_ms(0, None, &Fixed(0)), None);
    }

    #[test]
    fn retry_after_wins_unless_it_is_longer_than_the_cap() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay_ms(1, Some(7_000), &Fixed(0)), Some(7_000));
        assert_eq!(policy.delay_ms(1, Some(3_600_000), &Fixed(0)), None);
    }

    #[test]
    fn retry_after_headers_are_read_in_seconds_or_milliseconds() {
        let headers = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(key, _)| *key == name).map(|(_, value)| value.to_string())
        };
        assert_eq!(retry_after_ms(headers(&[("retry-after", "2")])), Some(2_000));
        assert_eq!(retry_after_ms(headers(&[("retry-after", "0.5")])), Some(500));
        assert_eq!(retry_after_ms(headers(&[("retry-after-ms", "1200"), ("retry-after", "9")])), Some(1_200));
        assert_eq!(retry_after_ms(headers(&[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")])), None);
        assert_eq!(retry_after_ms(headers(&[])), None);
    }
}
