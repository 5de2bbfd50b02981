//! The block structure of markdown: CommonMark's containers (block quotes, lists) and leaf blocks
//! (paragraphs, headings, rules, code, HTML), with GFM's tables and task lists. Lines in, a tree of
//! blocks out, plus the link reference definitions met on the way; inline text stays raw here, as
//! `inlines` can read it only once every definition is known.

use std::collections::HashMap;

/// Link reference definitions by normalised label ([`label_key`]): destination and title. The first
/// definition of a label wins.
pub(super) type Refs = HashMap<String, (String, String)>;

pub(super) enum Block {
    /// Inline text, lines joined by `\n`.
    Paragraph(String),
    Heading(u8, String),
    Rule,
    Code { lang: String, text: String },
    Quote(Vec<Block>),
    List(List),
    Table(Table),
    /// An HTML block, shown as a paragraph of its source.
    Html(String),
}

pub(super) struct List {
    /// The first number of an ordered list; `None` for bullets.
    pub start: Option<u64>,
    /// No blank line between its items or between the blocks of one item.
    pub tight: bool,
    pub items: Vec<Item>,
}

pub(super) struct Item {
    /// `Some(checked)` for a task list item (`- [x] done`).
    pub task: Option<bool>,
    pub blocks: Vec<Block>,
}

pub(super) struct Table {
    pub aligns: Vec<Align>,
    pub head: Vec<String>,
    /// Each row has one cell per column.
    pub rows: Vec<Vec<String>>,
}

#[derive(Clone, Copy)]
pub(super) enum Align {
    None,
    Left,
    Center,
    Right,
}

pub(super) fn parse(markdown: &str, refs: &mut Refs) -> Vec<Block> {
    let lines: Vec<String> = markdown.split('\n').map(|line| line.strip_suffix('\r').unwrap_or(line).to_owned()).collect();
    Parser { refs, depth: 0 }.blocks(&lines, true).0
}

/// How CommonMark matches labels: case-insensitively, with runs of white space as one space.
pub(super) fn label_key(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

struct Parser<'r> {
    refs: &'r mut Refs,
    /// How many block quotes and list items the lines being read are in.
    depth: usize,
}

/// Deeper than this, quote and list markers are text: each level is a call deeper, and no
/// document worth reading nests so far.
const MAX_DEPTH: usize = 32;

