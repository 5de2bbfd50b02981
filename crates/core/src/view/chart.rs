//! Chart geometry for `chart-rich`: nice axis ticks (1-2-5 steps) and their labels, linear and band
//! scales, line and area paths with gaps, stacks, pie/donut arcs, bubble radii and a gauge's dial.
//! Pure numbers in, SVG path text out.

use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::fmt::Write;

/// Evenly spaced axis ticks whose step is 1, 2 or 5 times a power of ten.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ticks {
    /// First tick, at or below the lowest value.
    pub min: f64,
    /// Last tick, at or above the highest value.
    pub max: f64,
    pub step: f64,
}

impl Ticks {
    /// Ticks covering `low..=high` in about `target` intervals (never more than `target` + 1).
    /// A flat range is widened to include zero, and an empty or non-finite one becomes `0..=1`.
    pub fn nice(low: f64, high: f64, target: usize) -> Ticks {
        let (low, high) = widen(low, high);
        let target = target.max(1) as f64;
        let raw = (high - low) / target;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = match raw / magnitude {
            n if n <= 1.0 => 1.0,
            n if n <= 2.0 => 2.0,
            n if n <= 5.0 => 5.0,
            _ => 10.0,
        } * magnitude;
        // The epsilon keeps float noise (0.6 / 0.2 = 3.0000000000000004) from adding a tick.
        let min = clean((low / step + 1e-9).floor() * step, step);
        let max = clean((high / step - 1e-9).ceil() * step, step);
        Ticks { min, max, step }
    }

    /// Every tick value from `min` to `max`.
    pub fn values(&self) -> Vec<f64> {
        let count = ((self.max - self.min) / self.step).round() as usize;
        (0..=count)
            .map(|i| clean(self.min + i as f64 * self.step, self.step))
            .collect()
    }

    /// A tick's label: as many decimals as the step needs, thousands grouped, and `k`/`M`/`B` once
    /// the axis reaches ten thousand (`25k`, `1.5M`).
    pub fn label(&self, value: f64) -> String {
        let reach = self.min.abs().max(self.max.abs());
        let (divisor, suffix) = match reach {
            r if r >= 1e9 => (1e9, "B"),
            r if r >= 1e6 => (1e6, "M"),
            r if r >= 1e4 => (1e3, "k"),
            _ => (1.0, ""),
        };
        if value == 0.0 {
            return "0".to_owned();
        }
        let decimals = decimals_for(self.step / divisor);
        format!("{}{suffix}", format_fixed(value / divisor, decimals))
    }
}

/// `value` with exactly `decimals` decimals and grouped thousands: `format_fixed(-1234.5, 2)` is `-1,234.50`.
pub fn format_fixed(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(text.len() + whole.len() / 3 + 1);
    if value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.push('-');
    }
    for (index, digit) in whole.chars().enumerate() {
        if index > 0 && (whole.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// Maps a data interval onto a pixel interval (reversed ranges are fine: y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear {
    pub domain: (f64, f64),
    pub range: (f64, f64),
}

impl Linear {
    pub fn map(&self, value: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if d1 == d0 {
            return (r0 + r1) / 2.0;
        }
        r0 + (value - d0) / (d1 - d0) * (r1 - r0)
    }
}

/// Splits `start..start + length` into `count` equal bands with `padding` (a fraction of a band) between them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub start: f64,
    pub length: f64,
    pub count: usize,
    pub padding: f64,
}

impl Band {
    /// The width of one band, without its padding.
    pub fn width(&self) -> f64 {
        self.step() * (1.0 - self.padding)
    }

    /// Where band `index` begins.
    pub fn position(&self, index: usize) -> f64 {
        self.start + self.step() * (index as f64 + self.padding / 2.0)
    }

    pub fn center(&self, index: usize) -> f64 {
        self.position(index) + self.width() / 2.0
    }

    /// Which band `x` falls in (clamped to the first and last).
    pub fn index_at(&self, x: f64) -> usize {
        let last = self.count.saturating_sub(1);
        let raw = ((x - self.start) / self.step()).floor();
        if raw <= 0.0 {
            0
        } else {
            (raw as usize).min(last)
        }
    }

    fn step(&self) -> f64 {
        self.length / self.count.max(1) as f64
    }
}

