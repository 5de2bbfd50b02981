//! Data-table rules, pure and natively tested: columns (declared or inferred from the rows), what a
//! cell shows, stable sort orders, accent- and case-insensitive filtering, CSV export, the virtual
//! scroll window and keyboard selection, plus grid-data's spreadsheet column names. Orders are
//! permutations of row indexes over the shared rows, so sorting or filtering never clones a row.

use std::cmp::Ordering;
use std::ops::Range;

use serde_json::Value;

use crate::sort::stable_order;
use crate::view::fields::{Fields, Read};
use crate::view::numeric::parse_decimal;
use crate::view::present::{format_number, safe_link};

/// How a column's cells read, sort and export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColumnType {
    #[default]
    Text,
    Number,
    Boolean,
    Link,
    Date,
}

/// Horizontal alignment of a column's header and cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

impl Align {
    pub fn as_str(self) -> &'static str {
        match self {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
        }
    }
}

/// A column as the data declares it (`columns[]` in the recipe); every field but `key` is optional.
#[derive(Clone, Debug)]
pub struct ColumnSpec {
    pub key: String,
    pub label: Option<String>,
    pub align: Option<Align>,
    pub kind: Option<ColumnType>,
}

impl ColumnSpec {
    /// A declared column; a `type` or `align` outside the recipe's words is refused, naming them.
    pub fn read(fields: Fields<'_>) -> Read<ColumnSpec> {
        const ALIGNS: [Align; 3] = [Align::Left, Align::Center, Align::Right];
        const KINDS: [ColumnType; 5] =
            [ColumnType::Text, ColumnType::Number, ColumnType::Boolean, ColumnType::Link, ColumnType::Date];
        Ok(ColumnSpec {
            key: fields.required_text("key")?,
            label: fields.text("label")?,
            align: fields.one_of("align", &["left", "center", "right"])?.map(|index| ALIGNS[index]),
            kind: fields.one_of("type", &["text", "number", "boolean", "link", "date"])?.map(|index| KINDS[index]),
        })
    }
}

/// A column ready to render, with every choice made.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub key: String,
    pub label: String,
    pub align: Align,
    pub kind: ColumnType,
}

/// The columns to show: the declared ones (a missing type is inferred from the values), or, when
/// none are declared, every key found in the rows in first-seen order, so no field is silently hidden.
pub fn columns(declared: Option<&[ColumnSpec]>, rows: &[Value]) -> Vec<Column> {
    match declared {
        Some(specs) if !specs.is_empty() => specs
            .iter()
            .map(|spec| {
                let kind = spec.kind.unwrap_or_else(|| infer_kind(rows, &spec.key));
                Column {
                    key: spec.key.clone(),
                    label: spec
                        .label
                        .clone()
                        .filter(|label| !label.trim().is_empty())
                        .unwrap_or_else(|| humanize(&spec.key)),
                    align: spec.align.unwrap_or_else(|| default_align(kind)),
                    kind,
                }
            })
            .collect(),
        _ => {
            let mut keys: Vec<&str> = Vec::new();
            for row in rows {
                if let Value::Object(fields) = row {
                    for key in fields.keys() {
                        if !keys.contains(&key.as_str()) {
                            keys.push(key);
                        }
                    }
                }
            }
            keys.into_iter()
                .map(|key| {
                    let kind = infer_kind(rows, key);
                    Column {
                        key: key.to_owned(),
                        label: humanize(key),
                        align: default_align(kind),
                        kind,
                    }
                })
                .collect()
        }
    }
}

fn default_align(kind: ColumnType) -> Align {
    match kind {
        ColumnType::Number => Align::Right,
        ColumnType::Boolean => Align::Center,
        ColumnType::Text | ColumnType::Link | ColumnType::Date => Align::Left,
    }
}

/// The type every non-empty value of `key` agrees on; text when they disagree or there are none.
fn infer_kind(rows: &[Value], key: &str) -> ColumnType {
    let (mut number, mut boolean, mut link, mut date, mut seen) = (true, true, true, true, false);
    for value in rows.iter().filter_map(|row| row.get(key)) {
        match value {
            Value::Null => continue,
            Value::String(text) if text.trim().is_empty() => continue,
            Value::Number(_) => (boolean, link, date) = (false, false, false),
            Value::Bool(_) => (number, link, date) = (false, false, false),
            Value::String(text) => {
                number = false;
                boolean = false;
                link &= is_web_url(text);
                date &= parse_date(text).is_some();
            }
            Value::Array(_) | Value::Object(_) => return ColumnType::Text,
        }
        seen = true;
        if !(number || boolean || link || date) {
            return ColumnType::Text;
        }
    }
    match (seen, number, boolean, link, date) {
        (false, ..) => ColumnType::Text,
        (_, true, ..) => ColumnType::Number,
        (_, _, true, ..) => ColumnType::Boolean,
        (_, _, _, true, _) => ColumnType::Link,
        (_, _, _, _, true) => ColumnType::Date,
        _ => ColumnType::Text,
    }
}

