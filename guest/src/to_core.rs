//! WIT values to core values. A typed report becomes the same bounded JSON tree the core
//! reads from report text, so the core checks it exactly as it checks JSON input.

use crate::bindings::exports::codemode::errors::api as wit;
use crate::core::json::{utf16_len, JsonBuilder};
use crate::core::{self, Json, ReportError, TransportKind};

/// A WIT policy as a core policy; the core checks every cap's range.
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
    caps.into_iter().try_fold(core::Policy::default(), |policy, (name, value)| policy.with(name, f64::from(value)))
}

/// A typed report as the JSON tree of the equivalent report text.
pub fn report(context: &wit::CallContext, failure: &wit::Failure) -> Result<Json, ReportError> {
    let mut members = Vec::with_capacity(4);
    if let Some(tool) = &context.tool {
        members.push(member("tool", string(tool)));
    }
    let hints = [
        ("readOnlyHint", context.annotations.read_only_hint),
        ("destructiveHint", context.annotations.destructive_hint),
        ("idempotentHint", context.annotations.idempotent_hint),
        ("openWorldHint", context.annotations.open_world_hint),
    ];
    let hints: Vec<(String, Json)> = hints.into_iter().filter_map(|(k, v)| Some(member(k, Json::Bool(v?)))).collect();
    if !hints.is_empty() {
        members.push(member("annotations", object(hints)));
    }
    if let Some(d) = context.dispatched {
        members.push(member("dispatched", Json::Bool(d)));
    }
    members.push(self::failure(failure)?);
    Ok(object(members))
}

fn failure(f: &wit::Failure) -> Result<(String, Json), ReportError> {
    Ok(match f {
        wit::Failure::ToolResult(result) => member("tool_result", payload(result, "tool_result")?),
        wit::Failure::JsonrpcError(e) => {
            let mut m =
                vec![member("code", JsonBuilder::number(e.code as f64, "jsonrpc_error.code")?), member("message", string(&e.message))];
            if let Some(data) = &e.data {
                m.push(member("data", payload(data, "jsonrpc_error.data")?));
            }
            member("jsonrpc_error", object(m))
        }
        wit::Failure::Transport(t) => {
            let kind = transport_kind(t.kind).as_str();
            member("transport", object(vec![member("kind", string(kind)), member("message", string(&t.message))]))
        }
        wit::Failure::Validation(v) => member("validation", validation(v)?),
        wit::Failure::Policy(b) => member("policy", blocked(b)),
        wit::Failure::Budget(b) => member("budget", blocked(b)),
        wit::Failure::CodeMode(b) => member("code_mode", blocked(b)),
    })
}

fn validation(v: &wit::ValidationFailure) -> Result<Json, ReportError> {
    let mut m = Vec::with_capacity(4);
    if let Some(arguments) = &v.arguments {
        m.push(member("arguments", payload(arguments, "validation.arguments")?));
    }
    if let Some(schema) = &v.input_schema {
        m.push(member("input_schema", payload(schema, "validation.input_schema")?));
    }
    if !v.problems.is_empty() {
        let problems =
            v.problems.iter().map(|p| object(vec![member("path", string(&p.path)), member("problem", string(&p.problem))])).collect();
        m.push(member("problems", JsonBuilder::array(problems, v.problems.len())));
    }
    if let Some(message) = &v.message {
        m.push(member("message", string(message)));
    }
    Ok(object(m))
}

fn blocked(b: &wit::Blocked) -> Json {
    let mut m = vec![member("kind", string(&b.kind)), member("message", string(&b.message))];
    if let Some(ms) = b.retry_after_ms {
        m.push(member("retry_after_ms", Json::Number(ms as f64)));
    }
    object(m)
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
fn payload(text: &str, path: &str) -> Result<Json, ReportError> {
    core::parse_json(text).map_err(|e| {
        let at = if e.path().is_empty() { path.to_owned() } else { format!("{path}.{}", e.path()) };
        ReportError::new(e.code(), at, e.message())
    })
}

fn string(s: &str) -> Json {
    JsonBuilder::string(s, utf16_len(s))
}

fn member(key: &str, value: Json) -> (String, Json) {
    (key.to_owned(), value)
}

fn object(members: Vec<(String, Json)>) -> Json {
    let total = members.len();
    JsonBuilder::object(members, total)
}
