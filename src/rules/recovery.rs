//! Recovery advice and side effects (rules 11-13), as tables keyed by kind.

use crate::rules::kinds::{facts_of, Advice};
use crate::text::{SafeText, SafeTextBuilder};
use crate::wire::{Origin, Recovery, RecoveryAction as A, Safety, SameArguments as S, SideEffects};

/// Advice for a kind not in the table, by origin.
pub(crate) fn default_advice(origin: Origin) -> Advice {
    match origin {
        Origin::Policy => (A::DoNotRetry, S::Never),
        Origin::Budget => (A::ReduceWork, S::Never),
        Origin::UpstreamTransport => (A::RetryLater, S::Conditional),
        Origin::Validation | Origin::ToolExecution => (A::ReviseAndRetry, S::Discouraged),
        Origin::CodeMode => (A::InspectAndEscalate, S::Discouraged),
    }
}

/// Advice for `kind`: the kind table's, or by origin for a kind of the host's own.
pub(crate) fn advice_for(kind: &str, origin: Origin) -> Advice {
    facts_of(kind).map_or_else(|| default_advice(origin), |f| f.advice)
}

/// The facts recovery advice is computed from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AdviceInput<'a> {
    /// Canonical kind.
    pub kind: &'a str,
    /// Origin.
    pub origin: Origin,
    /// A recognition rule's own advice, which replaces the kind's.
    pub override_advice: Option<Advice>,
    /// The tool's annotations (untrusted).
    pub safety: Safety,
    /// The host's trusted dispatch fact.
    pub dispatched: Option<bool>,
    /// Known wait before retrying.
    pub retry_after_ms: Option<u64>,
}

/// Compute recovery advice. Annotations may raise `discouraged` to `conditional`, never to
/// `safe`, and only when the call itself may have been right: not for a validation
/// failure or a kind that says the input was wrong (the same call fails the same way,
/// whatever the tool's hints). Only `dispatched: false` makes a transient failure `safe`
/// to repeat.
pub(crate) fn recovery(input: AdviceInput<'_>) -> Recovery {
    let (action, mut same) = input.override_advice.unwrap_or_else(|| advice_for(input.kind, input.origin));
    let hinted_repeatable = input.safety.read_only_hint == Some(true) || input.safety.idempotent_hint == Some(true);
    let input_was_wrong = input.origin == Origin::Validation || facts_of(input.kind).is_some_and(|f| f.input_error);
    if same == S::Discouraged && hinted_repeatable && !input_was_wrong {
        same = S::Conditional;
    }
    if action == A::RetryLater && input.dispatched == Some(false) {
        same = S::Safe;
    }
    Recovery { action, same_arguments: same, guidance: guidance(action, same, input.retry_after_ms), retry_after_ms: input.retry_after_ms }
}

/// Side effects: conservative (rule 12). Only facts lower them: the call never left the
/// gateway, it was stopped before it ran, or the tool says it is read-only.
pub(crate) fn side_effects(origin: Origin, kind: &str, safety: Safety, dispatched: Option<bool>) -> SideEffects {
    if dispatched == Some(false) {
        return SideEffects::NoneExpected;
    }
    match origin {
        Origin::Validation | Origin::Policy | Origin::Budget => SideEffects::NoneExpected,
        Origin::CodeMode if facts_of(kind).is_some_and(|f| f.discovery) => SideEffects::NoneExpected,
        Origin::CodeMode => SideEffects::Unknown,
        Origin::ToolExecution | Origin::UpstreamTransport => {
            if safety.read_only_hint == Some(true) {
                SideEffects::NoneExpected
            } else {
                SideEffects::Possible
            }
        }
    }
}

