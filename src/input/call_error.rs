//! The consumer side: read a contract object back from `Error.message` as a tolerant
//! reader (rule 14): unknown fields are ignored, a legacy `{kind, message}` payload is
//! upgraded, and a newer contract version is refused with a clear error.
//!
//! The object is untrusted whoever wrote it, so every string it holds goes through the
//! text pipeline again (stripped, defanged, redacted), a kind that is no identifier
//! becomes `tool_error`, and structured evidence is rendered again with secret-named
//! members masked. None of this changes the core's own output, which reads back byte for
//! byte (rule 6).

use crate::error::{ErrorCode, ReportError};
use crate::evidence::{render_json, JsonCaps};
use crate::json::{parse_json, utf16_len, Json};
use crate::rules::kinds::{canonicalize, clean_kind, Kind, MAX_ORIGINAL_KIND};
use crate::rules::recovery::{advice_for, guidance};
use crate::text::refusal;
use crate::text::{clean_text, CustomRules, Redactions, SafeText};
use crate::wire::{
    CodeModeCallError, ContentDescriptor, Evidence, InvalidArgument, KindSource, Origin, Recovery, RecoveryAction, ResourceBody, Safety,
    SameArguments, ShownText, SideEffects, CONTRACT_VERSION,
};

/// Parse the JSON held in a rejected promise's `Error.message`.
///
/// ```
/// let legacy = r#"{"kind":"server_error","message":"boom","extra":1}"#;
/// let e = codemode_errors::parse_call_error(legacy).unwrap();
/// assert_eq!(e.kind, "tool_error");
/// assert_eq!(e.original_kind.as_deref(), Some("server_error"));
/// let newer = r#"{"contract_version":2,"kind":"x","message":"m"}"#;
/// assert_eq!(codemode_errors::parse_call_error(newer).unwrap_err().code(), codemode_errors::ErrorCode::UnsupportedVersion);
/// ```
pub fn parse_call_error(message: &str) -> Result<CodeModeCallError, ReportError> {
    call_error_from_value(&message_json(message)?)
}

/// `Error.message` text read as JSON; not JSON is an `invalid_call_error`.
pub(crate) fn message_json(message: &str) -> Result<Json, ReportError> {
    parse_json(message)
        .map_err(|e| ReportError::new(ErrorCode::InvalidCallError, e.path(), format!("Error.message is not JSON: {}", e.message())))
}

/// Read a contract object from a bounded JSON value.
///
/// ```
/// use codemode_errors::{call_error_from_value, parse_json};
/// let value = parse_json(r#"{"kind":"not_found","message":"no such file","tool":"fs::read_file"}"#).unwrap();
/// let error = call_error_from_value(&value).unwrap(); // a legacy payload, upgraded
/// assert_eq!((error.contract_version, error.kind.as_str()), (1, "not_found"));
/// assert_eq!(error.recovery.action.as_str(), "rediscover"); // look up what exists
/// ```
pub fn call_error_from_value(value: &Json) -> Result<CodeModeCallError, ReportError> {
    read_call_error(value, UNCAPPED, CustomRules::none())
}

/// Read a contract object, every text whole, cleaned by the built-in rules and `custom`'s
/// (as the normalizer that wrote it under a policy cleaned them).
pub(crate) fn call_error_under(value: &Json, custom: &CustomRules) -> Result<CodeModeCallError, ReportError> {
    read_call_error(value, UNCAPPED, custom)
}

/// The cap that reads every text whole (the reader's input limits still bound them).
const UNCAPPED: usize = usize::MAX / 2;

/// Longest text of a field the size cap cannot shrink (message, guidance), in UTF-16
/// units, when the object is read for nesting: above anything the core composes, and
/// small enough that the fields every object keeps fit the default size cap in bytes.
const MAX_REQUIRED_TEXT: usize = 2048;

/// Longest tool name kept, in UTF-16 units (the report reader accepts 256).
const MAX_TOOL_TEXT: usize = 256;

