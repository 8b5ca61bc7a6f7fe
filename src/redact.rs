//! Secret redaction: the baseline rules, kept as data.
//!
//! Each [`SecretRule`] names a family, a pattern, and literal hints that must appear
//! (ASCII case-insensitively) before the pattern is run at all, so ordinary text costs a
//! few substring scans. A match becomes `[REDACTED:<family>]`; the text around the
//! secret that helps a reader (a header name, a URL scheme, quotes) is kept. Every
//! redaction is counted by family; the secret itself is never recorded.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex_lite::{Captures, Regex};

/// Redaction counts by family, as shown in `evidence.redactions`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Redactions(BTreeMap<&'static str, u64>);

impl Redactions {
    /// Count one redaction of `family`.
    pub fn add(&mut self, family: &'static str) {
        *self.0.entry(family).or_insert(0) += 1;
    }

    /// How many redactions `family` made.
    pub fn get(&self, family: &str) -> u64 {
        self.0.get(family).copied().unwrap_or(0)
    }

    /// Add every count of `other`.
    pub fn merge(&mut self, other: &Redactions) {
        for (family, n) in &other.0 {
            *self.0.entry(family).or_insert(0) += n;
        }
    }

    /// Total redactions of every family.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    /// The counts as `(family, count)` pairs sorted by family.
    pub fn to_pairs(&self) -> Vec<(String, u64)> {
        self.0.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }
}

/// One redaction rule.
#[derive(Debug)]
pub struct SecretRule {
    /// The family named in the marker and the counts.
    pub family: &'static str,
    /// The pattern. A group named `pre` is kept before the marker, `post` after it; a group
    /// named `key` must name a secret (see [`is_secret_key`]) for the match to count.
    pub pattern: &'static str,
    /// Lowercase literals of which at least one must occur for the rule to run.
    pub hints: &'static [&'static str],
}

/// The baseline rules, applied in this order.
pub const SECRET_RULES: &[SecretRule] = &[
    SecretRule {
        family: "private_key",
        // A whole PEM block across lines; an unterminated block is redacted to the end.
        pattern: r"(?s)-----BEGIN[ A-Z0-9]*PRIVATE KEY-----.*?(?:-----END[ A-Z0-9]*PRIVATE KEY-----|\z)",
        hints: &["private key-----"],
    },
    SecretRule { family: "jwt", pattern: r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", hints: &["eyj"] },
    SecretRule {
        family: "api_key",
        // Provider tokens with documented prefixes.
        pattern: concat!(
            r"\b(?:sk-[A-Za-z0-9_-]{20,}",
            r"|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}",
            r"|glpat-[A-Za-z0-9_-]{20,}",
            r"|xox[abposr]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}",
            r"|(?:AKIA|ASIA)[A-Z0-9]{16}",
            r"|AIza[A-Za-z0-9_-]{35}",
            r"|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
            r"|npm_[A-Za-z0-9]{36}",
            r"|pypi-[A-Za-z0-9_-]{50,}",
            r"|hf_[A-Za-z0-9]{30,}",
            r"|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
            r"|dop_v1_[a-f0-9]{64}",
            r"|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})"
        ),
        hints: &[
            "sk-",
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "xox",
            "xapp-",
            "akia",
            "asia",
            "aiza",
            "_live_",
            "_test_",
            "npm_",
            "pypi-",
            "hf_",
            "sg.",
            "dop_v1_",
            "shp",
        ],
    },
    SecretRule {
        family: "authorization",
        pattern: r#"(?i)(?P<pre>\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|negotiate|apikey)[ \t]+)?)[^\s"',;]+"#,
        hints: &["authorization"],
    },
    SecretRule { family: "authorization", pattern: r"(?P<pre>\b(?:Bearer|BEARER)[ \t]+)[A-Za-z0-9._~+/=-]{8,}", hints: &["bearer "] },
    SecretRule { family: "cookie", pattern: r"(?im)(?P<pre>^[ \t]*(?:set-)?cookie[ \t]*:[ \t]*)[^\r\n]+", hints: &["cookie"] },
    SecretRule {
        family: "url_credentials",
        pattern: r#"(?i)(?P<pre>\b[a-z][a-z0-9+.-]{1,15}://)[^\s/?#@:"'<>]+:[^\s/?#@"'<>]+(?P<post>@)"#,
        hints: &["://"],
    },
    SecretRule {
        family: "url_query",
        pattern: concat!(
            r#"(?i)(?P<pre>[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|api-key|key|secret"#,
            r#"|client_secret|password|passwd|pwd|sig|signature|x-amz-signature|x-amz-credential"#,
            r#"|x-amz-security-token|x-goog-signature|x-goog-credential|auth|code|session|sessionid|sid)=)"#,
            r#"[^&#\s"'<>]+"#
        ),
        hints: &["?", "&"],
    },
    SecretRule {
        family: "secret_field",
        // `key=value`, `key: value` and JSON members; `key` is checked by `is_secret_key`.
        pattern: r#"(?P<pre>(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,63})["']?[ \t]*[:=][ \t]*)(?:"[^"\r\n]*"|'[^'\r\n]*'|[^\s,;&"'<>{}()\[\]]+)"#,
        hints: &[":", "="],
    },
];

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
pub fn is_secret_key(key: &str) -> bool {
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

/// The marker that replaces a secret of `family`.
pub fn marker(family: &str) -> String {
    format!("[REDACTED:{family}]")
}

const MARKER_PREFIX: &str = "[REDACTED:";

struct CompiledRule {
    rule: &'static SecretRule,
    regex: Regex,
}

fn compiled_rules() -> &'static [CompiledRule] {
    static RULES: OnceLock<Vec<CompiledRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        SECRET_RULES.iter().filter_map(|rule| Regex::new(rule.pattern).ok().map(|regex| CompiledRule { rule, regex })).collect()
    })
}

