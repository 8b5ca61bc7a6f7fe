//! Conversions between `codemode-errors` core values and the types of the
//! `codemode:errors` WIT package (`../wit`).
//!
//! Both sides of the component boundary need them: the guest (`wit-bindgen` types, inside
//! the component) and the host's native engine (`wasmtime::component::bindgen!` types,
//! which answers with the same values without the component). The two generators make
//! distinct types with the same names and fields, so the conversions are written once
//! here, as a macro each crate expands over its own generated module:
//!
//! ```ignore
//! codemode_errors_wit_convert::conversions!(crate::bindings::exports::codemode::errors::api);
//! // defines `from_core` and `to_core` modules in the calling crate
//! ```
//!
//! No rule lives here: typed WIT values become the core's typed reports through the core's
//! own validating constructors, and core values become WIT records field by field.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Re-exported for the macro's expansion, so the calling crate needs no path of its own.
#[doc(hidden)]
pub use codemode_errors as core;

/// Defines `from_core` (core values to WIT values) and `to_core` (WIT values to core
/// values) over the WIT interface module `$wit` (the generated `codemode:errors/api`).
#[macro_export]
macro_rules! conversions {
    ($wit:path) => {
        /// Core values to WIT values.
        #[allow(dead_code)]
        pub mod from_core {
            use $crate::core;
            use $wit as wit;

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
                    secret_keys: p.secret_keys().to_vec(),
                    token_formats: p.token_formats().iter().map(token_format).collect(),
                    allow: p.allow().to_vec(),
                    allow_keys: p.allow_keys().to_vec(),
                }
            }

            fn token_format(f: &core::TokenFormat) -> wit::TokenFormat {
                use core::TokenAlphabet as C;
                use wit::TokenAlphabet as W;
                let alphabet = match f.alphabet {
                    C::Alnum => W::Alnum,
                    C::Base64Url => W::Base64url,
                    C::Base64UrlDot => W::Base64urlDot,
                    C::Base64UrlEq => W::Base64urlEq,
                    C::Word => W::Word,
                    C::AlnumDash => W::AlnumDash,
                    C::UpperAlnum => W::UpperAlnum,
                    C::Hex => W::Hex,
                    C::Base64 => W::Base64,
                    C::TwoSegments => W::TwoSegments,
                };
                wit::TokenFormat { family: f.family.clone(), prefix: f.prefix.clone(), alphabet, min_body_length: f.min_body_length }
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
                    // `ErrorCode` is non-exhaustive. `InvalidArgument` (a value of the wrong type at
                    // an npm entry point) cannot arise behind typed WIT functions; any other code
                    // added to the core needs a WIT case (and a new package version). Until then it
                    // is reported as the most general input error.
                    _ => W::InvalidReport,
                }
            }

            /// A core outcome as the WIT record, with the core's exact JSON.
            pub fn outcome(o: &core::Outcome) -> wit::Outcome {
                let (error_json, json) = o.to_json_parts();
                let error = o.error.as_ref().zip(error_json).map(|(e, json)| call_error_with_json(e, json));
                wit::Outcome { error, breaker: breaker(o.breaker), json }
            }

            /// A core contract object as the WIT record, with the core's exact JSON.
            pub fn call_error(e: &core::CodeModeCallError) -> wit::CallError {
                call_error_with_json(e, e.to_json())
            }

            fn call_error_with_json(e: &core::CodeModeCallError, json: String) -> wit::CallError {
                wit::CallError {
                    contract_version: e.contract_version,
                    kind: e.kind.to_string(),
                    message: e.message.to_string(),
                    tool: e.tool.as_ref().map(ToString::to_string),
                    origin: origin(e.origin),
                    recovery: wit::Recovery {
                        action: action(e.recovery.action),
                        same_arguments: same_arguments(e.recovery.same_arguments),
                        guidance: e.recovery.guidance.to_string(),
                        retry_after_ms: e.recovery.retry_after_ms,
                    },
                    side_effects: side_effects(e.side_effects),
                    original_kind: e.original_kind.as_ref().map(ToString::to_string),
                    kind_source: e.kind_source.map(kind_source),
                    recognized_by: e.recognized_by.as_ref().map(ToString::to_string),
                    cause: e.cause.as_ref().map(ToString::to_string),
                    safety: e.safety.map(annotations),
                    dispatched: e.dispatched,
                    invalid_arguments: e
                        .invalid_arguments
                        .iter()
                        .map(|a| wit::InvalidArgument { path: a.path.to_string(), problem: a.problem.to_string() })
                        .collect(),
                    evidence: e.evidence.as_ref().map(evidence),
                    json,
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
                    message: e.message.to_string(),
                    failure_phase: e.failure_phase.map(|p| match p {
                        P::Input => WP::Input,
                        P::Guest => WP::Guest,
                        P::Bridge => WP::Bridge,
                        P::Host => WP::Host,
                    }),
                    bridge_dispatch_started: e.bridge_dispatch_started,
                    replay_safe: e.replay_safe,
                    location: e.location,
                    tool_error: e.tool_error.as_ref().map(call_error),
                    json: e.to_json(),
                }
            }

            /// A valid exec request as the WIT record.
            pub fn exec_request(r: &core::run::ExecRequest) -> wit::ExecRequest {
                wit::ExecRequest { code: r.code.clone(), restart_safe: r.restart_safe }
            }

            /// A completed run's projection as the WIT record.
            pub fn projection(p: &core::run::Projection) -> wit::Projection {
                wit::Projection { output: p.output.to_string(), value: p.value.clone(), truncated: p.truncated }
            }

            fn evidence(e: &core::Evidence) -> wit::Evidence {
                wit::Evidence {
                    content: e.content.iter().map(core::ContentDescriptor::to_json).collect(),
                    structured_content: e.structured_content.as_ref().map(core::SafeJson::to_json),
                    parsed_error: e.parsed_error.as_ref().map(core::SafeJson::to_json),
                    omitted_content_blocks: e.omitted_content_blocks as u64,
                    redactions: e
                        .redactions
                        .iter()
                        .map(|(family, count)| wit::RedactionCount { family: family.to_string(), count: *count })
                        .collect(),
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
        }

        /// WIT values to core values, through the core's validating constructors, which
        /// check exactly what the report reader checks for the same report as JSON text.
        #[allow(dead_code)]
        pub mod to_core {
            use core::{Failure, FailureReport, ReportError, ToolName, TransportKind, ValidationFailure};
            use $crate::core;
            use $wit as wit;

            /// A WIT policy as a core policy; the core checks every cap's range and every
            /// list entry, in order, as `Policy::from_json` does.
            pub fn policy(p: &wit::Policy) -> Result<core::Policy, ReportError> {
                let caps = [
                    ("max_content_blocks", p.max_content_blocks),
                    ("max_text_chars", p.max_text_chars),
                    ("max_structured_bytes", p.max_structured_bytes),
                    ("max_parsed_error_bytes", p.max_parsed_error_bytes),
                    ("max_error_bytes", p.max_error_bytes),
                    ("max_json_depth", p.max_json_depth),
                    ("max_json_items", p.max_json_items),
                    ("max_json_string_chars", p.max_json_string_chars),
                    ("max_parse_chars", p.max_parse_chars),
                ];
                let mut policy =
                    caps.into_iter().try_fold(core::Policy::default(), |policy, (name, value)| policy.with(name, f64::from(value)))?;
                for name in &p.secret_keys {
                    policy = policy.with_secret_key(name)?;
                }
                for f in &p.token_formats {
                    policy = policy.with_token_format(token_format(f))?;
                }
                for value in &p.allow {
                    policy = policy.with_allowed(value)?;
                }
                for name in &p.allow_keys {
                    policy = policy.with_allowed_key(name)?;
                }
                Ok(policy)
            }

            fn token_format(f: &wit::TokenFormat) -> core::TokenFormat {
                use core::TokenAlphabet as C;
                use wit::TokenAlphabet as W;
                let alphabet = match f.alphabet {
                    W::Alnum => C::Alnum,
                    W::Base64url => C::Base64Url,
                    W::Base64urlDot => C::Base64UrlDot,
                    W::Base64urlEq => C::Base64UrlEq,
                    W::Word => C::Word,
                    W::AlnumDash => C::AlnumDash,
                    W::UpperAlnum => C::UpperAlnum,
                    W::Hex => C::Hex,
                    W::Base64 => C::Base64,
                    W::TwoSegments => C::TwoSegments,
                };
                core::TokenFormat { family: f.family.clone(), prefix: f.prefix.clone(), alphabet, min_body_length: f.min_body_length }
            }

            /// A typed report as the core's report. The tool is checked first, as the report
            /// reader checks the members in that order.
            pub fn report(context: &wit::CallContext, failure: &wit::Failure) -> Result<FailureReport, ReportError> {
                let tool = context.tool.as_deref().map(ToolName::new).transpose()?;
                let hints = &context.annotations;
                let mut annotations = core::Safety::default();
                annotations.read_only_hint = hints.read_only_hint;
                annotations.destructive_hint = hints.destructive_hint;
                annotations.idempotent_hint = hints.idempotent_hint;
                annotations.open_world_hint = hints.open_world_hint;
                let mut report = FailureReport::new(self::failure(failure)?)
                    .with_tool(tool)
                    .with_annotations(annotations)
                    .with_dispatched(context.dispatched);
                if let Some(schema) = &context.input_schema {
                    let schema = payload(schema, "input_schema")?;
                    if schema.as_object().is_none() {
                        let message = format!("must be the tool's inputSchema object, not {}", schema.type_name());
                        return Err(ReportError::new(core::ErrorCode::InvalidReport, "input_schema", message));
                    }
                    let arguments = context.arguments.as_deref().map(|a| payload(a, "arguments")).transpose()?;
                    report = report.with_call(schema, arguments);
                }
                Ok(report)
            }

            fn failure(f: &wit::Failure) -> Result<Failure, ReportError> {
                match f {
                    wit::Failure::ToolResult(result) => Ok(Failure::tool_result(payload(result, "tool_result")?)),
                    wit::Failure::JsonrpcError(e) => {
                        let data = e.data.as_deref().map(|d| payload(d, "jsonrpc_error.data")).transpose()?;
                        Ok(Failure::jsonrpc_error(e.code, &e.message, data))
                    }
                    wit::Failure::Transport(t) => Ok(Failure::transport(transport_kind(t.kind), &t.message)),
                    wit::Failure::Validation(v) => {
                        let mut failure = ValidationFailure::default();
                        failure.arguments = v.arguments.as_deref().map(|a| payload(a, "validation.arguments")).transpose()?;
                        failure.input_schema = v.input_schema.as_deref().map(|s| payload(s, "validation.input_schema")).transpose()?;
                        failure.problems = v.problems.iter().map(|p| core::ArgumentProblem::new(&p.path, &p.problem)).collect();
                        failure.message = v.message.as_deref().map(core::json::JsonBuilder::text);
                        Failure::validation(failure)
                    }
                    wit::Failure::Policy(b) => Failure::policy(&b.kind, &b.message, b.retry_after_ms),
                    wit::Failure::Budget(b) => Failure::budget(&b.kind, &b.message, b.retry_after_ms),
                    wit::Failure::CodeMode(b) => Failure::code_mode(&b.kind, &b.message, b.retry_after_ms),
                }
            }

            fn transport_kind(k: wit::TransportKind) -> TransportKind {
                use wit::TransportKind as W;
                match k {
                    W::Timeout => TransportKind::Timeout,
                    W::ConnectionClosed => TransportKind::ConnectionClosed,
                    W::ConnectionRefused => TransportKind::ConnectionRefused,
                    W::Dns => TransportKind::Dns,
                    W::Tls => TransportKind::Tls,
                    W::ResponseTooLarge => TransportKind::ResponseTooLarge,
                    W::MalformedResponse => TransportKind::MalformedResponse,
                    W::Cancelled => TransportKind::Cancelled,
                    W::Other => TransportKind::Other,
                }
            }

            /// Arbitrary JSON given as text, read by the core's bounded reader; errors name the field.
            fn payload(text: &str, path: &str) -> Result<core::Json, ReportError> {
                core::parse_json(text).map_err(|e| e.within(path))
            }

            /// A WIT engine as the core's.
            pub fn js_engine(e: wit::JsEngine) -> core::run::Engine {
                match e {
                    wit::JsEngine::V8 => core::run::Engine::V8,
                    wit::JsEngine::Quickjs => core::run::Engine::QuickJs,
                    wit::JsEngine::Spidermonkey => core::run::Engine::SpiderMonkey,
                }
            }

            /// A WIT wrapping as the core's.
            pub fn wrapping(w: &wit::Wrapping) -> core::run::Wrapping {
                let wrapping = core::run::Wrapping::new(&w.file, w.lines_before, w.columns_before);
                match w.source_lines {
                    Some(lines) => wrapping.with_source_lines(lines),
                    None => wrapping,
                }
            }
        }
    };
}