fn is_web_url(text: &str) -> bool {
    let lower = text
        .trim_start()
        .get(..8)
        .unwrap_or(text)
        .to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// A field name as a header: `area_km2` -> "Area km2", `createdAt` -> "Created at".
pub fn humanize(key: &str) -> String {
    let mut words = String::with_capacity(key.len() + 4);
    let mut previous: Option<char> = None;
    for c in key.chars() {
        if c == '_' || c == '-' || c == '.' {
            if !words.ends_with(' ') && !words.is_empty() {
                words.push(' ');
            }
        } else {
            if c.is_uppercase() && previous.is_some_and(char::is_lowercase) {
                words.push(' ');
            }
            words.extend(c.to_lowercase());
        }
        previous = Some(c);
    }
    let trimmed = words.trim();
    let mut chars = trimmed.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => key.to_owned(),
    }
}

/// What one cell shows, decided once so the widget only maps it to elements.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Missing, null or blank: shown as a muted dash.
    Empty,
    Text(String),
    /// A formatted figure (right-aligned by its column).
    Number(String),
    /// A yes/no value, shown as a check or a cross.
    Flag(bool),
    /// A link that passed `safe_link`; `text` is the address without its scheme.
    Link {
        href: String,
        text: String,
    },
    /// A nested object or list, as compact JSON.
    Json(String),
}

/// The cell of `row` in `column`.
pub fn cell(row: &Value, column: &Column) -> Cell {
    cell_of(row.get(&column.key), column.kind)
}

fn cell_of(value: Option<&Value>, kind: ColumnType) -> Cell {
    match value {
        None | Some(Value::Null) => Cell::Empty,
        Some(Value::Bool(flag)) => Cell::Flag(*flag),
        Some(Value::Number(number)) => match (kind, number.as_f64()) {
            (ColumnType::Date, Some(epoch)) => Cell::Text(format_epoch(epoch)),
            (_, Some(value)) => Cell::Number(table_number(value)),
            (_, None) => Cell::Number(number.to_string()),
        },
        Some(Value::String(text)) if text.trim().is_empty() => Cell::Empty,
        Some(Value::String(text)) => match kind {
            ColumnType::Number => match parse_number(text) {
                Some(value) => Cell::Number(table_number(value)),
                None => Cell::Text(text.clone()),
            },
            ColumnType::Link => match safe_link(text) {
                Some(href) => Cell::Link {
                    text: link_text(&href),
                    href,
                },
                None => Cell::Text(text.clone()),
            },
            ColumnType::Date => {
                Cell::Text(parse_date(text).map_or_else(|| text.clone(), |date| date.to_string()))
            }
            ColumnType::Text | ColumnType::Boolean => Cell::Text(text.clone()),
        },
        Some(nested) => Cell::Json(nested.to_string()),
    }
}

/// Figures in a table: four-digit integers stay ungrouped (years read "2024", not "2,024"), large
/// ones are grouped, small fractions keep three significant digits.
pub fn table_number(value: f64) -> String {
    if !value.is_finite() || value.abs() >= 10_000.0 {
        return format_number(value);
    }
    if value.fract() == 0.0 {
        return format!("{value:.0}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (2 - magnitude).clamp(2, 8) as usize;
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn parse_number(text: &str) -> Option<f64> {
    parse_decimal(text.trim())
}

fn link_text(href: &str) -> String {
    let lower = href.to_ascii_lowercase();
    let rest = ["https://", "http://", "mailto:"]
        .iter()
        .find(|scheme| lower.starts_with(*scheme))
        .map_or(href, |scheme| &href[scheme.len()..]);
    let rest = if rest.to_ascii_lowercase().starts_with("www.") {
        &rest[4..]
    } else {
        rest
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.is_empty() {
        href.to_owned()
    } else {
        rest.to_owned()
    }
}

/// A calendar date with an optional time of day, as written in the data (no time-zone conversion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
    /// Hours and minutes, when the value had a time.
    pub time: Option<(u8, u8)>,
    /// Offset east of UTC in minutes, when the value named one (`Z` is 0).
    pub offset: Option<i32>,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl std::fmt::Display for Date {
    /// `12 Mar 2024`, `12 Mar 2024, 14:05`, `12 Mar 2024, 14:05 UTC`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let month = MONTHS[usize::from(self.month.clamp(1, 12) - 1)];
        write!(f, "{} {month} {}", self.day, self.year)?;
        if let Some((hour, minute)) = self.time {
            write!(f, ", {hour:02}:{minute:02}")?;
            match self.offset {
                Some(0) => write!(f, " UTC")?,
                Some(offset) => {
                    let sign = if offset < 0 { '-' } else { '+' };
                    write!(
                        f,
                        " {sign}{:02}:{:02}",
                        offset.abs() / 60,
                        offset.abs() % 60
                    )?;
                }
                None => {}
            }
        }
        Ok(())
    }
}

impl Date {
    /// Seconds since 1970-01-01 UTC, for ordering.
    fn sort_key(&self) -> f64 {
        let days = days_from_civil(self.year, self.month, self.day);
        let (hour, minute) = self.time.unwrap_or((0, 0));
        let minutes =
            i64::from(hour) * 60 + i64::from(minute) - i64::from(self.offset.unwrap_or(0));
        (days * 86_400 + minutes * 60) as f64
    }
}

/// ISO 8601 dates: `2024-03-12`, `2024-03-12T14:05`, `2024-03-12 14:05:09.5Z`, `2024-03-12T14:05+02:00`.
pub fn parse_date(text: &str) -> Option<Date> {
    let text = text.trim();
    let bytes = text.as_bytes();
    // Every slice below is at an ASCII position.
    if !text.is_ascii() || bytes.len() < 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year: i32 = digits(&text[0..4])?;
    let month: u8 = digits(&text[5..7])?;
    let day: u8 = digits(&text[8..10])?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let mut date = Date {
        year,
        month,
        day,
        time: None,
        offset: None,
    };
    let rest = &text[10..];
    if rest.is_empty() {
        return Some(date);
    }
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    if rest.len() < 5 || rest.as_bytes()[2] != b':' {
        return None;
    }
    let hour: u8 = digits(&rest[0..2])?;
    let minute: u8 = digits(&rest[3..5])?;
    if hour > 23 || minute > 59 {
        return None;
    }
    date.time = Some((hour, minute));
    let mut rest = &rest[5..];
    if let Some(seconds) = rest.strip_prefix(':') {
        let end = seconds
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(seconds.len());
        if end < 2 || digits::<u8>(&seconds[..2]).is_none_or(|s| s > 60) {
            return None;
        }
        rest = &seconds[end..];
    }
    date.offset = match rest {
        "" => None,
        "Z" | "z" => Some(0),
        zone => Some(parse_offset(zone)?),
    };
    Some(date)
}

fn parse_offset(zone: &str) -> Option<i32> {
    let sign = match zone.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let zone = &zone[1..];
    let (hours, minutes) = match zone.len() {
        2 => (zone, "00"),
        4 => (&zone[..2], &zone[2..]),
        5 if zone.as_bytes()[2] == b':' => (&zone[..2], &zone[3..]),
        _ => return None,
    };
    let (hours, minutes): (i32, i32) = (digits(hours)?, digits(minutes)?);
    (hours < 24 && minutes < 60).then_some(sign * (hours * 60 + minutes))
}

fn digits<T: std::str::FromStr>(text: &str) -> Option<T> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse().ok())
        .flatten()
}

fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i32, month: u8, day: u8) -> i64 {
    let year = i64::from(year) - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The civil date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u8;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u8;
    let year = (year_of_era + era * 400 + i64::from(month <= 2)) as i32;
    (year, month, day)
}

