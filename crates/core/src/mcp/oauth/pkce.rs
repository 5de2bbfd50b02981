//! PKCE (RFC 7636) with S256, and the random `state` that ties a callback to the request that
//! asked for it.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use crate::ports::Random;

/// A verifier (kept by the client until the token request) and its challenge (sent in the
/// authorization URL). Never shown: `Debug` hides the verifier.
#[derive(Clone, PartialEq, Eq)]
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    /// 256 random bits as the verifier (43 base64url characters, within RFC 7636's 43..=128).
    pub fn new(random: &dyn Random) -> Pkce {
        let verifier = random_string(random, 4);
        let challenge = s256(&verifier);
        Pkce { verifier, challenge }
    }
}

impl std::fmt::Debug for Pkce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pkce").field("challenge", &self.challenge).finish_non_exhaustive()
    }
}

/// `BASE64URL(SHA256(verifier))`, the S256 challenge.
pub fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// `words` random 64-bit words, base64url: 128 bits (`words = 2`) for a `state`.
pub fn random_string(random: &dyn Random, words: usize) -> String {
    let bytes: Vec<u8> = (0..words).flat_map(|_| random.next_u64().to_le_bytes()).collect();
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    struct Counter(Cell<u64>);

    impl Random for Counter {
        fn next_u64(&self) -> u64 {
            self.0.set(self.0.get() + 1);
            self.0.get()
        }
    }

    #[test]
    fn the_s256_challenge_matches_rfc_7636_appendix_b() {
        assert_eq!(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    #[test]
    fn verifiers_are_43_url_safe_characters_and_differ_between_flows() {
        let random = Counter(Cell::new(0));
        let first = Pkce::new(&random);
        let second = Pkce::new(&random);
        assert_eq!(first.verifier.len(), 43);
        assert!(first.verifier.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(first.verifier, second.verifier);
        assert_eq!(first.challenge, s256(&first.verifier));
        assert!(!format!("{first:?}").contains(&first.verifier));
    }
}
