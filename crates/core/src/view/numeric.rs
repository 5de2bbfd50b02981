//! Numbers in widget data: a JSON number, or text holding a decimal numeral (`"320"`, `" 4.5 "`,
//! `"-1e3"`). Every widget reads them here, so a number means the same in every widget.
//!
//! Text is read by serde_json's number reader, the one that reads the JSON numbers, so `"12.5"` and
//! `12.5` are the same value. Rust's own float parser would add its table of powers of five and its
//! code to what the gallery downloads with the views chunk: 14.7 KB gzip, measured.

use serde_json::Value;

/// A finite number, or text holding a decimal numeral (surrounding spaces allowed); anything else
/// (`"n/a"`, `"NaN"`, `true`, `null`) is none.
pub fn number_in(value: &Value) -> Option<f64> {
    match value {
        Value::Number(number) => number.as_f64().filter(|value| value.is_finite()),
        Value::String(text) => parse_decimal(text.trim()),
        _ => None,
    }
}

/// A decimal numeral as people write one: an optional sign, digits with an optional decimal point
/// (`"5."` and `".5"` too), an optional exponent (`"1e-3"`, `"2E+6"`). No spaces, no `inf` or `NaN`,
/// no hex, no digit separators; a value too large for a float is none.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    // The same numeral in JSON's stricter grammar: no `+`, no leading zeros, digits on both sides
    // of the point.
    let mut json = String::with_capacity(text.len() + 2);
    if negative {
        json.push('-');
    }
    let whole = whole.trim_start_matches('0');
    json.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(exponent) = exponent {
        let magnitude = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if magnitude.is_empty() || !digits(magnitude) {
            return None;
        }
        json.push('e');
        json.push_str(exponent);
    }
    serde_json::from_str::<f64>(&json).ok().filter(|value| value.is_finite())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_and_numeric_text_are_numbers() {
        assert_eq!(number_in(&json!(320)), Some(320.0));
        assert_eq!(number_in(&json!(-2.5)), Some(-2.5));
        assert_eq!(number_in(&json!(" 4.5 ")), Some(4.5));
        assert_eq!(number_in(&json!("12.5")), number_in(&json!(12.5)));
    }

    #[test]
    fn other_values_are_not_numbers() {
        for value in [json!("n/a"), json!(""), json!("  "), json!(null), json!(true), json!([1]), json!({"n": 1})] {
            assert_eq!(number_in(&value), None, "{value}");
        }
    }

    #[test]
    fn numerals_people_write_are_read() {
        for (text, expected) in [
            ("0", 0.0),
            ("7", 7.0),
            ("007", 7.0),
            ("-3", -3.0),
            ("+4", 4.0),
            ("12.5", 12.5),
            (".5", 0.5),
            ("-.25", -0.25),
            ("5.", 5.0),
            ("1e6", 1e6),
            ("2E+3", 2000.0),
            ("1.5e-3", 0.0015),
            ("0.1", 0.1),
            ("1e-400", 0.0),
            ("123456789012345678901234567890", 1.2345678901234568e29),
        ] {
            assert_eq!(parse_decimal(text), Some(expected), "{text}");
        }
        assert!(parse_decimal("-0").is_some_and(|zero| zero == 0.0 && zero.is_sign_negative()));
    }

    #[test]
    fn what_is_not_a_decimal_numeral_is_refused() {
        for text in [
            "", "-", "+", ".", "-.", "e5", "1e", "1e+", "1e5.5", "1.2.3", "--1", "+-1", "1-", " 1", "1 ", "1_000",
            "1,000", "0x10", "inf", "-infinity", "NaN", "1e400", "-1e400", "12%", "½", "١٢",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }

    /// Against Rust's float parser, which the widgets used before: the same value for every numeral
    /// of up to 15 significant digits (what data holds), and at most one unit in the last place off
    /// for longer ones.
    #[test]
    fn values_match_rusts_parser() {
        // A fixed pseudo-random sequence (xorshift), so a failure names a numeral that reproduces.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let digits = 1 + (next() % 22) as usize;
            let mut text: String = (0..digits).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            if next() % 2 == 0 {
                text.insert((next() as usize) % (digits + 1), '.');
            }
            if next() % 3 == 0 {
                text = format!("{text}e{}", (next() % 80) as i64 - 40);
            }
            if next() % 2 == 0 {
                text.insert(0, '-');
            }
            let ours = parse_decimal(&text);
            let rusts = text.parse::<f64>().ok().filter(|value| value.is_finite());
            match (ours, rusts) {
                (Some(ours), Some(rusts)) if digits <= 15 => assert_eq!(ours, rusts, "{text}"),
                (Some(ours), Some(rusts)) => {
                    let apart = ours.to_bits().abs_diff(rusts.to_bits());
                    assert!(apart <= 1 || ours == rusts, "{text}: {ours} against {rusts}");
                }
                (ours, rusts) => assert_eq!(ours, rusts, "{text}"),
            }
        }
    }
}
