//! Markdown to HTML that is safe to put in `inner_html`: raw HTML shows as text, and links and
//! images keep only the URLs [`safe_link`](crate::view::present::safe_link) and
//! [`safe_image`](crate::view::present::safe_image) accept (a refused link keeps its text, a refused
//! image its alt text). A web link shows its host after its text when the text does not name it; a
//! web image the [`ImageSources`] do not allow becomes a placeholder naming its host with a "Load
//! image" button (`data-load-image`), which the page turns into the image on click. Used by the
//! `text` widget and the chat's assistant messages.
//!
//! The parser is our own (`blocks`, then `inlines`): CommonMark with GFM tables, strikethrough and
//! task lists, written for the browser bundle. pulldown-cmark did the same for 71 KB gzip of the
//! views chunk (its table of 2,125 entity names alone was about 20); this one costs 17.8. Its
//! output is pulldown-cmark's, byte for byte: `oracle` keeps that renderer for the differential
//! tests. Known differences, none of them in what assistants write: named entities are HTML's
//! common few (see `inlines`); a table right under a list item's unindented text is a table; a
//! task item with no text; a tab right after a quote or list marker counts its columns from the
//! marker, not from the line's start.

mod blocks;
mod inlines;
#[cfg(test)]
mod oracle;

use blocks::{Align, Block, List, Refs, Table};
use inlines::Inlines;

use crate::provenance::{ImageSources, held_back_host};

/// Renders `markdown` (CommonMark with tables, strikethrough and task lists) to HTML whose only
/// markup comes from this module, never from the input; every image it is willing to load loads.
pub fn to_safe_html(markdown: &str) -> String {
    to_safe_html_with(markdown, ImageSources::Any)
}

/// [`to_safe_html`], holding back the web images `images` does not allow.
pub fn to_safe_html_with(markdown: &str, images: ImageSources<'_>) -> String {
    let mut refs = Refs::new();
    let blocks = blocks::parse(markdown, &mut refs);
    let out = String::with_capacity(markdown.len() + markdown.len() / 2);
    let mut writer = Writer { out, inlines: Inlines::new(&refs, images) };
    writer.blocks(&blocks, false);
    writer.out
}

/// Writes blocks as HTML, byte for byte as pulldown-cmark's writer did (the differential test holds
/// it to that): a block starts on a fresh line, and a tight list's paragraphs have no `<p>`.
struct Writer<'r, 's> {
    out: String,
    inlines: Inlines<'r, 's>,
}

impl Writer<'_, '_> {
    fn blocks(&mut self, blocks: &[Block], tight: bool) {
        for block in blocks {
            self.block(block, tight, None);
        }
    }

    /// `task` is the checkbox of a task list item, written at the start of its first paragraph.
    fn block(&mut self, block: &Block, tight: bool, task: Option<bool>) {
        match block {
            Block::Paragraph(text) if tight => {
                self.checkbox(task);
                self.inline(text);
            }
            Block::Paragraph(text) => {
                self.fresh_line();
                self.out.push_str("<p>");
                self.checkbox(task);
                self.inline(text);
                self.out.push_str("</p>\n");
            }
            Block::Heading(level, text) => {
                self.fresh_line();
                self.out.push_str(&format!("<h{level}>"));
                self.inline(text);
                self.out.push_str(&format!("</h{level}>\n"));
            }
            Block::Rule => {
                self.fresh_line();
                self.out.push_str("<hr />\n");
            }
            Block::Code { lang, text } => {
                self.fresh_line();
                match lang.is_empty() {
                    // Focusable: a long line scrolls, and keyboard users must reach it.
                    true => self.out.push_str("<pre tabindex=\"0\"><code>"),
                    false => self.out.push_str(&format!("<pre tabindex=\"0\"><code class=\"language-{}\">", escape_html(lang))),
                }
                self.out.push_str(&escape_html(text));
                self.out.push_str("</code></pre>\n");
            }
            Block::Quote(children) => {
                self.fresh_line();
                self.out.push_str("<blockquote>\n");
                self.blocks(children, false);
                self.out.push_str("</blockquote>\n");
            }
            Block::List(list) => self.list(list),
            Block::Table(table) => self.table(table),
            Block::Html(source) => {
                self.fresh_line();
                self.out.push_str("<p>");
                self.out.push_str(&escape_html(source));
                self.out.push_str("</p>\n");
            }
        }
    }

