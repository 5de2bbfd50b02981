//! Inline markdown (emphasis, code, links, images, autolinks, breaks, escapes and entities) to safe
//! HTML, with CommonMark's delimiter and bracket algorithm. Every piece of text is escaped; the only
//! markup is this module's own tags and the link and image writers of `super`.

use super::blocks::{Refs, label_key};
use super::{KeptImage, anchor, escape_html, held_image, image};
use crate::provenance::ImageSources;
use crate::view::present::{link_host, safe_image, safe_link};
use crate::weburl::web_host;

pub(super) struct Inlines<'r, 's> {
    refs: &'r Refs,
    images: ImageSources<'s>,
}

/// Finished inline content: its HTML, the text a link's label is read from (text and code), and
/// the text an image's alt is read from (which also keeps raw HTML and breaks).
#[derive(Default)]
struct Piece {
    html: String,
    label: String,
    alt: String,
}

impl Piece {
    fn text(text: &str) -> Piece {
        Piece { html: escape_html(text), label: text.to_owned(), alt: text.to_owned() }
    }

    fn join(pieces: Vec<Piece>) -> Piece {
        let mut joined = Piece::default();
        for piece in pieces {
            joined.html.push_str(&piece.html);
            joined.label.push_str(&piece.label);
            joined.alt.push_str(&piece.alt);
        }
        joined
    }
}

enum Token {
    Done(Piece),
    /// A run of `*`, `_` or `~` that may still open or close emphasis.
    Delimiter(Delimiter),
    /// `[` or `![` that may still start a link or an image.
    Bracket(Bracket),
}

struct Delimiter {
    symbol: u8,
    /// What is left of the run once emphasis took its delimiters: shown as text.
    len: usize,
    /// The run's length before emphasis took any of it (the rule of three reads it).
    original: usize,
    opens: bool,
    closes: bool,
    /// The closing tags written before what is left of the run, and the opening tags after it.
    closed: String,
    opened: String,
}

struct Bracket {
    image: bool,
    /// Where its text starts in the source (the label of a reference link).
    text_at: usize,
}

impl Token {
    fn into_piece(self) -> Piece {
        match self {
            Token::Done(piece) => piece,
            Token::Delimiter(run) => {
                let mut piece = Piece::text(&(run.symbol as char).to_string().repeat(run.len));
                piece.html = run.closed + &piece.html + &run.opened;
                piece
            }
            Token::Bracket(bracket) => Piece::text(if bracket.image { "![" } else { "[" }),
        }
    }
}

/// What a link's destination is: a URL, or an email autolink's address (which gets `mailto:`).
enum Destination {
    Link,
    Email,
}

impl<'r, 's> Inlines<'r, 's> {
    pub(super) fn new(refs: &'r Refs, images: ImageSources<'s>) -> Self {
        Inlines { refs, images }
    }

    pub(super) fn render(&self, source: &str) -> String {
        let mut tokens = self.tokens(source);
        emphasis(&mut tokens, 0);
        tokens.into_iter().map(|token| token.into_piece().html).collect()
    }

