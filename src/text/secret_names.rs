//! Key names that name a secret (`apiKey`, `API_KEY`, `x-api-key`, `client_secret`):
//! the values of such members are never shown, whatever they look like.

use crate::search::{contains_ignore_ascii_case, AsciiSet};

/// Words that make a key name a secret, wherever they stand in the name.
const SECRET_KEY_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "credential",
    "credentials",
    "cookie",
    "authorization",
    "auth",
    "bearer",
    "sessionid",
    "signature",
];

/// Adjacent word pairs that make a key name a secret.
const SECRET_KEY_PAIRS: &[(&str, &str)] =
    &[("api", "key"), ("access", "key"), ("private", "key"), ("secret", "key"), ("session", "id"), ("client", "secret")];

/// Key names (as snake_case words) that contain a secret word but name no secret.
const SECRET_KEY_ALLOWLIST: &[&str] = &[
    "token_type",
    "max_tokens",
    "token_count",
    "token_limit",
    "token_usage",
    "token_endpoint",
    "token_url",
    "auth_type",
    "auth_method",
    "auth_scheme",
    "auth_url",
    "auth_endpoint",
    "password_policy",
    "secret_name",
    "credential_type",
    "sort_key",
];

/// Whether a key name (any case style: `apiKey`, `API_KEY`, `x-api-key`) names a secret.
pub(crate) fn is_secret_key(key: &str) -> bool {
    // Every secret word and pair contains one of these stems; most keys have none.
    const STEMS: &[&str] = &["pass", "pwd", "secret", "token", "key", "credential", "cookie", "auth", "bearer", "session", "signature"];
    let present = AsciiSet::of(key);
    if !STEMS.iter().any(|s| present.has_all(s) && contains_ignore_ascii_case(key, s)) {
        return false;
    }
    let words = key_words(key);
    let joined = words.join("_");
    if SECRET_KEY_ALLOWLIST.contains(&joined.as_str()) {
        return false;
    }
    words.iter().any(|w| SECRET_KEY_WORDS.contains(&w.as_str()))
        || words.windows(2).any(|p| SECRET_KEY_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// Split a key into lowercase words at separators and camelCase humps.
fn key_words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_key_names_in_every_case_style() {
        for k in ["password", "apiKey", "API_KEY", "x-api-key", "client_secret", "refreshToken", "AWS_SECRET_ACCESS_KEY", "sessionId"] {
            assert!(is_secret_key(k), "{k}");
        }
        for k in ["max_tokens", "token_type", "sort_key", "author", "key", "monkey", "tokens", "primaryKey"] {
            assert!(!is_secret_key(k), "{k}");
        }
    }
}