/// The guidance sentence for an action, adjusted for whether the exact call may be repeated.
pub(crate) fn guidance(action: A, same: S, retry_after_ms: Option<u64>) -> SafeText {
    let base = match action {
        A::ReviseAndRetry => "Read the evidence, change the arguments or the approach, then call again.",
        A::RetryLater => "The failure looks transient: wait, then try again.",
        A::Reauthenticate => "Credentials are missing, invalid or expired; the user must sign in again before this tool can work.",
        A::Confirm => "This call needs explicit confirmation from the user; ask for it first.",
        A::Rediscover => "The tool or object named does not exist; look up what is available and use a real name.",
        A::ReduceWork => "The call went over a size or budget limit; ask for less (fewer items, a smaller range, pagination).",
        A::StartDependency => "A dependency this call needs is not running; it must be started before the call can work.",
        A::InspectAndEscalate => {
            "Something outside the call's control failed; report the error with its evidence instead of retrying in a loop."
        }
        A::DoNotRetry => "The call is not permitted or was cancelled; choose another approach or ask the user.",
    };
    let mut guidance = SafeTextBuilder::with_capacity(256);
    guidance.literal(base);
    if let Some(ms) = retry_after_ms.filter(|&ms| ms > 0 && action == A::RetryLater) {
        guidance.literal(" Wait at least ").number(ms).literal(" ms.");
    }
    let repeat = match same {
        S::Safe => " Repeating the exact call is safe: it never reached the tool.",
        S::Conditional => " Repeat the exact call only after checking that the first attempt had no effect you would duplicate.",
        S::Discouraged => " Repeating the identical call will most likely fail the same way.",
        S::Never => " Do not repeat the identical call.",
    };
    guidance.literal(repeat).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(kind: &str, origin: Origin) -> AdviceInput<'_> {
        AdviceInput { kind, origin, override_advice: None, safety: Safety::default(), dispatched: None, retry_after_ms: None }
    }

    #[test]
    fn families_follow_the_contract_table() {
        let r = recovery(input("missing_param", Origin::Validation));
        assert_eq!((r.action, r.same_arguments), (A::ReviseAndRetry, S::Discouraged));
        let r = recovery(input("not_found", Origin::ToolExecution));
        assert_eq!((r.action, r.same_arguments), (A::Rediscover, S::Never));
        let r = recovery(input("rate_limited", Origin::ToolExecution));
        assert_eq!((r.action, r.same_arguments), (A::RetryLater, S::Conditional));
        let r = recovery(input("oauth_needs_reauth", Origin::ToolExecution));
        assert_eq!((r.action, r.same_arguments), (A::Reauthenticate, S::Never));
        let r = recovery(input("cancelled", Origin::UpstreamTransport));
        assert_eq!((r.action, r.same_arguments), (A::DoNotRetry, S::Never));
        let r = recovery(input("internal_error", Origin::CodeMode));
        assert_eq!((r.action, r.same_arguments), (A::InspectAndEscalate, S::Discouraged));
    }

    #[test]
    fn hints_raise_discouraged_to_conditional_never_to_safe() {
        let mut i = input("tool_error", Origin::ToolExecution);
        i.safety.read_only_hint = Some(true);
        assert_eq!(recovery(i).same_arguments, S::Conditional);
        let mut i = input("timeout", Origin::UpstreamTransport);
        i.safety.idempotent_hint = Some(true);
        assert_eq!(recovery(i).same_arguments, S::Conditional);
        // Arguments that failed validation fail the same way again, read-only or not.
        for (kind, origin) in
            [("missing_param", Origin::Validation), ("validation_failed", Origin::Validation), ("invalid_param", Origin::ToolExecution)]
        {
            let mut i = input(kind, origin);
            i.safety.read_only_hint = Some(true);
            i.safety.idempotent_hint = Some(true);
            let r = recovery(i);
            assert_eq!(r.same_arguments, S::Discouraged, "{kind}");
            assert!(!r.guidance.contains("only after checking"), "{kind}: {}", r.guidance);
        }
        let mut i = input("forbidden", Origin::Policy);
        i.safety.read_only_hint = Some(true);
        assert_eq!(recovery(i).same_arguments, S::Never);
    }

    #[test]
    fn only_an_undispatched_transient_failure_is_safe() {
        let mut i = input("timeout", Origin::UpstreamTransport);
        i.dispatched = Some(false);
        assert_eq!(recovery(i).same_arguments, S::Safe);
        let mut i = input("tool_error", Origin::ToolExecution);
        i.dispatched = Some(false);
        assert_eq!(recovery(i).same_arguments, S::Discouraged);
    }

    #[test]
    fn side_effects_are_conservative() {
        let none = Safety::default();
        let ro = Safety { read_only_hint: Some(true), ..Safety::default() };
        assert_eq!(side_effects(Origin::ToolExecution, "tool_error", none, None), SideEffects::Possible);
        assert_eq!(side_effects(Origin::ToolExecution, "tool_error", ro, None), SideEffects::NoneExpected);
        assert_eq!(side_effects(Origin::UpstreamTransport, "timeout", none, Some(true)), SideEffects::Possible);
        assert_eq!(side_effects(Origin::UpstreamTransport, "timeout", none, Some(false)), SideEffects::NoneExpected);
        assert_eq!(side_effects(Origin::CodeMode, "internal_error", none, None), SideEffects::Unknown);
        assert_eq!(side_effects(Origin::CodeMode, "unknown_tool", none, None), SideEffects::NoneExpected);
        assert_eq!(side_effects(Origin::Budget, "budget_exceeded", none, None), SideEffects::NoneExpected);
    }

    #[test]
    fn guidance_states_the_wait_and_the_repeat_rule() {
        let g = guidance(A::RetryLater, S::Conditional, Some(1500));
        assert!(g.contains("1500 ms"), "{g}");
        assert!(g.contains("only after checking"), "{g}");
    }
}