    fn list(&mut self, list: &List) {
        self.fresh_line();
        let close = match list.start {
            None => {
                self.out.push_str("<ul>\n");
                "</ul>\n"
            }
            Some(1) => {
                self.out.push_str("<ol>\n");
                "</ol>\n"
            }
            Some(start) => {
                self.out.push_str(&format!("<ol start=\"{start}\">\n"));
                "</ol>\n"
            }
        };
        for item in &list.items {
            self.fresh_line();
            self.out.push_str("<li>");
            let mut task = item.task;
            if !matches!(item.blocks.first(), Some(Block::Paragraph(_))) {
                self.checkbox(task.take());
            }
            for block in &item.blocks {
                self.block(block, list.tight, task.take());
            }
            self.out.push_str("</li>\n");
        }
        self.out.push_str(close);
    }

    fn table(&mut self, table: &Table) {
        self.out.push_str("<table><thead><tr>");
        self.row(&table.head, &table.aligns, "th");
        self.out.push_str("</tr></thead><tbody>\n");
        for row in &table.rows {
            self.out.push_str("<tr>");
            self.row(row, &table.aligns, "td");
            self.out.push_str("</tr>\n");
        }
        self.out.push_str("</tbody></table>\n");
    }

    fn row(&mut self, cells: &[String], aligns: &[Align], tag: &str) {
        for (cell, align) in cells.iter().zip(aligns) {
            let style = match align {
                Align::None => "",
                Align::Left => " style=\"text-align: left\"",
                Align::Center => " style=\"text-align: center\"",
                Align::Right => " style=\"text-align: right\"",
            };
            self.out.push_str(&format!("<{tag}{style}>"));
            self.inline(cell);
            self.out.push_str(&format!("</{tag}>"));
        }
    }

    fn checkbox(&mut self, task: Option<bool>) {
        match task {
            Some(true) => self.out.push_str("<input disabled=\"\" type=\"checkbox\" checked=\"\"/>\n"),
            Some(false) => self.out.push_str("<input disabled=\"\" type=\"checkbox\"/>\n"),
            None => {}
        }
    }

    fn inline(&mut self, text: &str) {
        let html = self.inlines.render(text);
        self.out.push_str(&html);
    }

    fn fresh_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }
}

/// An image whose source was accepted, written by [`image`] or, held back, by [`held_image`].
pub(super) struct KeptImage {
    pub src: String,
    pub title: String,
    pub alt: String,
}

pub(super) fn anchor(href: &str, title: &str) -> String {
    let title = match title.is_empty() {
        true => String::new(),
        false => format!(" title=\"{}\"", escape_html(title)),
    };
    format!(
        "<a href=\"{}\"{title} target=\"_blank\" rel=\"noopener noreferrer nofollow\">",
        escape_html(href)
    )
}

pub(super) fn image(pending: &KeptImage) -> String {
    let title = match pending.title.is_empty() {
        true => String::new(),
        false => format!(" title=\"{}\"", escape_html(&pending.title)),
    };
    format!(
        "<img src=\"{}\" alt=\"{}\"{title} loading=\"lazy\" referrerpolicy=\"no-referrer\" />",
        escape_html(&pending.src),
        escape_html(&pending.alt)
    )
}

/// A web image held back: its host, its alt text and a button that loads it on the person's click.
pub(super) fn held_image(pending: &KeptImage) -> String {
    let alt = match pending.alt.trim().is_empty() {
        true => String::new(),
        false => format!(" <span class=\"au-held-image__alt\">\u{201c}{}\u{201d}</span>", escape_html(pending.alt.trim())),
    };
    format!(
        "<span class=\"au-held-image\" data-testid=\"held-image\"><span class=\"au-held-image__label\">Image from <strong>{}</strong> not loaded{alt}</span> \
         <button type=\"button\" class=\"au-button au-held-image__load\" data-load-image=\"{}\" data-alt=\"{}\">Load image</button></span>",
        escape_html(&held_back_host(&pending.src)),
        escape_html(&pending.src),
        escape_html(&pending.alt)
    )
}

