//! A failure report in the shapes of the WIT interface's `call-context` and `failure`
//! (`wit/`), without depending on the host: the host's runner maps these one to one onto
//! its generated types.
//!
//! The typed form applies to a report exactly when [`TypedReport::from_report`] returns
//! `Some`, that is when every member the core reads can be carried by a WIT value with the
//! same meaning. It cannot apply otherwise, on any surface: a member of another JSON type
//! than the WIT field (a number for `tool`, a non-boolean `dispatched`, a fractional or
//! negative `retry_after_ms`), a `null` for `tool`, `annotations` or `dispatched` (a typed
//! caller can only say "absent"; what `null` means there is the text form's to test), a
//! transport kind outside
//! the WIT enum, an unknown failure tag, two failure tags or none: the WIT types make such
//! input unrepresentable, so the checks these vectors test are out of a typed caller's
//! reach. Members the core ignores by contract are dropped: hints of the wrong type
//! ("untrusted: a hint of the wrong type is ignored") and unknown members inside a
//! failure object.

use serde_json::{Map, Value};

/// The WIT `transport-kind` cases, by wire name.
pub const TRANSPORT_KINDS: &[&str] =
    &["timeout", "connection_closed", "connection_refused", "dns", "tls", "response_too_large", "malformed_response", "cancelled", "other"];

/// `call-context` and `failure`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedReport {
    /// `tool`.
    pub tool: Option<String>,
    /// `annotations`.
    pub annotations: Hints,
    /// `dispatched`.
    pub dispatched: Option<bool>,
    /// `input-schema`, as compact JSON.
    pub input_schema: Option<String>,
    /// `arguments`, as compact JSON.
    pub arguments: Option<String>,
    /// The one failure.
    pub failure: TypedFailure,
}

/// `tool-annotations`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

/// `failure`; arbitrary JSON payloads are compact JSON text, as WIT's `json` type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypedFailure {
    /// `tool-result(json)`.
    ToolResult(String),
    /// `jsonrpc-error`.
    JsonrpcError {
        /// `code`.
        code: i64,
        /// `message` (absent: empty, as the core reads it).
        message: String,
        /// `data`.
        data: Option<String>,
    },
    /// `transport`.
    Transport {
        /// One of [`TRANSPORT_KINDS`].
        kind: &'static str,
        /// `message` (absent: empty, as the core reads it).
        message: String,
    },
    /// `validation`.
    Validation {
        /// `arguments`.
        arguments: Option<String>,
        /// `input-schema`.
        input_schema: Option<String>,
        /// `problems`: `(path, problem)`.
        problems: Vec<(String, String)>,
        /// `message`.
        message: Option<String>,
    },
    /// `policy(blocked)`.
    Policy(Blocked),
    /// `budget(blocked)`.
    Budget(Blocked),
    /// `code-mode(blocked)`.
    CodeMode(Blocked),
}

/// `blocked`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    /// `kind`.
    pub kind: String,
    /// `message`.
    pub message: String,
    /// `retry-after-ms`.
    pub retry_after_ms: Option<u64>,
}

impl TypedReport {
    /// The report as typed values, or `None` when the WIT types cannot express it.
    pub fn from_report(report: &Value) -> Option<TypedReport> {
        let members = report.as_object()?;
        let (mut tool, mut annotations, mut dispatched, mut failure) = (None, Hints::default(), None, None);
        let (mut input_schema, mut arguments) = (None, None);
        for (key, value) in members {
            match key.as_str() {
                "tool" => tool = Some(value.as_str()?.to_owned()),
                "annotations" => annotations = hints(value.as_object()?),
                "dispatched" => dispatched = Some(value.as_bool()?),
                // An object, as the report reader takes it; `null` or another type is not
                // what a typed caller would pass.
                "input_schema" => input_schema = Some(value.as_object().map(|_| value.to_string())?),
                "arguments" => arguments = Some(value.to_string()),
                tag if failure.is_none() => failure = Some(typed_failure(tag, value)?),
                _ => return None,
            }
        }
        Some(TypedReport { tool, annotations, dispatched, input_schema, arguments, failure: failure? })
    }
}

fn hints(o: &Map<String, Value>) -> Hints {
    let hint = |k: &str| o.get(k).and_then(Value::as_bool);
    Hints {
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    }
}

fn text(v: &Value) -> String {
    serde_json::to_string(v).expect("a JSON value serializes")
}

/// A string member: `Some(None)` when absent, `None` when present but not a string.
fn optional_string(o: &Map<String, Value>, key: &str) -> Option<Option<String>> {
    match o.get(key) {
        None => Some(None),
        Some(Value::String(s)) => Some(Some(s.clone())),
        Some(_) => None,
    }
}

fn typed_failure(tag: &str, v: &Value) -> Option<TypedFailure> {
    if tag == "tool_result" {
        // Any JSON value: the result's shape is the normalizer's to judge (decode_error).
        return Some(TypedFailure::ToolResult(text(v)));
    }
    let o = v.as_object()?;
    // The WIT records carry only their own fields: a member beyond them (which the report
    // reader refuses) is not something a typed caller can pass.
    let known: &[&str] = match tag {
        "jsonrpc_error" => &["code", "message", "data"],
        "transport" => &["kind", "message"],
        "validation" => &["arguments", "input_schema", "problems", "message"],
        _ => &["kind", "message", "retry_after_ms"],
    };
    if o.keys().any(|k| !known.contains(&k.as_str())) {
        return None;
    }
    Some(match tag {
        "jsonrpc_error" => TypedFailure::JsonrpcError {
            code: o.get("code")?.as_i64()?,
            message: optional_string(o, "message")?.unwrap_or_default(),
            data: o.get("data").map(text),
        },
        "transport" => {
            let kind = o.get("kind")?.as_str()?;
            TypedFailure::Transport {
                kind: TRANSPORT_KINDS.iter().find(|k| **k == kind)?,
                message: optional_string(o, "message")?.unwrap_or_default(),
            }
        }
        "validation" => TypedFailure::Validation {
            arguments: o.get("arguments").map(text),
            input_schema: o.get("input_schema").map(text),
            problems: match o.get("problems") {
                None => Vec::new(),
                Some(p) => p
                    .as_array()?
                    .iter()
                    .map(|p| {
                        let p = p.as_object().filter(|p| p.keys().all(|k| k == "path" || k == "problem"))?;
                        Some((p.get("path")?.as_str()?.to_owned(), p.get("problem")?.as_str()?.to_owned()))
                    })
                    .collect::<Option<_>>()?,
            },
            message: optional_string(o, "message")?,
        },
        "policy" | "budget" | "code_mode" => {
            let blocked = Blocked {
                kind: o.get("kind")?.as_str()?.to_owned(),
                message: o.get("message")?.as_str()?.to_owned(),
                retry_after_ms: match o.get("retry_after_ms") {
                    // The core reads a null delay as none.
                    None | Some(Value::Null) => None,
                    Some(n) => Some(n.as_u64()?),
                },
            };
            match tag {
                "policy" => TypedFailure::Policy(blocked),
                "budget" => TypedFailure::Budget(blocked),
                _ => TypedFailure::CodeMode(blocked),
            }
        }
        _ => return None,
    })
}
