//! Core values to WIT values.

use crate::bindings::exports::codemode::errors::api as wit;
use crate::core;

/// A core policy as the WIT record.
pub fn policy(p: &core::Policy) -> wit::Policy {
    // The core bounds every cap by a `u32` range, so these conversions never saturate.
    let cap = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    wit::Policy {
        max_content_blocks: cap(p.max_content_blocks()),
        max_text_chars: cap(p.max_text_chars()),
        max_structured_bytes: cap(p.max_structured_bytes()),
        max_parsed_error_bytes: cap(p.max_parsed_error_bytes()),
        max_error_bytes: cap(p.max_error_bytes()),
        max_json_depth: cap(p.max_json_depth()),
        max_json_items: cap(p.max_json_items()),
        max_json_string_chars: cap(p.max_json_string_chars()),
        max_parse_chars: cap(p.max_parse_chars()),
    }
}

/// A core input error as the WIT record.
pub fn input_error(e: core::ReportError) -> wit::InputError {
    wit::InputError { code: error_code(e.code()), path: e.path().to_owned(), message: e.message().to_owned() }
}

fn error_code(code: core::ErrorCode) -> wit::ErrorCode {
    use core::ErrorCode as C;
    use wit::ErrorCode as W;
    match code {
        C::InvalidJson => W::InvalidJson,
        C::TooDeep => W::TooDeep,
        C::InvalidReport => W::InvalidReport,
        C::InvalidPolicy => W::InvalidPolicy,
        C::InvalidCallError => W::InvalidCallError,
        C::UnsupportedVersion => W::UnsupportedVersion,
        C::InputTooLarge => W::InputTooLarge,
        // `ErrorCode` is non-exhaustive. `InvalidArgument` (a value of the wrong type at an
        // npm entry point) cannot arise behind typed WIT functions; any other code added to
        // the core needs a WIT case (and a new package version). Until then it is reported
        // as the most general input error.
        _ => W::InvalidReport,
    }
}

/// A core outcome as the WIT record, with the core's exact JSON.
pub fn outcome(o: &core::Outcome) -> wit::Outcome {
    let error = o.error.as_ref().map(call_error);
    let json = core::contract::outcome_json(error.as_ref().map(|e| e.json.as_str()), o.breaker);
    wit::Outcome { error, breaker: breaker(o.breaker), json }
}

/// A core contract object as the WIT record, with the core's exact JSON.
pub fn call_error(e: &core::CodeModeCallError) -> wit::CallError {
    wit::CallError {
        contract_version: e.contract_version,
        kind: e.kind.clone(),
        message: e.message.clone(),
        tool: e.tool.clone(),
        origin: origin(e.origin),
        recovery: wit::Recovery {
            action: action(e.recovery.action),
            same_arguments: same_arguments(e.recovery.same_arguments),
            guidance: e.recovery.guidance.clone(),
            retry_after_ms: e.recovery.retry_after_ms,
        },
        side_effects: side_effects(e.side_effects),
        original_kind: e.original_kind.clone(),
        kind_source: e.kind_source.map(kind_source),
        cause: e.cause.clone(),
        safety: e.safety.map(annotations),
        dispatched: e.dispatched,
        invalid_arguments: e
            .invalid_arguments
            .iter()
            .map(|a| wit::InvalidArgument { path: a.path.clone(), problem: a.problem.clone() })
            .collect(),
        evidence: e.evidence.as_ref().map(evidence),
        json: e.to_json(),
    }
}

/// A core run error as the WIT record, with the core's exact JSON.
pub fn run_error(e: &core::run::RunError) -> wit::RunError {
    use core::run::{FailurePhase as P, RunErrorCode as C};
    use wit::{FailurePhase as WP, RunErrorCode as W};
    wit::RunError {
        code: match e.code {
            C::InvalidInput => W::InvalidInput,
            C::RuntimeUnavailable => W::RuntimeUnavailable,
            C::Aborted => W::Aborted,
            C::Timeout => W::Timeout,
            C::OutputLimitExceeded => W::OutputLimitExceeded,
            C::SnapshotLimitExceeded => W::SnapshotLimitExceeded,
            C::InternalError => W::InternalError,
        },
        message: e.message.clone(),
        failure_phase: e.failure_phase.map(|p| match p {
            P::Bridge => WP::Bridge,
            P::Guest => WP::Guest,
        }),
        bridge_dispatch_started: e.bridge_dispatch_started,
        replay_safe: e.replay_safe,
        location: e.location,
        tool_error: e.tool_error.as_ref().map(call_error),
        json: e.to_json(),
    }
}

fn evidence(e: &core::Evidence) -> wit::Evidence {
    wit::Evidence {
        content: e.content.iter().map(core::Json::to_json).collect(),
        structured_content: e.structured_content.as_ref().map(core::Json::to_json),
        parsed_error: e.parsed_error.as_ref().map(core::Json::to_json),
        omitted_content_blocks: e.omitted_content_blocks as u64,
        redactions: e.redactions.iter().map(|(family, count)| wit::RedactionCount { family: family.clone(), count: *count }).collect(),
    }
}

fn annotations(s: core::Safety) -> wit::ToolAnnotations {
    wit::ToolAnnotations {
        read_only_hint: s.read_only_hint,
        destructive_hint: s.destructive_hint,
        idempotent_hint: s.idempotent_hint,
        open_world_hint: s.open_world_hint,
    }
}

fn origin(o: core::Origin) -> wit::Origin {
    use core::Origin as C;
    use wit::Origin as W;
    match o {
        C::CodeMode => W::CodeMode,
        C::ToolExecution => W::ToolExecution,
        C::UpstreamTransport => W::UpstreamTransport,
        C::Validation => W::Validation,
        C::Policy => W::Policy,
        C::Budget => W::Budget,
    }
}

fn side_effects(s: core::SideEffects) -> wit::SideEffects {
    use core::SideEffects as C;
    use wit::SideEffects as W;
    match s {
        C::NoneExpected => W::NoneExpected,
        C::Possible => W::Possible,
        C::Unknown => W::Unknown,
    }
}

fn action(a: core::RecoveryAction) -> wit::RecoveryAction {
    use core::RecoveryAction as C;
    use wit::RecoveryAction as W;
    match a {
        C::ReviseAndRetry => W::ReviseAndRetry,
        C::RetryLater => W::RetryLater,
        C::Reauthenticate => W::Reauthenticate,
        C::Confirm => W::Confirm,
        C::Rediscover => W::Rediscover,
        C::ReduceWork => W::ReduceWork,
        C::StartDependency => W::StartDependency,
        C::InspectAndEscalate => W::InspectAndEscalate,
        C::DoNotRetry => W::DoNotRetry,
    }
}

fn same_arguments(s: core::SameArguments) -> wit::SameArguments {
    use core::SameArguments as C;
    use wit::SameArguments as W;
    match s {
        C::Safe => W::Safe,
        C::Conditional => W::Conditional,
        C::Discouraged => W::Discouraged,
        C::Never => W::Never,
    }
}

fn kind_source(k: core::KindSource) -> wit::KindSource {
    use core::KindSource as C;
    use wit::KindSource as W;
    match k {
        C::Structured => W::Structured,
        C::Recognized => W::Recognized,
        C::Default => W::Default,
    }
}

fn breaker(b: core::Breaker) -> wit::Breaker {
    use core::Breaker as C;
    use wit::Breaker as W;
    match b {
        C::Success => W::Success,
        C::Failure => W::Failure,
        C::None => W::None,
    }
}
