//! Markdown to HTML that is safe to put in `inner_html`: raw HTML shows as text, and links and
//! images keep only the URLs [`safe_link`] and [`safe_image`] accept (a refused link keeps its text,
//! a refused image its alt text). A web link shows its host after its text when the text does not
//! name it; a web image the [`ImageSources`] do not allow becomes a placeholder naming its host
//! with a "Load image" button (`data-load-image`), which the page turns into the image on click.
//! Used by the `text` widget and the chat's assistant messages.

use pulldown_cmark::{CowStr, Event, LinkType, Options, Parser, Tag, TagEnd, html};

use crate::provenance::{ImageSources, held_back_host};
use crate::view::present::{link_host, safe_image, safe_link};
use crate::weburl::web_host;

/// Renders `markdown` (CommonMark with tables, strikethrough and task lists) to HTML whose only
/// markup comes from the parser's own writer or from this module, never from the input; every
/// image it is willing to load loads.
pub fn to_safe_html(markdown: &str) -> String {
    to_safe_html_with(markdown, ImageSources::Any)
}

/// [`to_safe_html`], holding back the web images `images` does not allow.
pub fn to_safe_html_with(markdown: &str, images: ImageSources<'_>) -> String {
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
    out
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
    /// A kept image whose alt text is being collected until its end.
    image: Option<PendingImage>,
}

struct OpenLink {
    /// Whether its `<a>` was written (so its `</a>` must be).
    written: bool,
    /// The host of a web link, shown after it unless its text names it.
    host: Option<String>,
    text: String,
}

struct PendingImage {
    src: String,
    title: String,
    alt: String,
    /// Images nested in the alt text (`![![a](x)](y)`) end before this one.
    depth: usize,
}

impl<'a> Sanitizer<'a, '_> {
    fn push(&mut self, event: Event<'a>) {
        if let Some(pending) = self.image.as_mut() {
            match event {
                Event::Start(Tag::Image { .. }) => pending.depth += 1,
                Event::End(TagEnd::Image) => {
                    pending.depth -= 1;
                    if pending.depth == 0 {
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
                    self.image = Some(PendingImage {
                        src,
                        title,
                        alt: String::new(),
                        depth: 1,
                    });
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

fn anchor(href: &str, title: &str) -> String {
    let title = match title.is_empty() {
        true => String::new(),
        false => format!(" title=\"{}\"", escape_html(title)),
    };
    format!(
        "<a href=\"{}\"{title} target=\"_blank\" rel=\"noopener noreferrer nofollow\">",
        escape_html(href)
    )
}

fn image(pending: &PendingImage) -> String {
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
fn held_image(pending: &PendingImage) -> String {
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
        assert!(html.contains("<pre><code class=\"language-sql\">SELECT 1 &lt; 2;\n</code></pre>"));
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
