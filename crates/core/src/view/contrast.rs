//! Which ink reads on a colour the data chose (a highlighted cell, a badge): dark ink on light
//! fills, light ink on dark ones, decided from the colour's WCAG relative luminance.

use crate::view::numeric::parse_decimal;

/// The ink that reads best on a fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Dark,
    Light,
}

impl Ink {
    pub fn as_str(self) -> &'static str {
        match self {
            Ink::Dark => "dark",
            Ink::Light => "light",
        }
    }
}

/// The ink for text on `color` (`#hex`, `rgb()`/`rgba()`, `hsl()`/`hsla()` or a common colour name);
/// `None` when the colour cannot be read here (a theme token, an unusual name), so the caller keeps
/// the theme's own text colour.
pub fn ink_on(color: &str) -> Option<Ink> {
    let (red, green, blue) = rgb(color.trim())?;
    let luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
    // Equal contrast against near-black (#16161a) and white sits near 0.18.
    Some(if luminance > 0.18 {
        Ink::Dark
    } else {
        Ink::Light
    })
}

fn linear(channel: f64) -> f64 {
    let channel = channel / 255.0;
    if channel <= 0.04045 {
        channel / 12.92
    } else {
        ((channel + 0.055) / 1.055).powf(2.4)
    }
}

/// Red, green and blue in 0..=255.
fn rgb(color: &str) -> Option<(f64, f64, f64)> {
    let lower = color.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix('#') {
        return hex_rgb(hex);
    }
    if let Some(args) = function_args(&lower, &["rgb(", "rgba("]) {
        let channels: Vec<f64> = args
            .iter()
            .take(3)
            .map(|arg| match arg.strip_suffix('%') {
                Some(percent) => parse_decimal(percent).map(|p| p * 2.55),
                None => parse_decimal(arg),
            })
            .collect::<Option<_>>()?;
        let [red, green, blue] = channels[..] else {
            return None;
        };
        return Some((
            red.clamp(0.0, 255.0),
            green.clamp(0.0, 255.0),
            blue.clamp(0.0, 255.0),
        ));
    }
    if let Some(args) = function_args(&lower, &["hsl(", "hsla("]) {
        let hue = parse_decimal(args.first()?.trim_end_matches("deg"))?;
        let saturation = parse_decimal(args.get(1)?.strip_suffix('%')?)?;
        let lightness = parse_decimal(args.get(2)?.strip_suffix('%')?)?;
        return Some(hsl_rgb(hue, saturation / 100.0, lightness / 100.0));
    }
    NAMED
        .iter()
        .find(|(name, _)| *name == lower)
        .and_then(|(_, hex)| hex_rgb(hex))
}

/// The arguments of `name(...)`, split on commas, spaces and the alpha slash.
fn function_args(color: &str, names: &[&str]) -> Option<Vec<String>> {
    let inner = names
        .iter()
        .find_map(|name| color.strip_prefix(name))?
        .strip_suffix(')')?;
    let args: Vec<String> = inner
        .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
        .filter(|arg| !arg.is_empty())
        .map(str::to_owned)
        .collect();
    (args.len() >= 3).then_some(args)
}

fn hex_rgb(hex: &str) -> Option<(f64, f64, f64)> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let channel = |text: &str| u8::from_str_radix(text, 16).ok().map(f64::from);
    match hex.len() {
        3 | 4 => {
            let short = |at: usize| channel(&hex[at..at + 1]).map(|value| value * 17.0);
            Some((short(0)?, short(1)?, short(2)?))
        }
        6 | 8 => Some((
            channel(&hex[0..2])?,
            channel(&hex[2..4])?,
            channel(&hex[4..6])?,
        )),
        _ => None,
    }
}

fn hsl_rgb(hue: f64, saturation: f64, lightness: f64) -> (f64, f64, f64) {
    let (saturation, lightness) = (saturation.clamp(0.0, 1.0), lightness.clamp(0.0, 1.0));
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let sector = hue.rem_euclid(360.0) / 60.0;
    let second = chroma * (1.0 - (sector % 2.0 - 1.0).abs());
    let (red, green, blue) = match sector as u8 {
        0 => (chroma, second, 0.0),
        1 => (second, chroma, 0.0),
        2 => (0.0, chroma, second),
        3 => (0.0, second, chroma),
        4 => (second, 0.0, chroma),
        _ => (chroma, 0.0, second),
    };
    let offset = lightness - chroma / 2.0;
    (
        (red + offset) * 255.0,
        (green + offset) * 255.0,
        (blue + offset) * 255.0,
    )
}

/// The colour names models use most, from the CSS named colours.
const NAMED: &[(&str, &str)] = &[
    ("black", "000000"),
    ("white", "ffffff"),
    ("red", "ff0000"),
    ("green", "008000"),
    ("blue", "0000ff"),
    ("yellow", "ffff00"),
    ("orange", "ffa500"),
    ("purple", "800080"),
    ("pink", "ffc0cb"),
    ("gray", "808080"),
    ("grey", "808080"),
    ("silver", "c0c0c0"),
    ("teal", "008080"),
    ("navy", "000080"),
    ("maroon", "800000"),
    ("olive", "808000"),
    ("lime", "00ff00"),
    ("aqua", "00ffff"),
    ("cyan", "00ffff"),
    ("fuchsia", "ff00ff"),
    ("magenta", "ff00ff"),
    ("gold", "ffd700"),
    ("brown", "a52a2a"),
    ("coral", "ff7f50"),
    ("salmon", "fa8072"),
    ("tomato", "ff6347"),
    ("crimson", "dc143c"),
    ("indigo", "4b0082"),
    ("violet", "ee82ee"),
    ("khaki", "f0e68c"),
    ("beige", "f5f5dc"),
    ("ivory", "fffff0"),
    ("lavender", "e6e6fa"),
    ("lightgreen", "90ee90"),
    ("lightblue", "add8e6"),
    ("lightgray", "d3d3d3"),
    ("lightgrey", "d3d3d3"),
    ("lightyellow", "ffffe0"),
    ("darkgreen", "006400"),
    ("darkblue", "00008b"),
    ("darkred", "8b0000"),
    ("darkgray", "a9a9a9"),
    ("darkgrey", "a9a9a9"),
    ("skyblue", "87ceeb"),
    ("tan", "d2b48c"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_fills_take_dark_ink_and_dark_fills_light_ink() {
        for light in [
            "#bbf7d0",
            "#FFF",
            "#fee2e2cc",
            "yellow",
            "rgb(250, 250, 210)",
            "hsl(140 70% 90%)",
            "gold",
        ] {
            assert_eq!(ink_on(light), Some(Ink::Dark), "{light}");
        }
        for dark in [
            "#1e3a8a",
            "#000",
            "navy",
            "rgba(20, 30, 40, 0.5)",
            "hsla(220, 60%, 25%, 1)",
            "#dc2626",
        ] {
            assert_eq!(ink_on(dark), Some(Ink::Light), "{dark}");
        }
    }

    #[test]
    fn colours_it_cannot_read_keep_the_theme_ink() {
        for unknown in [
            "var(--au-series-2)",
            "rebeccapurple",
            "#12345",
            "rgb(1, 2)",
            "hsl(x y z)",
            "#ggg",
            "",
        ] {
            assert_eq!(ink_on(unknown), None, "{unknown}");
        }
    }
}