/// An SVG path through the points, starting a new segment after each gap (`None`).
pub fn line_path(points: &[Option<(f64, f64)>]) -> String {
    let mut path = String::new();
    let mut pen_down = false;
    for point in points {
        match point {
            Some((x, y)) => {
                let command = if pen_down { 'L' } else { 'M' };
                let _ = write!(path, "{command}{} {}", num(*x), num(*y));
                pen_down = true;
            }
            None => pen_down = false,
        }
    }
    path
}

/// The filled area between the line through `points` and the horizontal line `baseline`, one closed
/// shape per run of points without gaps.
pub fn area_path(points: &[Option<(f64, f64)>], baseline: f64) -> String {
    let mut path = String::new();
    for run in points.split(Option::is_none) {
        let run: Vec<(f64, f64)> = run.iter().flatten().copied().collect();
        let (Some(first), Some(last)) = (run.first(), run.last()) else {
            continue;
        };
        let _ = write!(path, "M{} {}", num(first.0), num(baseline));
        for (x, y) in &run {
            let _ = write!(path, "L{} {}", num(*x), num(*y));
        }
        let _ = write!(path, "L{} {}Z", num(last.0), num(baseline));
    }
    path
}

/// One slice of a pie: angles in radians, clockwise from twelve o'clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slice {
    /// Position of the value in the input.
    pub index: usize,
    pub start: f64,
    pub end: f64,
    /// Share of the total, 0..=1.
    pub fraction: f64,
}

impl Slice {
    pub fn mid(&self) -> f64 {
        (self.start + self.end) / 2.0
    }
}

/// The slices of a pie for `values`. Zero, negative and non-finite values get no slice (a part of a
/// whole cannot be negative); the caller says so to the user.
pub fn pie(values: &[f64]) -> Vec<Slice> {
    let total: f64 = values.iter().filter(|v| v.is_finite() && **v > 0.0).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    let mut angle = -FRAC_PI_2;
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite() && **v > 0.0)
        .map(|(index, value)| {
            let fraction = value / total;
            let start = angle;
            angle += fraction * TAU;
            Slice {
                index,
                start,
                end: angle,
                fraction,
            }
        })
        .collect()
}

/// The largest and smallest font size (px) of the total in a donut's hole.
const HOLE_TEXT_MAX: f64 = 20.0;
const HOLE_TEXT_MIN: f64 = 14.0;

/// What a donut's hole of `inner` radius shows of its total, and at which font size: the full text
/// (`29,638,524 €`) as large as fits up to 20 px, or, when that would be under 14 px, the compact text
/// (`29.6M €`) as large as fits. Widths are estimated on the wide side, since the text cannot be
/// measured before it is drawn: figures and letters 0.7 em (bold figures of common UI fonts are 0.55
/// to 0.7), separators 0.35 em, `M`, `W` and `%` 0.9 em.
pub fn hole_text<'a>(full: &'a str, compact: &'a str, inner: f64) -> (&'a str, f64) {
    // The widest chord at the text's height, with a margin from the ring.
    let room = 2.0 * inner * 0.85;
    let fitting = |text: &str| (room / em_width(text)).min(HOLE_TEXT_MAX);
    let size = fitting(full);
    if size >= HOLE_TEXT_MIN {
        (full, size)
    } else {
        (compact, fitting(compact))
    }
}

fn em_width(text: &str) -> f64 {
    let width: f64 = text
        .chars()
        .map(|c| match c {
            ',' | '.' | ' ' | '\u{a0}' | '\u{202f}' | '\'' | ':' => 0.35,
            'M' | 'W' | '%' | 'm' | 'w' => 0.9,
            _ => 0.7,
        })
        .sum();
    width.max(0.7)
}

/// The point at `angle` (clockwise from three o'clock, SVG y down) on the circle of `radius` around `center`.
pub fn polar(center: (f64, f64), radius: f64, angle: f64) -> (f64, f64) {
    (
        center.0 + radius * angle.cos(),
        center.1 + radius * angle.sin(),
    )
}

