//! The `Bearer` challenge of a `WWW-Authenticate` header (RFC 6750 §3, RFC 9728 §5.1): where the
//! protected-resource metadata is, which scopes the server wants, and why it refused.

/// What a 401 or 403 tells the client about authorizing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    /// The protected-resource metadata URL (RFC 9728), when the server names it.
    pub resource_metadata: Option<String>,
    /// Space-separated scopes the server asks for.
    pub scope: Option<String>,
    /// `invalid_token`, `insufficient_scope`, ...
    pub error: Option<String>,
}

impl Challenge {
    /// The `Bearer` challenge among the header's challenges; `None` when there is none.
    pub fn parse(header: &str) -> Option<Challenge> {
        let mut challenge: Option<Challenge> = None;
        let mut in_bearer = false;
        let mut rest = header;
        loop {
            rest = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
            if rest.is_empty() {
                break;
            }
            let token_end = rest.find(|c: char| c == '=' || c == ',' || c.is_whitespace()).unwrap_or(rest.len());
            let token = &rest[..token_end];
            let after = rest[token_end..].trim_start();
            if token.is_empty() {
                // A stray '=' (the padding of a token68): skip it.
                rest = &rest[1..];
                continue;
            }
            if let Some(value_start) = after.strip_prefix('=') {
                let (value, remainder) = read_value(value_start.trim_start());
                rest = remainder;
                if let (true, Some(challenge)) = (in_bearer, challenge.as_mut()) {
                    let slot = match token.to_ascii_lowercase().as_str() {
                        "resource_metadata" => &mut challenge.resource_metadata,
                        "scope" => &mut challenge.scope,
                        "error" => &mut challenge.error,
                        _ => continue,
                    };
                    slot.get_or_insert(value);
                }
            } else {
                // A scheme name starts the next challenge.
                in_bearer = token.eq_ignore_ascii_case("bearer") && challenge.is_none();
                if in_bearer {
                    challenge = Some(Challenge::default());
                }
                rest = &rest[token_end..];
            }
        }
        challenge
    }

    /// The challenge's scopes, one per entry.
    pub fn scopes(&self) -> Vec<String> {
        split_scopes(self.scope.as_deref().unwrap_or(""))
    }

    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

pub fn split_scopes(scope: &str) -> Vec<String> {
    scope.split_whitespace().map(str::to_owned).collect()
}

/// A quoted string (with `\` escapes) or a bare token; returns it and what follows.
fn read_value(text: &str) -> (String, &str) {
    let Some(quoted) = text.strip_prefix('"') else {
        let end = text.find(|c: char| c == ',' || c.is_whitespace()).unwrap_or(text.len());
        return (text[..end].to_owned(), &text[end..]);
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((index, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            '"' => return (value, &quoted[index + 1..]),
            _ => value.push(c),
        }
    }
    (value, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parameters_of_a_bearer_challenge_in_any_order_and_case() {
        let header = r#"Bearer error="insufficient_scope", Scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error_description="needs \"write\"""#;
        let challenge = Challenge::parse(header).expect("a bearer challenge");
        assert_eq!(challenge.error.as_deref(), Some("insufficient_scope"));
        assert!(challenge.is_insufficient_scope());
        assert_eq!(challenge.scopes(), ["files:read", "files:write"]);
        assert_eq!(
            challenge.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource/mcp")
        );
    }

    #[test]
    fn finds_bearer_after_another_scheme_and_ignores_the_other_schemes_parameters() {
        let header = r#"Basic realm="x", scope="not-this", Bearer realm="api", scope=read"#;
        let challenge = Challenge::parse(header).expect("a bearer challenge");
        assert_eq!(challenge.scope.as_deref(), Some("read"));
        assert_eq!(challenge.resource_metadata, None);
        let with_token68 = Challenge::parse("Negotiate abc123==, Bearer error=invalid_token").unwrap();
        assert_eq!(with_token68.error.as_deref(), Some("invalid_token"));
    }

    #[test]
    fn a_header_without_a_bearer_challenge_gives_none_and_a_bare_bearer_gives_an_empty_one() {
        assert_eq!(Challenge::parse(r#"Basic realm="x""#), None);
        assert_eq!(Challenge::parse(""), None);
        assert_eq!(Challenge::parse("Bearer"), Some(Challenge::default()));
        assert_eq!(Challenge::parse(r#"Bearer scope="unterminated"#).unwrap().scope.as_deref(), Some("unterminated"));
    }
}
