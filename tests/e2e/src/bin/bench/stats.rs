//! Samples of one figure across runs, summarised as median with min and max.

use std::fmt;

/// The values one figure took, in the order they were measured.
#[derive(Clone, Debug, Default)]
pub struct Samples(Vec<f64>);

impl Samples {
    pub fn push(&mut self, value: f64) {
        self.0.push(value);
    }

    pub fn extend(&mut self, values: impl IntoIterator<Item = f64>) {
        self.0.extend(values);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every sample divided by `divisor` (bytes to KB, say).
    pub fn scaled(&self, divisor: f64) -> Samples {
        Samples(self.0.iter().map(|value| value / divisor).collect())
    }

    /// The middle value (the mean of the two middle ones for an even count).
    pub fn median(&self) -> Option<f64> {
        let sorted = self.sorted();
        let middle = sorted.len() / 2;
        match sorted.len() {
            0 => None,
            n if n % 2 == 1 => Some(sorted[middle]),
            _ => Some((sorted[middle - 1] + sorted[middle]) / 2.0),
        }
    }

    pub fn min(&self) -> Option<f64> {
        self.sorted().first().copied()
    }

    pub fn max(&self) -> Option<f64> {
        self.sorted().last().copied()
    }

    fn sorted(&self) -> Vec<f64> {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        sorted
    }

    /// `median (min–max)` with `unit`, to `decimals` places.
    pub fn show(&self, decimals: usize, unit: &str) -> String {
        Summary {
            samples: self,
            decimals,
            unit,
        }
        .to_string()
    }
}

struct Summary<'a> {
    samples: &'a Samples,
    decimals: usize,
    unit: &'a str,
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (Some(median), Some(min), Some(max)) = (
            self.samples.median(),
            self.samples.min(),
            self.samples.max(),
        ) else {
            return formatter.write_str("not measured");
        };
        let places = self.decimals;
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        if min == max {
            write!(
                formatter,
                "{median:.places$}{unit} (all {n})",
                n = self.samples.len()
            )
        } else {
            write!(
                formatter,
                "{median:.places$}{unit} ({min:.places$}–{max:.places$})"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(values: &[f64]) -> Samples {
        let mut samples = Samples::default();
        samples.extend(values.iter().copied());
        samples
    }

    #[test]
    fn the_median_of_an_odd_count_is_the_middle_value_whatever_the_order() {
        assert_eq!(samples(&[9.0, 1.0, 5.0, 7.0, 3.0]).median(), Some(5.0));
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_two_middle_values() {
        assert_eq!(samples(&[4.0, 1.0, 3.0, 2.0]).median(), Some(2.5));
    }

    #[test]
    fn a_summary_gives_median_then_min_and_max() {
        assert_eq!(
            samples(&[12.0, 10.0, 30.5]).show(1, "ms"),
            "12.0 ms (10.0–30.5)"
        );
    }

    #[test]
    fn identical_samples_say_so_instead_of_a_range() {
        assert_eq!(samples(&[7.0; 5]).show(0, "B"), "7 B (all 5)");
    }

    #[test]
    fn a_count_without_a_unit_has_no_trailing_space() {
        assert_eq!(samples(&[3.0, 4.0, 5.0]).show(0, ""), "4 (3–5)");
    }

    #[test]
    fn scaling_divides_every_sample() {
        assert_eq!(
            samples(&[1_000.0, 3_000.0]).scaled(1_000.0).show(1, "KB"),
            "2.0 KB (1.0–3.0)"
        );
    }

    #[test]
    fn a_figure_without_samples_says_it_was_not_measured() {
        assert_eq!(Samples::default().show(1, "ms"), "not measured");
    }
}