/// A pie slice (`inner` = 0) or donut segment from `start` to `end`. A full turn is drawn as two
/// half arcs, since one SVG arc cannot start and end at the same point.
pub fn arc_path(center: (f64, f64), outer: f64, inner: f64, start: f64, end: f64) -> String {
    if end - start >= TAU - 1e-9 {
        let half = start + PI;
        let mut path = format!(
            "{}{}",
            arc_segment(center, outer, start, half, true),
            arc_segment(center, outer, half, start + TAU, false)
        );
        path.push('Z');
        if inner > 0.0 {
            let _ = write!(
                path,
                "{}{}Z",
                arc_segment(center, inner, start, half, true),
                arc_segment(center, inner, half, start + TAU, false)
            );
        }
        return path;
    }
    let large = if end - start > PI { 1 } else { 0 };
    let (ox0, oy0) = polar(center, outer, start);
    let (ox1, oy1) = polar(center, outer, end);
    let mut path = format!(
        "M{} {}A{} {} 0 {large} 1 {} {}",
        num(ox0),
        num(oy0),
        num(outer),
        num(outer),
        num(ox1),
        num(oy1)
    );
    if inner > 0.0 {
        let (ix1, iy1) = polar(center, inner, end);
        let (ix0, iy0) = polar(center, inner, start);
        let _ = write!(
            path,
            "L{} {}A{} {} 0 {large} 0 {} {}Z",
            num(ix1),
            num(iy1),
            num(inner),
            num(inner),
            num(ix0),
            num(iy0)
        );
    } else {
        let _ = write!(path, "L{} {}Z", num(center.0), num(center.1));
    }
    path
}

/// A clockwise arc of at most half a turn, optionally starting with a move to its first point.
fn arc_segment(center: (f64, f64), radius: f64, start: f64, end: f64, move_first: bool) -> String {
    let (x0, y0) = polar(center, radius, start);
    let (x1, y1) = polar(center, radius, end);
    let lead = if move_first {
        format!("M{} {}", num(x0), num(y0))
    } else {
        String::new()
    };
    format!(
        "{lead}A{} {} 0 0 1 {} {}",
        num(radius),
        num(radius),
        num(x1),
        num(y1)
    )
}

/// A coordinate with at most two decimals and no trailing zeros, to keep path text short.
pub fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        "0".to_owned()
    } else {
        format!("{rounded}")
    }
}

fn widen(low: f64, high: f64) -> (f64, f64) {
    // Beyond ±1e300 the span itself would overflow to infinity.
    const LIMIT: f64 = 1e300;
    let (low, high) = match (low.is_finite(), high.is_finite()) {
        (true, true) if low <= high => (low.max(-LIMIT), high.min(LIMIT)),
        (true, true) => (high.max(-LIMIT), low.min(LIMIT)),
        _ => return (0.0, 1.0),
    };
    if high > low {
        (low, high)
    } else if low > 0.0 {
        (0.0, low)
    } else if low < 0.0 {
        (low, 0.0)
    } else {
        (0.0, 1.0)
    }
}

/// Rounds away float noise (`0.30000000000000004`) to the step's precision.
fn clean(value: f64, step: f64) -> f64 {
    let scale = 10f64.powi(decimals_for(step) as i32 + 2);
    let cleaned = (value * scale).round() / scale;
    if cleaned == 0.0 { 0.0 } else { cleaned }
}

/// Decimals needed to tell ticks `step` apart: 0 for 5 or 10, 1 for 0.5, 2 for 0.02.
fn decimals_for(step: f64) -> usize {
    if step <= 0.0 || !step.is_finite() {
        return 0;
    }
    let exponent = step.log10().floor() as i32;
    let mut decimals = (-exponent).max(0) as usize;
    // 0.25-like steps do not occur (1-2-5 only), but a divided step (2500 / 1000) can need one more.
    let scaled = step * 10f64.powi(decimals as i32);
    if (scaled - scaled.round()).abs() > 1e-6 {
        decimals += 1;
    }
    decimals
}

/// Stacked bars: for each series (in drawing order) and category, the interval its value covers.
/// Positive values stack up from zero and negative ones down, each on its own side; a gap stays a gap.
pub fn stack(series: &[&[Option<f64>]]) -> Vec<Vec<Option<(f64, f64)>>> {
    let count = series.iter().map(|values| values.len()).max().unwrap_or(0);
    let (mut up, mut down) = (vec![0.0; count], vec![0.0; count]);
    series
        .iter()
        .map(|values| {
            values
                .iter()
                .enumerate()
                .map(|(category, value)| {
                    value.map(|v| {
                        let side = if v < 0.0 { &mut down[category] } else { &mut up[category] };
                        let start = *side;
                        *side += v;
                        (start, *side)
                    })
                })
                .collect()
        })
        .collect()
}

