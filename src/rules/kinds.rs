//! The kind vocabulary as one table: every kind the core knows, with every fact the rules
//! read of it (on the contract's stable list or not, its recovery advice, whether it is a
//! discovery failure, whether it means the call's own input was wrong), and how untrusted
//! kinds are canonicalized.

use crate::text::{clean_identifier, label, CustomRules, Redactions, SafeText};
use crate::wire::{RecoveryAction as A, SameArguments as S};

/// Recovery advice for a kind: the next move and whether the exact call may be repeated.
pub(crate) type Advice = (A, S);

/// Change the call: the validation family and generic tool errors.
const REVISE: Advice = (A::ReviseAndRetry, S::Discouraged);
/// Look up what exists: the not-found family.
const REDISCOVER: Advice = (A::Rediscover, S::Never);
/// Transient: wait, then retry.
const WAIT: Advice = (A::RetryLater, S::Conditional);
/// Credentials must be renewed.
const REAUTHENTICATE: Advice = (A::Reauthenticate, S::Never);
/// A person must agree first.
const CONFIRM: Advice = (A::Confirm, S::Never);
/// Over a size or budget limit: ask for less.
const REDUCE: Advice = (A::ReduceWork, S::Never);
/// Not permitted, or stopped on purpose.
const STOP: Advice = (A::DoNotRetry, S::Never);
/// Broken inside: report it.
const ESCALATE: Advice = (A::InspectAndEscalate, S::Discouraged);
/// A dependency is down.
const START: Advice = (A::StartDependency, S::Conditional);

wire_enum! {
    /// Every kind the core knows: the contract's stable vocabulary, which an upstream may
    /// send and which passes through unchanged, and the kinds the core emits itself.
    pub(crate) Kind {
        /// An action the tool does not have.
        UnknownAction = "unknown_action",
        /// A sub-action the tool does not have.
        UnknownSubaction = "unknown_subaction",
        /// A required argument is missing.
        MissingParam = "missing_param",
        /// An argument has a wrong value or type.
        InvalidParam = "invalid_param",
        /// An instance that does not exist.
        UnknownInstance = "unknown_instance",
        /// A person must confirm first.
        ConfirmationRequired = "confirmation_required",
        /// The call conflicts with the current state.
        Conflict = "conflict",
        /// Not allowed.
        Forbidden = "forbidden",
        /// A tool that does not exist.
        UnknownTool = "unknown_tool",
        /// Outside the route's scope.
        RouteScopeDenied = "route_scope_denied",
        /// A path outside the allowed roots.
        PathTraversal = "path_traversal",
        /// The operating system or the service refused access.
        PermissionDenied = "permission_denied",
        /// No answer in time.
        Timeout = "timeout",
        /// A code-mode budget is spent.
        BudgetExceeded = "budget_exceeded",
        /// A quota is spent.
        QuotaExceeded = "quota_exceeded",
        /// A code-mode id that is not valid.
        InvalidCodeModeId = "invalid_code_mode_id",
        /// A snippet that does not exist.
        SnippetNotFound = "snippet_not_found",
        /// A result or request over a size limit.
        ArtifactTooLarge = "artifact_too_large",
        /// Credentials were refused.
        AuthFailed = "auth_failed",
        /// An OAuth grant must be renewed.
        OauthNeedsReauth = "oauth_needs_reauth",
        /// An object that does not exist.
        NotFound = "not_found",
        /// Too many requests.
        RateLimited = "rate_limited",
        /// The arguments do not satisfy the schema.
        ValidationFailed = "validation_failed",
        /// A tool failure with nothing more specific known.
        ToolError = "tool_error",
        /// The connection to the upstream failed.
        NetworkError = "network_error",
        /// The upstream failed in a way it did not name.
        UpstreamError = "upstream_error",
        /// The upstream server failed inside.
        ServerError = "server_error",
        /// The gateway or sandbox failed inside.
        InternalError = "internal_error",
        /// A response that could not be read.
        DecodeError = "decode_error",
        /// The caller cancelled the call.
        Cancelled = "cancelled",
        /// A result over the output limit.
        OutputLimitExceeded = "output_limit_exceeded",
        /// A runtime the call needs is not running.
        RuntimeUnavailable = "runtime_unavailable",
    }
}

/// What the rules read of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindFacts {
    /// On the contract's stable list: an upstream may send it and it passes unchanged.
    /// Every other kind from an upstream becomes `tool_error` (infrastructure kinds
    /// included: inside a completed result the upstream answered, rule 4).
    pub(crate) stable: bool,
    /// The recovery advice.
    pub(crate) advice: Advice,
    /// The tool or object named does not exist, so the call did nothing: side effects
    /// `none_expected` when code mode decided it.
    pub(crate) discovery: bool,
    /// The call's own input was wrong: an uncaught one ends a run as `invalid_input`.
    pub(crate) input_error: bool,
}