/// A Unix time in a date column: milliseconds when it is that large, seconds otherwise; shown in UTC.
fn epoch_date(epoch: f64) -> Date {
    let seconds = if epoch.abs() >= 1e11 {
        epoch / 1000.0
    } else {
        epoch
    };
    let seconds = seconds.floor() as i64;
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let of_day = seconds.rem_euclid(86_400);
    let time = (of_day != 0).then_some(((of_day / 3600) as u8, (of_day % 3600 / 60) as u8));
    Date {
        year,
        month,
        day,
        time,
        offset: time.map(|_| 0),
    }
}

fn format_epoch(epoch: f64) -> String {
    if epoch.is_finite() && epoch.abs() < 1e15 {
        epoch_date(epoch).to_string()
    } else {
        table_number(epoch)
    }
}

/// Sort direction of the active column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Direction {
    #[default]
    Ascending,
    Descending,
}

impl Direction {
    pub fn toggled(self) -> Direction {
        match self {
            Direction::Ascending => Direction::Descending,
            Direction::Descending => Direction::Ascending,
        }
    }

    /// The `aria-sort` value.
    pub fn aria(self) -> &'static str {
        match self {
            Direction::Ascending => "ascending",
            Direction::Descending => "descending",
        }
    }
}

/// A precomputed sort key: figures before text, empty cells always last.
#[derive(Debug)]
enum Key {
    Number(f64),
    Text(Vec<u8>),
    Missing,
}

fn sort_key(value: Option<&Value>, kind: ColumnType) -> Key {
    match value {
        None | Some(Value::Null) => Key::Missing,
        Some(Value::Bool(flag)) => Key::Number(f64::from(u8::from(*flag))),
        Some(Value::Number(number)) => match number.as_f64() {
            Some(value) => Key::Number(value),
            None => Key::Text(number.to_string().into_bytes()),
        },
        Some(Value::String(text)) if text.trim().is_empty() => Key::Missing,
        Some(Value::String(text)) => {
            if kind == ColumnType::Date
                && let Some(date) = parse_date(text)
            {
                return Key::Number(date.sort_key());
            }
            match parse_number(text) {
                Some(value) => Key::Number(value),
                None => Key::Text(natural_key(text)),
            }
        }
        Some(nested) => Key::Text(natural_key(&nested.to_string())),
    }
}

fn compare_keys(a: &Key, b: &Key, direction: Direction) -> Ordering {
    let ordering = match (a, b) {
        (Key::Missing, Key::Missing) => return Ordering::Equal,
        (Key::Missing, _) => return Ordering::Greater,
        (_, Key::Missing) => return Ordering::Less,
        (Key::Number(a), Key::Number(b)) => a.total_cmp(b),
        (Key::Number(_), Key::Text(_)) => Ordering::Less,
        (Key::Text(_), Key::Number(_)) => Ordering::Greater,
        (Key::Text(a), Key::Text(b)) => a.cmp(b),
    };
    match direction {
        Direction::Ascending => ordering,
        Direction::Descending => ordering.reverse(),
    }
}