/// A bubble's radius: its area is proportional to `size` (a bubble twice the size has twice the
/// area), the largest `size` gets `largest` pixels; sizes that are not positive get the smallest
/// readable dot.
pub fn bubble_radius(size: f64, max_size: f64, largest: f64) -> f64 {
    const SMALLEST: f64 = 3.0;
    if !(size.is_finite() && size > 0.0 && max_size.is_finite() && max_size > 0.0) {
        return SMALLEST;
    }
    (largest * (size / max_size).sqrt()).max(SMALLEST)
}

/// A gauge's dial: a half turn from nine o'clock (`min`) over twelve to three o'clock (`max`),
/// in the angles `arc_path` takes.
pub const GAUGE_START: f64 = PI;

/// A gauge's range when its params give no `min` or `max`.
pub const GAUGE_RANGE: (f64, f64) = (0.0, 100.0);

/// Where `value` sits on a gauge from `min` to `max`, as a share of the dial (clamped to it); an
/// empty or reversed range reads as the value's sign.
pub fn gauge_share(value: f64, min: f64, max: f64) -> f64 {
    if !value.is_finite() {
        return 0.0;
    }
    if max.is_nan() || min.is_nan() || max <= min {
        return if value > min { 1.0 } else { 0.0 };
    }
    ((value - min) / (max - min)).clamp(0.0, 1.0)
}

/// The angle at `share` of a gauge's dial.
pub fn gauge_angle(share: f64) -> f64 {
    GAUGE_START + share.clamp(0.0, 1.0) * PI
}

#[cfg(test)]
mod tests {
    #[test]
    fn bubble_areas_follow_the_sizes() {
        let (big, small) = (super::bubble_radius(400.0, 400.0, 20.0), super::bubble_radius(100.0, 400.0, 20.0));
        assert_eq!(big, 20.0);
        assert!(((big / small).powi(2) - 4.0).abs() < 1e-9, "four times the size, four times the area");
        assert_eq!(super::bubble_radius(-5.0, 400.0, 20.0), 3.0);
        assert_eq!(super::bubble_radius(f64::NAN, 400.0, 20.0), 3.0);
    }

    #[test]
    fn a_gauge_reads_its_value_as_a_share_of_its_dial() {
        assert_eq!(super::gauge_share(72.0, 0.0, 100.0), 0.72);
        assert_eq!(super::gauge_share(5.0, 10.0, 20.0), 0.0);
        assert_eq!(super::gauge_share(25.0, 10.0, 20.0), 1.0);
        assert_eq!(super::gauge_share(3.0, 5.0, 5.0), 0.0);
        assert_eq!(super::gauge_share(f64::INFINITY, 0.0, 1.0), 0.0);
        // Nine o'clock, twelve o'clock (SVG y grows down: sin = -1 is up), three o'clock.
        let point = |share| super::polar((0.0, 0.0), 1.0, super::gauge_angle(share));
        let near = |(x, y): (f64, f64), (a, b): (f64, f64)| (x - a).abs() < 1e-9 && (y - b).abs() < 1e-9;
        assert!(near(point(0.0), (-1.0, 0.0)) && near(point(0.5), (0.0, -1.0)) && near(point(1.0), (1.0, 0.0)));
    }

    #[test]
    fn stacks_grow_away_from_zero_on_each_side_and_keep_gaps() {
        let (a, b, c) = ([Some(2.0), Some(-1.0)], [Some(3.0), None], [Some(-4.0), Some(-2.0)]);
        let stacked = super::stack(&[&a, &b, &c]);
        assert_eq!(stacked[0], [Some((0.0, 2.0)), Some((0.0, -1.0))]);
        assert_eq!(stacked[1], [Some((2.0, 5.0)), None]);
        assert_eq!(stacked[2], [Some((0.0, -4.0)), Some((-1.0, -3.0))]);
    }

    use super::*;

    fn ticks(low: f64, high: f64, target: usize) -> Vec<f64> {
        Ticks::nice(low, high, target).values()
    }

