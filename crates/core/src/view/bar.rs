//! Geometry of the simple `chart` widget: where zero sits, how far each bar reaches, and the short
//! value labels drawn on the bars. Fractions of the plot height, so the widget picks the pixels.

/// The vertical scale of a bar chart: always includes zero, so positive bars grow up from the
/// baseline and negative bars hang down from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarScale {
    low: f64,
    high: f64,
}

/// Where one bar is drawn, as fractions of the plot height measured from the top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BarSpan {
    pub top: f64,
    pub height: f64,
}

impl BarScale {
    /// The scale spanning zero and every finite value; an empty or all-zero chart spans `0..1`.
    pub fn fit(values: impl IntoIterator<Item = f64>) -> BarScale {
        let (low, high) = values
            .into_iter()
            .filter(|value| value.is_finite())
            .fold((0.0_f64, 0.0_f64), |(low, high), value| {
                (low.min(value), high.max(value))
            });
        match high - low > 0.0 {
            true => BarScale { low, high },
            false => BarScale {
                low: 0.0,
                high: 1.0,
            },
        }
    }

    /// The baseline (value zero) as a fraction of the height from the top.
    pub fn zero(&self) -> f64 {
        self.high / (self.high - self.low)
    }

    /// Whether some bar goes below zero (the chart then keeps room for labels under the baseline).
    pub fn has_negative(&self) -> bool {
        self.low < 0.0
    }

    /// The bar from the baseline to `value`.
    pub fn span(&self, value: f64) -> BarSpan {
        let range = self.high - self.low;
        let zero = self.zero();
        let reach = (value.abs() / range).min(1.0);
        match value >= 0.0 {
            true => BarSpan {
                top: zero - reach,
                height: reach,
            },
            false => BarSpan {
                top: zero,
                height: reach,
            },
        }
    }
}

/// A short label that fits on a bar: `640`, `12.5k`, `-3.2M`, `0.25`. Full values stay in tooltips.
pub fn compact_number(value: f64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")];
    let magnitude = value.abs();
    for (size, suffix) in UNITS {
        // 999,950 rounds to 1000.0k, so it reads as the next unit up.
        if magnitude >= size * 0.99995 {
            return format!("{}{suffix}", trim_decimals(value / size, 1));
        }
    }
    let decimals = if magnitude >= 100.0 {
        0
    } else if magnitude >= 1.0 {
        1
    } else {
        2
    };
    trim_decimals(value, decimals)
}

fn trim_decimals(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let text = match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_owned(),
        false => text,
    };
    match text.as_str() {
        "-0" => "0".to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn positive_bars_grow_up_from_a_baseline_at_the_bottom() {
        let scale = BarScale::fit([320.0, 640.0, 160.0]);
        assert!(close(scale.zero(), 1.0));
        assert!(!scale.has_negative());
        let tallest = scale.span(640.0);
        assert!(close(tallest.top, 0.0) && close(tallest.height, 1.0));
        let half = scale.span(320.0);
        assert!(close(half.top, 0.5) && close(half.height, 0.5));
    }

    #[test]
    fn negative_bars_hang_below_a_baseline_placed_by_the_range() {
        let scale = BarScale::fit([30.0, -10.0]);
        assert!(scale.has_negative());
        assert!(close(scale.zero(), 0.75));
        let down = scale.span(-10.0);
        assert!(close(down.top, 0.75) && close(down.height, 0.25));
        let up = scale.span(30.0);
        assert!(close(up.top, 0.0) && close(up.height, 0.75));
    }

    #[test]
    fn all_negative_values_put_the_baseline_at_the_top() {
        let scale = BarScale::fit([-5.0, -20.0]);
        assert!(close(scale.zero(), 0.0));
        assert!(close(scale.span(-20.0).height, 1.0));
    }

    #[test]
    fn empty_or_zero_charts_have_a_usable_scale() {
        for scale in [
            BarScale::fit([]),
            BarScale::fit([0.0, 0.0]),
            BarScale::fit([f64::NAN, f64::INFINITY]),
        ] {
            assert!(close(scale.zero(), 1.0));
            assert!(close(scale.span(0.0).height, 0.0));
        }
    }

    #[test]
    fn compact_numbers_are_short_and_keep_their_sign() {
        assert_eq!(compact_number(640.0), "640");
        assert_eq!(compact_number(12_480.0), "12.5k");
        assert_eq!(compact_number(1_000.0), "1k");
        assert_eq!(compact_number(999_960.0), "1M");
        assert_eq!(compact_number(-3_240_000.0), "-3.2M");
        assert_eq!(compact_number(4.26), "4.3");
        assert_eq!(compact_number(0.251), "0.25");
        assert_eq!(compact_number(-0.001), "0");
        assert_eq!(compact_number(7e12), "7T");
    }
}
