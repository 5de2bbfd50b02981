//! The markdown renderer this module replaced, kept as the oracle of the differential tests below:
//! pulldown-cmark's parser and HTML writer with the same sanitizing rules. pulldown-cmark is a
//! dev-dependency only; the app ships `blocks` and `inlines` (the module's doc says why).

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd, html};

use super::{KeptImage, anchor, escape_html, held_image, image};
use crate::provenance::ImageSources;
use crate::view::present::{link_host, safe_image, safe_link};
use crate::weburl::web_host;

pub(super) fn to_safe_html_with(markdown: &str, images: ImageSources<'_>) -> String {
    let mut sanitizer = Sanitizer { images, events: Vec::new(), links: Vec::new(), image: None };
    for event in Parser::new_ext(markdown, options()) {
        sanitizer.push(event);
    }
    let mut out = String::with_capacity(markdown.len() + markdown.len() / 2);
    // The parser's writer leaves quotes in text as they are; escaping them too means attribute-like
    // text (`src="javascript:...`) can never be mistaken for markup by anything that reads the HTML.
    let events = sanitizer.events.into_iter().map(|event| match event {
        Event::Text(text) => Event::Html(escape_html(&text).into()),
        Event::Code(code) => Event::Html(format!("<code>{}</code>", escape_html(&code)).into()),
        other => other,
    });
    html::push_html(&mut out, events);
    // Ours makes code blocks focusable (a long line scrolls); text is escaped, so this is only markup.
    out.replace("<pre><code", "<pre tabindex=\"0\"><code")
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Rewrites the parser's events: raw HTML becomes text, links and images are written by
/// [`anchor`] and [`image`] with checked URLs, or dropped around their text.
struct Sanitizer<'a, 's> {
    images: ImageSources<'s>,
    events: Vec<Event<'a>>,
    /// One entry per open link.
    links: Vec<OpenLink>,
    /// A kept image whose alt text is being collected until its end, and how many images deep
    /// its alt text is (`![![a](x)](y)`: the inner one ends first).
    image: Option<(KeptImage, usize)>,
}

struct OpenLink {
    /// Whether its `<a>` was written (so its `</a>` must be).
    written: bool,
    /// The host of a web link, shown after it unless its text names it.
    host: Option<String>,
    text: String,
}


impl<'a> Sanitizer<'a, '_> {
    fn push(&mut self, event: Event<'a>) {
        if let Some((pending, depth)) = self.image.as_mut() {
            match event {
                Event::Start(Tag::Image { .. }) => *depth += 1,
                Event::End(TagEnd::Image) => {
                    *depth -= 1;
                    if *depth == 0 {
                        let tag = match web_host(&pending.src).is_none() || self.images.allows(&pending.src) {
                            true => image(pending),
                            false => held_image(pending),
                        };
                        self.events.push(Event::Html(tag.into()));
                        self.image = None;
                    }
                }
                Event::Text(text)
                | Event::Code(text)
                | Event::Html(text)
                | Event::InlineHtml(text) => pending.alt.push_str(&text),
                Event::SoftBreak | Event::HardBreak => pending.alt.push(' '),
                _ => {}
            }
            return;
        }
        if let (Some(link), Event::Text(text) | Event::Code(text)) = (self.links.last_mut(), &event) {
            link.text.push_str(text);
        }
        match event {
            Event::Html(raw) | Event::InlineHtml(raw) => self.events.push(Event::Text(raw)),
            // A raw HTML block reads as a paragraph of its source text.
            Event::Start(Tag::HtmlBlock) => self.events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => self.events.push(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            }) => {
                let href = link_target(link_type, &dest_url);
                let host = href.as_deref().and_then(link_host);
                self.links.push(OpenLink { written: href.is_some(), host, text: String::new() });
                if let Some(href) = href {
                    self.events.push(Event::Html(anchor(&href, &title).into()));
                }
            }
            Event::End(TagEnd::Link) => {
                let Some(link) = self.links.pop() else { return };
                if link.written {
                    self.events.push(Event::Html(CowStr::Borrowed("</a>")));
                }
                // A label that does not name the site cannot pass for another one.
                if let Some(host) = link.host.filter(|host| !link.text.to_ascii_lowercase().contains(host.as_str())) {
                    let badge = format!("<span class=\"au-link-host\"> ({})</span>", escape_html(&host));
                    self.events.push(Event::Html(badge.into()));
                }
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                // A refused image drops its tags; its alt text flows on as ordinary text.
                if let Some(src) = safe_image(&dest_url) {
                    let title = title.into_string();
                    self.image = Some((KeptImage { src, title, alt: String::new() }, 1));
                }
            }
            Event::End(TagEnd::Image) => {}
            other => self.events.push(other),
        }
    }
}