    #[test]
    fn ticks_use_one_two_five_steps_and_cover_the_data() {
        assert_eq!(
            ticks(0.0, 100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(
            ticks(14.8, 34.0, 5),
            vec![10.0, 15.0, 20.0, 25.0, 30.0, 35.0]
        );
        assert_eq!(ticks(0.0, 0.7, 4), vec![0.0, 0.2, 0.4, 0.6, 0.8]);
        for (low, high, target) in [
            (3.0, 97.0, 6),
            (-42.0, 17.0, 5),
            (0.001, 0.009, 4),
            (12.0, 70_000.0, 5),
        ] {
            let t = Ticks::nice(low, high, target);
            assert!(t.min <= low && t.max >= high, "{t:?} covers {low}..{high}");
            let norm = t.step / 10f64.powf(t.step.log10().floor());
            assert!(
                [1.0, 2.0, 5.0].iter().any(|n| (norm - n).abs() < 1e-9),
                "step {} is 1, 2 or 5",
                t.step
            );
            assert!(
                t.values().len() <= target + 2,
                "{t:?} has about {target} intervals"
            );
        }
    }

    #[test]
    fn negative_ranges_get_a_tick_at_zero() {
        let values = ticks(-35.0, 60.0, 5);
        assert!(values.contains(&0.0), "{values:?}");
        assert_eq!(values.first(), Some(&-40.0));
    }

    #[test]
    fn flat_and_broken_ranges_still_give_an_axis() {
        assert_eq!(ticks(5.0, 5.0, 5), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(ticks(-3.0, -3.0, 3), vec![-3.0, -2.0, -1.0, 0.0]);
        assert_eq!(ticks(0.0, 0.0, 5).first(), Some(&0.0));
        assert_eq!(ticks(f64::NAN, 4.0, 5), ticks(0.0, 1.0, 5));
        let huge = Ticks::nice(-1e308, 1e308, 5);
        assert!(
            huge.min.is_finite() && huge.max.is_finite() && huge.step.is_finite(),
            "{huge:?}"
        );
        assert!(huge.values().len() <= 7);
    }

    #[test]
    fn tick_values_carry_no_float_noise() {
        assert_eq!(ticks(0.0, 0.3, 3), vec![0.0, 0.1, 0.2, 0.3]);
    }

    #[test]
    fn tick_labels_show_the_decimals_the_step_needs_and_compact_large_numbers() {
        let small = Ticks::nice(0.0, 2.0, 4);
        assert_eq!(small.label(1.5), "1.5");
        assert_eq!(small.label(1.0), "1.0");
        let plain = Ticks::nice(0.0, 8000.0, 4);
        assert_eq!(plain.label(6000.0), "6,000");
        let thousands = Ticks::nice(0.0, 70_000.0, 4);
        assert_eq!(thousands.label(20_000.0), "20k");
        assert_eq!(thousands.label(0.0), "0", "zero needs no unit or decimals");
        assert_eq!(small.label(0.0), "0");
        let millions = Ticks::nice(0.0, 2_600_000.0, 6);
        assert_eq!(millions.label(1_500_000.0), "1.5M");
        assert_eq!(Ticks::nice(-20.0, 20.0, 4).label(-10.0), "-10");
    }

    #[test]
    fn fixed_formatting_groups_thousands_and_never_shows_minus_zero() {
        assert_eq!(format_fixed(-1234.5, 2), "-1,234.50");
        assert_eq!(format_fixed(1_000_000.0, 0), "1,000,000");
        assert_eq!(format_fixed(-0.001, 1), "0.0");
    }

    #[test]
    fn linear_scale_maps_and_reverses() {
        let y = Linear {
            domain: (0.0, 100.0),
            range: (200.0, 0.0),
        };
        assert_eq!(y.map(0.0), 200.0);
        assert_eq!(y.map(25.0), 150.0);
        assert_eq!(y.map(-50.0), 300.0);
        let flat = Linear {
            domain: (3.0, 3.0),
            range: (0.0, 10.0),
        };
        assert_eq!(flat.map(3.0), 5.0);
    }

    #[test]
    fn bands_split_the_axis_and_find_the_band_under_a_point() {
        let band = Band {
            start: 40.0,
            length: 400.0,
            count: 4,
            padding: 0.2,
        };
        assert_eq!(band.width(), 80.0);
        assert_eq!(band.position(0), 50.0);
        assert_eq!(band.center(1), 190.0);
        assert_eq!(band.index_at(45.0), 0);
        assert_eq!(band.index_at(250.0), 2);
        assert_eq!(band.index_at(9_999.0), 3);
        assert_eq!(band.index_at(-5.0), 0);
    }

    #[test]
    fn lines_break_at_gaps() {
        let points = [
            Some((0.0, 10.0)),
            Some((10.0, 5.5)),
            None,
            Some((30.0, 1.0)),
            Some((40.0, 2.0)),
        ];
        assert_eq!(line_path(&points), "M0 10L10 5.5M30 1L40 2");
        assert_eq!(line_path(&[None, None]), "");
    }

    #[test]
    fn areas_close_each_run_on_the_baseline() {
        let points = [
            Some((0.0, 10.0)),
            Some((10.0, 5.0)),
            None,
            Some((30.0, 1.0)),
        ];
        assert_eq!(
            area_path(&points, 50.0),
            "M0 50L0 10L10 5L10 50ZM30 50L30 1L30 50Z"
        );
    }

    #[test]
    fn pie_slices_share_the_full_turn_and_skip_non_positive_values() {
        let slices = pie(&[50.0, -10.0, 25.0, 0.0, 25.0]);
        assert_eq!(
            slices.iter().map(|s| s.index).collect::<Vec<_>>(),
            vec![0, 2, 4]
        );
        assert_eq!(slices[0].fraction, 0.5);
        assert!(
            (slices[0].start + FRAC_PI_2).abs() < 1e-12,
            "starts at twelve o'clock"
        );
        assert!(
            (slices[2].end - (TAU - FRAC_PI_2)).abs() < 1e-9,
            "ends where it started"
        );
        assert!(
            (slices[0].end - FRAC_PI_2).abs() < 1e-9,
            "half the pie ends at six o'clock"
        );
        assert!(
            slices[0].mid().abs() < 1e-9,
            "so it is centred on three o'clock"
        );
        assert!(pie(&[0.0, -1.0]).is_empty());
    }

    #[test]
    fn arcs_flag_large_slices_and_draw_full_turns_in_two_halves() {
        let quarter = arc_path((50.0, 50.0), 40.0, 0.0, -FRAC_PI_2, 0.0);
        assert_eq!(quarter, "M50 10A40 40 0 0 1 90 50L50 50Z");
        let three_quarters = arc_path((50.0, 50.0), 40.0, 20.0, -FRAC_PI_2, PI);
        assert!(three_quarters.contains("A40 40 0 1 1"), "{three_quarters}");
        assert!(
            three_quarters.contains("A20 20 0 1 0"),
            "inner arc runs back: {three_quarters}"
        );
        let full = arc_path((50.0, 50.0), 40.0, 0.0, -FRAC_PI_2, 3.0 * FRAC_PI_2);
        assert_eq!(full.matches('A').count(), 2, "{full}");
        let full_donut = arc_path((50.0, 50.0), 40.0, 20.0, -FRAC_PI_2, 3.0 * FRAC_PI_2);
        assert_eq!(full_donut.matches('A').count(), 4, "{full_donut}");
    }

    #[test]
    fn a_donuts_total_is_whole_while_it_fits_its_hole_and_compact_when_it_would_be_too_small() {
        // A large hole: the full figure at the largest size.
        assert_eq!(hole_text("29,638,524 €", "29.6M €", 120.0), ("29,638,524 €", 20.0));
        // A middling one: the full figure, smaller, while it stays readable.
        let (text, size) = hole_text("29,638,524 €", "29.6M €", 70.0);
        assert_eq!(text, "29,638,524 €");
        assert!((14.0..20.0).contains(&size), "{size}");
        // A small one (a donut in a half-width frame): the compact figure, which fits at a larger size.
        let (text, size) = hole_text("29,638,524 €", "29.6M €", 54.0);
        assert_eq!(text, "29.6M €");
        assert!(size * em_width(text) <= 2.0 * 54.0 * 0.85 + 1e-9 && size > 14.0, "{size}");
        // Short totals never grow past 20 px, and a tiny hole still gets a size that fits.
        assert_eq!(hole_text("42", "42", 54.0), ("42", 20.0));
        let (_, size) = hole_text("1,234,567,890", "1.2B", 12.0);
        assert!(size > 0.0 && size * em_width("1.2B") <= 2.0 * 12.0 * 0.85 + 1e-9, "{size}");
    }
}