/// Every row index ordered by `column`: figures numerically, text alphabetically ignoring case and
/// accents with digit runs compared as numbers ("item 2" < "item 10"), empty cells last in both
/// directions, and rows with equal cells kept in their original order.
pub fn sort_order(rows: &[Value], column: &Column, direction: Direction) -> Vec<u32> {
    let keys: Vec<Key> = rows
        .iter()
        .map(|row| sort_key(row.get(&column.key), column.kind))
        .collect();
    stable_order(rows.len(), &|a, b| compare_keys(&keys[a], &keys[b], direction))
        .into_iter()
        .map(|position| position as u32)
        .collect()
}

/// The rows in their original order.
pub fn original_order(rows: &[Value]) -> Vec<u32> {
    (0..rows.len() as u32).collect()
}

/// Folded text as bytes whose plain order is the natural order: each run of digits becomes a
/// `0` marker, its length without leading zeros, then the digits, so "item 2" < "item 10" and a sort
/// compares keys with `memcmp` instead of re-reading characters.
fn natural_key(text: &str) -> Vec<u8> {
    let mut folded = String::with_capacity(text.len());
    fold_into(&mut folded, text);
    let bytes = folded.as_bytes();
    let mut key = Vec::with_capacity(bytes.len() + 4);
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at].is_ascii_digit() {
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_digit() {
                at += 1;
            }
            let run = &bytes[start..at];
            let significant = &run[run.iter().take_while(|&&b| b == b'0').count()..];
            key.push(b'0');
            key.push(significant.len().min(usize::from(u8::MAX)) as u8);
            key.extend_from_slice(significant);
        } else {
            key.push(bytes[at]);
            at += 1;
        }
    }
    key
}

/// Base letters of U+00C0..U+017F; `.` marks a character without a one-letter base.
const LATIN_BASES: &[u8; 192] = b"aaaaaa.ceeeeiiii.nooooo..uuuuy..aaaaaa.ceeeeiiii.nooooo..uuuuy.y\
aaaaaaccccccccdd..eeeeeeeeeegggggggghh..iiiiiiiii...jjkk.llllll.\
...nnnnnn...oooooo..rrrrrrsssssssstttt..uuuuuuuuuuuuwwyyyzzzzzz.";

/// Lower case without accents, so "Île" matches "ile" and sorts beside "Ilford".
pub fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    fold_into(&mut folded, text);
    folded
}

/// [`fold`], appending to `out`.
fn fold_into(out: &mut String, text: &str) {
    if text.is_ascii() {
        out.extend(text.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        return;
    }
    for c in text.chars() {
        let code = c as u32;
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if (0xC0..0x180).contains(&code) && LATIN_BASES[(code - 0xC0) as usize] != b'.' {
            out.push(char::from(LATIN_BASES[(code - 0xC0) as usize]));
        } else {
            match c {
                'Æ' | 'æ' => out.push_str("ae"),
                'Œ' | 'œ' => out.push_str("oe"),
                'ß' => out.push_str("ss"),
                'Ø' | 'ø' => out.push('o'),
                'Đ' | 'đ' | 'Ð' | 'ð' => out.push('d'),
                'Ł' | 'ł' => out.push('l'),
                'ı' => out.push('i'),
                other => out.extend(other.to_lowercase()),
            }
        }
    }
}

/// Folded text of every row in one buffer, built once per data so each keystroke in the filter box
/// is a plain substring scan.
pub struct SearchIndex {
    text: String,
    /// Where each row's text ends in `text`.
    ends: Vec<usize>,
}

impl SearchIndex {
    pub fn new(rows: &[Value], columns: &[Column]) -> SearchIndex {
        let mut text = String::with_capacity(rows.len() * columns.len() * 12);
        let mut ends = Vec::with_capacity(rows.len());
        for row in rows {
            for column in columns {
                push_search_text(&mut text, row.get(&column.key), column.kind);
                // A separator no query contains, so words never join across cells.
                text.push('\u{1}');
            }
            ends.push(text.len());
        }
        SearchIndex { text, ends }
    }

    fn row(&self, row: usize) -> Option<&str> {
        let end = *self.ends.get(row)?;
        let start = row.checked_sub(1).map_or(0, |previous| self.ends[previous]);
        self.text.get(start..end)
    }

    /// The rows of `order` (kept in that order) containing every word of `query`.
    pub fn filter(&self, order: &[u32], query: &str) -> Vec<u32> {
        let query = fold(query);
        let terms: Vec<&str> = query.split_whitespace().collect();
        if terms.is_empty() {
            return order.to_vec();
        }
        order
            .iter()
            .copied()
            .filter(|&row| {
                self.row(row as usize)
                    .is_some_and(|text| terms.iter().all(|term| text.contains(term)))
            })
            .collect()
    }
}

/// What a filter matches in one cell: the text as shown, and figures also as written in the data.
fn push_search_text(out: &mut String, value: Option<&Value>, kind: ColumnType) {
    match value {
        None | Some(Value::Null) => {}
        Some(Value::Bool(true)) => out.push_str("yes true"),
        Some(Value::Bool(false)) => out.push_str("no false"),
        Some(Value::String(text)) => {
            fold_into(out, text);
            if kind == ColumnType::Date
                && let Some(date) = parse_date(text)
            {
                out.push(' ');
                fold_into(out, &date.to_string());
            }
        }
        Some(Value::Number(number)) => {
            let raw = number.to_string();
            out.push_str(&raw);
            if let Cell::Number(shown) | Cell::Text(shown) = cell_of(value, kind)
                && shown != raw
            {
                out.push(' ');
                fold_into(out, &shown);
            }
        }
        Some(nested) => fold_into(out, &nested.to_string()),
    }
}

/// The rows of `order` as CSV (RFC 4180: comma separated, CRLF line ends, fields with a comma, quote
/// or line break quoted and quotes doubled), headed by the column labels. Values are exported raw
/// (figures unformatted) so spreadsheets read them as numbers. Text that a spreadsheet would run as
/// a formula (`=`, `+`, `-`, `@`) gets a leading apostrophe.
pub fn to_csv(rows: &[Value], columns: &[Column], order: &[u32]) -> String {
    let mut csv = String::with_capacity(64 * (order.len() + 1));
    let header: Vec<&str> = columns.iter().map(|column| column.label.as_str()).collect();
    push_record(
        &mut csv,
        header
            .iter()
            .map(|label| std::borrow::Cow::Borrowed(*label)),
    );
    for row in order.iter().filter_map(|&index| rows.get(index as usize)) {
        push_record(
            &mut csv,
            columns.iter().map(|column| csv_value(row.get(&column.key))),
        );
    }
    csv
}

/// Appends one CSV record (RFC 4180 quoting, CRLF).
pub(crate) fn push_record<'a>(csv: &mut String, fields: impl Iterator<Item = std::borrow::Cow<'a, str>>) {
    for (index, field) in fields.enumerate() {
        if index > 0 {
            csv.push(',');
        }
        if field.contains([',', '"', '\r', '\n']) {
            csv.push('"');
            csv.push_str(&field.replace('"', "\"\""));
            csv.push('"');
        } else {
            csv.push_str(&field);
        }
    }
    csv.push_str("\r\n");
}

