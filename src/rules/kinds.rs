//! Kind vocabulary: the stable list, the infrastructure-looking kinds that a completed
//! tool result may not claim, and how untrusted kinds are canonicalized.

use crate::json::utf16_prefix;
use crate::text::redact::{redact_secrets, Redactions};
use crate::text::sanitize::strip_controls;

/// Kinds an upstream may send that pass through unchanged.
pub const STABLE_KINDS: &[&str] = &[
    "unknown_action",
    "unknown_subaction",
    "missing_param",
    "invalid_param",
    "unknown_instance",
    "confirmation_required",
    "conflict",
    "forbidden",
    "unknown_tool",
    "route_scope_denied",
    "path_traversal",
    "permission_denied",
    "timeout",
    "budget_exceeded",
    "quota_exceeded",
    "invalid_code_mode_id",
    "snippet_not_found",
    "artifact_too_large",
    "auth_failed",
    "oauth_needs_reauth",
    "not_found",
    "rate_limited",
    "validation_failed",
];

/// Kinds that describe infrastructure; inside a completed tool result they become
/// `tool_error`, because the upstream answered (rule 4).
pub const INFRASTRUCTURE_KINDS: &[&str] = &["upstream_error", "network_error", "server_error", "internal_error", "decode_error"];

/// The kind for a tool failure with nothing more specific known.
pub const TOOL_ERROR: &str = "tool_error";

/// Longest `original_kind` kept, in UTF-16 code units.
pub const MAX_ORIGINAL_KIND: usize = 128;

/// Whether `kind` is on the stable list.
pub fn is_stable(kind: &str) -> bool {
    STABLE_KINDS.contains(&kind)
}

/// An untrusted kind mapped to the canonical kind, with the raw value kept when the two
/// differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalKind {
    /// The canonical kind.
    pub kind: String,
    /// The sanitized, capped raw value, when it is not the canonical kind.
    pub original: Option<String>,
}

/// Canonicalize an untrusted kind: stable kinds pass, everything else (infrastructure
/// kinds included) becomes `tool_error` with the raw value in `original`.
pub fn canonicalize(raw: &str, counts: &mut Redactions) -> CanonicalKind {
    if is_stable(raw) {
        return CanonicalKind { kind: raw.to_owned(), original: None };
    }
    CanonicalKind { kind: TOOL_ERROR.to_owned(), original: sanitize_original(raw, counts) }
}

/// Sanitize, redact and cap a raw kind for `original_kind`; `None` when nothing is left.
pub fn sanitize_original(raw: &str, counts: &mut Redactions) -> Option<String> {
    let window = utf16_prefix(raw, MAX_ORIGINAL_KIND * 4);
    let stripped = strip_controls(window);
    let clean = redact_secrets(&stripped, counts);
    let capped = utf16_prefix(clean.trim(), MAX_ORIGINAL_KIND);
    (!capped.is_empty()).then(|| capped.to_owned())
}

/// Whether a host-supplied kind is well formed: 1 to 64 characters of `[a-z0-9_]`.
pub fn is_well_formed(kind: &str) -> bool {
    (1..=64).contains(&kind.len()) && kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_kinds_pass_everything_else_is_tool_error() {
        let mut c = Redactions::default();
        assert_eq!(canonicalize("not_found", &mut c), CanonicalKind { kind: "not_found".into(), original: None });
        for infra in INFRASTRUCTURE_KINDS {
            let k = canonicalize(infra, &mut c);
            assert_eq!(k.kind, TOOL_ERROR);
            assert_eq!(k.original.as_deref(), Some(*infra));
        }
        assert_eq!(canonicalize("Weird\u{7}Kind", &mut c).original.as_deref(), Some("WeirdKind"));
    }

    #[test]
    fn original_kind_is_capped_and_redacted() {
        let mut c = Redactions::default();
        let long = "k".repeat(500);
        assert_eq!(canonicalize(&long, &mut c).original.unwrap().len(), MAX_ORIGINAL_KIND);
        let secret = canonicalize("ghp_abcdefghijklmnopqrstuvwxyz0123456789", &mut c);
        assert_eq!(secret.original.as_deref(), Some("[REDACTED:api_key]"));
    }

    #[test]
    fn host_kinds_must_be_snake_case() {
        assert!(is_well_formed("budget_exceeded"));
        assert!(!is_well_formed(""));
        assert!(!is_well_formed("Budget"));
        assert!(!is_well_formed(&"a".repeat(65)));
    }
}
