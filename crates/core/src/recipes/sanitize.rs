//! URL sanitising of widget data: image fields keep only URLs a browser can load from the data
//! itself (`https://`, `http://`, `data:image/`, same-origin `/...`), and links lose script schemes.
//! Models invent image names (`portrait.jpg`) and placeholder hosts; dropping them lets the
//! widget show its fallback (initials, no image), and the report teaches the model. With
//! [`ImageSources::Known`], a web image must also have come from the conversation's data
//! (`provenance`), so an injected instruction cannot make a widget fetch a URL of its choosing;
//! and an image named by a resource URI shows only when a server sent that image (it becomes the
//! image's `data:` URL), never one the model made up.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::provenance::{ImageSources, held_back_host};
use crate::recipes::validate::{At, quote};
use crate::weburl::{self, Refusal, Target};

/// Hosts that only serve placeholder or random pictures: an image from them never shows the data.
const PLACEHOLDER_HOSTS: &[&str] = &[
    "placeholder.com",
    "placehold.co",
    "placehold.it",
    "dummyimage.com",
    "placeimg.com",
    "placekitten.com",
    "placebear.com",
    "placecage.com",
    "fillmurray.com",
    "picsum.photos",
    "loremflickr.com",
    "lorempixel.com",
    "fakeimg.pl",
    "source.unsplash.com",
    "example.com",
    "example.org",
    "example.net",
];

/// Top-level domains reserved for examples and tests (RFC 2606).
const RESERVED_TLDS: &[&str] = &["example", "invalid", "test", "localhost"];

/// A value removed from the data, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// JSON Pointer of the removed key, in the params.
    pub path: String,
    pub value: String,
    pub reason: DropReason,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub enum DropReason {
    Empty,
    Relative,
    ProtocolRelative,
    Placeholder(String),
    Scheme(String),
    NoHost,
    /// Quotes, spaces or backslashes: not one URL.
    NotOneUrl,
    /// A web image whose URL appears in no tool result, resource or message of the conversation.
    Unseen(String),
    /// A resource URI no server sent an image for in this conversation.
    NoServerImage(String),
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DropReason::Empty => f.write_str("empty image URL"),
            DropReason::Relative => {
                f.write_str("relative file name; only absolute https:// URLs found in the data, data:image/ URLs or /paths load")
            }
            DropReason::ProtocolRelative => f.write_str("protocol-relative URL; write it with https://"),
            DropReason::Placeholder(host) => write!(f, "{host} serves placeholder pictures, not the real image; omit the image"),
            DropReason::Scheme(scheme) => write!(f, "\"{scheme}:\" URLs are not allowed here"),
            DropReason::NoHost => f.write_str("URL without a host"),
            DropReason::NotOneUrl => f.write_str("not one URL (it holds spaces, quotes or backslashes)"),
            DropReason::NoServerImage(scheme) => write!(
                f,
                "no server sent an image as this \"{scheme}:\" resource in this conversation; a resource image shows only \
                 once read with its server's read_resource tool (an image/* blob), by the same URI"
            ),
            DropReason::Unseen(host) => write!(
                f,
                "this {host} image URL appears in no tool result or message of this conversation; only image URLs from the data load"
            ),
        }
    }
}

impl From<DropReason> for String {
    fn from(reason: DropReason) -> String {
        reason.to_string()
    }
}

/// Removes unusable image URLs and unsafe links from `data`, recursively; returns what it removed.
pub fn sanitize(data: &mut Value) -> Vec<Dropped> {
    sanitize_with(data, ImageSources::Any)
}

/// [`sanitize`], also removing web images that `sources` does not allow.
pub fn sanitize_with(data: &mut Value, sources: ImageSources<'_>) -> Vec<Dropped> {
    let mut dropped = Vec::new();
    walk(data, &At::Root, &mut Walk { sources, images: true, dropped: &mut dropped });
    dropped
}

/// Only the links of [`sanitize`]: for data where keys like `background` or `icon` are not images
/// (a Vega-Lite spec's `background` is a colour; its images load through its own refusing loader).
pub fn sanitize_links(data: &mut Value) -> Vec<Dropped> {
    let mut dropped = Vec::new();
    let sources = ImageSources::Any;
    walk(data, &At::Root, &mut Walk { sources, images: false, dropped: &mut dropped });
    dropped
}

/// What the walk carries down: the image rule and what it removed so far.
struct Walk<'a, 'b> {
    sources: ImageSources<'a>,
    /// Whether image fields are checked (links always are).
    images: bool,
    dropped: &'b mut Vec<Dropped>,
}