/// A JSON value as one CSV field: raw figures, formula-like text defused with an apostrophe.
pub(crate) fn csv_value(value: Option<&Value>) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    match value {
        None | Some(Value::Null) => Cow::Borrowed(""),
        Some(Value::String(text)) => {
            let formula =
                text.starts_with(['=', '+', '-', '@', '\t', '\r']) && parse_number(text).is_none();
            if formula {
                Cow::Owned(format!("'{text}"))
            } else {
                Cow::Borrowed(text)
            }
        }
        Some(Value::Bool(flag)) => Cow::Borrowed(if *flag { "true" } else { "false" }),
        Some(other) => Cow::Owned(other.to_string()),
    }
}

/// How many rows are shown: "1 row", "10,000 rows", or "3 of 8 rows" while filtered.
pub fn count_text(shown: usize, total: usize) -> String {
    let noun = if total == 1 { "row" } else { "rows" };
    if shown == total {
        format!("{} {noun}", format_number(total as f64))
    } else {
        format!(
            "{} of {} {noun}",
            format_number(shown as f64),
            format_number(total as f64)
        )
    }
}

/// A download name from the table's title: "Largest French cities" -> `largest-french-cities.csv`.
pub fn csv_file_name(title: Option<&str>) -> String {
    let mut slug = String::new();
    for c in fold(title.unwrap_or_default()).chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    format!("{}.csv", if slug.is_empty() { "table" } else { slug })
}

/// A column's width in characters, from its header and the first `sample` rows, so widths stay put
/// while rows scroll in and out of view.
pub fn column_width(rows: &[Value], column: &Column, sample: usize) -> u16 {
    let header = column.label.chars().count() + 3;
    let widest = rows
        .iter()
        .take(sample)
        .map(|row| match cell(row, column) {
            Cell::Empty => 1,
            Cell::Flag(_) => 1,
            Cell::Text(text) | Cell::Number(text) | Cell::Json(text) => text.chars().count(),
            Cell::Link { text, .. } => text.chars().count(),
        })
        .max()
        .unwrap_or(1);
    (header.max(widest) + 3).clamp(6, 36) as u16
}

/// `A`, `B`, … `Z`, `AA`: spreadsheet names for grid columns without a label.
pub fn column_letter(index: usize) -> String {
    let mut letters = Vec::new();
    let mut rest = index;
    loop {
        letters.push(b'A' + (rest % 26) as u8);
        if rest < 26 {
            break;
        }
        rest = rest / 26 - 1;
    }
    letters.iter().rev().map(|&b| char::from(b)).collect()
}

/// The positions to render for a scroll offset: those in view plus `overscan` rows either side.
pub fn visible_window(
    scroll_top: f64,
    viewport: f64,
    row_height: f64,
    total: usize,
    overscan: usize,
) -> Range<usize> {
    if row_height.is_nan() || row_height <= 0.0 || total == 0 {
        return 0..0;
    }
    let top = if scroll_top.is_finite() {
        scroll_top.max(0.0)
    } else {
        0.0
    };
    let viewport = if viewport.is_finite() {
        viewport.max(row_height)
    } else {
        row_height
    };
    let first = ((top / row_height).floor() as usize).min(total);
    let last = (((top + viewport) / row_height).ceil() as usize).min(total);
    first.saturating_sub(overscan)..(last + overscan).min(total)
}

/// A keyboard move of the selected row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    Next,
    Previous,
    First,
    Last,
    /// Down by a page of this many rows.
    PageDown(usize),
    /// Up by a page of this many rows.
    PageUp(usize),
}