/// Redact every secret in `text`, counting each redaction in `counts`.
///
/// ```
/// let mut counts = codemode_errors::Redactions::default();
/// let out = codemode_errors::redact::redact_secrets("Authorization: Bearer abc.def.ghi123", &mut counts);
/// assert_eq!(out, "Authorization: Bearer [REDACTED:authorization]");
/// assert_eq!(counts.get("authorization"), 1);
/// ```
pub fn redact_secrets(text: &str, counts: &mut Redactions) -> String {
    let mut current = text.to_owned();
    let mut lower = current.to_ascii_lowercase();
    for compiled in compiled_rules() {
        if !compiled.rule.hints.iter().any(|h| lower.contains(h)) {
            continue;
        }
        if let Some(next) = apply_rule(compiled, &current, counts) {
            current = next;
            lower = current.to_ascii_lowercase();
        }
    }
    current
}

/// Apply one rule; `None` when nothing was redacted.
fn apply_rule(compiled: &CompiledRule, text: &str, counts: &mut Redactions) -> Option<String> {
    let family = compiled.rule.family;
    let mut out = String::new();
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while at <= text.len() {
        let Some(caps) = compiled.regex.captures_at(text, at) else {
            break;
        };
        let whole = caps.get(0)?;
        let pre_end = caps.name("pre").map_or(whole.start(), |m| m.end());
        let post_start = caps.name("post").map_or(whole.end(), |m| m.start());
        let secret = &text[pre_end..post_start];
        let followed_by_marker = text[whole.end()..].trim_start().starts_with(MARKER_PREFIX);
        if followed_by_marker || !counts_as_secret(&caps, secret) {
            // Resume right after the key so an overlapping `key: value` is still seen.
            at = next_start(text, pre_end.max(whole.start() + 1));
            continue;
        }
        out.push_str(&text[copied..pre_end]);
        let (open, close) = quotes_of(secret);
        out.push_str(open);
        out.push_str(&marker(family));
        out.push_str(close);
        out.push_str(&text[post_start..whole.end()]);
        counts.add(family);
        changed = true;
        copied = whole.end();
        at = next_start(text, whole.end().max(whole.start() + 1));
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

fn counts_as_secret(caps: &Captures<'_>, secret: &str) -> bool {
    let (open, close) = quotes_of(secret);
    let inner = &secret[open.len()..secret.len() - close.len()];
    if inner.is_empty() || inner.starts_with(MARKER_PREFIX) {
        return false;
    }
    caps.name("key").is_none_or(|k| is_secret_key(k.as_str()))
}

/// The quotes around a quoted secret, which the redaction keeps.
fn quotes_of(secret: &str) -> (&'static str, &'static str) {
    for q in ["\"", "'"] {
        if secret.len() >= 2 && secret.starts_with(q) && secret.ends_with(q) {
            return (q, q);
        }
    }
    ("", "")
}

/// The first char boundary at or after `i`.
fn next_start(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redact(text: &str) -> (String, Redactions) {
        let mut counts = Redactions::default();
        (redact_secrets(text, &mut counts), counts)
    }

    #[test]
    fn every_rule_compiles() {
        assert_eq!(compiled_rules().len(), SECRET_RULES.len());
    }

    /// One planted secret per family: (input, expected output, family).
    const CASES: &[(&str, &str, &str)] = &[
        (
            "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter",
            "key:\n[REDACTED:private_key]\nafter",
            "private_key",
        ),
        ("-----BEGIN PRIVATE KEY-----\nMIIEow cut off", "[REDACTED:private_key]", "private_key"),
        (
            "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done",
            "token [REDACTED:jwt] done",
            "jwt",
        ),
        ("use sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAA now", "use [REDACTED:api_key] now", "api_key"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:api_key]", "api_key"),
        ("id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED:api_key].", "api_key"),
        ("xoxb-1234567890-abcdefghij", "[REDACTED:api_key]", "api_key"),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED:authorization]", "authorization"),
        ("sent Bearer abcdefghijkl123", "sent Bearer [REDACTED:authorization]", "authorization"),
        ("Cookie: sid=abc; theme=dark\nnext", "Cookie: [REDACTED:cookie]\nnext", "cookie"),
        ("https://user:hunter2@example.com/x", "https://[REDACTED:url_credentials]@example.com/x", "url_credentials"),
        (
            "GET https://api.example.com/v1?access_token=abc123&page=2",
            "GET https://api.example.com/v1?access_token=[REDACTED:url_query]&page=2",
            "url_query",
        ),
        (r#"{"password": "hunter2", "user": "bob"}"#, r#"{"password": "[REDACTED:secret_field]", "user": "bob"}"#, "secret_field"),
        ("Error: password: swordfish", "Error: password: [REDACTED:secret_field]", "secret_field"),
        ("DB_PASSWORD=abc API_KEY=xyz", "DB_PASSWORD=[REDACTED:secret_field] API_KEY=[REDACTED:secret_field]", "secret_field"),
        ("clientSecret='s3cr3t'", "clientSecret='[REDACTED:secret_field]'", "secret_field"),
    ];

    #[test]
    fn each_family_redacts_its_planted_secret() {
        for (input, expected, family) in CASES {
            let (out, counts) = redact(input);
            assert_eq!(&out, expected, "input: {input}");
            assert!(counts.get(family) >= 1, "family {family} not counted for {input}");
        }
    }

    #[test]
    fn allowlisted_and_ordinary_keys_pass() {
        for text in [
            "max_tokens=100 token_type=bearer sort_key=name",
            r#"{"author": "ann", "tokens": 5, "key": "value"}"#,
            "Error: file not found",
            "see https://example.com/docs?page=2",
        ] {
            let (out, counts) = redact(text);
            assert_eq!(out, text);
            assert_eq!(counts.total(), 0);
        }
    }

    #[test]
    fn secret_key_names_in_every_case_style() {
        for k in ["password", "apiKey", "API_KEY", "x-api-key", "client_secret", "refreshToken", "AWS_SECRET_ACCESS_KEY", "sessionId"] {
            assert!(is_secret_key(k), "{k}");
        }
        for k in ["max_tokens", "token_type", "sort_key", "author", "key", "monkey", "tokens", "primaryKey"] {
            assert!(!is_secret_key(k), "{k}");
        }
    }

    #[test]
    fn redaction_is_idempotent() {
        for (input, _, _) in CASES {
            let (once, _) = redact(input);
            let (twice, counts) = redact(&once);
            assert_eq!(once, twice);
            assert_eq!(counts.total(), 0, "second pass redacted again: {once}");
        }
    }
}