/// Read a contract object, each text capped at `cap` UTF-16 units (a cut ends in `…`) and
/// cleaned by the built-in rules and `custom`'s.
pub(crate) fn read_call_error(value: &Json, cap: usize, custom: &CustomRules) -> Result<CodeModeCallError, ReportError> {
    if value.as_object().is_none() {
        return Err(bad("", format!("a call error is a JSON object, not {}", value.type_name())));
    }
    let required = if cap == UNCAPPED { cap } else { cap.min(MAX_REQUIRED_TEXT) };
    let mut reader = Reader { cap, required, custom, counts: Redactions::default() };
    match value.get("contract_version") {
        None | Some(Json::Null) => reader.legacy(value),
        Some(v) => match v.as_i64() {
            Some(n) if n > i64::from(CONTRACT_VERSION) => Err(ReportError::new(
                ErrorCode::UnsupportedVersion,
                "contract_version",
                format!("contract_version {n} is newer than this reader understands ({CONTRACT_VERSION}); upgrade codemode-errors"),
            )),
            Some(n) if n == i64::from(CONTRACT_VERSION) => reader.version_one(value),
            _ => Err(bad("contract_version", "must be a positive integer")),
        },
    }
}

fn bad(path: &str, message: impl Into<String>) -> ReportError {
    refusal(ErrorCode::InvalidCallError, path, message)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn required<'a>(v: &'a Json, key: &str, path: &str) -> Result<&'a str, ReportError> {
    match v.get(key) {
        Some(Json::String(t)) if !t.head().is_empty() => Ok(t.head()),
        Some(Json::String(_)) => Err(bad(&join(path, key), "must not be empty")),
        Some(other) => Err(bad(&join(path, key), format!("must be a string, not {}", other.type_name()))),
        None => Err(bad(&join(path, key), "is required")),
    }
}

fn wire<T>(v: &Json, key: &str, path: &str, from: fn(&str) -> Option<T>) -> Result<T, ReportError> {
    let s = required(v, key, path)?;
    from(s).ok_or_else(|| bad(&join(path, key), format!("unknown value {s:?}")))
}

fn count(v: &Json) -> Option<u64> {
    v.as_i64().and_then(|n| u64::try_from(n).ok())
}

/// Reads one object: every text through the pipeline, capped at `cap`.
struct Reader<'r> {
    cap: usize,
    /// The cap of the fields the size cap cannot shrink.
    required: usize,
    custom: &'r CustomRules,
    counts: Redactions,
}