impl Parser<'_> {
    /// The blocks of `lines`, and whether a blank line separates two of them (which makes the list
    /// item they are in loose). `unended` says the last line is the document's, with no line break.
    fn blocks(&mut self, lines: &[String], unended: bool) -> (Vec<Block>, bool) {
        let mut blocks = Vec::new();
        let mut blank_between = false;
        let mut after_blank = false;
        let mut at = 0;
        while at < lines.len() {
            if is_blank(&lines[at]) {
                after_blank = true;
                at += 1;
                continue;
            }
            blank_between |= after_blank && !blocks.is_empty();
            after_blank = false;
            let (block, next) = self.block(lines, at, unended);
            blocks.extend(block);
            at = next;
        }
        (blocks, blank_between)
    }

    /// [`Self::blocks`] one container deeper.
    fn nested(&mut self, lines: &[String], unended: bool) -> (Vec<Block>, bool) {
        self.depth += 1;
        let read = self.blocks(lines, unended);
        self.depth -= 1;
        read
    }

    /// The block starting at the non-blank line `at` (none when a paragraph held only link
    /// definitions), and the line after it.
    fn block(&mut self, lines: &[String], at: usize, unended: bool) -> (Option<Block>, usize) {
        let line = &lines[at];
        if indent(line) >= 4 {
            return indented_code(lines, at, unended);
        }
        let rest = content(line);
        if let Some(fence) = Fence::open(line) {
            return fenced_code(lines, at, &fence, unended);
        }
        if let Some((level, text)) = atx_heading(rest) {
            return (Some(Block::Heading(level, text.to_owned())), at + 1);
        }
        if is_rule(rest) {
            return (Some(Block::Rule), at + 1);
        }
        if self.depth < MAX_DEPTH {
            if rest.starts_with('>') {
                return self.quote(lines, at, unended);
            }
            if let Some(marker) = Marker::read(line) {
                return self.list(lines, at, marker, unended);
            }
        }
        if let Some(end) = html_start(rest, false) {
            return html_block(lines, at, end, unended);
        }
        if let Some((aligns, head)) = table_start(lines, at) {
            return table(lines, at, aligns, head);
        }
        self.paragraph(lines, at)
    }

    fn quote(&mut self, lines: &[String], at: usize, unended: bool) -> (Option<Block>, usize) {
        let mut inner = Vec::new();
        let mut open = OpenParagraph::default();
        let mut next = at;
        while let Some(line) = lines.get(next) {
            let stripped = match content(line).strip_prefix('>') {
                Some(after) if indent(line) < 4 => strip_columns(after, 1),
                // A lazy line carries on the paragraph it follows, indentation and all.
                _ if open.is_open() && !is_blank(line) && !starts_block(line) => line.clone(),
                _ => break,
            };
            open.push(&stripped);
            inner.push(stripped);
            next += 1;
        }
        let blocks = self.nested(&inner, unended && next == lines.len()).0;
        (Some(Block::Quote(blocks)), next)
    }

    fn list(&mut self, lines: &[String], at: usize, first: Marker, unended: bool) -> (Option<Block>, usize) {
        let mut items = Vec::new();
        let mut loose = false;
        let mut marker = first;
        let mut at = at;
        loop {
            let mut item = vec![marker.first_line(&lines[at])];
            let mut open = OpenParagraph::default();
            open.push(&item[0]);
            let mut next = at + 1;
            while let Some(line) = lines.get(next) {
                if is_blank(line) {
                    // An item starts with at most one blank line; later blank lines belong to it only
                    // when more of it follows.
                    let empty_so_far = item.iter().all(|line| is_blank(line));
                    match lines[next..].iter().position(|line| !is_blank(line)) {
                        Some(skip) if !empty_so_far && indent(&lines[next + skip]) >= marker.offset => {
                            item.extend((0..skip).map(|_| String::new()));
                            open = OpenParagraph::default();
                            next += skip;
                            continue;
                        }
                        _ => break,
                    }
                }
                let stripped = match indent(line) >= marker.offset {
                    true => strip_columns(line, marker.offset),
                    false if open.is_open() && !starts_block(line) => line.clone(),
                    false => break,
                };
                open.push(&stripped);
                item.push(stripped);
                next += 1;
            }
            let (mut blocks, blank_inside) = self.nested(&item, unended && next == lines.len());
            loose |= blank_inside;
            let task = task_marker(&mut blocks);
            items.push(Item { task, blocks });
            // The list goes on with an item of the same kind, even after blank lines.
            let after_blanks = next + lines[next..].iter().take_while(|line| is_blank(line)).count();
            match lines.get(after_blanks).filter(|line| !is_rule(content(line))).and_then(|line| Marker::read(line)) {
                Some(following) if following.same_list(&marker) => {
                    loose |= after_blanks > next;
                    marker = following;
                    at = after_blanks;
                }
                _ => return (Some(Block::List(List { start: first.number, tight: !loose, items })), next),
            }
        }
    }

    fn paragraph(&mut self, lines: &[String], at: usize) -> (Option<Block>, usize) {
        let mut text = content(&lines[at]).to_owned();
        let mut next = at + 1;
        let mut heading = None;
        while let Some(line) = lines.get(next) {
            if is_blank(line) {
                break;
            }
            if indent(line) < 4 {
                if let Some(level) = setext_level(content(line)) {
                    heading = Some(level);
                    next += 1;
                    break;
                }
                if interrupts_paragraph(line) || table_start(lines, next).is_some() {
                    break;
                }
            }
            // The line as it is: `inlines` skips the white space after a line break, but a code span
            // keeps it (pulldown-cmark's reading).
            text.push('\n');
            text.push_str(line);
            next += 1;
        }
        let rest = self.definitions(&text);
        if rest.trim().is_empty() {
            // Only definitions: an underline under them is a block of its own.
            return (None, next - usize::from(heading.is_some()));
        }
        match heading {
            Some(level) => (Some(Block::Heading(level, rest.trim().to_owned())), next),
            None => (Some(Block::Paragraph(rest.trim_start_matches([' ', '\t']).trim_end().to_owned())), next),
        }
    }

    /// Reads the link reference definitions at the start of a paragraph's text into `refs`, and
    /// returns the text after them.
    fn definitions<'t>(&mut self, mut text: &'t str) -> &'t str {
        while let Some((label, dest, title, rest)) = definition(text) {
            self.refs.entry(label_key(label)).or_insert((dest, title));
            text = rest;
        }
        text
    }
}