fn walk(value: &mut Value, at: &At<'_>, dropped: &mut Walk<'_, '_>) {
    match value {
        Value::Object(map) => walk_object(map, at, dropped),
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                walk(item, &At::Index(at, index), dropped);
            }
        }
        _ => {}
    }
}

fn walk_object(map: &mut Map<String, Value>, at: &At<'_>, dropped: &mut Walk<'_, '_>) {
    let mut removed = Vec::new();
    for (key, item) in map.iter_mut() {
        let here = At::Key(at, key);
        let field = classify(key).filter(|field| dropped.images || matches!(field, Field::Link));
        // A server's image resource named by its URI becomes that image.
        let image = match (&field, &mut *item) {
            (Some(Field::Image), Value::String(url)) => Some(url),
            (Some(Field::Image), Value::Object(inner)) => match inner.get_mut("src") {
                Some(Value::String(url)) => Some(url),
                _ => None,
            },
            _ => None,
        };
        if let Some(url) = image
            && let Some(data_url) = dropped.sources.resource_image(url)
        {
            *url = data_url;
        }
        let verdict = match (field, &*item) {
            (Some(Field::Image), Value::String(url)) => {
                image_from(url, dropped.sources).err().map(|reason| (url.clone(), reason))
            }
            (Some(Field::Image), Value::Object(inner)) => match inner.get("src") {
                Some(Value::String(url)) => {
                    image_from(url, dropped.sources).err().map(|reason| (url.clone(), reason))
                }
                _ => None,
            },
            (Some(Field::Link), Value::String(url)) => {
                link_url(url).err().map(|reason| (url.clone(), reason))
            }
            _ => None,
        };
        match verdict {
            Some((url, reason)) => {
                dropped.dropped.push(Dropped {
                    path: here.pointer(),
                    value: quote(&url),
                    reason,
                });
                removed.push(key.clone());
            }
            None => walk(item, &here, dropped),
        }
    }
    for key in removed {
        map.remove(&key);
    }
}

enum Field {
    Image,
    Link,
}

/// `avatar`, `Avatar`, `avatar_url` and `avatarSrc` are image fields; `href` is a link. Keys are
/// compared ignoring case, `_` and `-`.
fn classify(key: &str) -> Option<Field> {
    // Keys are compared as bytes in a stack buffer: this runs for every key of every row.
    const LONGEST: usize = 24;
    let mut buffer = [0u8; LONGEST];
    let mut len = 0;
    for byte in key.bytes().filter(|byte| !matches!(byte, b'_' | b'-')) {
        *buffer.get_mut(len)? = byte.to_ascii_lowercase();
        len += 1;
    }
    let loose = &buffer[..len];
    // `avatarurl`, `avatarsrc`: the name before the suffix.
    let base = match len.checked_sub(3).map(|cut| loose.split_at(cut)) {
        Some((base, b"url" | b"src")) if !base.is_empty() => Some(base),
        _ => None,
    };
    if is_image_key(loose) || base.is_some_and(is_image_key) {
        Some(Field::Image)
    } else if loose == b"href" {
        Some(Field::Link)
    } else {
        None
    }
}

/// Keys (lower case, without `_` and `-`) whose value is an image URL or a `{src}` object.
fn is_image_key(loose: &[u8]) -> bool {
    matches!(
        loose,
        b"src"
            | b"image"
            | b"avatar"
            | b"photo"
            | b"thumbnail"
            | b"poster"
            | b"icon"
            | b"logo"
            | b"cover"
            | b"banner"
            | b"background"
    )
}

/// Accepts `https://host/...`, `http://host/...`, `data:image/...` and same-origin `/path`.
pub fn image_url(raw: &str) -> Result<(), DropReason> {
    image_from(raw, ImageSources::Any)
}

/// [`image_url`], and a web image must be one `sources` allows.
fn image_from(raw: &str, sources: ImageSources<'_>) -> Result<(), DropReason> {
    let parsed = weburl::parse(raw).map_err(|refused| match refused {
        // Resource URIs have an authority (`file://`, `demo://`); `javascript:` and the like do not.
        Refusal::Scheme(scheme) if sources.is_checked() && raw.trim().contains("://") => DropReason::NoServerImage(scheme),
        other => refusal(other),
    })?;
    match parsed.target {
        Target::Web { host } => {
            placeholder(&host)?;
            match sources.allows(&parsed.url) {
                true => Ok(()),
                false => Err(DropReason::Unseen(held_back_host(&parsed.url))),
            }
        }
        Target::DataImage | Target::SamePath => Ok(()),
        Target::Relative | Target::Fragment => Err(DropReason::Relative),
        Target::Mail => Err(DropReason::Scheme("mailto".to_owned())),
        Target::Tel => Err(DropReason::Scheme("tel".to_owned())),
    }
}