    fn tokens(&self, source: &str) -> Vec<Token> {
        let bytes = source.as_bytes();
        let mut tokens: Vec<Token> = Vec::new();
        // Indices in `tokens` of the brackets still open, innermost last; the link brackets below
        // `inactive_below` came before a link, so they can start none (links do not nest).
        let mut brackets: Vec<usize> = Vec::new();
        let mut inactive_below = 0;
        let mut text = String::new();
        let flush = |text: &mut String, tokens: &mut Vec<Token>| {
            if !text.is_empty() {
                tokens.push(Token::Done(Piece::text(text)));
                text.clear();
            }
        };
        let mut at = 0;
        while at < bytes.len() {
            match bytes[at] {
                b'\\' if bytes.get(at + 1) == Some(&b'\n') => {
                    flush(&mut text, &mut tokens);
                    tokens.push(Token::Done(hard_break()));
                    at += 2 + skip_space(&source[at + 2..], false);
                }
                b'\\' if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) => {
                    text.push(bytes[at + 1] as char);
                    at += 2;
                }
                b'\n' => {
                    // Like pulldown-cmark, two trailing spaces or tabs make a hard break.
                    let spaces = text.len() - text.trim_end_matches([' ', '\t']).len();
                    text.truncate(text.len() - spaces);
                    flush(&mut text, &mut tokens);
                    tokens.push(Token::Done(match spaces >= 2 {
                        true => hard_break(),
                        false => Piece { html: "\n".into(), label: String::new(), alt: " ".into() },
                    }));
                    at += 1 + skip_space(&source[at + 1..], false);
                }
                b'`' => {
                    let run = bytes[at..].iter().take_while(|b| **b == b'`').count();
                    match code_span(source, at, run) {
                        Some((code, end)) => {
                            flush(&mut text, &mut tokens);
                            let html = format!("<code>{}</code>", escape_html(&code));
                            tokens.push(Token::Done(Piece { html, label: code.clone(), alt: code }));
                            at = end;
                        }
                        None => {
                            text.push_str(&source[at..at + run]);
                            at += run;
                        }
                    }
                }
                symbol @ (b'*' | b'_' | b'~') => {
                    let len = bytes[at..].iter().take_while(|b| **b == symbol).count();
                    if symbol == b'~' && len > 2 {
                        text.push_str(&source[at..at + len]);
                    } else {
                        flush(&mut text, &mut tokens);
                        tokens.push(Token::Delimiter(delimiter(source, at, len)));
                    }
                    at += len;
                }
                b'[' => {
                    flush(&mut text, &mut tokens);
                    brackets.push(tokens.len());
                    tokens.push(Token::Bracket(Bracket { image: false, text_at: at + 1 }));
                    at += 1;
                }
                b'!' if bytes.get(at + 1) == Some(&b'[') => {
                    flush(&mut text, &mut tokens);
                    brackets.push(tokens.len());
                    tokens.push(Token::Bracket(Bracket { image: true, text_at: at + 2 }));
                    at += 2;
                }
                b']' => {
                    flush(&mut text, &mut tokens);
                    let opener = brackets.pop().and_then(|index| match &tokens[index] {
                        Token::Bracket(bracket) if bracket.image || brackets.len() >= inactive_below => {
                            Some((index, bracket.image, bracket.text_at))
                        }
                        _ => None,
                    });
                    inactive_below = inactive_below.min(brackets.len());
                    let link = opener.and_then(|(index, image, text_at)| {
                        let (dest, title, end) = self.link_tail(source, at + 1, &source[text_at..at])?;
                        Some((index, image, dest, title, end))
                    });
                    let Some((index, image, dest, title, end)) = link else {
                        text.push(']');
                        at += 1;
                        continue;
                    };
                    emphasis(&mut tokens, index + 1);
                    let inner: Vec<Piece> = tokens.drain(index + 1..).map(Token::into_piece).collect();
                    tokens.pop();
                    let piece = match image {
                        true => self.image(&dest, title, Piece::join(inner)),
                        false => {
                            inactive_below = brackets.len();
                            self.link(Destination::Link, &dest, &title, Piece::join(inner))
                        }
                    };
                    tokens.push(Token::Done(piece));
                    at = end;
                }
                b'<' => {
                    if let Some((address, kind, len)) = autolink(&source[at..]) {
                        flush(&mut text, &mut tokens);
                        tokens.push(Token::Done(self.link(kind, address, "", Piece::text(address))));
                        at += len;
                    } else if let Some(len) = html_tag_len(&source[at..]) {
                        flush(&mut text, &mut tokens);
                        let raw = &source[at..at + len];
                        tokens.push(Token::Done(Piece { html: escape_html(raw), label: String::new(), alt: raw.into() }));
                        at += len;
                    } else {
                        text.push('<');
                        at += 1;
                    }
                }
                b'&' => match entity(&source[at..]) {
                    Some((decoded, len)) => {
                        text.push_str(&decoded);
                        at += len;
                    }
                    None => {
                        text.push('&');
                        at += 1;
                    }
                },
                _ => {
                    let end = bytes[at..]
                        .iter()
                        .position(|b| b"\\\n`*_~[!]<&".contains(b))
                        .map_or(bytes.len(), |len| at + len.max(1));
                    text.push_str(&source[at..end]);
                    at = end;
                }
            }
        }
        flush(&mut text, &mut tokens);
        tokens
    }

    /// What follows a link's `]` at `at`: an inline destination and title, or a reference to a
    /// definition (`[label]`, `[]` or nothing, the text being the label); and where it ends.
    fn link_tail(&self, source: &str, at: usize, text: &str) -> Option<(String, String, usize)> {
        let rest = &source[at..];
        if let Some(inline) = inline_link(rest) {
            return Some((inline.0, inline.1, at + inline.2));
        }
        let (label, end) = match link_label(rest) {
            Some(len) if len > 2 => (&rest[1..len - 1], at + len),
            Some(len) => (text, at + len),
            None => (text, at),
        };
        // A label is at most 999 characters, which also keeps nested brackets from costing a long
        // key at each `]`.
        if label.len() > 999 * 4 || label.chars().count() > 999 {
            return None;
        }
        let (dest, title) = self.refs.get(&label_key(label))?;
        Some((dest.clone(), title.clone(), end))
    }

    /// A link as the sanitizer writes it: a refused destination keeps only the text, and a web
    /// link shows its host after a text that does not name it.
    fn link(&self, kind: Destination, dest: &str, title: &str, inner: Piece) -> Piece {
        let href = match kind {
            Destination::Email => safe_link(&format!("mailto:{dest}")),
            Destination::Link => safe_link(dest),
        };
        let mut html = String::new();
        if let Some(href) = &href {
            html.push_str(&anchor(href, title));
        }
        html.push_str(&inner.html);
        if href.is_some() {
            html.push_str("</a>");
        }
        let host = href.as_deref().and_then(link_host);
        if let Some(host) = host.filter(|host| !inner.label.to_ascii_lowercase().contains(host.as_str())) {
            html.push_str(&format!("<span class=\"au-link-host\"> ({})</span>", escape_html(&host)));
        }
        Piece { html, label: inner.label, alt: inner.alt }
    }

    /// An image as the sanitizer writes it: a refused source leaves its alt text as content, and a
    /// web image the sources do not allow is held back.
    fn image(&self, dest: &str, title: String, inner: Piece) -> Piece {
        let Some(src) = safe_image(dest) else { return inner };
        let pending = KeptImage { src, title, alt: inner.alt };
        let html = match web_host(&pending.src).is_none() || self.images.allows(&pending.src) {
            true => image(&pending),
            false => held_image(&pending),
        };
        Piece { html, label: String::new(), alt: pending.alt }
    }
}