/// Whether a container's last line left a paragraph open, so that a lazy line (one without the
/// container's marker or indentation) carries it on. Follows fences, tables, blank lines and the
/// leaf blocks that cannot take a continuation; list and quote markers are looked through.
#[derive(Default)]
struct OpenParagraph {
    fence: Option<Fence>,
    /// Inside an HTML block, until what ends it.
    html: Option<HtmlEnd>,
    /// Inside a table's rows.
    table: bool,
    /// A list item's marker was met since the last blank line.
    in_list: bool,
    /// The open paragraph's last line.
    last: Option<String>,
}

impl OpenParagraph {
    fn is_open(&self) -> bool {
        self.last.is_some()
    }

    fn push(&mut self, line: &str) {
        if let Some(fence) = &self.fence {
            if fence.closes(line) {
                self.fence = None;
            }
            return;
        }
        let mut line = line;
        let mut owned;
        let mut levels = 0;
        while let Some(after) = content(line).strip_prefix('>').filter(|_| indent(line) < 4 && levels < MAX_DEPTH) {
            owned = strip_columns(after, 1);
            line = &owned;
            levels += 1;
        }
        match &self.html {
            Some(HtmlEnd::Blank) if is_blank(line) => self.html = None,
            Some(end) if end.ends_at(line) => {
                self.html = None;
                return;
            }
            Some(_) => return,
            None => {}
        }
        // A table's rows go on until a blank line or another block.
        self.table &= !is_blank(line) && !starts_block(line);
        if self.table {
            return;
        }
        while levels < MAX_DEPTH {
            levels += 1;
            if self.last.is_some() && indent(line) >= 4 {
                // Too indented to start anything: it carries the paragraph on.
                return;
            }
            if is_blank(line) || (self.last.is_none() && indent(line) >= 4) {
                self.in_list &= !is_blank(line);
                self.last = None;
                return;
            }
            if let Some(after) = content(line).strip_prefix('>').filter(|_| indent(line) < 4) {
                owned = strip_columns(after, 1);
                line = &owned;
                continue;
            }
            // A marker that cannot interrupt the open paragraph is its text, unless it may be the
            // next item of a list already open.
            let marker = Marker::read(line).filter(|marker| {
                !is_rule(content(line))
                    && (self.last.is_none() || marker.interrupts() || (self.in_list && !marker.empty))
            });
            if let Some(marker) = marker {
                self.in_list = true;
                owned = marker.first_line(line);
                line = &owned;
                continue;
            }
            break;
        }
        if let Some(fence) = Fence::open(line) {
            self.fence = Some(fence);
            self.last = None;
            return;
        }
        let rest = content(line);
        if self.last.as_deref().is_some_and(|last| table_head(last, line).is_some()) {
            self.table = true;
            self.last = None;
            return;
        }
        if let Some(end) = html_start(rest, self.last.is_some()) {
            self.html = (!end.ends_at(rest)).then_some(end);
            self.last = None;
            return;
        }
        let leaf = atx_heading(rest).is_some() || is_rule(rest);
        self.last = (!leaf && !rest.is_empty()).then(|| line.to_owned());
    }
}

/// A list item's marker: `-`, `+`, `*`, or a number and `.` or `)`.
#[derive(Clone, Copy)]
struct Marker {
    /// The bullet, or the delimiter after the number.
    symbol: u8,
    number: Option<u64>,
    /// The column the item's content starts at; its other lines are indented this far.
    offset: usize,
    /// Nothing follows the marker on its line.
    empty: bool,
}

impl Marker {
    fn read(line: &str) -> Option<Marker> {
        let margin = indent(line);
        if margin >= 4 {
            return None;
        }
        let rest = content(line);
        let bytes = rest.as_bytes();
        let (symbol, number, width) = match *bytes.first()? {
            symbol @ (b'-' | b'+' | b'*') => (symbol, None, 1),
            b'0'..=b'9' => {
                let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
                let symbol = *bytes.get(digits).filter(|b| matches!(b, b'.' | b')'))?;
                if digits > 9 {
                    return None;
                }
                (symbol, rest[..digits].parse().ok(), digits + 1)
            }
            _ => return None,
        };
        let after = &rest[width..];
        if is_blank(after) {
            return Some(Marker { symbol, number, offset: margin + width + 1, empty: true });
        }
        if !after.starts_with([' ', '\t']) {
            return None;
        }
        let spaces = match indent(after) {
            // Five or more: the content is indented code one column after the marker.
            spaces if spaces >= 5 => 1,
            spaces => spaces,
        };
        Some(Marker { symbol, number, offset: margin + width + spaces, empty: false })
    }