const fn stable(advice: Advice) -> KindFacts {
    KindFacts { stable: true, advice, discovery: false, input_error: false }
}

const fn emitted(advice: Advice) -> KindFacts {
    KindFacts { stable: false, advice, discovery: false, input_error: false }
}

impl KindFacts {
    const fn discovery(self) -> Self {
        KindFacts { discovery: true, ..self }
    }

    const fn input(self) -> Self {
        KindFacts { input_error: true, ..self }
    }
}

impl Kind {
    /// The facts of this kind: the table.
    pub(crate) const fn facts(self) -> KindFacts {
        use Kind as K;
        match self {
            K::UnknownAction => stable(REVISE).input(),
            K::UnknownSubaction => stable(REVISE).input(),
            K::MissingParam => stable(REVISE).input(),
            K::InvalidParam => stable(REVISE).input(),
            K::ValidationFailed => stable(REVISE).input(),
            K::InvalidCodeModeId => stable(REVISE).discovery(),
            K::Conflict => stable(REVISE),
            K::ToolError => emitted(REVISE),
            K::UnknownTool => stable(REDISCOVER).discovery(),
            K::UnknownInstance => stable(REDISCOVER).discovery(),
            K::SnippetNotFound => stable(REDISCOVER).discovery(),
            K::NotFound => stable(REDISCOVER),
            K::RateLimited => stable(WAIT),
            K::Timeout => stable(WAIT),
            K::NetworkError => emitted(WAIT),
            K::UpstreamError => emitted(WAIT),
            K::AuthFailed => stable(REAUTHENTICATE),
            K::OauthNeedsReauth => stable(REAUTHENTICATE),
            K::ConfirmationRequired => stable(CONFIRM),
            K::BudgetExceeded => stable(REDUCE),
            K::QuotaExceeded => stable(REDUCE),
            K::ArtifactTooLarge => stable(REDUCE),
            K::OutputLimitExceeded => emitted(REDUCE),
            K::Forbidden => stable(STOP),
            K::PermissionDenied => stable(STOP),
            K::RouteScopeDenied => stable(STOP),
            K::PathTraversal => stable(STOP),
            K::Cancelled => emitted(STOP),
            K::InternalError => emitted(ESCALATE),
            K::ServerError => emitted(ESCALATE),
            K::DecodeError => emitted(ESCALATE),
            K::RuntimeUnavailable => emitted(START),
        }
    }

    /// The kind's name as text for the model.
    pub(crate) fn name(self) -> SafeText {
        SafeText::literal(self.as_str())
    }

    /// The stable kind named `raw`, if it is one.
    pub(crate) fn stable(raw: &str) -> Option<Kind> {
        Kind::from_wire(raw).filter(|k| k.facts().stable)
    }
}

/// The facts of the kind named `name`, when the core knows it (hosts may use kinds of
/// their own, which have none).
pub(crate) fn facts_of(name: &str) -> Option<KindFacts> {
    Kind::from_wire(name).map(Kind::facts)
}

/// Longest `original_kind` kept, in UTF-16 code units.
pub(crate) const MAX_ORIGINAL_KIND: usize = 128;

/// An untrusted kind mapped to the canonical kind, with the raw value kept when the two
/// differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CanonicalKind {
    /// The canonical kind.
    pub kind: SafeText,
    /// The sanitized, capped raw value, when it is not the canonical kind.
    pub original: Option<SafeText>,
}

/// Canonicalize an untrusted kind: stable kinds pass, everything else (infrastructure
/// kinds included) becomes `tool_error` with the raw value in `original`.
pub(crate) fn canonicalize(raw: &str, custom: &CustomRules, counts: &mut Redactions) -> CanonicalKind {
    if let Some(kind) = Kind::stable(raw) {
        return CanonicalKind { kind: kind.name(), original: None };
    }
    CanonicalKind { kind: Kind::ToolError.name(), original: sanitize_original(raw, custom, counts) }
}

/// A raw kind for `original_kind`, through the text pipeline (stripped, redacted,
/// defanged) and capped; `None` when nothing is left.
pub(crate) fn sanitize_original(raw: &str, custom: &CustomRules, counts: &mut Redactions) -> Option<SafeText> {
    let cleaned = label(raw.trim(), MAX_ORIGINAL_KIND, custom, counts);
    let mut clean = cleaned.trimmed();
    // Blanks the cleaning bared (a stripped character after them) are trimmed, which can
    // make the last word a value (`Authorization: Bearer`): such a text is cleaned again.
    if clean.len() != cleaned.len() {
        clean = label(&clean, MAX_ORIGINAL_KIND, custom, counts).trimmed();
    }
    (!clean.is_empty()).then_some(clean)
}