fn hard_break() -> Piece {
    Piece { html: "<br />\n".into(), label: String::new(), alt: " ".into() }
}

/// The run of `len` delimiters at `at`, with what CommonMark's flanking rules let it do.
fn delimiter(source: &str, at: usize, len: usize) -> Delimiter {
    let before = source[..at].chars().next_back().unwrap_or(' ');
    let after = source[at + len..].chars().next().unwrap_or(' ');
    let left = !after.is_whitespace() && (!is_punctuation(after) || before.is_whitespace() || is_punctuation(before));
    let right = !before.is_whitespace() && (!is_punctuation(before) || after.is_whitespace() || is_punctuation(after));
    let symbol = source.as_bytes()[at];
    let (opens, closes) = match symbol {
        // `~~` may open inside a word, like `*`; `_` and a single `~` may not (pulldown-cmark's rules).
        b'~' if len == 2 => (!after.is_whitespace(), right),
        b'_' | b'~' => (left && (!right || is_punctuation(before)), right && (!left || is_punctuation(after))),
        _ => (left, right),
    };
    Delimiter { symbol, len, original: len, opens, closes, closed: String::new(), opened: String::new() }
}

fn is_punctuation(c: char) -> bool {
    // CommonMark counts Unicode's punctuation and symbols (emoji among them); outside ASCII, that is
    // close to what is neither a letter, a digit nor white space.
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// CommonMark's "process emphasis" over the tokens from `bottom`, in one pass: each closing run
/// takes the nearest opening run it may pair with, each gives up the delimiters the tags stand
/// for, and the runs between them are left as text.
fn emphasis(tokens: &mut [Token], bottom: usize) {
    // Indices of the runs that may still open, innermost last.
    let mut openers: Vec<usize> = Vec::new();
    // Per symbol, per closer that can also open, per length mod 3: how far down `openers` a
    // closer of that kind may look (where the last one like it found nothing), as pulldown-cmark
    // does, so unpaired runs cost no repeated search. Strikethrough runs share one.
    let mut floors = [[[0usize; 3]; 2]; 3];
    for index in bottom..tokens.len() {
        let Token::Delimiter(run) = &tokens[index] else { continue };
        let (symbol, original, opens) = (run.symbol, run.original, run.opens);
        let floor_at = match symbol {
            b'~' => (2, 0, 0),
            _ => (usize::from(symbol == b'_'), usize::from(opens), original % 3),
        };
        while let Token::Delimiter(closer) = &tokens[index]
            && closer.closes
            && closer.len > 0
        {
            let floor = floors[floor_at.0][floor_at.1][floor_at.2];
            let closer_len = closer.len;
            let found = (floor..openers.len()).rev().find(|&at| match &tokens[openers[at]] {
                Token::Delimiter(open) if open.symbol == symbol && open.len > 0 => match symbol {
                    b'~' => open.len == closer_len,
                    _ => {
                        let both = open.closes || opens;
                        !(both && (open.original + original) % 3 == 0 && (open.original % 3 != 0 || original % 3 != 0))
                    }
                },
                _ => false,
            });
            let Some(at) = found else {
                floors[floor_at.0][floor_at.1][floor_at.2] = openers.len();
                break;
            };
            // The runs between the two stay text.
            openers.truncate(at + 1);
            let opener = openers[at];
            let Token::Delimiter(open) = &mut tokens[opener] else { unreachable!("openers holds runs") };
            let used = match symbol {
                b'~' => closer_len,
                _ if open.len >= 2 && closer_len >= 2 => 2,
                _ => 1,
            };
            let tag = match (symbol, used) {
                (b'~', _) => "del",
                (_, 2) => "strong",
                _ => "em",
            };
            open.len -= used;
            open.opened.insert_str(0, &format!("<{tag}>"));
            if open.len == 0 {
                openers.pop();
            }
            // A floor above what is left would hide the openers pushed later.
            floors.iter_mut().flatten().flatten().for_each(|floor| *floor = (*floor).min(openers.len()));
            let Token::Delimiter(close) = &mut tokens[index] else { unreachable!("a run") };
            close.len -= used;
            close.closed.push_str(&format!("</{tag}>"));
        }
        if let Token::Delimiter(run) = &tokens[index]
            && run.opens
            && run.len > 0
        {
            openers.push(index);
        }
    }
}

/// A code span whose opening run of `run` backticks is at `at`: its content and where it ends.
fn code_span(source: &str, at: usize, run: usize) -> Option<(String, usize)> {
    let bytes = source.as_bytes();
    let mut search = at + run;
    while search < bytes.len() {
        let start = search + bytes[search..].iter().position(|b| *b == b'`')?;
        let len = bytes[start..].iter().take_while(|b| **b == b'`').count();
        if len == run {
            let code = source[at + run..start].replace('\n', " ");
            let trimmed = match code.len() >= 2 && code.starts_with(' ') && code.ends_with(' ') && !code.trim().is_empty() {
                true => code[1..code.len() - 1].to_owned(),
                false => code,
            };
            return Some((trimmed, start + len));
        }
        search = start + len;
    }
    None
}

/// `(destination "title")` at the start of `rest`: the destination, the title and its length.
fn inline_link(rest: &str) -> Option<(String, String, usize)> {
    let mut at = 1 + skip_space(rest.strip_prefix('(')?, true);
    let (dest, len) = link_destination(&rest[at..])?;
    at += len;
    let spaces = skip_space(&rest[at..], true);
    let mut title = String::new();
    if spaces > 0
        && let Some((text, len)) = link_title(&rest[at + spaces..])
    {
        title = text;
        at += spaces + len;
    }
    at += skip_space(&rest[at..], true);
    rest[at..].starts_with(')').then(|| (dest, title, at + 1))
}

/// A link destination at the start of `rest`, unescaped, and its length: `<...>` on one line, or
/// text without spaces or control characters whose parentheses balance.
pub(super) fn link_destination(rest: &str) -> Option<(String, usize)> {
    if let Some(inner) = rest.strip_prefix('<') {
        let mut escaped = false;
        for (at, c) in inner.char_indices() {
            match c {
                '\n' | '<' if !escaped => return None,
                '>' if !escaped => return Some((unescape(&inner[..at]), at + 2)),
                _ => escaped = c == '\\' && !escaped,
            }
        }
        return None;
    }
    let mut depth = 0usize;
    let mut escaped = false;
    let mut end = rest.len();
    for (at, c) in rest.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            // Deeper nesting is no destination (as in pulldown-cmark and cmark): this bounds the
            // scan an unclosed `[a](x(` makes at each `]`.
            '(' if depth == 32 => return None,
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = at;
                break;
            }
            ')' => depth -= 1,
            c if c.is_ascii_whitespace() || c.is_ascii_control() => {
                end = at;
                break;
            }
            _ => {}
        }
    }
    (depth == 0).then(|| (unescape(&rest[..end]), end))
}