    /// The item's first line without its marker, as its other lines are without their indentation.
    fn first_line(&self, line: &str) -> String {
        let indent = indent(line);
        let rest = content(line);
        let width = self.offset - indent;
        let marker_len = rest.find([' ', '\t']).unwrap_or(rest.len());
        match self.empty {
            true => String::new(),
            false => strip_columns(&rest[marker_len..], width - marker_len),
        }
    }

    fn same_list(&self, other: &Marker) -> bool {
        self.symbol == other.symbol && self.number.is_some() == other.number.is_some()
    }

    /// Whether this marker may start a list in the middle of a paragraph.
    fn interrupts(&self) -> bool {
        !self.empty && self.number.is_none_or(|number| number == 1)
    }
}

/// Takes a task list item's `[ ]` or `[x]` off its first paragraph, and the paragraph too when
/// nothing else is in it.
fn task_marker(blocks: &mut Vec<Block>) -> Option<bool> {
    let Some(Block::Paragraph(text)) = blocks.first_mut() else { return None };
    let checked = match text.get(..3)? {
        "[ ]" => false,
        "[x]" | "[X]" => true,
        _ => return None,
    };
    let rest = &text[3..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '\n'])) {
        return None;
    }
    *text = rest.trim_start().to_owned();
    if text.is_empty() {
        blocks.remove(0);
    }
    Some(checked)
}

struct Fence {
    symbol: char,
    len: usize,
    indent: usize,
    info: String,
}

impl Fence {
    fn open(line: &str) -> Option<Fence> {
        let indent = indent(line);
        let rest = content(line);
        let symbol = rest.chars().next().filter(|c| matches!(c, '`' | '~'))?;
        let len = rest.chars().take_while(|c| *c == symbol).count();
        let info = rest[len..].trim();
        if indent >= 4 || len < 3 || (symbol == '`' && info.contains('`')) {
            return None;
        }
        Some(Fence { symbol, len, indent, info: info.to_owned() })
    }

    fn closes(&self, line: &str) -> bool {
        let rest = content(line);
        let len = rest.chars().take_while(|c| *c == self.symbol).count();
        indent(line) < 4 && len >= self.len && rest[len..].trim().is_empty()
    }
}

/// `unended`: the last line is the document's, without a line break (an unclosed fence keeps it so).
fn fenced_code(lines: &[String], at: usize, fence: &Fence, unended: bool) -> (Option<Block>, usize) {
    let mut text = String::new();
    let mut next = at + 1;
    while let Some(line) = lines.get(next) {
        next += 1;
        if fence.closes(line) {
            break;
        }
        text.push_str(&strip_columns(line, fence.indent.min(indent(line))));
        if !(unended && next == lines.len()) {
            text.push('\n');
        }
    }
    let word = fence.info.split(' ').next().unwrap_or("");
    let lang = super::inlines::unescape(word);
    (Some(Block::Code { lang, text }), next)
}

fn indented_code(lines: &[String], at: usize, unended: bool) -> (Option<Block>, usize) {
    let mut end = at;
    let mut last_text = at;
    while let Some(line) = lines.get(end) {
        if !is_blank(line) && indent(line) < 4 {
            break;
        }
        if !is_blank(line) {
            last_text = end;
        }
        end += 1;
    }
    let mut text = String::new();
    for (index, line) in lines.iter().enumerate().take(last_text + 1).skip(at) {
        text.push_str(&strip_columns(line, 4));
        if !(unended && index + 1 == lines.len()) {
            text.push('\n');
        }
    }
    (Some(Block::Code { lang: String::new(), text }), last_text + 1)
}

fn atx_heading(rest: &str) -> Option<(u8, &str)> {
    let level = rest.bytes().take_while(|b| *b == b'#').count();
    let after = &rest[level..];
    if level == 0 || level > 6 || !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let text = after.trim();
    // An optional closing run of `#`, after a space.
    let unclosed = text.trim_end_matches('#');
    let text = match unclosed.is_empty() || unclosed.ends_with([' ', '\t']) {
        true => unclosed.trim_end(),
        false => text,
    };
    Some((level as u8, text))
}

fn setext_level(rest: &str) -> Option<u8> {
    let underline = rest.trim_end();
    match underline.bytes().next()? {
        b'=' if underline.bytes().all(|b| b == b'=') => Some(1),
        b'-' if underline.bytes().all(|b| b == b'-') => Some(2),
        _ => None,
    }
}