/// Accepts relative links and `http(s):`, `mailto:` and `tel:` ones.
pub fn link_url(raw: &str) -> Result<(), DropReason> {
    weburl::parse(raw).map(|_| ()).map_err(refusal)
}

fn refusal(refusal: Refusal) -> DropReason {
    match refusal {
        Refusal::Empty => DropReason::Empty,
        Refusal::NotOneUrl => DropReason::NotOneUrl,
        Refusal::ProtocolRelative => DropReason::ProtocolRelative,
        Refusal::Scheme(scheme) => DropReason::Scheme(scheme),
        Refusal::NoHost => DropReason::NoHost,
    }
}

/// Refuses hosts that serve only placeholder pictures, and reserved example domains.
fn placeholder(host: &str) -> Result<(), DropReason> {
    let host = host.trim_end_matches('.');
    let placeholder = PLACEHOLDER_HOSTS.iter().find(|known| {
        host == **known
            || host
                .strip_suffix(**known)
                .is_some_and(|sub| sub.ends_with('.'))
    });
    if let Some(known) = placeholder {
        return Err(DropReason::Placeholder((*known).to_owned()));
    }
    match host.rsplit('.').next() {
        Some(tld) if host.contains('.') && RESERVED_TLDS.contains(&tld) => {
            Err(DropReason::Placeholder(host.to_owned()))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn image_and_link_keys_are_recognised_whatever_their_case_separators_and_suffix() {
        let kind = |key: &str| match classify(key) {
            Some(Field::Image) => "image",
            Some(Field::Link) => "link",
            None => "data",
        };
        for key in [
            "src", "image", "Avatar", "avatar_url", "avatarSrc", "AVATAR-URL", "photo", "Photo_Src", "thumbnailUrl",
            "poster", "icon", "logo", "cover_url", "banner", "background", "backgroundURL", "image-src", "ImageURL", "src_url",
        ] {
            assert_eq!(kind(key), "image", "{key}");
        }
        for key in ["href", "HREF", "h_ref", "hRef"] {
            assert_eq!(kind(key), "link", "{key}");
        }
        for key in [
            "", "url", "URL", "name", "page", "imageCaption", "srcset", "imgsrc", "link", "photographer", "icons",
            "backgroundColor", "hrefs", "avatar_url_and_a_key_too_long_to_be_one", "photo\u{e9}",
        ] {
            assert_eq!(kind(key), "data", "{key}");
        }
    }

    #[test]
    fn absolute_web_data_image_and_same_origin_urls_are_kept() {
        for url in [
            "https://upload.wikimedia.org/a.jpg",
            "http://images.metmuseum.org/x.png",
            "data:image/png;base64,iVBORw0KGgo=",
            "/assets/logo.svg",
            "HTTPS://CDN.NASA.GOV/IMG.JPG",
        ] {
            assert_eq!(image_url(url), Ok(()), "{url}");
        }
    }

    #[test]
    fn relative_names_placeholders_and_script_urls_are_refused() {
        assert_eq!(image_url("portrait-alice.jpg"), Err(DropReason::Relative));
        assert_eq!(image_url("images/alice.png"), Err(DropReason::Relative));
        assert_eq!(image_url("  "), Err(DropReason::Empty));
        assert_eq!(
            image_url("//cdn.site.org/a.png"),
            Err(DropReason::ProtocolRelative)
        );
        assert_eq!(
            image_url("https://via.placeholder.com/150"),
            Err(DropReason::Placeholder("placeholder.com".into()))
        );
        assert_eq!(
            image_url("https://picsum.photos/200"),
            Err(DropReason::Placeholder("picsum.photos".into()))
        );
        assert_eq!(
            image_url("https://www.example.com/a.png"),
            Err(DropReason::Placeholder("example.com".into()))
        );
        assert_eq!(
            image_url("https://photos.acme.example/a.png"),
            Err(DropReason::Placeholder("photos.acme.example".into()))
        );
        assert_eq!(
            image_url("javascript:alert(1)"),
            Err(DropReason::Scheme("javascript".into()))
        );
        assert_eq!(
            image_url(" java\tscript:alert(1)"),
            Err(DropReason::Scheme("javascript".into()))
        );
        assert_eq!(
            image_url("data:text/html,<script>"),
            Err(DropReason::Scheme("data".into()))
        );
        assert_eq!(image_url("https:///nohost.png"), Err(DropReason::NoHost));
    }

    #[test]
    fn lookalike_hosts_are_not_mistaken_for_placeholders() {
        assert_eq!(image_url("https://example.community/a.png"), Ok(()));
        assert_eq!(image_url("https://notpicsum.photos.org/a.png"), Ok(()));
        assert_eq!(image_url("https://cdn.org/a.png?text=hello"), Ok(()));
    }

    #[test]
    fn image_keys_are_checked_at_any_depth_and_reported() {
        let mut data = json!({
            "name": "Alice",
            "avatar": {"src": "portrait-alice.jpg", "alt": "Alice"},
            "people": [{"name": "Bob", "Photo": "https://placehold.co/80"}, {"name": "Eve", "image_url": "eve.png"}],
            "images": [{"src": "https://upload.wikimedia.org/ok.jpg", "caption": "kept"}]
        });
        let dropped = sanitize(&mut data);
        assert_eq!(
            data,
            json!({
                "name": "Alice",
                "people": [{"name": "Bob"}, {"name": "Eve"}],
                "images": [{"src": "https://upload.wikimedia.org/ok.jpg", "caption": "kept"}]
            })
        );
        let paths: Vec<&str> = dropped.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["/avatar", "/people/0/Photo", "/people/1/image_url"]
        );
        assert_eq!(dropped[0].value, "\"portrait-alice.jpg\"");
    }

    #[test]
    fn links_lose_script_schemes_but_keep_web_mail_and_relative_targets() {
        let mut data = json!({"cards": [
            {"title": "a", "href": "javascript:alert(1)"},
            {"title": "b", "href": "https://www.assemblee-nationale.fr"},
            {"title": "c", "href": "mailto:contact@site.org"},
            {"title": "d", "href": "/dossiers/42"}
        ]});
        let dropped = sanitize(&mut data);
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].path, "/cards/0/href");
        assert!(data["cards"][0].get("href").is_none());
        assert_eq!(
            data["cards"][1]["href"],
            "https://www.assemblee-nationale.fr"
        );
    }

    #[test]
    fn images_from_outside_the_conversation_are_dropped_and_named_by_host() {
        let ledger = crate::provenance::UrlLedger::default();
        ledger.record_data(r#"{"photo": "https://upload.wikimedia.org/ok.jpg"}"#);
        let mut data = json!({"people": [
            {"name": "a", "photo": "https://upload.wikimedia.org/ok.jpg"},
            {"name": "b", "photo": "http://127.0.0.1:9/?d=secret"},
            {"name": "c", "photo": "/logo.svg"}
        ]});
        let dropped = sanitize_with(&mut data, ImageSources::Known(&ledger));
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].path, "/people/1/photo");
        assert_eq!(dropped[0].reason, DropReason::Unseen("127.0.0.1".into()));
        assert!(dropped[0].reason.to_string().contains("only image URLs from the data load"));
        assert_eq!(data["people"][0]["photo"], "https://upload.wikimedia.org/ok.jpg");
        assert_eq!(data["people"][2]["photo"], "/logo.svg");
    }

    #[test]
    fn backslash_paths_and_quoted_strings_are_dropped() {
        assert_eq!(image_url("/\\evil.example/a.png"), Err(DropReason::NotOneUrl));
        assert_eq!(image_url("https://x.org/a.png\" onerror=\"alert(1)"), Err(DropReason::NotOneUrl));
        assert_eq!(link_url("/\\evil.example/"), Err(DropReason::NotOneUrl));
        assert_eq!(link_url("//evil.example/"), Err(DropReason::ProtocolRelative));
    }

    #[test]
    fn a_removed_value_is_named_by_its_escaped_pointer_at_any_depth() {
        let mut data = json!({"sections": [{"a/b": [{}, {"c~d": {"href": "javascript:alert(1)", "label": "kept"}}]}]});
        let dropped = sanitize(&mut data);
        let paths: Vec<&str> = dropped.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, vec!["/sections/0/a~1b/1/c~0d/href"]);
        assert_eq!(data["sections"][0]["a/b"][1]["c~d"], json!({"label": "kept"}));
    }

    #[test]
    fn words_that_merely_contain_an_image_key_are_not_image_fields() {
        let mut data = json!({"description": "x.png", "iconography": "y.png", "srcset_note": "z"});
        assert!(sanitize(&mut data).is_empty());
    }
}
