//! Key names that name a secret (`apiKey`, `API_KEY`, `x-api-key`, `client_secret`):
//! the values of such members are never shown, whatever they look like.

use crate::search::{contains_ignore_ascii_case, AsciiSet};

/// Words that make a key name a secret, wherever they stand in the name, also in the
/// plural (`passwords`, `secrets`) and at the end of a joined word (`pgpassword`,
/// `accesstoken`, `clientsecret`).
const SECRET_KEY_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "apikey",
    "credential",
    "cookie",
    "authorization",
    "auth",
    "bearer",
    "sessionid",
    "signature",
    "privatekey",
    "secretkey",
    "accesskey",
    "masterkey",
    "signingkey",
    "encryptionkey",
    "hmackey",
    "accountkey",
    "subscriptionkey",
];

/// Short words that name a password only as the last word of a longer name (`DB_PASS`,
/// `bind_pw`, `keystore.pass`): alone they mean other things.
const TRAILING_SECRET_WORDS: &[&str] = &["pass", "pw", "pin"];

/// Adjacent word pairs that make a key name a secret.
const SECRET_KEY_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("access", "key"),
    ("private", "key"),
    ("secret", "key"),
    ("session", "id"),
    ("client", "secret"),
    ("access", "tokens"),
    ("refresh", "tokens"),
    ("auth", "tokens"),
    ("api", "tokens"),
];

/// What a name's last word `key` is qualified by when the key is no secret (`sort_key`,
/// `public_key`, `idempotency_key`); any other `…_key` name is taken for a secret
/// (`signing_key`, `MASTER_KEY`, `Ocp-Apim-Subscription-Key`, `STRIPE_KEY`).
const PLAIN_KEY_QUALIFIERS: &[&str] = &[
    "sort",
    "primary",
    "foreign",
    "partition",
    "cache",
    "idempotency",
    "public",
    "object",
    "row",
    "hash",
    "range",
    "lookup",
    "map",
    "dict",
    "group",
    "cluster",
    "shard",
    "index",
    "composite",
    "unique",
    "natural",
    "surrogate",
    "sequence",
    "message",
    "event",
    "routing",
    "dedup",
    "dedupe",
    "translation",
    "i18n",
    "locale",
    "label",
    "field",
    "column",
    "table",
    "s3",
    "bucket",
    "registry",
    "config",
    "setting",
    "settings",
    "react",
    "list",
    "item",
    "entry",
    "dictionary",
    "json",
    "yaml",
    "sorting",
    "order",
    "grouping",
    "join",
    "match",
    "search",
    "query",
    "request",
    "response",
    "metric",
    "metrics",
    "tag",
    "tags",
    "hotkey",
    "short",
    "keyboard",
    "the",
    "a",
];

/// Last words that make a secret-sounding name describe the secret rather than hold it
/// (`password_policy`, `token_expires_in`, `api_key_last4`, `PASSWORD_FILE`).
const METADATA_WORDS: &[&str] = &[
    "policy",
    "type",
    "types",
    "url",
    "uri",
    "endpoint",
    "method",
    "scheme",
    "name",
    "names",
    "count",
    "limit",
    "usage",
    "length",
    "len",
    "file",
    "path",
    "dir",
    "version",
    "expires",
    "expiry",
    "expiration",
    "in",
    "at",
    "ttl",
    "last4",
    "hint",
    "prefix",
    "format",
    "enabled",
    "required",
    "set",
    "present",
    "exists",
    "rotated",
    "created",
    "updated",
    "age",
    "strength",
    "rules",
    "reset",
    "changed",
    "id",
    "ids",
];

/// First words that make the name a flag about a secret (`has_password`, `is_token`).
const FLAG_WORDS: &[&str] = &["has", "is", "use", "uses", "needs", "requires", "no", "with", "without", "show", "hide"];