fn is_rule(rest: &str) -> bool {
    let mut symbol = None;
    let mut count = 0;
    for c in rest.chars() {
        match c {
            ' ' | '\t' => {}
            '*' | '-' | '_' if symbol.is_none_or(|symbol| symbol == c) => {
                symbol = Some(c);
                count += 1;
            }
            _ => return false,
        }
    }
    count >= 3
}

/// What ends an HTML block: a line holding one of these, or a blank line.
enum HtmlEnd {
    Contains(&'static [&'static str]),
    Blank,
}

impl HtmlEnd {
    /// Whether `line`, part of the block, is its last line (a blank line ends it before itself).
    fn ends_at(&self, line: &str) -> bool {
        match self {
            HtmlEnd::Contains(markers) => {
                let lower = line.to_ascii_lowercase();
                markers.iter().any(|marker| lower.contains(marker))
            }
            HtmlEnd::Blank => false,
        }
    }
}

/// The HTML block CommonMark's seven start conditions see at `rest`; the seventh (any lone tag)
/// cannot interrupt a paragraph.
fn html_start(rest: &str, in_paragraph: bool) -> Option<HtmlEnd> {
    const BLOCK_TAGS: &[&str] = &[
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html",
        "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup",
        "option", "p", "param", "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead",
        "title", "tr", "track", "ul",
    ];
    let after = rest.strip_prefix('<')?;
    let lower: String = after.chars().take(12).collect::<String>().to_ascii_lowercase();
    let name_len = lower.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let ends_name = |at: usize| lower[at..].is_empty() || lower[at..].starts_with([' ', '\t', '>']);
    for raw in ["script", "pre", "style", "textarea"] {
        if lower.starts_with(raw) && name_len == raw.len() && ends_name(raw.len()) {
            return Some(HtmlEnd::Contains(&["</script>", "</pre>", "</style>", "</textarea>"]));
        }
    }
    if after.starts_with("!--") {
        return Some(HtmlEnd::Contains(&["-->"]));
    }
    if after.starts_with('?') {
        return Some(HtmlEnd::Contains(&["?>"]));
    }
    if after.starts_with("![CDATA[") {
        return Some(HtmlEnd::Contains(&["]]>"]));
    }
    if after.strip_prefix('!').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic())) {
        return Some(HtmlEnd::Contains(&[">"]));
    }
    let closing = lower.starts_with('/');
    let name_at = usize::from(closing);
    let name_len = lower[name_at..].bytes().take_while(u8::is_ascii_alphanumeric).count();
    let name = &lower[name_at..name_at + name_len];
    let name_end = &lower[name_at + name_len..];
    if BLOCK_TAGS.contains(&name)
        && (name_end.is_empty() || name_end.starts_with([' ', '\t', '>']) || name_end.starts_with("/>"))
    {
        return Some(HtmlEnd::Blank);
    }
    let tag_len = super::inlines::html_tag_len(rest).filter(|_| !in_paragraph)?;
    let lone = rest[tag_len..].trim().is_empty() && !rest[1..].starts_with(['!', '?']);
    lone.then_some(HtmlEnd::Blank)
}

fn html_block(lines: &[String], at: usize, end: HtmlEnd, unended: bool) -> (Option<Block>, usize) {
    let mut source = String::new();
    let mut next = at;
    while let Some(line) = lines.get(next) {
        if matches!(end, HtmlEnd::Blank) && is_blank(line) {
            break;
        }
        source.push_str(line);
        next += 1;
        if !(unended && next == lines.len()) {
            source.push('\n');
        }
        if end.ends_at(line) {
            break;
        }
    }
    (Some(Block::Html(source)), next)
}

/// A table's alignments and header cells, when the line at `at` heads one.
fn table_start(lines: &[String], at: usize) -> Option<(Vec<Align>, Vec<String>)> {
    table_head(&lines[at], lines.get(at + 1)?)
}