/// A link title at the start of `rest` (`"..."`, `'...'` or `(...)`), unescaped, and its length.
pub(super) fn link_title(rest: &str) -> Option<(String, usize)> {
    let close = match rest.chars().next()? {
        '"' => '"',
        '\'' => '\'',
        '(' => ')',
        _ => return None,
    };
    let mut escaped = false;
    for (at, c) in rest.char_indices().skip(1) {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == close {
            return Some((unescape(&rest[1..at]), at + 1));
        } else if close == ')' && c == '(' {
            return None;
        }
    }
    None
}

/// A link label (`[...]`, no unescaped bracket inside, at most 999 characters) at the start of
/// `rest`: its length with the brackets. Empty or blank labels count, so `[]` can be told apart.
pub(super) fn link_label(rest: &str) -> Option<usize> {
    let inner = rest.strip_prefix('[')?;
    let mut escaped = false;
    for (at, c) in inner.char_indices().take(1000) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => return None,
            ']' => return (at == 0 || !inner[..at].trim().is_empty()).then_some(at + 2),
            _ => {}
        }
    }
    None
}

/// The length of the spaces and tabs (and, when `newline`, one line break) at the start of `rest`.
pub(super) fn skip_space(rest: &str, newline: bool) -> usize {
    let mut seen_newline = !newline;
    let mut len = 0;
    for b in rest.bytes() {
        match b {
            b' ' | b'\t' => len += 1,
            b'\n' if !seen_newline => {
                seen_newline = true;
                len += 1;
            }
            _ => break,
        }
    }
    len
}