impl Reader<'_> {
    fn clean(&mut self, text: &str) -> SafeText {
        clean_text(text, self.cap, self.custom, &mut self.counts)
    }

    /// A required text (message, guidance), capped at the required fields' cap. A text
    /// that sanitizing leaves empty (only invisible or control characters) is refused like
    /// an empty one: the schema wants these texts non-empty, and there is nothing to show.
    fn text(&mut self, v: &Json, key: &str, path: &str) -> Result<SafeText, ReportError> {
        let raw = required(v, key, path)?;
        let text = clean_text(raw, self.required, self.custom, &mut self.counts);
        if text.is_empty() {
            return Err(bad(&join(path, key), "holds only characters that sanitizing removes"));
        }
        Ok(text)
    }

    fn optional(&mut self, v: &Json, key: &str) -> Option<SafeText> {
        v.get(key).and_then(Json::as_str).map(|s| self.clean(s))
    }

    /// The tool, cleaned a part at a time as the normalizer cleans it (so a redaction does
    /// not swallow its `::`) and cut to [`MAX_TOOL_TEXT`] units, kept only when it still
    /// reads `namespace::name` (the schema's pattern). One rule for every version read, so
    /// an object upgraded from a pre-contract payload reads back as it was written.
    fn tool(&mut self, v: &Json) -> Option<SafeText> {
        let raw = v.get("tool").and_then(Json::as_str)?;
        Some(crate::text::qualified_label(raw, MAX_TOOL_TEXT, self.custom, &mut self.counts)).filter(|t| qualified(t))
    }

    /// The kind, when it is an identifier the pipeline leaves as it is; otherwise
    /// `tool_error`, with the raw value, cleaned, as the original kind.
    fn kind(&mut self, raw: &str) -> (SafeText, Option<SafeText>) {
        match clean_kind(raw, self.custom) {
            Some(kind) => (kind, None),
            None => {
                let original = self.clean(raw);
                let cut = crate::text::cut_safe(&original, MAX_ORIGINAL_KIND, self.custom);
                (Kind::ToolError.name(), Some(cut))
            }
        }
    }

    fn version_one(&mut self, v: &Json) -> Result<CodeModeCallError, ReportError> {
        let r =
            v.get("recovery").filter(|r| r.as_object().is_some()).ok_or_else(|| bad("recovery", "is required and must be an object"))?;
        let recovery = Recovery {
            action: wire(r, "action", "recovery", RecoveryAction::from_wire)?,
            same_arguments: wire(r, "same_arguments", "recovery", SameArguments::from_wire)?,
            guidance: self.text(r, "guidance", "recovery")?,
            retry_after_ms: r.get("retry_after_ms").and_then(count),
        };
        let safety = v.get("safety").map(|s| Safety {
            read_only_hint: s.get("read_only_hint").and_then(Json::as_bool),
            destructive_hint: s.get("destructive_hint").and_then(Json::as_bool),
            idempotent_hint: s.get("idempotent_hint").and_then(Json::as_bool),
            open_world_hint: s.get("open_world_hint").and_then(Json::as_bool),
        });
        let mut invalid_arguments = Vec::new();
        for p in v.get("invalid_arguments").and_then(Json::as_array).map(|a| a.items()).unwrap_or_default() {
            if let (Some(path), Some(problem)) = (p.get("path").and_then(Json::as_str), p.get("problem").and_then(Json::as_str)) {
                // A path that reads as nothing names no argument (the contract's schema
                // requires a visible character): left out, as the normalizer leaves it out.
                let argument = InvalidArgument::new(self.clean(path), self.clean(problem));
                if !argument.path.trim().is_empty() {
                    invalid_arguments.push(argument);
                }
            }
        }
        let raw_kind = required(v, "kind", "")?;
        let message = self.text(v, "message", "")?;
        let (kind, renamed) = self.kind(raw_kind);
        let original_kind = match renamed {
            Some(original) => Some(original),
            None => self.optional(v, "original_kind").map(|k| crate::text::cut_safe(&k, MAX_ORIGINAL_KIND, self.custom)),
        };
        Ok(CodeModeCallError {
            contract_version: CONTRACT_VERSION,
            kind,
            message,
            tool: self.tool(v),
            origin: wire(v, "origin", "", Origin::from_wire)?,
            recovery,
            side_effects: wire(v, "side_effects", "", SideEffects::from_wire)?,
            original_kind,
            kind_source: v.get("kind_source").and_then(Json::as_str).and_then(KindSource::from_wire),
            recognized_by: v.get("recognized_by").and_then(Json::as_str).and_then(SafeText::identifier),
            cause: self.optional(v, "cause"),
            safety,
            dispatched: v.get("dispatched").and_then(Json::as_bool),
            invalid_arguments,
            evidence: v.get("evidence").map(|e| self.evidence(e)),
        })
    }

    fn evidence(&mut self, e: &Json) -> Evidence {
        let content = e.get("content").and_then(Json::as_array).map(|a| a.items()).unwrap_or_default();
        let structured = |reader: &mut Reader, key: &str| {
            e.get(key)
                .map(|v| render_json(v, JsonCaps { string_chars: reader.cap, ..JsonCaps::unbounded() }, reader.custom, &mut reader.counts))
        };
        let mut redactions = Vec::new();
        for (family, n) in e.get("redactions").and_then(Json::as_object).map(|o| o.items()).unwrap_or_default() {
            if let Some(n) = count(n) {
                redactions.push((self.clean(family), n));
            }
        }
        Evidence {
            content: content.iter().filter_map(|d| self.descriptor(d)).collect(),
            structured_content: structured(self, "structured_content"),
            parsed_error: structured(self, "parsed_error"),
            omitted_content_blocks: e.get("omitted_content_blocks").and_then(count).unwrap_or(0) as usize,
            redactions,
        }
    }

    /// A content descriptor read back: the members its type defines, each of the right
    /// type; anything else is ignored (rule 14). A value without a string `type` is no
    /// descriptor.
    fn descriptor(&mut self, v: &Json) -> Option<ContentDescriptor> {
        let bytes = |v: &Json| v.get("encoded_bytes").and_then(count).unwrap_or(0);
        let shown = |reader: &mut Reader, v: &Json| {
            let raw = v.get("text").and_then(Json::as_str)?;
            let cut = v.get("truncated").and_then(Json::as_bool) == Some(true);
            let original = v.get("original_length").and_then(count).unwrap_or(utf16_len(raw) as u64);
            Some(ShownText { text: reader.clean(raw), original_length: cut.then_some(original) })
        };
        let block_type = v.get("type")?.as_str()?;
        // A block of a type the core does not know is written `content_omitted`, whatever
        // its type reads as once cleaned (`te\u0000xt` reads `text`).
        if v.get("content_omitted").and_then(Json::as_bool) == Some(true) {
            return Some(ContentDescriptor::Unknown { block_type: self.clean(block_type) });
        }
        Some(match block_type {
            "text" => ContentDescriptor::Text(shown(self, v).unwrap_or_default()),
            "image" => ContentDescriptor::Image { mime_type: self.optional(v, "mime_type"), encoded_bytes: bytes(v) },
            "audio" => ContentDescriptor::Audio { mime_type: self.optional(v, "mime_type"), encoded_bytes: bytes(v) },
            "resource" => {
                let body = match shown(self, v) {
                    Some(t) => ResourceBody::Text(t),
                    None if v.get("encoded_bytes").is_some() => ResourceBody::Blob { encoded_bytes: bytes(v) },
                    None => ResourceBody::Empty,
                };
                ContentDescriptor::Resource { uri: self.optional(v, "uri"), mime_type: self.optional(v, "mime_type"), body }
            }
            "resource_link" => ContentDescriptor::ResourceLink {
                uri: self.optional(v, "uri"),
                name: self.optional(v, "name"),
                mime_type: self.optional(v, "mime_type"),
            },
            other => ContentDescriptor::Unknown { block_type: self.clean(other) },
        })
    }

    /// Upgrade a pre-contract `{kind, message}` payload: the kind is canonicalized like any
    /// untrusted kind, the origin is taken as a tool failure and side effects as unknown.
    fn legacy(&mut self, v: &Json) -> Result<CodeModeCallError, ReportError> {
        let raw_kind = required(v, "kind", "")?;
        let message = self.text(v, "message", "")?;
        let canonical = canonicalize(raw_kind, self.custom, &mut self.counts);
        let (action, same) = advice_for(&canonical.kind, Origin::ToolExecution);
        let tool = self.tool(v);
        Ok(CodeModeCallError {
            contract_version: CONTRACT_VERSION,
            kind: canonical.kind,
            message,
            tool,
            origin: Origin::ToolExecution,
            recovery: Recovery { action, same_arguments: same, guidance: guidance(action, same, None), retry_after_ms: None },
            side_effects: SideEffects::Unknown,
            original_kind: canonical.original,
            kind_source: None,
            recognized_by: None,
            cause: None,
            safety: None,
            dispatched: None,
            invalid_arguments: Vec::new(),
            evidence: None,
        })
    }
}