/// The alignments and header cells of a table whose header row is `head`, when `delimiter` is its
/// delimiter row, with as many cells.
fn table_head(head: &str, delimiter: &str) -> Option<(Vec<Align>, Vec<String>)> {
    if indent(delimiter) >= 4 || !delimiter.contains('|') || !head.contains('|') {
        return None;
    }
    let aligns = split_row(delimiter)
        .iter()
        .map(|cell| {
            let dashes = cell.trim_start_matches(':').trim_end_matches(':');
            (!dashes.is_empty() && dashes.bytes().all(|b| b == b'-')).then(|| {
                match (cell.starts_with(':'), cell.ends_with(':')) {
                    (true, true) => Align::Center,
                    (true, false) => Align::Left,
                    (false, true) => Align::Right,
                    (false, false) => Align::None,
                }
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let cells = split_row(head);
    (cells.len() == aligns.len()).then_some((aligns, cells))
}

fn table(lines: &[String], at: usize, aligns: Vec<Align>, head: Vec<String>) -> (Option<Block>, usize) {
    let mut rows = Vec::new();
    let mut next = at + 2;
    while let Some(line) = lines.get(next) {
        if is_blank(line) || starts_block(line) {
            break;
        }
        let mut cells = split_row(line);
        cells.resize(aligns.len(), String::new());
        rows.push(cells);
        next += 1;
    }
    (Some(Block::Table(Table { aligns, head, rows })), next)
}

/// A table row's cells, trimmed: split at each `|` that is not escaped, leading and trailing
/// pipes dropped. An escaped pipe stays escaped for `inlines` to read.
fn split_row(line: &str) -> Vec<String> {
    let row = line.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let mut cells = vec![String::new()];
    let mut chars = row.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let cell = cells.last_mut().expect("one cell");
                cell.push('\\');
                cell.extend(chars.next());
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().expect("one cell").push(c),
        }
    }
    if cells.len() > 1 && cells.last().is_some_and(|cell| cell.trim().is_empty()) && row.ends_with('|') {
        cells.pop();
    }
    cells.iter().map(|cell| cell.trim().to_owned()).collect()
}

/// `[label]: destination "title"` at the start of `text`: the label, destination and title, and the
/// text after the definition's line.
fn definition(text: &str) -> Option<(&str, String, String, &str)> {
    use super::inlines::{link_destination, link_label, link_title, skip_space};
    let label_len = link_label(text)?;
    let label = &text[1..label_len - 1];
    if label.trim().is_empty() {
        return None;
    }
    let after = text[label_len..].strip_prefix(':')?;
    let dest_at = skip_space(after, true);
    let (dest, dest_len) = link_destination(&after[dest_at..])?;
    if dest_len == 0 && !after[dest_at..].starts_with('<') {
        return None;
    }
    let after_dest = &after[dest_at + dest_len..];
    let line_end = |rest: &str| -> Option<usize> {
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        match rest[spaces..].chars().next() {
            None => Some(spaces),
            Some('\n') => Some(spaces + 1),
            _ => None,
        }
    };
    // A title, separated by white space, ending its line; without one the line must end.
    let title_at = skip_space(after_dest, true);
    if title_at > 0
        && let Some((title, title_len)) = link_title(&after_dest[title_at..])
        && let Some(end) = line_end(&after_dest[title_at + title_len..])
    {
        return Some((label, dest, title, &after_dest[title_at + title_len + end..]));
    }
    let end = line_end(after_dest)?;
    Some((label, dest, String::new(), &after_dest[end..]))
}

fn interrupts_paragraph(line: &str) -> bool {
    let rest = content(line);
    indent(line) < 4
        && (Fence::open(line).is_some()
            || atx_heading(rest).is_some()
            || is_rule(rest)
            || rest.starts_with('>')
            || Marker::read(line).is_some_and(|marker| marker.interrupts())
            || html_start(rest, true).is_some())
}

/// Whether `line` starts a block, so that it cannot be a lazy continuation line or a table row.
fn starts_block(line: &str) -> bool {
    interrupts_paragraph(line) || (indent(line) < 4 && Marker::read(line).is_some())
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

/// The line's indentation in columns, a tab reaching the next multiple of four.
fn indent(text: &str) -> usize {
    let mut width = 0;
    for b in text.bytes() {
        match b {
            b' ' => width += 1,
            b'\t' => width += 4 - width % 4,
            _ => break,
        }
    }
    width
}

/// The line without its indentation.
fn content(line: &str) -> &str {
    line.trim_start_matches([' ', '\t'])
}

/// `line` without `count` columns of indentation; a tab only partly taken leaves the rest as spaces.
fn strip_columns(line: &str, count: usize) -> String {
    let mut width = 0;
    for (at, b) in line.bytes().enumerate() {
        if width >= count {
            return line[at..].to_owned();
        }
        match b {
            b' ' => width += 1,
            b'\t' => {
                let tab = 4 - width % 4;
                width += tab;
                if width > count {
                    return " ".repeat(width - count) + &line[at + 1..];
                }
            }
            _ => return line[at..].to_owned(),
        }
    }
    String::new()
}