/// `<scheme:...>` or `<address@host>` at the start of `rest`: the address, its kind and the length.
fn autolink(rest: &str) -> Option<(&str, Destination, usize)> {
    let len = 1 + rest[1..].find(|c: char| c == '>' || c == '<' || c.is_ascii_whitespace() || c.is_ascii_control())?;
    let inner = &rest[1..len];
    let end = len;
    if inner.is_empty() || !rest[len..].starts_with('>') {
        return None;
    }
    if let Some((scheme, _)) = inner.split_once(':') {
        let valid = (2..=32).contains(&scheme.len())
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'));
        if valid {
            return Some((inner, Destination::Link, end + 1));
        }
    }
    let (local, domain) = inner.split_once('@')?;
    let local_ok = !local.is_empty() && local.bytes().all(|b| b.is_ascii_alphanumeric() || b".!#$%&'*+/=?^_`{|}~-".contains(&b));
    let domain_ok = domain.split('.').all(|label| {
        (1..=63).contains(&label.len())
            && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    });
    (local_ok && domain_ok).then_some((inner, Destination::Email, end + 1))
}

/// The length of the raw HTML at the start of `rest`: an open or closing tag, a comment, a
/// processing instruction, a declaration or a CDATA section.
pub(super) fn html_tag_len(rest: &str) -> Option<usize> {
    let after = rest.strip_prefix('<')?;
    let ends_at = |marker: &str, from: usize| after[from..].find(marker).map(|at| 1 + from + at + marker.len());
    if let Some(comment) = after.strip_prefix("!--") {
        if comment.starts_with('>') {
            return Some(5);
        }
        if comment.starts_with("->") {
            return Some(6);
        }
        return ends_at("-->", 3);
    }
    if after.starts_with('?') {
        return ends_at("?>", 1);
    }
    if after.starts_with("![CDATA[") {
        return ends_at("]]>", 8);
    }
    if after.strip_prefix('!').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic())) {
        return ends_at(">", 1);
    }
    let bytes = after.as_bytes();
    let name = |at: usize| {
        let len = bytes[at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'-').count();
        (bytes.get(at).is_some_and(u8::is_ascii_alphabetic)).then_some(at + len)
    };
    let space = |at: usize| at + skip_space(&after[at..], true);
    if after.starts_with('/') {
        let at = space(name(1)?);
        return (bytes.get(at) == Some(&b'>')).then_some(at + 2);
    }
    let mut at = name(0)?;
    loop {
        let spaced = space(at);
        match bytes.get(spaced) {
            Some(b'>') => return Some(spaced + 2),
            Some(b'/') if bytes.get(spaced + 1) == Some(&b'>') => return Some(spaced + 3),
            _ if spaced == at => return None,
            _ => {}
        }
        // An attribute: a name, then optionally `=` and a value.
        let name_len = bytes[spaced..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
            .count();
        if name_len == 0 || !(bytes[spaced].is_ascii_alphabetic() || matches!(bytes[spaced], b'_' | b':')) {
            return None;
        }
        at = spaced + name_len;
        let before_equals = space(at);
        if bytes.get(before_equals) == Some(&b'=') {
            let value = space(before_equals + 1);
            at = match bytes.get(value)? {
                quote @ (b'"' | b'\'') => value + 2 + after[value + 1..].find(*quote as char)?,
                _ => {
                    let len = bytes[value..]
                        .iter()
                        .take_while(|b| !b.is_ascii_whitespace() && !b"\"'=<>`".contains(b))
                        .count();
                    if len == 0 {
                        return None;
                    }
                    value + len
                }
            };
        }
    }
}