/// Escapes text for HTML: as text, or as a double-quoted attribute value.
pub fn escape_html(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// Found by `scripts/fuzz.sh markdown`: text shaped like an attribute stays visibly text.
    #[test]
    fn quotes_in_text_are_escaped_so_attribute_like_text_stays_text() {
        let html = super::to_safe_html("src=\"javascript:!");
        assert_eq!(html, "<p>src=&quot;javascript:!</p>\n");
        let code = super::to_safe_html("`href=\"javascript:,`");
        assert_eq!(code, "<p><code>href=&quot;javascript:,</code></p>\n", "inline code too");
    }

    use super::*;

    /// Elements the writer and this module may produce; anything else came from the input.
    const ALLOWED_TAGS: &[&str] = &[
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "ul",
        "ol",
        "li",
        "em",
        "strong",
        "del",
        "code",
        "pre",
        "blockquote",
        "hr",
        "br",
        "a",
        "img",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "input",
        "span",
        "button",
    ];

    /// Every tag in `html` with its attributes, read the way a browser tokenizer would.
    fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            rest = rest[at + 1..].trim_start_matches('/');
            let name_end = rest
                .find(|c: char| c.is_whitespace() || c == '/' || c == '>')
                .unwrap_or(rest.len());
            let name = rest[..name_end].to_ascii_lowercase();
            rest = &rest[name_end..];
            let mut attributes = Vec::new();
            loop {
                rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
                if rest.is_empty() || rest.starts_with('>') {
                    break;
                }
                let key_end = rest
                    .find(|c: char| c.is_whitespace() || c == '=' || c == '>')
                    .unwrap_or(rest.len());
                let key = rest[..key_end].to_ascii_lowercase();
                rest = &rest[key_end..];
                let mut value = String::new();
                if let Some(after) = rest.strip_prefix("=\"") {
                    let close = after.find('"').unwrap_or(after.len());
                    value = after[..close].to_owned();
                    rest = after.get(close + 1..).unwrap_or("");
                }
                attributes.push((key, value));
            }
            found.push((name, attributes));
        }
        found
    }

    /// The properties that make the output safe for `inner_html`, checked on the real output.
    fn assert_safe(markdown: &str) -> String {
        let html = to_safe_html(markdown);
        for (name, attributes) in tags(&html) {
            assert!(
                ALLOWED_TAGS.contains(&name.as_str()),
                "unexpected <{name}> in {html}"
            );
            for (key, value) in attributes {
                assert!(
                    !key.starts_with("on"),
                    "event handler attribute {key} in {html}"
                );
                if key == "href" || key == "src" {
                    let value = value.to_ascii_lowercase();
                    let safe = ["https://", "http://", "mailto:", "data:image/", "/", "#"]
                        .iter()
                        .any(|prefix| value.starts_with(prefix))
                        && !value.starts_with("//");
                    assert!(safe, "unsafe url {value} in {html}");
                }
            }
        }
        html
    }

    #[test]
    fn light_markdown_renders_as_html() {
        let html = assert_safe(
            "## Highlights\n\n- **Revenue** grew *12%*\n- `eu-west` outage\n\n---\n\n1. one\n2. two",
        );
        assert!(html.contains("<h2>Highlights</h2>"));
        assert!(html.contains("<li><strong>Revenue</strong> grew <em>12%</em></li>"));
        assert!(html.contains("<code>eu-west</code>"));
        assert!(html.contains("<hr />"));
        assert!(html.contains("<ol>"));
    }

    #[test]
    fn tables_strikethrough_and_fenced_code_render() {
        let html =
            assert_safe("| a | b |\n|---|--:|\n| 1 | 2 |\n\n~~old~~\n\n```sql\nSELECT 1 < 2;\n```");
        assert!(
            html.contains("<table>") && html.contains("<td style=\"text-align: right\">2</td>")
        );
        assert!(html.contains("<del>old</del>"));
        assert!(html.contains("<pre tabindex=\"0\"><code class=\"language-sql\">SELECT 1 &lt; 2;\n</code></pre>"));
    }

    #[test]
    fn inline_script_tags_show_as_text() {
        let html = assert_safe("Hello <script>window.__pwned = 1</script> world");
        assert!(!html.contains("<script"));
        assert!(html.contains("&lt;script&gt;window.__pwned = 1&lt;/script&gt;"));
    }

    #[test]
    fn image_tags_with_event_handlers_show_as_text() {
        let inline = assert_safe("see <img src=x onerror=\"window.__pwned = 1\"> here");
        assert!(
            inline.contains("&lt;img src=x onerror=&quot;window.__pwned = 1&quot;&gt;"),
            "{inline}"
        );
        let block = assert_safe("<img src=x onerror=\"window.__pwned = 1\">");
        assert!(block.starts_with("<p>&lt;img"), "{block}");
    }

    #[test]
    fn html_blocks_become_paragraphs_of_text() {
        let html = assert_safe("<div onclick=\"steal()\">\n<b>bold?</b>\n</div>\n\nafter");
        assert!(html.contains("&lt;div onclick=&quot;steal()&quot;&gt;"), "{html}");
        assert!(html.contains("<p>after</p>"));
        let comment = assert_safe("<!-- <script>x</script> -->");
        assert!(comment.contains("&lt;!--"), "{comment}");
    }

    #[test]
    fn script_scheme_links_keep_their_text_and_lose_the_link() {
        for markdown in [
            "[click me](javascript:window.__pwned=1)",
            "[click me](JavaScript:window.__pwned=1)",
            "[click me]( javascript:alert(1) )",
            "[click me](javascript&#58;alert(1))",
            "[click me](data:text/html,<script>alert(1)</script>)",
            "[click me](vbscript:msgbox)",
            "[click me](//evil.example/x)",
        ] {
            let html = assert_safe(markdown);
            assert!(!html.contains("<a"), "{markdown} kept a link: {html}");
            assert!(
                html.contains("click me"),
                "{markdown} lost its text: {html}"
            );
        }
    }

    #[test]
    fn safe_links_open_in_a_new_tab_without_an_opener() {
        let html = assert_safe("Read the [weekly report](https://wiki.acme.dev/w32 \"Week 32\").");
        assert!(html.contains(
            "<a href=\"https://wiki.acme.dev/w32\" title=\"Week 32\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">weekly report</a>"
        ), "{html}");
    }

    #[test]
    fn autolinks_are_checked_like_links() {
        let web = assert_safe("<https://example.org/a>");
        assert!(web.contains("<a href=\"https://example.org/a\""), "{web}");
        let email = assert_safe("<ada@example.org>");
        assert!(
            email.contains("<a href=\"mailto:ada@example.org\""),
            "{email}"
        );
        let script = assert_safe("<javascript:window.__pwned=1>");
        assert!(!script.contains("<a"), "{script}");
        assert!(script.contains("javascript:window.__pwned=1"), "{script}");
    }

    #[test]
    fn reference_links_are_checked_after_resolution() {
        let bad = assert_safe(
            "[docs][d] and [home][h]\n\n[d]: javascript:alert(1)\n[h]: https://example.org/",
        );
        assert_eq!(bad.matches("<a ").count(), 1, "{bad}");
        assert!(
            bad.contains("docs and <a href=\"https://example.org/\""),
            "{bad}"
        );
    }

    #[test]
    fn quotes_in_urls_cannot_open_new_attributes() {
        // Quotes and spaces make it no single URL: it stays text, so no attribute can open.
        let html = assert_safe("<https://example.org/\"onmouseover=\"window.__pwned=1>");
        assert!(!html.contains("<a"), "{html}");
        assert!(html.contains("<p>https://example.org/"), "the text stays: {html}");
        let image = assert_safe("![x](<https://x.org/a.png\" onerror=\"alert(1)>)");
        assert!(!image.contains("<img") && !image.contains("data-load-image"), "{image}");
    }

    #[test]
    fn links_show_the_host_their_label_does_not_name() {
        let html = assert_safe("[Your bank](https://login.evil.example/x) and [acme.org](https://acme.org/)");
        assert!(html.contains("Your bank</a><span class=\"au-link-host\"> (login.evil.example)</span>"), "{html}");
        assert!(!html.contains("(acme.org)"), "{html}");
    }

    #[test]
    fn images_from_outside_the_data_are_held_back_with_their_host_and_a_load_button() {
        let ledger = crate::provenance::UrlLedger::default();
        ledger.record_data("{\"img\": \"https://cdn.data.org/chart.png\"}");
        let markdown = "![chart](https://cdn.data.org/chart.png) ![](http://127.0.0.1:9/?d=secret) ![logo](/logo.png)";
        let html = to_safe_html_with(markdown, ImageSources::Known(&ledger));
        assert!(html.contains("<img src=\"https://cdn.data.org/chart.png\""), "{html}");
        assert!(html.contains("<img src=\"/logo.png\""), "{html}");
        assert!(!html.contains("<img src=\"http://127.0.0.1"), "{html}");
        assert!(html.contains("Image from <strong>127.0.0.1</strong> not loaded"), "{html}");
        assert!(html.contains("data-load-image=\"http://127.0.0.1:9/?d=secret\""), "{html}");
        for (name, _) in tags(&html) {
            assert!(ALLOWED_TAGS.contains(&name.as_str()), "<{name}> in {html}");
        }
    }

    #[test]
    fn refused_images_keep_their_alt_text() {
        for markdown in [
            "![chart of sales](javascript:alert(1))",
            "![chart of sales](data:text/html,x)",
            "![chart of sales](chart.png)",
        ] {
            let html = assert_safe(markdown);
            assert!(!html.contains("<img"), "{markdown}: {html}");
            assert!(html.contains("chart of sales"), "{markdown}: {html}");
        }
    }

    #[test]
    fn safe_images_load_lazily_with_escaped_alt_text() {
        let html = assert_safe("![a \"quoted\" <b>alt</b>](https://img.example/a.png)");
        assert!(html.contains(
            "<img src=\"https://img.example/a.png\" alt=\"a &quot;quoted&quot; &lt;b&gt;alt&lt;/b&gt;\" loading=\"lazy\" referrerpolicy=\"no-referrer\" />"
        ), "{html}");
    }

    #[test]
    fn an_image_inside_a_link_keeps_both_when_both_are_safe() {
        let html = assert_safe("[![logo](/logo.png)](https://example.org)");
        assert!(html.contains("<a href=\"https://example.org\""), "{html}");
        assert!(
            html.contains("<img src=\"/logo.png\" alt=\"logo\""),
            "{html}"
        );
        assert!(html.contains("/></a>"), "{html}");
    }

    /// Each level of nesting is a call deeper: past a bound the markers read as text, so a
    /// hostile document cannot overflow the stack (which would end the page).
    #[test]
    fn deep_nesting_reads_as_text_past_a_bound() {
        let quotes = to_safe_html(&format!("{}deep", "> ".repeat(20_000)));
        assert_eq!(quotes.matches("<blockquote>").count(), 32, "{}", &quotes[..200]);
        assert!(quotes.contains("&gt; &gt; deep</p>"), "the rest is text");
        let lists = to_safe_html(&format!("{}deep", "- ".repeat(20_000)));
        assert_eq!(lists.matches("<ul>").count(), 32);
        assert!(lists.contains("- - deep"), "the rest is text");
    }

    #[test]
    fn hostile_strings_in_every_position_produce_no_markup() {
        let hostile = [
            "<script>window.__pwned = 1</script>",
            "<img src=x onerror=\"window.__pwned = 1\">",
            "<b onmouseover=\"window.__pwned = 1\">bold?</b>",
            "javascript:window.__pwned = 1",
        ];
        for text in hostile {
            for markdown in [
                text.to_owned(),
                format!("# {text}"),
                format!("- {text}"),
                format!("**{text}**"),
                format!("`{text}`"),
                format!("[{text}](https://example.org)"),
                format!("![{text}](https://example.org/a.png)"),
                format!("| {text} |\n|---|\n| {text} |"),
                format!("> {text}"),
            ] {
                assert_safe(&markdown);
            }
        }
    }
}
