//! A binding's error text, short enough to keep with the widget, show in its freshness tooltip and
//! send to the model: jq quotes the whole value it failed on, which can be the whole input, so a long
//! message keeps its words and each long value in it is cut in the middle, saying how long it was.

/// Characters a binding's error keeps.
pub const MAX_ERROR_CHARS: usize = 300;
/// A value quoted in an error up to this long is kept whole: cutting it would save little.
const SHORT_VALUE_CHARS: usize = 100;
/// Characters kept of the start, then of the end, of a longer value.
const VALUE_HEAD_CHARS: usize = 60;
const VALUE_TAIL_CHARS: usize = 20;

/// `message` as it is when short enough. Else each JSON string, array or object in it (from an
/// opening `"`, `[` or `{` to where it closes, or to the end) longer than [`SHORT_VALUE_CHARS`] is
/// shown as its start … its length … its end, and what remains is cut at [`MAX_ERROR_CHARS`].
pub fn shorten(message: &str) -> String {
    if message.chars().count() <= MAX_ERROR_CHARS {
        return message.to_owned();
    }
    let mut short = String::new();
    let mut rest = message;
    while let Some(start) = rest.find(['"', '[', '{']) {
        short.push_str(&rest[..start]);
        let end = start + value_len(&rest[start..]);
        push_value(&mut short, &rest[start..end]);
        rest = &rest[end..];
    }
    short.push_str(rest);
    match short.char_indices().nth(MAX_ERROR_CHARS - 1) {
        Some((cut, _)) => format!("{}…", &short[..cut]),
        None => short,
    }
}

/// Bytes of the JSON value `text` starts with, through its closing quote or bracket; all of `text`
/// when it does not close (a bracket of the message's own words).
fn value_len(text: &str) -> usize {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (at, byte) in text.bytes().enumerate() {
        let closed = match byte {
            _ if escaped => {
                escaped = false;
                false
            }
            b'\\' if in_string => {
                escaped = true;
                false
            }
            b'"' => {
                in_string = !in_string;
                !in_string && depth == 0
            }
            b'[' | b'{' if !in_string => {
                depth += 1;
                false
            }
            b']' | b'}' if !in_string => {
                depth = depth.saturating_sub(1);
                depth == 0
            }
            _ => false,
        };
        if closed {
            return at + 1;
        }
    }
    text.len()
}

/// `value` whole when it is short, else its start … its length … its end.
fn push_value(short: &mut String, value: &str) {
    let chars = value.chars().count();
    if chars <= SHORT_VALUE_CHARS {
        short.push_str(value);
        return;
    }
    short.extend(value.chars().take(VALUE_HEAD_CHARS));
    short.push_str(&format!(" … ({chars} characters) … "));
    short.extend(value.chars().skip(chars - VALUE_TAIL_CHARS));
}