/// Key names (as snake_case words) that contain a secret word but name no secret.
const SECRET_KEY_ALLOWLIST: &[&str] = &[
    "max_tokens",
    "tokens",
    "total_tokens",
    "input_tokens",
    "output_tokens",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "reasoning_tokens",
    "num_tokens",
    "token_usage",
    "next_page_token",
    "page_token",
    "nextpagetoken",
    "continuation_token",
    "continuationtoken",
    "sync_token",
    "synctoken",
    "cursor_token",
    "secret_name",
    "credential_type",
];

/// Whether a key name (any case style: `apiKey`, `API_KEY`, `x-api-key`) names a secret.
pub(crate) fn is_secret_key(key: &str) -> bool {
    // Every secret word and pair contains one of these stems; most keys have none.
    const STEMS: &[&str] =
        &["pass", "pw", "pin", "secret", "token", "key", "credential", "cookie", "auth", "bearer", "session", "signature"];
    let present = AsciiSet::of(key);
    if !STEMS.iter().any(|s| present.has_all(s) && contains_ignore_ascii_case(key, s)) {
        return false;
    }
    let words = key_words(key);
    let joined = words.join("_");
    if SECRET_KEY_ALLOWLIST.contains(&joined.as_str()) {
        return false;
    }
    // Plurals count as their singular (`api_keys`, `passwords`), except `tokens`, which
    // is nearly always a count; `pass` and `access` are no plurals.
    let words: Vec<&str> = words
        .iter()
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if w.len() > 3 && !w.ends_with("ss") && w != "tokens" => stem,
            _ => w.as_str(),
        })
        .collect();
    let (Some(first), Some(last)) = (words.first(), words.last()) else {
        return false;
    };
    // `session_id`, Vault's `secret_id` and AWS's `access_key_id` are credentials (or
    // half of one); `api_key_id` names one.
    let id_credential = words.len() > 1
        && *last == "id"
        && (matches!(words[words.len() - 2], "session" | "secret")
            || words.ends_with(&["access", "key", "id"])
            || words.ends_with(&["accesskey", "id"]));
    if words.len() > 1 && !id_credential && (METADATA_WORDS.contains(last) || FLAG_WORDS.contains(first)) {
        return false;
    }
    let secret_word = |w: &str| SECRET_KEY_WORDS.iter().any(|s| w == *s || (w.len() > s.len() + 1 && w.ends_with(s)));
    words.iter().any(|w| secret_word(w))
        || (words.len() > 1 && TRAILING_SECRET_WORDS.contains(last))
        || words.windows(2).any(|p| SECRET_KEY_PAIRS.contains(&(p[0], p[1])))
        || (words.len() > 1 && *last == "key" && !PLAIN_KEY_QUALIFIERS.contains(&words[words.len() - 2]))
}

/// Whether a key is a short name that holds a secret only sometimes (`pass`, `pw`, `key`,
/// `tokens`, `session`): its value is a secret when it looks generated.
pub(crate) fn is_weak_secret_key(key: &str) -> bool {
    const WEAK: &[&str] = &["pass", "pw", "key", "tokens", "session"];
    WEAK.iter().any(|w| key.eq_ignore_ascii_case(w))
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
        for k in [
            "password",
            "apiKey",
            "API_KEY",
            "x-api-key",
            "client_secret",
            "refreshToken",
            "AWS_SECRET_ACCESS_KEY",
            "sessionId",
            "PGPASSWORD",
            "accesstoken",
            "clientsecret",
            "api_keys",
            "passwords",
            "DB_PASS",
            "bind_pw",
            "signingKey",
            "MASTER_KEY",
            "Ocp-Apim-Subscription-Key",
            "AccountKey",
            "access_tokens",
        ] {
            assert!(is_secret_key(k), "{k}");
        }
        for k in [
            "max_tokens",
            "token_type",
            "sort_key",
            "author",
            "key",
            "monkey",
            "tokens",
            "primaryKey",
            "has_password",
            "api_key_last4",
            "PASSWORD_FILE",
            "nextPageToken",
            "token_expires_in",
            "public_key",
            "passenger",
            "pinned",
        ] {
            assert!(!is_secret_key(k), "{k}");
        }
    }
}