/// An entity or numeric character reference at the start of `rest` (`&amp;`, `&#35;`, `&#x22;`):
/// the character(s) it stands for and its length. Named ones are the common few; others stay text.
fn entity(rest: &str) -> Option<(String, usize)> {
    let end = rest.bytes().take(40).position(|b| b == b';')?;
    let body = &rest[1..end];
    let decoded = if let Some(number) = body.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) if (1..=6).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(hex, 16).ok()?
            }
            None if (1..=7).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit()) => number.parse().ok()?,
            _ => return None,
        };
        char::from_u32(code).filter(|c| *c != '\0').unwrap_or('\u{fffd}').to_string()
    } else {
        let index = ENTITY_NAMES.iter().position(|name| *name == body)?;
        ENTITY_TEXT.chars().nth(index)?.to_string()
    };
    Some((decoded, end + 1))
}

/// The named entities read: HTML's escapes and the typography and symbols people write by name.
/// Each name's character is the one at the same place in [`ENTITY_TEXT`].
const ENTITY_NAMES: &[&str] = &[
    "amp", "lt", "gt", "quot", "apos", "nbsp", "copy", "reg", "trade", "hellip", "mdash", "ndash", "lsquo", "rsquo",
    "ldquo", "rdquo", "laquo", "raquo", "bull", "middot", "deg", "plusmn", "times", "divide", "micro", "para", "sect",
    "euro", "pound", "yen", "cent", "frac12", "frac14", "frac34", "le", "ge", "ne", "asymp", "infin", "larr", "rarr",
    "uarr", "darr", "harr", "rArr", "check", "dagger", "shy", "ensp", "emsp", "thinsp", "zwj", "zwnj", "sup2", "sup3",
];
const ENTITY_TEXT: &str = "&<>\"'\u{a0}©®™…—–‘’“”«»•·°±×÷µ¶§€£¥¢½¼¾≤≥≠≈∞←→↑↓↔⇒✓†\u{ad}\u{2002}\u{2003}\u{2009}\u{200d}\u{200c}²³";

/// Text with its backslash escapes and entity references read (link destinations, titles and
/// code block info strings).
pub(super) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        let next = text[at + c.len_utf8()..].chars().next();
        if c == '\\' && next.is_some_and(|next| next.is_ascii_punctuation()) {
            out.extend(next);
            at += 2;
        } else if let Some((decoded, len)) = (c == '&').then(|| entity(&text[at..])).flatten() {
            out.push_str(&decoded);
            at += len;
        } else {
            out.push(c);
            at += c.len_utf8();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ENTITY_NAMES, ENTITY_TEXT, unescape};

    #[test]
    fn each_named_entity_reads_as_its_character() {
        assert_eq!(ENTITY_NAMES.len(), ENTITY_TEXT.chars().count(), "one character per name");
        assert_eq!(unescape("&copy; &hellip; &rArr; &sup3; &check;"), "© … ⇒ ³ ✓");
        assert_eq!(unescape("&#169; &#xA9; &#0; &#x110000;"), "© © \u{fffd} \u{fffd}");
        assert_eq!(unescape("&bogus; &amp &#; \\& \\a"), "&bogus; &amp &#; & \\a", "what is no reference stays");
    }
}
