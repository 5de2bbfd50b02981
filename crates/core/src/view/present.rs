//! Presentation rules shared by every widget, kept pure so they are tested natively: which URLs
//! may be rendered as links or images, how numbers read, series colours and initials.

use serde_json::Value;

use crate::weburl::{self, Parsed, Target};

/// A link target we are willing to render: `http(s):`, `mailto:`, `tel:`, a path on this site or a
/// fragment, read as one URL by [`weburl::parse`]. Anything else (`javascript:`, `data:`,
/// protocol-relative `//host`, `/\\host`, strings with quotes or spaces) is refused.
pub fn safe_link(href: &str) -> Option<String> {
    match weburl::parse(href).ok()? {
        Parsed { url, target: Target::Web { .. } | Target::Mail | Target::Tel | Target::SamePath | Target::Fragment } => {
            Some(url)
        }
        _ => None,
    }
}

/// An image source we are willing to load: `http(s):`, `data:image/...` or a path on this site.
pub fn safe_image(src: &str) -> Option<String> {
    match weburl::parse(src).ok()? {
        Parsed { url, target: Target::Web { .. } | Target::DataImage | Target::SamePath } => Some(url),
        _ => None,
    }
}

/// The host a link goes to, shown next to its label so a link cannot pass for another site.
pub fn link_host(href: &str) -> Option<String> {
    weburl::web_host(href)
}

/// `1234567.891` -> `1,234,567.89`; integers keep no decimals. Locale-free so tests are stable.
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let negative = value < 0.0;
    let rounded = (value.abs() * 100.0).round() / 100.0;
    let whole = rounded.trunc() as u64;
    let cents = ((rounded - rounded.trunc()) * 100.0).round() as u64;
    let digits = whole.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    let sign = if negative && (whole > 0 || cents > 0) { "-" } else { "" };
    match cents {
        0 => format!("{sign}{grouped}"),
        c if c % 10 == 0 => format!("{sign}{grouped}.{}", c / 10),
        c => format!("{sign}{grouped}.{c:02}"),
    }
}

/// A JSON scalar as display text: strings as is, numbers formatted, booleans and null spelled out.
pub fn display_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.as_f64().map(format_number).unwrap_or_else(|| number.to_string()),
        Value::Bool(flag) => flag.to_string(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The colour of series `index`, from the theme's palette tokens.
pub fn series_color(index: usize) -> String {
    format!("var(--au-series-{})", index % SERIES_COLORS + 1)
}

/// Number of `--au-series-N` tokens in `style/tokens.css`.
pub const SERIES_COLORS: usize = 8;

/// A colour from the data we are willing to paint with, matching the recipes' colour pattern:
/// `#rgb[a]`/`#rrggbb[aa]`, a named colour, `rgb()`/`rgba()`/`hsl()`/`hsla()` with plain numbers, or
/// `var(--token)`. Anything else (`url(...)`, `;`, expressions) is refused.
pub fn safe_color(color: &str) -> Option<String> {
    let color = color.trim();
    let inside = |prefix: &str| {
        color
            .to_ascii_lowercase()
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(')'))
            .map(str::to_owned)
    };
    let allowed = if let Some(hex) = color.strip_prefix('#') {
        matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|c| c.is_ascii_hexdigit())
    } else if let Some(name) = inside("var(--") {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    } else if let Some(args) = ["rgb(", "rgba(", "hsl(", "hsla("].iter().find_map(|f| inside(f)) {
        !args.trim().is_empty() && args.chars().all(|c| c.is_ascii_digit() || ".,% /".contains(c))
    } else {
        (3..=20).contains(&color.len()) && color.chars().all(|c| c.is_ascii_alphabetic())
    };
    allowed.then(|| color.to_owned())
}

/// Up to two initials for a person without a usable portrait: "Ada Lovelace" -> "AL".
pub fn initials(name: &str) -> String {
    let letters: String = name
        .split_whitespace()
        .filter_map(|word| word.chars().find(|c| c.is_alphanumeric()))
        .take(2)
        .flat_map(char::to_uppercase)
        .collect();
    if letters.is_empty() { "?".to_owned() } else { letters }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_with_script_schemes_are_refused() {
        assert_eq!(safe_link("javascript:alert(1)"), None);
        assert_eq!(safe_link(" JavaScript:alert(1)"), None);
        assert_eq!(safe_link("data:text/html,x"), None);
        assert_eq!(safe_link("//evil.example/x"), None);
        assert_eq!(safe_link("https://example.org/a").as_deref(), Some("https://example.org/a"));
        assert_eq!(safe_link("mailto:a@b.c").as_deref(), Some("mailto:a@b.c"));
    }

    #[test]
    fn images_must_be_web_data_or_same_site() {
        assert_eq!(safe_image("portrait.jpg"), None);
        assert_eq!(safe_image("javascript:x"), None);
        assert_eq!(safe_image("data:text/html,x"), None);
        assert!(safe_image("data:image/png;base64,AAAA").is_some());
        assert!(safe_image("/img/a.png").is_some());
    }

    #[test]
    fn backslash_hosts_and_quoted_strings_are_neither_links_nor_images() {
        assert_eq!(safe_link("/\\evil.example/x"), None);
        assert_eq!(safe_image("/\\evil.example/x.png"), None);
        assert_eq!(safe_link("https://x/a.png\" onerror=\"alert(1)"), None);
        assert_eq!(safe_image("https://x/a.png\" onerror=\"alert(1)"), None);
        assert_eq!(link_host("https://Wiki.Acme.dev/w32").as_deref(), Some("wiki.acme.dev"));
    }

    #[test]
    fn numbers_are_grouped_and_trimmed() {
        assert_eq!(format_number(1234567.891), "1,234,567.89");
        assert_eq!(format_number(1000.0), "1,000");
        assert_eq!(format_number(-12.5), "-12.5");
        assert_eq!(format_number(0.0), "0");
    }

    #[test]
    fn colours_are_hex_names_functions_or_tokens_and_nothing_else() {
        for good in ["#ef4444", "#FFF", "#11223344", "teal", "rgb(10, 20, 30)", "hsla(200 50% 40% / 0.5)", "var(--au-series-2)"] {
            assert_eq!(safe_color(good).as_deref(), Some(good), "{good}");
        }
        for bad in ["#ggg", "#12345", "url(https://x.y/a.svg)", "red; background: url(x)", "expression(alert(1))", "rgb(1,2,3);x", "var(--a) , red", "", "x"] {
            assert_eq!(safe_color(bad), None, "{bad}");
        }
    }

    #[test]
    fn initials_take_the_first_letters_of_two_words() {
        assert_eq!(initials("Ada Lovelace"), "AL");
        assert_eq!(initials("  "), "?");
        assert_eq!(initials("élodie martin dupont"), "ÉM");
    }
}