/// A kind as the model reads it: one of the core's table by its name; any other (a
/// host's, an object's read back) when it is an identifier the text pipeline leaves as it
/// is (`None` otherwise: it may have a token's shape).
pub(crate) fn clean_kind(raw: &str, custom: &CustomRules) -> Option<SafeText> {
    match Kind::from_wire(raw) {
        Some(kind) => Some(kind.name()),
        None => clean_identifier(raw, custom),
    }
}

/// Whether a host-supplied kind is well formed: 1 to 64 characters of `[a-z0-9_]`.
pub(crate) fn is_well_formed(kind: &str) -> bool {
    SafeText::is_identifier(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_kinds_pass_everything_else_is_tool_error() {
        let mut c = Redactions::default();
        assert_eq!(
            canonicalize("not_found", CustomRules::none(), &mut c),
            CanonicalKind { kind: SafeText::literal("not_found"), original: None }
        );
        for emitted in Kind::ALL.iter().filter(|k| !k.facts().stable) {
            let k = canonicalize(emitted.as_str(), CustomRules::none(), &mut c);
            assert_eq!(k.kind, "tool_error");
            assert_eq!(k.original.as_deref(), Some(emitted.as_str()));
        }
        assert_eq!(canonicalize("Weird\u{7}Kind", CustomRules::none(), &mut c).original.as_deref(), Some("WeirdKind"));
    }

    #[test]
    fn original_kind_is_capped_and_redacted() {
        let mut c = Redactions::default();
        let long = "k".repeat(500);
        assert_eq!(canonicalize(&long, CustomRules::none(), &mut c).original.unwrap().len(), MAX_ORIGINAL_KIND);
        let secret = canonicalize("ghp_abcdefghijklmnopqrstuvwxyz0123456789", CustomRules::none(), &mut c);
        assert_eq!(secret.original.as_deref(), Some("[REDACTED:github_token]"));
        // Cut before a redacted value, or bared by a stripped character: the last word is
        // not left where a second cleaning would take it for the value.
        let pad = "p".repeat(MAX_ORIGINAL_KIND - 30);
        for raw in
            [format!("{pad} Authorization: Bearer bzsWQIWaHjFabbuF7nzLBTa8mZoihhciSs1EXHLH"), "x Authorization: Bearer \u{200B}".to_owned()]
        {
            let once = canonicalize(&raw, CustomRules::none(), &mut c).original.unwrap();
            let twice = sanitize_original(&once, CustomRules::none(), &mut c).unwrap();
            assert_eq!(twice, once, "{raw}");
        }
    }

    #[test]
    fn the_stable_list_is_the_contracts() {
        let stable: Vec<&str> = Kind::ALL.iter().filter(|k| k.facts().stable).map(|k| k.as_str()).collect();
        assert_eq!(stable.len(), 23);
        for k in ["missing_param", "not_found", "rate_limited", "validation_failed", "unknown_tool"] {
            assert!(stable.contains(&k), "{k}");
        }
        for k in ["tool_error", "network_error", "upstream_error", "server_error", "internal_error", "decode_error"] {
            assert!(!stable.contains(&k), "{k} is not the upstream's to claim");
        }
    }

    #[test]
    fn discovery_and_input_kinds_are_the_ones_the_rules_name() {
        let with = |f: fn(KindFacts) -> bool| Kind::ALL.iter().filter(|k| f(k.facts())).map(|k| k.as_str()).collect::<Vec<_>>();
        assert_eq!(with(|f| f.discovery), ["unknown_instance", "unknown_tool", "invalid_code_mode_id", "snippet_not_found"]);
        assert_eq!(with(|f| f.input_error), ["unknown_action", "unknown_subaction", "missing_param", "invalid_param", "validation_failed"]);
        // Every kind ever advised "never repeat" is one the model cannot fix by waiting.
        for k in Kind::ALL {
            let (action, same) = k.facts().advice;
            if same == S::Safe {
                panic!("{k}: no kind is safe to repeat by itself; only dispatched: false makes it so");
            }
            if action == A::RetryLater {
                assert_eq!(same, S::Conditional, "{k}");
            }
        }
    }

    #[test]
    fn host_kinds_must_be_snake_case() {
        assert!(is_well_formed("budget_exceeded"));
        assert!(!is_well_formed(""));
        assert!(!is_well_formed("Budget"));
        assert!(!is_well_formed(&"a".repeat(65)));
    }
}
