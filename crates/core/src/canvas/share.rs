//! Share links: the fragment `#hs=` carries the canvas document (see `exchange.rs`) as `gz.` +
//! base64url(gzip(JSON)), or as plain base64url(JSON) when the JSON is under 1024 characters, the
//! way the reference system writes them. A fragment never reaches the server hosting the app (no
//! data in its logs, no 414 for long tables); older links put it in the query (`?hs=`), which still
//! opens. Reading accepts both encodings, the base64 and base64url alphabets, with or without
//! padding, `+` turned into a space by a URL decoder, a full URL or the bare parameter.

use base64::Engine;
use base64::alphabet;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

use crate::canvas::exchange::{self, ImportError, Imported};
use crate::canvas::gzip::{self, GzipError};
use crate::canvas::model::Canvas;
use crate::ids::ServerId;
use crate::ports::Random;

/// The parameter, in the fragment (and in older links' query).
pub const PARAM: &str = "hs";
/// JSON shorter than this goes uncompressed, as the reference does.
const GZIP_FROM_CHARS: usize = 1024;
/// Longest parameter read, in characters.
pub const MAX_PARAM_CHARS: usize = 8 * 1024 * 1024;
/// Largest payload once decompressed, in bytes (a gzip bomb stops here).
pub const MAX_PAYLOAD_BYTES: usize = exchange::MAX_DOCUMENT_BYTES;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShareError {
    #[error("the link has no \"hs\" parameter")]
    NoParam,
    #[error("the \"hs\" parameter is empty")]
    Empty,
    #[error("the \"hs\" parameter is {chars} characters; the limit is {limit}")]
    TooLong { chars: usize, limit: usize },
    #[error(
        "the link uses \"{0}\" compression, which this app cannot read (only gz and uncompressed links)"
    )]
    UnsupportedCompression(String),
    #[error("the link is damaged (not base64): {0}")]
    NotBase64(String),
    #[error("the link is damaged: {0}")]
    NotGzip(GzipError),
    #[error("the link's content is larger than {limit} bytes once unpacked")]
    PayloadTooLarge { limit: usize },
    #[error("the link's content is not UTF-8 text")]
    NotText,
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// The `hs` parameter value for `canvas`; `servers` as for [`exchange::export_file`].
pub fn encode_param(canvas: &Canvas, title: Option<&str>, servers: &[(ServerId, String)]) -> String {
    encode_text(&exchange::export_compact(canvas, title, servers))
}

/// `base_url` with the fragment `#hs=param`, replacing its fragment and any old `hs` query
/// parameter (other parameters are kept).
pub fn link(base_url: &str, param: &str) -> String {
    let without_fragment = base_url.split_once('#').map_or(base_url, |(url, _)| url);
    let (path, query) = without_fragment
        .split_once('?')
        .unwrap_or((without_fragment, ""));
    let pairs: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
            form_urlencoded::parse(key.as_bytes())
                .next()
                .map(|(key, _)| key)
                != Some(PARAM.into())
        })
        .collect();
    match pairs.is_empty() {
        true => format!("{path}#{PARAM}={param}"),
        false => format!("{path}?{}#{PARAM}={param}", pairs.join("&")),
    }
}

/// The `hs` value of a fragment (`#hs=...`, with or without the `#`), percent-decoded, if it has one.
pub fn fragment_param(fragment: &str) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    form_urlencoded::parse(fragment.as_bytes())
        .find(|(key, _)| key == PARAM)
        .map(|(_, value)| value.trim().to_owned())
}

/// Opens a share link (or its bare `hs` value) as a canvas ready for `Op::Replace`.
pub fn open(url_or_param: &str, random: &dyn Random, now_ms: f64) -> Result<Imported, ShareError> {
    let text = decode_text(url_or_param)?;
    Ok(exchange::import(&text, random, now_ms)?)
}

/// The text a link carries (JSON or markdown), from a full URL or the bare parameter.
pub fn decode_text(url_or_param: &str) -> Result<String, ShareError> {
    let param = find_param(url_or_param.trim())?;
    if param.len() > MAX_PARAM_CHARS {
        return Err(ShareError::TooLong {
            chars: param.len(),
            limit: MAX_PARAM_CHARS,
        });
    }
    let bytes = match param.split_once('.') {
        Some(("gz", rest)) => gunzip(&base64_decode(rest)?)?,
        Some((scheme, _))
            if scheme.len() <= 4 && scheme.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            return Err(ShareError::UnsupportedCompression(scheme.to_owned()));
        }
        _ => base64_decode(&param)?,
    };
    if bytes.len() > MAX_PAYLOAD_BYTES {
        return Err(ShareError::PayloadTooLarge {
            limit: MAX_PAYLOAD_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|_| ShareError::NotText)
}

fn encode_text(text: &str) -> String {
    let base64url = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    if text.chars().count() < GZIP_FROM_CHARS {
        base64url.encode(text)
    } else {
        format!("gz.{}", base64url.encode(gzip::compress(text.as_bytes())))
    }
}

/// The `hs` value of a URL (its fragment, else its query) or query string, percent-decoded; anything
/// else is taken as the value itself.
fn find_param(input: &str) -> Result<String, ShareError> {
    if let Some(param) = input.split_once('#').and_then(|(_, fragment)| fragment_param(fragment)) {
        return match param.is_empty() {
            true => Err(ShareError::Empty),
            false => Ok(param),
        };
    }
    let query = match input.split_once('?') {
        Some((_, query)) => query
            .split_once('#')
            .map_or(query, |(query, _)| query)
            .to_owned(),
        None if input.contains("://") => return Err(ShareError::NoParam),
        // A bare value, possibly still percent-encoded.
        None => format!("{PARAM}={input}"),
    };
    let param = form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == PARAM)
        .map(|(_, value)| value.into_owned())
        .ok_or(ShareError::NoParam)?;
    let param = param.trim().to_owned();
    if param.is_empty() {
        Err(ShareError::Empty)
    } else {
        Ok(param)
    }
}

/// Decodes base64 in either alphabet, padded or not; a space is a `+` a URL decoder turned into one.
fn base64_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    let normalised: String = text
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '\t' | '='))
        .map(|c| match c {
            ' ' | '+' => '-',
            '/' => '_',
            other => other,
        })
        .collect();
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true);
    GeneralPurpose::new(&alphabet::URL_SAFE, config)
        .decode(normalised)
        .map_err(|error| ShareError::NotBase64(error.to_string()))
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, ShareError> {
    gzip::decompress(bytes, MAX_PAYLOAD_BYTES).map_err(|error| match error {
        GzipError::TooLarge { limit } => ShareError::PayloadTooLarge { limit },
        other => ShareError::NotGzip(other),
    })
}
