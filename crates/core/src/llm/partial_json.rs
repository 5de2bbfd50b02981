//! Best-effort parsing of a JSON prefix, for tool arguments that are still streaming in.
//!
//! `{"name": "stat-card", "params": {"label": "Rev` parses to `{"name": "stat-card", "params": {"label": "Rev"}}`:
//! open strings are closed, open containers are closed, and a key without its value is dropped.
//! Numbers and literals cut in the middle are dropped rather than guessed.

use serde_json::{Map, Value};

/// Containers nested deeper than this are not parsed (a hostile stream cannot overflow the stack).
const MAX_DEPTH: usize = 128;

/// The value that `prefix` starts, with whatever is complete so far; `None` if nothing usable yet.
pub fn parse_prefix(prefix: &str) -> Option<Value> {
    let mut parser = Parser { text: prefix, bytes: prefix.as_bytes(), at: 0 };
    match parser.value(0) {
        Parsed::Complete(value) | Parsed::Partial(value) => Some(value),
        Parsed::Nothing => None,
    }
}

enum Parsed {
    Complete(Value),
    /// The input ended (or broke) inside this value; it holds what was complete.
    Partial(Value),
    Nothing,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_whitespace(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn value(&mut self, depth: usize) -> Parsed {
        self.skip_whitespace();
        match self.peek() {
            None => Parsed::Nothing,
            Some(_) if depth > MAX_DEPTH => Parsed::Nothing,
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => match self.string() {
                Some((text, true)) => Parsed::Complete(Value::String(text)),
                Some((text, false)) => Parsed::Partial(Value::String(text)),
                None => Parsed::Nothing,
            },
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(_) => Parsed::Nothing,
        }
    }

    fn object(&mut self, depth: usize) -> Parsed {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b'}') => {
                    self.at += 1;
                    return Parsed::Complete(Value::Object(map));
                }
                Some(b'"') => {}
                _ => return Parsed::Partial(Value::Object(map)),
            }
            let Some((key, true)) = self.string() else {
                return Parsed::Partial(Value::Object(map));
            };
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Parsed::Partial(Value::Object(map));
            }
            self.at += 1;
            match self.value(depth + 1) {
                Parsed::Complete(value) => {
                    map.insert(key, value);
                }
                Parsed::Partial(value) => {
                    map.insert(key, value);
                    return Parsed::Partial(Value::Object(map));
                }
                Parsed::Nothing => return Parsed::Partial(Value::Object(map)),
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Parsed::Complete(Value::Object(map));
                }
                _ => return Parsed::Partial(Value::Object(map)),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Parsed {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() == Some(b']') {
                self.at += 1;
                return Parsed::Complete(Value::Array(items));
            }
            match self.value(depth + 1) {
                Parsed::Complete(value) => items.push(value),
                Parsed::Partial(value) => {
                    items.push(value);
                    return Parsed::Partial(Value::Array(items));
                }
                Parsed::Nothing => return Parsed::Partial(Value::Array(items)),
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Parsed::Complete(Value::Array(items));
                }
                _ => return Parsed::Partial(Value::Array(items)),
            }
        }
    }

    /// A string starting at the opening quote: its text and whether the closing quote was seen.
    fn string(&mut self) -> Option<(String, bool)> {
        let start = self.at;
        let mut index = start + 1;
        // Byte index where the last complete character or escape ended.
        let mut safe_end = index;
        while index < self.bytes.len() {
            match self.bytes[index] {
                b'"' => {
                    self.at = index + 1;
                    return serde_json::from_str(&self.text[start..=index]).ok().map(|text| (text, true));
                }
                b'\\' => {
                    let escape_len = if self.bytes.get(index + 1) == Some(&b'u') { 6 } else { 2 };
                    if index + escape_len > self.bytes.len() {
                        break;
                    }
                    index += escape_len;
                }
                _ => index += 1,
            }
            safe_end = index;
        }
        self.at = self.bytes.len();
        // A lone high surrogate escape at the end cannot decode alone; fall back to dropping it.
        let closed = format!("{}\"", &self.text[start..safe_end]);
        serde_json::from_str::<String>(&closed)
            .ok()
            .or_else(|| {
                let cut = self.text[start..safe_end].rfind("\\u").map(|offset| start + offset)?;
                serde_json::from_str::<String>(&format!("{}\"", &self.text[start..cut])).ok()
            })
            .map(|text| (text, false))
    }

    fn number(&mut self) -> Parsed {
        let start = self.at;
        while self.at < self.bytes.len()
            && matches!(self.bytes[self.at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        {
            self.at += 1;
        }
        let digits = &self.text[start..self.at];
        let at_end = self.at == self.bytes.len();
        match serde_json::from_str::<Value>(digits) {
            // At the very end more digits may follow: the value is known but not final.
            Ok(value) if at_end => Parsed::Partial(value),
            Ok(value) => Parsed::Complete(value),
            Err(_) => Parsed::Nothing,
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Parsed {
        let rest = &self.text[self.at..];
        if rest.starts_with(word) {
            self.at += word.len();
            Parsed::Complete(value)
        } else {
            self.at = self.bytes.len();
            Parsed::Nothing
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::parse_prefix;

    #[test]
    fn an_open_string_inside_nested_objects_is_closed() {
        let parsed = parse_prefix(r#"{"name": "stat-card", "params": {"label": "Rev"#);
        assert_eq!(parsed, Some(json!({"name": "stat-card", "params": {"label": "Rev"}})));
    }

    #[test]
    fn a_key_whose_value_has_not_started_is_dropped() {
        assert_eq!(parse_prefix(r#"{"name": "kv", "par"#), Some(json!({"name": "kv"})));
        assert_eq!(parse_prefix(r#"{"name": "kv", "params":"#), Some(json!({"name": "kv"})));
    }

    #[test]
    fn complete_array_items_are_kept_and_a_cut_literal_is_dropped() {
        assert_eq!(parse_prefix(r#"{"rows": [1, 2, tr"#), Some(json!({"rows": [1, 2]})));
        assert_eq!(parse_prefix(r#"{"rows": [{"a": 1}, {"a""#), Some(json!({"rows": [{"a": 1}, {}]})));
    }

    #[test]
    fn a_cut_escape_sequence_is_not_decoded_half_way() {
        assert_eq!(parse_prefix(r#"{"t": "a\"#), Some(json!({"t": "a"})));
        assert_eq!(parse_prefix(r#"{"t": "caf\u00"#), Some(json!({"t": "caf"})));
        assert_eq!(parse_prefix(r#"{"t": "caf\u00e9 ok"#), Some(json!({"t": "café ok"})));
    }

    #[test]
    fn complete_json_parses_exactly() {
        let text = r#"{"a": [1, 2.5, -3e2, true, false, null, "x\ny"], "b": {}}"#;
        assert_eq!(parse_prefix(text), serde_json::from_str(text).ok());
    }

    #[test]
    fn nothing_usable_gives_none() {
        assert_eq!(parse_prefix(""), None);
        assert_eq!(parse_prefix("   "), None);
        assert_eq!(parse_prefix("-"), None);
        assert_eq!(parse_prefix("nul"), None);
    }

    #[test]
    fn deep_nesting_stops_at_the_depth_limit_instead_of_overflowing() {
        let deep = "[".repeat(100_000);
        let parsed = parse_prefix(&deep);
        assert!(parsed.is_some());
    }
}