/// The position selected after `movement` among `len` shown rows; from no selection, any move
/// selects the first row (or the last for `Last`).
pub fn moved(len: usize, current: Option<usize>, movement: Movement) -> Option<usize> {
    let last = len.checked_sub(1)?;
    let Some(current) = current.map(|position| position.min(last)) else {
        return Some(if movement == Movement::Last { last } else { 0 });
    };
    Some(match movement {
        Movement::Next => (current + 1).min(last),
        Movement::Previous => current.saturating_sub(1),
        Movement::First => 0,
        Movement::Last => last,
        Movement::PageDown(page) => (current + page.max(1)).min(last),
        Movement::PageUp(page) => current.saturating_sub(page.max(1)),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rows() -> Vec<Value> {
        json!([
            {"city": "Paris", "population": 2102650, "founded": "0052-01-01", "site": "https://www.paris.fr/", "capital": true},
            {"city": "lyon", "population": 522250, "founded": "0043-10-09", "site": "https://www.lyon.fr", "capital": false},
            {"city": "Évry", "population": null, "founded": "1965-01-01", "site": "javascript:alert(1)", "capital": false},
            {"city": "Marseille", "population": 877215, "founded": "", "site": "https://www.marseille.fr", "capital": false}
        ])
        .as_array()
        .cloned()
        .unwrap_or_default()
    }

    fn column(key: &str, kind: ColumnType) -> Column {
        Column {
            key: key.to_owned(),
            label: humanize(key),
            align: default_align(kind),
            kind,
        }
    }

    fn cities(rows: &[Value], order: &[u32]) -> Vec<String> {
        order
            .iter()
            .map(|&i| {
                rows[i as usize]["city"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn columns_without_a_declaration_come_from_every_row_with_inferred_types() {
        let rows = json!([{"name": "Ada", "age": 36}, {"name": "Alan", "age": 41, "site": "https://a.org"}]);
        let columns = columns(None, rows.as_array().map(Vec::as_slice).unwrap_or_default());
        let keys: Vec<(&str, ColumnType, Align)> = columns
            .iter()
            .map(|c| (c.key.as_str(), c.kind, c.align))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("age", ColumnType::Number, Align::Right),
                ("name", ColumnType::Text, Align::Left),
                ("site", ColumnType::Link, Align::Left)
            ]
        );
        assert_eq!(columns[0].label, "Age");
    }

    #[test]
    fn declared_columns_keep_their_order_labels_and_types_and_infer_what_is_missing() {
        let data = json!({"columns": [
            {"key": "population", "label": "Inhabitants"},
            {"key": "founded", "type": "date"},
            {"key": "city", "align": "center", "label": " "}
        ]});
        let specs = Fields::of(&data).unwrap().items("columns", ColumnSpec::read).unwrap();
        let columns = columns(Some(&specs), &rows());
        assert_eq!(
            columns[0],
            Column {
                key: "population".into(),
                label: "Inhabitants".into(),
                align: Align::Right,
                kind: ColumnType::Number
            }
        );
        assert_eq!(columns[1].kind, ColumnType::Date);
        assert_eq!(
            (columns[2].label.as_str(), columns[2].align),
            ("City", Align::Center)
        );
    }

    #[test]
    fn a_declared_column_needs_a_key_and_takes_only_the_recipes_types_and_alignments() {
        let read = |data: Value| {
            Fields::of(&data)
                .and_then(|fields| fields.items("columns", ColumnSpec::read))
                .map(|specs| specs.len())
                .map_err(|error| error.to_string())
        };
        assert_eq!(read(json!({"columns": [{"key": "a", "type": "link", "align": "right"}]})), Ok(1));
        assert_eq!(
            read(json!({"columns": [{"key": "a"}, {"key": "b", "type": "money"}]})),
            Err("columns[1].type: expected one of text, number, boolean, link, date".to_owned())
        );
        assert_eq!(
            read(json!({"columns": [{"key": "a", "align": "middle"}]})),
            Err("columns[0].align: expected one of left, center, right".to_owned())
        );
        assert_eq!(read(json!({"columns": [{"label": "A"}]})), Err("columns[0].key: missing".to_owned()));
    }

    #[test]
    fn headers_are_humanized_from_keys() {
        assert_eq!(humanize("area_km2"), "Area km2");
        assert_eq!(humanize("createdAt"), "Created at");
        assert_eq!(humanize("population"), "Population");
        assert_eq!(humanize("__"), "__");
    }

    #[test]
    fn cells_show_formatted_figures_checks_safe_links_and_dashes() {
        let row = json!({"n": 2102650, "year": 2024, "ratio": 0.001234, "area": 105.4, "ok": true,
            "site": "https://www.paris.fr/", "bad": "javascript:alert(1)", "nested": {"a": 1}, "blank": " "});
        assert_eq!(
            cell(&row, &column("n", ColumnType::Number)),
            Cell::Number("2,102,650".into())
        );
        assert_eq!(
            cell(&row, &column("year", ColumnType::Number)),
            Cell::Number("2024".into())
        );
        assert_eq!(
            cell(&row, &column("ratio", ColumnType::Number)),
            Cell::Number("0.00123".into())
        );
        assert_eq!(
            cell(&row, &column("area", ColumnType::Number)),
            Cell::Number("105.4".into())
        );
        assert_eq!(
            cell(&row, &column("ok", ColumnType::Boolean)),
            Cell::Flag(true)
        );
        assert_eq!(
            cell(&row, &column("site", ColumnType::Link)),
            Cell::Link {
                href: "https://www.paris.fr/".into(),
                text: "paris.fr".into()
            }
        );
        assert_eq!(
            cell(&row, &column("bad", ColumnType::Link)),
            Cell::Text("javascript:alert(1)".into())
        );
        assert_eq!(
            cell(&row, &column("nested", ColumnType::Text)),
            Cell::Json("{\"a\":1}".into())
        );
        assert_eq!(cell(&row, &column("blank", ColumnType::Text)), Cell::Empty);
        assert_eq!(cell(&row, &column("absent", ColumnType::Text)), Cell::Empty);
    }

    #[test]
    fn dates_read_as_day_month_year_and_unix_times_as_utc() {
        let row = json!({"d": "2024-03-12", "t": "2024-03-12T14:05:09.5Z", "o": "2024-03-12 08:30+02:00",
            "ms": 1710252300000_i64, "bad": "12/03/2024"});
        assert_eq!(
            cell(&row, &column("d", ColumnType::Date)),
            Cell::Text("12 Mar 2024".into())
        );
        assert_eq!(
            cell(&row, &column("t", ColumnType::Date)),
            Cell::Text("12 Mar 2024, 14:05 UTC".into())
        );
        assert_eq!(
            cell(&row, &column("o", ColumnType::Date)),
            Cell::Text("12 Mar 2024, 08:30 +02:00".into())
        );
        assert_eq!(
            cell(&row, &column("ms", ColumnType::Date)),
            Cell::Text("12 Mar 2024, 14:05 UTC".into())
        );
        assert_eq!(
            cell(&row, &column("bad", ColumnType::Date)),
            Cell::Text("12/03/2024".into())
        );
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("2024-02-29T25:00"), None);
    }

    #[test]
    fn sorting_by_a_number_column_is_numeric_with_empty_cells_last_both_ways() {
        let rows = rows();
        let population = column("population", ColumnType::Number);
        assert_eq!(
            cities(&rows, &sort_order(&rows, &population, Direction::Ascending)),
            ["lyon", "Marseille", "Paris", "Évry"]
        );
        assert_eq!(
            cities(
                &rows,
                &sort_order(&rows, &population, Direction::Descending)
            ),
            ["Paris", "Marseille", "lyon", "Évry"]
        );
    }

    #[test]
    fn sorting_text_ignores_case_and_accents_and_reads_digit_runs_as_numbers() {
        let rows = rows();
        let city = column("city", ColumnType::Text);
        assert_eq!(
            cities(&rows, &sort_order(&rows, &city, Direction::Ascending)),
            ["Évry", "lyon", "Marseille", "Paris"]
        );
        let items = json!([{"city": "item 10"}, {"city": "Item 2"}, {"city": "item 1"}]);
        let items = items.as_array().cloned().unwrap_or_default();
        assert_eq!(
            cities(&items, &sort_order(&items, &city, Direction::Ascending)),
            ["item 1", "Item 2", "item 10"]
        );
    }

    #[test]
    fn sorting_dates_follows_the_calendar_not_the_text() {
        let rows = rows();
        let founded = column("founded", ColumnType::Date);
        assert_eq!(
            cities(&rows, &sort_order(&rows, &founded, Direction::Ascending)),
            ["lyon", "Paris", "Évry", "Marseille"]
        );
    }

    #[test]
    fn sorting_is_stable_for_equal_cells_in_both_directions() {
        let rows = rows();
        let capital = column("capital", ColumnType::Boolean);
        assert_eq!(
            cities(&rows, &sort_order(&rows, &capital, Direction::Ascending)),
            ["lyon", "Évry", "Marseille", "Paris"]
        );
        assert_eq!(
            cities(&rows, &sort_order(&rows, &capital, Direction::Descending)),
            ["Paris", "lyon", "Évry", "Marseille"]
        );
    }

    #[test]
    fn sorting_mixed_values_never_panics_and_puts_figures_before_text() {
        let rows: Vec<Value> = (0..200)
            .map(|i| match i % 5 {
                0 => json!({"v": i}),
                1 => json!({"v": format!("t{i}")}),
                2 => json!({"v": null}),
                3 => json!({"v": [i]}),
                _ => json!({"v": (i as f64) / 3.0}),
            })
            .collect();
        let ascending = sort_order(&rows, &column("v", ColumnType::Text), Direction::Ascending);
        assert_eq!(ascending.len(), 200);
        assert_eq!(rows[ascending[0] as usize]["v"], json!(0));
        assert!(rows[ascending[199] as usize]["v"].is_null());
        let descending = sort_order(&rows, &column("v", ColumnType::Text), Direction::Descending);
        assert_eq!(rows[descending[0] as usize]["v"], json!("t196"));
        assert!(rows[descending[199] as usize]["v"].is_null());
    }

    #[test]
    fn the_filter_matches_every_word_in_any_column_ignoring_case_and_accents() {
        let rows = rows();
        let columns = columns(None, &rows);
        let index = SearchIndex::new(&rows, &columns);
        let all = original_order(&rows);
        assert_eq!(cities(&rows, &index.filter(&all, "EVRY")), ["Évry"]);
        assert_eq!(cities(&rows, &index.filter(&all, "lyon.fr")), ["lyon"]);
        assert_eq!(cities(&rows, &index.filter(&all, "2102650")), ["Paris"]);
        assert_eq!(cities(&rows, &index.filter(&all, "2,102,650")), ["Paris"]);
        assert_eq!(cities(&rows, &index.filter(&all, "ma fr")), ["Marseille"]);
        assert_eq!(index.filter(&all, "  ").len(), 4);
        assert!(index.filter(&all, "tokyo").is_empty());
    }

    #[test]
    fn the_filter_keeps_the_sorted_order() {
        let rows = rows();
        let columns = columns(None, &rows);
        let index = SearchIndex::new(&rows, &columns);
        let sorted = sort_order(
            &rows,
            &column("population", ColumnType::Number),
            Direction::Descending,
        );
        assert_eq!(
            cities(&rows, &index.filter(&sorted, "r")),
            ["Paris", "Marseille", "lyon", "Évry"]
        );
        assert_eq!(
            cities(&rows, &index.filter(&sorted, "fr")),
            ["Paris", "Marseille", "lyon"]
        );
    }

    #[test]
    fn csv_quotes_what_rfc_4180_requires_and_exports_raw_values() {
        let rows = json!([
            {"name": "Smith, \"Jr\"", "n": 1234.5, "ok": true, "note": "line\nbreak"},
            {"name": "=HYPERLINK(\"x\")", "n": -3, "ok": null, "note": "-12"}
        ]);
        let rows = rows.as_array().cloned().unwrap_or_default();
        let columns = vec![
            column("name", ColumnType::Text),
            column("n", ColumnType::Number),
            column("ok", ColumnType::Boolean),
            column("note", ColumnType::Text),
        ];
        let csv = to_csv(&rows, &columns, &[1, 0]);
        assert_eq!(
            csv,
            "Name,N,Ok,Note\r\n\"'=HYPERLINK(\"\"x\"\")\",-3,,-12\r\n\"Smith, \"\"Jr\"\"\",1234.5,true,\"line\nbreak\"\r\n"
        );
    }

    #[test]
    fn the_count_says_how_many_rows_are_shown_out_of_how_many() {
        assert_eq!(count_text(1, 1), "1 row");
        assert_eq!(count_text(10_000, 10_000), "10,000 rows");
        assert_eq!(count_text(3, 8), "3 of 8 rows");
        assert_eq!(count_text(0, 0), "0 rows");
    }

    #[test]
    fn csv_files_are_named_after_the_title() {
        assert_eq!(
            csv_file_name(Some("Largest French cities")),
            "largest-french-cities.csv"
        );
        assert_eq!(
            csv_file_name(Some("Île-de-France: 2024 (k€)")),
            "ile-de-france-2024-k.csv"
        );
        assert_eq!(csv_file_name(Some("<script>")), "script.csv");
        assert_eq!(csv_file_name(None), "table.csv");
        assert_eq!(csv_file_name(Some("€€")), "table.csv");
    }

    #[test]
    fn columns_are_as_wide_as_their_widest_sampled_cell_within_bounds() {
        let rows = rows();
        assert_eq!(
            column_width(&rows, &column("city", ColumnType::Text), 100),
            12
        );
        assert_eq!(
            column_width(&rows, &column("capital", ColumnType::Boolean), 100),
            13
        );
        let long = vec![json!({"t": "x".repeat(500)})];
        assert_eq!(column_width(&long, &column("t", ColumnType::Text), 100), 36);
    }

    #[test]
    fn grid_columns_without_labels_are_named_like_a_spreadsheet() {
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(25), "Z");
        assert_eq!(column_letter(26), "AA");
        assert_eq!(column_letter(701), "ZZ");
        assert_eq!(column_letter(702), "AAA");
    }

    #[test]
    fn the_window_covers_the_viewport_plus_overscan_and_stays_in_bounds() {
        assert_eq!(visible_window(0.0, 360.0, 36.0, 10_000, 5), 0..15);
        assert_eq!(visible_window(3600.0, 360.0, 36.0, 10_000, 5), 95..115);
        assert_eq!(
            visible_window(360_000.0, 360.0, 36.0, 10_000, 5),
            9995..10_000
        );
        assert_eq!(visible_window(1e9, 360.0, 36.0, 10_000, 5), 9995..10_000);
        assert_eq!(visible_window(-50.0, f64::NAN, 36.0, 3, 5), 0..3);
        assert_eq!(visible_window(0.0, 360.0, 0.0, 10, 5), 0..0);
    }

    #[test]
    fn keyboard_moves_stay_inside_the_shown_rows() {
        assert_eq!(moved(0, None, Movement::Next), None);
        assert_eq!(moved(5, None, Movement::Next), Some(0));
        assert_eq!(moved(5, None, Movement::Last), Some(4));
        assert_eq!(moved(5, Some(4), Movement::Next), Some(4));
        assert_eq!(moved(5, Some(0), Movement::Previous), Some(0));
        assert_eq!(moved(50, Some(10), Movement::PageDown(12)), Some(22));
        assert_eq!(moved(50, Some(10), Movement::PageUp(12)), Some(0));
        assert_eq!(moved(3, Some(9), Movement::Previous), Some(1));
    }

    #[test]
    fn folding_drops_case_and_latin_accents() {
        assert_eq!(
            fold("Île-de-France ÆSØP Łódź straße"),
            "ile-de-france aesop lodz strasse"
        );
    }
}
