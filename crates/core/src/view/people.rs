//! Rules for the people widgets (profile, trombinoscope): a stable colour for a name, so a person
//! without a portrait keeps the same tint everywhere, and the count line under a group.

use crate::view::present::{format_number, series_color};

/// The palette colour of `name` (a `var(--au-series-N)` token): the same name always gets the same
/// colour, whatever its case or surrounding spaces.
pub fn name_color(name: &str) -> String {
    // FNV-1a: tiny, stable across platforms and releases (unlike `DefaultHasher`).
    let mut hash: u32 = 0x811c_9dc5;
    for byte in name.trim().to_lowercase().bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    series_color(hash as usize)
}

/// "1 person", "12 people".
pub fn people_count(count: usize) -> String {
    match count {
        1 => "1 person".to_owned(),
        n => format!("{} people", format_number(n as f64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_always_gets_the_same_palette_colour() {
        assert_eq!(name_color("Claire Dubois"), name_color(" claire dubois "));
        assert!(name_color("Claire Dubois").starts_with("var(--au-series-"));
        let colours: std::collections::HashSet<String> = [
            "Claire Dubois",
            "Marc Lefèvre",
            "Sofia Benali",
            "Thomas Girard",
            "Nadia Haddad",
            "Julien Moreau",
        ]
        .iter()
        .map(|name| name_color(name))
        .collect();
        assert!(
            colours.len() >= 3,
            "names spread over the palette: {colours:?}"
        );
    }

    #[test]
    fn the_count_line_is_singular_or_plural() {
        assert_eq!(people_count(1), "1 person");
        assert_eq!(people_count(0), "0 people");
        assert_eq!(people_count(1200), "1,200 people");
    }
}
