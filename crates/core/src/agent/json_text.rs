//! JSON results as text: minified, and cut at whole items of their main array, byte for byte as the
//! server wrote them (key order, number spelling and escapes kept; nothing is parsed into a value and
//! written again, so a 50 KB result costs one scan).

use std::ops::Range;

use serde::de::IgnoredAny;

/// A JSON text cut at whole items.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    pub json: String,
    pub kept: usize,
    pub total: usize,
}

/// Whether `text` is one JSON object or array (checked without building a value).
pub fn is_container(text: &str) -> bool {
    let trimmed = text.trim_start();
    (trimmed.starts_with('{') || trimmed.starts_with('[')) && serde_json::from_str::<IgnoredAny>(text).is_ok()
}

/// `text` without the whitespace between JSON tokens; `None` when it is not a JSON object or array,
/// or has no such whitespace. Pretty-printed results often spend a third of their size on indentation.
pub fn minify(text: &str) -> Option<String> {
    if !is_container(text) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    (out.len() < text.len()).then_some(out)
}

/// Where the items of a JSON document's main array are (the top-level array, or else the largest
/// array of a top-level object), found once so the document can be cut at several limits cheaply.
pub struct Items {
    spans: Vec<Range<usize>>,
    close: usize,
}

impl Items {
    /// `json` must be valid JSON ([`is_container`]); `None` when it has no main array.
    pub fn of(json: &str) -> Option<Items> {
        let (spans, close) = main_array(json)?;
        Some(Items { spans, close })
    }

    /// `json` (the document these items were found in) with the most leading items such that it fits
    /// in `limit` characters; `None` when all of them fit or not even one does.
    pub fn cut(&self, json: &str, limit: usize) -> Option<Cut> {
        let Items { spans, close } = self;
        let mut size = json[..spans[0].start].chars().count() + json[*close..].chars().count();
        let mut end = spans[0].start;
        let mut kept = 0;
        for span in spans {
            let grown = size + json[end..span.end].chars().count();
            if grown > limit {
                break;
            }
            size = grown;
            end = span.end;
            kept += 1;
        }
        (kept > 0 && kept < spans.len()).then(|| Cut {
            json: format!("{}{}", &json[..end], &json[*close..]),
            kept,
            total: spans.len(),
        })
    }
}

/// The main array's item spans (at least one) and the position of its closing bracket.
fn main_array(json: &str) -> Option<(Vec<Range<usize>>, usize)> {
    let open = json.len() - json.trim_start().len();
    match json.as_bytes().get(open)? {
        b'[' => children(json, open).filter(|(items, _)| !items.is_empty()),
        b'{' => {
            let (members, _) = children(json, open)?;
            members
                .into_iter()
                .filter_map(|member| member_value(json, member))
                .filter(|&value| json.as_bytes()[value] == b'[')
                .filter_map(|value| children(json, value).map(|(items, close)| (value, items, close)))
                .filter(|(_, items, _)| items.len() > 1)
                .max_by_key(|(value, _, close)| close - value)
                .map(|(_, items, close)| (items, close))
        }
        _ => None,
    }
}

/// The spans of the direct children of the array or object opening at `open` (items, or
/// `"key":value` members), and the position of its closing bracket. Structural characters are
/// ASCII, so scanning bytes never splits a character.
fn children(json: &str, open: usize) -> Option<(Vec<Range<usize>>, usize)> {
    let bytes = json.as_bytes();
    let mut spans = Vec::new();
    let mut depth = 0_usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut start = open + 1;
    for (at, &byte) in bytes.iter().enumerate().skip(open + 1) {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => depth += 1,
            b']' | b'}' if depth > 0 => depth -= 1,
            b']' | b'}' => {
                push_trimmed(json, start..at, &mut spans);
                return Some((spans, at));
            }
            b',' if depth == 0 => {
                push_trimmed(json, start..at, &mut spans);
                start = at + 1;
            }
            _ => {}
        }
    }
    None
}

fn push_trimmed(json: &str, span: Range<usize>, spans: &mut Vec<Range<usize>>) {
    let text = &json[span.clone()];
    let trimmed = text.trim();
    if !trimmed.is_empty() {
        let start = span.start + (text.len() - text.trim_start().len());
        spans.push(start..start + trimmed.len());
    }
}

/// Where the value of a `"key":value` member starts.
fn member_value(json: &str, member: Range<usize>) -> Option<usize> {
    let bytes = &json.as_bytes()[member.clone()];
    let mut escaped = false;
    let key_end = bytes.iter().enumerate().skip(1).find_map(|(at, &byte)| match byte {
        _ if escaped => {
            escaped = false;
            None
        }
        b'\\' => {
            escaped = true;
            None
        }
        b'"' => Some(at),
        _ => None,
    })?;
    let colon = key_end + bytes[key_end..].iter().position(|&byte| byte == b':')?;
    let value = colon + 1 + bytes[colon + 1..].iter().position(|byte| !byte.is_ascii_whitespace())?;
    Some(member.start + value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minify_keeps_whitespace_inside_strings_and_escaped_quotes() {
        let text = "{\n  \"a b\": \"x \\\" y\",\n  \"list\": [ 1, 2 ]\n}\n";
        assert_eq!(minify(text).as_deref(), Some("{\"a b\":\"x \\\" y\",\"list\":[1,2]}"));
        assert_eq!(minify("{\"a\":1}"), None, "nothing to remove");
        assert_eq!(minify("not json { at all"), None);
    }

    #[test]
    fn items_are_cut_inside_the_largest_array_of_an_object() {
        let json = r#"{"note":"a, [b]","small":[1,2],"rows":[{"k":"}"},{"k":2},{"k":3}],"after":true}"#;
        let cut = Items::of(json).and_then(|items| items.cut(json, json.len() - 8)).expect("cut");
        assert_eq!(cut.json, r#"{"note":"a, [b]","small":[1,2],"rows":[{"k":"}"},{"k":2}],"after":true}"#);
        assert_eq!((cut.kept, cut.total), (2, 3));
    }

    #[test]
    fn a_string_ending_in_an_escaped_backslash_does_not_hide_the_next_item() {
        let json = r#"[ {"k":"a\\"} , {"k":"b"} , {"k":"c"} ]"#;
        let cut = Items::of(json).and_then(|items| items.cut(json, 26)).expect("cut");
        assert_eq!(cut.json, r#"[ {"k":"a\\"} , {"k":"b"}]"#);
        assert_eq!((cut.kept, cut.total), (2, 3));
    }
}