/// The URL a link may point at: email autolinks (`<a@b.c>`) become `mailto:` first.
fn link_target(link_type: LinkType, dest: &str) -> Option<String> {
    match link_type {
        LinkType::Email => safe_link(&format!("mailto:{dest}")),
        _ => safe_link(dest),
    }
}

#[cfg(test)]
mod tests {
    use super::super::to_safe_html;
    use crate::provenance::ImageSources;

    fn oracle(markdown: &str) -> String {
        super::to_safe_html_with(markdown, ImageSources::Any)
    }

    /// The documents whose rendering differs from the oracle's, with both renderings.
    fn differences<'a>(documents: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        documents
            .into_iter()
            .filter_map(|markdown| {
                let (ours, theirs) = (to_safe_html(markdown), oracle(markdown));
                (ours != theirs).then(|| format!("--- markdown:\n{markdown}\n--- ours:\n{ours}--- pulldown-cmark:\n{theirs}"))
            })
            .collect()
    }

    /// A small deterministic generator (xorshift), so a failure names a reproducible seed.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    const INLINE: &[&str] = &[
        "revenue", "grew", "the Q3 numbers", "**bold**", "*em*", "_em_", "__strong__", "~~old~~", "`code`",
        "`a*b`", "``x ` y``", "[docs](https://example.org/docs)", "[site](https://example.org/a \"Title\")",
        "[acme.org](https://acme.org/)", "![chart](https://img.example/a.png)", "![logo](/logo.png \"Logo\")",
        "<https://example.org/x>", "<ada@example.org>", "&amp;", "&copy;", "&#35;", "&#x22;", "\\*", "\\_",
        "snake_case_name", "2 * 3", "x < y", "a > b", "\"quoted\"", "it's", "<b>raw</b>", "[the docs][d]", "[d]",
        "[D][]", "***both***", "**nested *em* inside**", "*a **b** c*", "50%", "(parens)", "[brackets]",
        "~single~", "**bold**,", "*em*.", "é*t*é", "日本語", "—", "[link with `code`](https://example.org/c)",
        "[bad](javascript:alert(1))", "![bad](javascript:x)", "<script>x</script>", "<!-- note -->", "1.5",
        "#hash", "a|b", "foo_", "_bar", "**", "*", "__init__", "&nbsp;", "&unknown;",
        "[nested [brackets]](https://example.org/n)", "![a *b*](https://img.example/b.png)",
    ];

    fn inline(random: &mut Random) -> String {
        let mut text = String::new();
        for index in 0..1 + random.below(6) {
            if index > 0 {
                text.push_str(if random.below(8) == 0 { "" } else { " " });
            }
            text.push_str(random.pick(INLINE));
        }
        text
    }

    fn block(random: &mut Random, depth: usize) -> String {
        match random.below(if depth > 1 { 6 } else { 12 }) {
            0 => format!("{} {}", "#".repeat(1 + random.below(4)), inline(random)),
            1 | 2 => (0..1 + random.below(3)).map(|_| inline(random)).collect::<Vec<_>>().join(random.pick(&["\n", "  \n", "\\\n"])),
            3 => format!("```{}\n{}\n{}\n```", random.pick(&["", "sql", "rust", "js"]), inline(random), random.pick(&["SELECT 1 < 2;", "a && b", "  indented", ""])),
            4 => ["---", "***", "___", "- - -"][random.below(4)].to_owned(),
            // After a blank line: a table right under a list item's text (not indented) is a table
            // here, where pulldown-cmark read its lines as the item's text.
            5 => {
                let columns = 1 + random.below(3);
                let row = |random: &mut Random| (0..columns).map(|_| random.pick(&["a", "**b**", "`c`", "1.5", "[l](https://example.org/t)", "x \\| y", ""]).to_owned()).collect::<Vec<_>>();
                let aligns: Vec<&str> = (0..columns).map(|_| random.pick(&["---", ":--", "--:", ":-:"])).collect();
                let mut lines = vec![format!("| {} |", row(random).join(" | ")), format!("|{}|", aligns.join("|"))];
                for _ in 0..random.below(3) {
                    lines.push(format!("| {} |", row(random).join(" | ")));
                }
                format!("\n{}", lines.join("\n"))
            }
            6..=8 => list(random, depth),
            9 => format!("> {}", block(random, depth + 1).replace('\n', "\n> ")),
            10 => random.pick(&["<div class=\"x\">\n<b>bold?</b>\n</div>", "<!-- a comment -->", "<details>\n<summary>More</summary>\n</details>"]).to_owned(),
            _ => format!("[d]: https://example.org/ref \"Ref\"\n\n{} [the docs][d] and [d].", inline(random)),
        }
    }

    fn list(random: &mut Random, depth: usize) -> String {
        let ordered = random.below(2) == 0;
        let (bullet, start) = (random.pick(&["-", "*", "+"]), [1, 1, 3][random.below(3)]);
        let delimiter = random.pick(&[".", ".", ")"]);
        let separator = if random.below(3) == 0 { "\n\n" } else { "\n" };
        let mut items = Vec::new();
        for index in 0..1 + random.below(4) {
            let marker = match ordered {
                true => format!("{}{delimiter}", start + index),
                false => bullet.to_owned(),
            };
            let task = if !ordered && random.below(4) == 0 { random.pick(&["[ ] ", "[x] "]) } else { "" };
            let indent = " ".repeat(marker.len() + 1);
            let mut item = format!("{marker} {task}{}", inline(random));
            if depth < 2 && random.below(4) == 0 {
                let child = match random.below(3) {
                    0 => list(random, depth + 1),
                    1 => format!("```\n{}\n```", inline(random)),
                    _ => inline(random),
                };
                let gap = if random.below(2) == 0 { "\n" } else { "\n\n" };
                item.push_str(gap);
                item.push_str(&child.lines().map(|line| format!("{indent}{line}")).collect::<Vec<_>>().join("\n"));
            }
            items.push(item);
        }
        items.join(separator)
    }

    /// What assistants and data write: the shapes of chat answers and dashboard text.
    const DOCUMENTS: &[&str] = &[
        "## Highlights\n\n- **Revenue** grew *12%*\n- `eu-west` outage\n\n---\n\n1. one\n2. two",
        "| a | b |\n|---|--:|\n| 1 | 2 |\n\n~~old~~\n\n```sql\nSELECT 1 < 2;\n```",
        "Here is the summary:\n\n1. **Sales** are up\n   - EMEA: +4%\n   - APAC: -2%\n2. **Costs** are flat\n\nLet me know.",
        "# Report\nText right under the heading.\nA second line.\n\n> Note: data is *preliminary*.\n> Second line.",
        "- item one\n- item two\n\n  continued paragraph\n- item three",
        "* a\n    * b\n        * c\n* d",
        "1) first\n2) second\n\n3) third",
        "- [x] done\n- [ ] to do\n- plain",
        "Term\n===\n\nSub\n---\n\ntext",
        "```\nno language\n```\n\n~~~python\nprint('hi')\n~~~",
        "    indented code\n    block\n\nafter",
        "Line with two spaces  \nnext line\\\nthird",
        "A [reference][r] and a [shortcut].\n\n[r]: https://example.org/r\n[shortcut]: https://example.org/s 'S'",
        "Visit <https://example.org> or mail <ada@example.org>.",
        "Use `snake_case` and __dunder__ names like __init__.",
        "**Bold with *italic* inside** and *italic with **bold** inside*.",
        "> quote\n- list after quote\n\n> lazy\ncontinuation",
        "- a\n- b\nlazy line\n- c",
        "Table:\n\n| Region | Revenue | Change |\n|:-------|--------:|:------:|\n| EMEA | 1,200 | +4% |\n| APAC | 900 | -2% |",
        "Paragraph\n| not | a table |\n|---|---|\n| x | y |",
        "<div>\n*not emphasis*\n</div>\n\n*emphasis*",
        "Escapes: \\# \\* \\[x\\] \\\\ \\`",
        "Entities: &lt;tag&gt; &amp;amp; &copy; 2024 &#169; &#xA9;",
        "Nested:\n\n1. Step one\n\n   ```bash\n   cargo build\n   ```\n\n2. Step two",
        "",
        "   ",
        "text\n\n\n\nmore text",
        "- \n  content after empty marker",
        "2. starts at two\n3. three",
        "***\n___\n- - -",
        "# Heading with `code` and [link](https://example.org)",
        "![img](https://img.example/a.png) ![](https://img.example/b.png \"t\")",
        "[![logo](/logo.png)](https://example.org)",
        "Email: ada@example.org (not a link)",
        "*unclosed emphasis and **unclosed strong",
        "a * b * c and a_b_c",
        "~~strike~~ and ~single~ and ~~~three~~~",
    ];

    /// Text made of markdown's own characters, in any order: the parser must neither panic (the
    /// page would end) nor write markup that could run code, nor index into the middle of a
    /// character.
    #[test]
    fn any_mix_of_markdown_characters_renders_safely() {
        const ALPHABET: &[&str] = &[
            "*", "_", "~", "`", "[", "]", "(", ")", "<", ">", "!", "&", "#", ";", "\\", "|", "-", ":", "\"", "'",
            " ", "  ", "\n", "\t", "1.", "a", "x", "é", "日", "—", "\u{1F600}", "http://", "javascript:", "@",
            "<script>", "&#", "x;", "-->", "<!--", "```", "    ", "> ", "- ", "[x] ",
        ];
        let mut random = Random(0xfeed_0000_1111_2222);
        for _ in 0..20_000 {
            let text: String = (0..random.below(60)).map(|_| random.pick(ALPHABET)).collect();
            let html = to_safe_html(&text).to_ascii_lowercase();
            for forbidden in ["<script", "<iframe", "<style", "<svg", "href=\"javascript:", "src=\"javascript:"] {
                assert!(!html.contains(forbidden), "{forbidden} from {text:?}: {html}");
            }
        }
    }

    #[test]
    fn documents_render_as_pulldown_cmark_rendered_them() {
        let differences = differences(DOCUMENTS.iter().copied());
        assert!(differences.is_empty(), "{} of {} differ:\n{}", differences.len(), DOCUMENTS.len(), differences.join("\n"));
    }

    #[test]
    fn generated_documents_render_as_pulldown_cmark_rendered_them() {
        let mut random = Random(0x5eed_1234_abcd_0001);
        let documents: Vec<String> = (0..10_000)
            .map(|_| (0..1 + random.below(4)).map(|_| block(&mut random, 0)).collect::<Vec<_>>().join(random.pick(&["\n\n", "\n\n", "\n"])))
            .collect();
        let differences = differences(documents.iter().map(String::as_str));
        assert!(
            differences.is_empty(),
            "{} of {} differ; the first ones:\n{}",
            differences.len(),
            documents.len(),
            differences.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}