/// Whether a tool name reads `namespace::name` with both parts present, on one line (the
/// reference schema's `^.+::.+$`).
fn qualified(tool: &str) -> bool {
    tool.find("::").is_some_and(|at| at > 0 && at + 2 < tool.len()) && !tool.contains(['\n', '\r'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Normalizer;

    #[test]
    fn round_trips_what_the_normalizer_emits() {
        let report = r#"{"tool":"a::b","annotations":{"readOnlyHint":true},"dispatched":true,"tool_result":{"content":[{"type":"text","text":"{\"kind\":\"not_found\",\"message\":\"no such issue\"}"}],"structuredContent":{"x":1},"isError":true}}"#;
        let e = Normalizer::default().normalize_json(report).unwrap().error.unwrap();
        let back = parse_call_error(&e.to_json()).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let text = r#"{"contract_version":1,"kind":"timeout","message":"m","origin":"upstream_transport","recovery":{"action":"retry_later","same_arguments":"conditional","guidance":"g","future":true},"side_effects":"possible","future_field":{"a":1}}"#;
        let e = parse_call_error(text).unwrap();
        assert_eq!(e.kind, "timeout");
    }

    #[test]
    fn bad_payloads_say_what_is_wrong() {
        assert_eq!(parse_call_error("not json").unwrap_err().code(), ErrorCode::InvalidCallError);
        assert_eq!(parse_call_error("[]").unwrap_err().code(), ErrorCode::InvalidCallError);
        let e = parse_call_error(r#"{"contract_version":1,"kind":"x","message":"m","origin":"mars","recovery":{"action":"retry_later","same_arguments":"safe","guidance":"g"},"side_effects":"possible"}"#).unwrap_err();
        assert_eq!(e.path(), "origin");
        let e = parse_call_error(r#"{"contract_version":0,"kind":"x","message":"m"}"#).unwrap_err();
        assert_eq!(e.path(), "contract_version");
    }

    /// The schema's non-empty texts stay non-empty when sanitizing removes every character
    /// (found by the fuzzer: an argument problem `""` was written back empty).
    #[test]
    fn texts_the_schema_wants_non_empty_stay_non_empty() {
        let with = |message: &str, guidance: &str, problem: &str| {
            format!(
                r#"{{"contract_version":1,"kind":"k","message":"{message}","origin":"validation","recovery":{{"action":"revise_and_retry","same_arguments":"discouraged","guidance":"{guidance}"}},"side_effects":"none_expected","invalid_arguments":[{{"path":"a","problem":"{problem}"}}]}}"#
            )
        };
        for problem in ["", "\\u200b", "\\u0000\\u202e"] {
            let e = parse_call_error(&with("m", "g", problem)).unwrap();
            assert_eq!(e.invalid_arguments[0].problem, crate::wire::call_error::PLACEHOLDER_PROBLEM, "{problem}");
        }
        let e = parse_call_error(&with("\\u200b\\u0007", "g", "p")).unwrap_err();
        assert_eq!((e.code(), e.path()), (ErrorCode::InvalidCallError, "message"));
        let e = parse_call_error(&with("m", "\\u2066", "p")).unwrap_err();
        assert_eq!(e.path(), "recovery.guidance");
    }

    /// A pre-contract payload's tool is cut like a versioned one's, so the upgraded object
    /// reads back byte for byte (found by the fuzzer: a 257-unit tool was kept whole, and
    /// cut on the second read).
    #[test]
    fn a_legacy_tool_is_cut_like_a_versioned_one() {
        let tool = format!("graph::{}", "x".repeat(300));
        let once = parse_call_error(&format!(r#"{{"kind":"tool_error","message":"m","tool":"{tool}"}}"#)).unwrap();
        let kept = once.tool.as_deref().unwrap();
        assert_eq!(kept.encode_utf16().count(), MAX_TOOL_TEXT);
        let json = once.to_json();
        assert_eq!(parse_call_error(&json).unwrap().to_json(), json);
    }
}
