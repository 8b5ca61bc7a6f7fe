//! The wire types of contract version 1: the error object a sandbox rejects with, and the
//! outcome a host receives. Serialization is hand-written so the bytes are fixed: compact,
//! one key order, optional fields omitted (never `null`).

use crate::json::{write_json, write_number, write_string, ByteCount, Json, JsonSink};

/// The contract version this crate emits and the highest it reads.
pub const CONTRACT_VERSION: u32 = 1;

/// Declares a wire enum: its variants, their snake_case names, and lookups both ways.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $wire:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in schema order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The wire name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }

            /// The value with this wire name.
            pub fn from_wire(s: &str) -> Option<Self> {
                match s {
                    $($wire => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

wire_enum! {
    /// Where a failure came from (contract rule 3 and the classification section).
    Origin {
        /// Another sandbox or broker failure, including tool discovery.
        CodeMode = "code_mode",
        /// The upstream MCP server completed the call with `isError: true` or answered with an error.
        ToolExecution = "tool_execution",
        /// No complete result arrived because the connection to the upstream failed.
        UpstreamTransport = "upstream_transport",
        /// Input or output validation rejected the call.
        Validation = "validation",
        /// Authorization, scope or confirmation blocked the call.
        Policy = "policy",
        /// A size, fan-out or quota limit blocked the call.
        Budget = "budget",
    }
}

wire_enum! {
    /// Whether the failed call may have changed anything (rule 12).
    SideEffects {
        /// The call cannot have run, or the tool declares itself read-only.
        NoneExpected = "none_expected",
        /// The call may have partially completed.
        Possible = "possible",
        /// Nothing is known either way.
        Unknown = "unknown",
    }
}

wire_enum! {
    /// The next move the model should make (rule 11).
    RecoveryAction {
        /// Inspect the evidence, change the call, then retry.
        ReviseAndRetry = "revise_and_retry",
        /// The failure is transient; wait, then retry.
        RetryLater = "retry_later",
        /// Credentials are missing or expired.
        Reauthenticate = "reauthenticate",
        /// A person must confirm before the call may run.
        Confirm = "confirm",
        /// The tool or object does not exist; look up what does.
        Rediscover = "rediscover",
        /// The call asked for too much; ask for less.
        ReduceWork = "reduce_work",
        /// A dependency (runtime, server) must be started first.
        StartDependency = "start_dependency",
        /// Something is broken that the model cannot fix; report it.
        InspectAndEscalate = "inspect_and_escalate",
        /// Stop: retrying cannot help.
        DoNotRetry = "do_not_retry",
    }
}

wire_enum! {
    /// Whether repeating the exact same call is appropriate (rule 11).
    SameArguments {
        /// Repeating is safe: the call provably never left the gateway and the failure is transient.
        Safe = "safe",
        /// Repeating may be fine after the stated condition (a wait, a check of side effects).
        Conditional = "conditional",
        /// Repeating unchanged will most likely fail the same way.
        Discouraged = "discouraged",
        /// Repeating unchanged must not be done.
        Never = "never",
    }
}

wire_enum! {
    /// How the canonical kind was decided (an additive field of this implementation).
    KindSource {
        /// From a structured signal: an error object, a JSON-RPC code, or the host's own tag.
        Structured = "structured",
        /// From well-known failure text (SDK messages, HTTP status lines, errno names).
        Recognized = "recognized",
        /// Nothing better was known.
        Default = "default",
    }
}

wire_enum! {
    /// What a failure means for the upstream's circuit breaker (rule 4).
    Breaker {
        /// The upstream answered: count a success.
        Success = "success",
        /// The upstream could not be reached or did not answer: count a failure.
        Failure = "failure",
        /// The upstream was not involved: count nothing.
        None = "none",
    }
}

/// Recovery advice (rules 11-13).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Recovery {
    /// The next move.
    pub action: RecoveryAction,
    /// Whether repeating the exact call is appropriate.
    pub same_arguments: SameArguments,
    /// Authoritative advice in a sentence or two.
    pub guidance: String,
    /// How long to wait before retrying, when known.
    pub retry_after_ms: Option<u64>,
}

/// The tool's MCP annotations, echoed as untrusted hints (rule 13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Safety {
    /// `readOnlyHint`
    pub read_only_hint: Option<bool>,
    /// `destructiveHint`
    pub destructive_hint: Option<bool>,
    /// `idempotentHint`
    pub idempotent_hint: Option<bool>,
    /// `openWorldHint`
    pub open_world_hint: Option<bool>,
}

impl Safety {
    /// Whether no hint is set.
    pub fn is_empty(&self) -> bool {
        self.read_only_hint.is_none() && self.destructive_hint.is_none() && self.idempotent_hint.is_none() && self.open_world_hint.is_none()
    }
}

/// One argument problem: which argument (a dotted path, `[i]` for items) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidArgument {
    /// The argument, e.g. `title` or `labels[2]`; empty for the arguments object itself.
    pub path: String,
    /// What is wrong, e.g. `missing required argument`.
    pub problem: String,
}

impl InvalidArgument {
    /// A problem with the argument at `path`.
    pub fn new(path: impl Into<String>, problem: impl Into<String>) -> Self {
        InvalidArgument { path: path.into(), problem: problem.into() }
    }
}

/// Sanitized, redacted, capped evidence from the failure (rules 7-10).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Evidence {
    /// One descriptor per content block, in order.
    pub content: Vec<Json>,
    /// The redacted, capped `structuredContent`.
    pub structured_content: Option<Json>,
    /// The structured error object found in the result, redacted and capped.
    pub parsed_error: Option<Json>,
    /// Content blocks not shown (beyond the cap, or dropped to fit the size cap).
    pub omitted_content_blocks: usize,
    /// How many redactions each family made, by family name, sorted.
    pub redactions: Vec<(String, u64)>,
}

impl Evidence {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty()
            && self.structured_content.is_none()
            && self.parsed_error.is_none()
            && self.omitted_content_blocks == 0
            && self.redactions.is_empty()
    }
}

/// The contract object: what `Error.message` holds as JSON.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CodeModeCallError {
    /// Always [`CONTRACT_VERSION`] for objects this crate builds.
    pub contract_version: u32,
    /// The canonical kind (rule 1).
    pub kind: String,
    /// A standalone, model-readable account of the failure (rule 1).
    pub message: String,
    /// The fully-qualified tool, `namespace::name`, when known (rule 2).
    pub tool: Option<String>,
    /// Where the failure came from (rule 3).
    pub origin: Origin,
    /// What to do next (rule 11).
    pub recovery: Recovery,
    /// Whether the call may have changed anything (rule 12).
    pub side_effects: SideEffects,
    /// The untrusted kind as the upstream sent it, when it differs from `kind`.
    pub original_kind: Option<String>,
    /// How `kind` was decided (additive).
    pub kind_source: Option<KindSource>,
    /// A short sanitized cause.
    pub cause: Option<String>,
    /// The tool's annotations as untrusted hints (rule 13).
    pub safety: Option<Safety>,
    /// Whether the host knows the request left the gateway (additive; a trusted fact).
    pub dispatched: Option<bool>,
    /// The arguments that were missing, unexpected or mistyped (additive).
    pub invalid_arguments: Vec<InvalidArgument>,
    /// Sanitized evidence (rules 7-10).
    pub evidence: Option<Evidence>,
}

impl CodeModeCallError {
    /// The compact JSON that goes into `Error.message`.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(1024);
        self.write(&mut out);
        out
    }

    /// The length in bytes of [`CodeModeCallError::to_json`], measured without building it.
    pub fn json_len(&self) -> usize {
        let mut count = ByteCount::default();
        self.write(&mut count);
        count.0
    }

    /// Append the compact JSON to `out` (a `String`, or a [`ByteCount`] that measures it).
    pub fn write<S: JsonSink>(&self, out: &mut S) {
        let mut o = ObjectWriter::new(out);
        o.key("contract_version");
        write_number(o.out, f64::from(self.contract_version));
        o.string("kind", &self.kind);
        o.string("message", &self.message);
        if let Some(tool) = &self.tool {
            o.string("tool", tool);
        }
        o.string("origin", self.origin.as_str());
        o.key("recovery");
        {
            let r = &self.recovery;
            let mut ro = ObjectWriter::new(o.out);
            ro.string("action", r.action.as_str());
            ro.string("same_arguments", r.same_arguments.as_str());
            ro.string("guidance", &r.guidance);
            if let Some(ms) = r.retry_after_ms {
                ro.key("retry_after_ms");
                write_number(ro.out, ms as f64);
            }
            ro.finish();
        }
        o.string("side_effects", self.side_effects.as_str());
        if let Some(k) = &self.original_kind {
            o.string("original_kind", k);
        }
        if let Some(s) = self.kind_source {
            o.string("kind_source", s.as_str());
        }
        if let Some(c) = &self.cause {
            o.string("cause", c);
        }
        if let Some(s) = self.safety.filter(|s| !s.is_empty()) {
            o.key("safety");
            let mut so = ObjectWriter::new(o.out);
            for (name, v) in [
                ("read_only_hint", s.read_only_hint),
                ("destructive_hint", s.destructive_hint),
                ("idempotent_hint", s.idempotent_hint),
                ("open_world_hint", s.open_world_hint),
            ] {
                if let Some(b) = v {
                    so.bool(name, b);
                }
            }
            so.finish();
        }
        if let Some(d) = self.dispatched {
            o.bool("dispatched", d);
        }
        if !self.invalid_arguments.is_empty() {
            o.key("invalid_arguments");
            o.out.put("[");
            for (i, a) in self.invalid_arguments.iter().enumerate() {
                if i > 0 {
                    o.out.put(",");
                }
                let mut ao = ObjectWriter::new(o.out);
                ao.string("path", &a.path);
                ao.string("problem", &a.problem);
                ao.finish();
            }
            o.out.put("]");
        }
        if let Some(e) = self.evidence.as_ref().filter(|e| !e.is_empty()) {
            o.key("evidence");
            write_evidence(o.out, e);
        }
        o.finish();
    }
}

fn write_evidence<S: JsonSink>(out: &mut S, e: &Evidence) {
    let mut o = ObjectWriter::new(out);
    if !e.content.is_empty() {
        o.key("content");
        o.out.put("[");
        for (i, block) in e.content.iter().enumerate() {
            if i > 0 {
                o.out.put(",");
            }
            write_block(o.out, block);
        }
        o.out.put("]");
    }
    if let Some(v) = &e.structured_content {
        o.key("structured_content");
        write_json(o.out, v);
    }
    if let Some(v) = &e.parsed_error {
        o.key("parsed_error");
        write_json(o.out, v);
    }
    if e.omitted_content_blocks > 0 {
        o.key("omitted_content_blocks");
        write_number(o.out, e.omitted_content_blocks as f64);
    }
    if !e.redactions.is_empty() {
        o.key("redactions");
        let mut ro = ObjectWriter::new(o.out);
        for (family, n) in &e.redactions {
            ro.key(family);
            write_number(ro.out, *n as f64);
        }
        ro.finish();
    }
    o.finish();
}

/// Content descriptors keep the order the evidence module built them in (`type` first),
/// which reads better than sorted keys; their values are already capped.
fn write_block<S: JsonSink>(out: &mut S, block: &Json) {
    match block.as_object() {
        Some(members) => {
            let mut o = ObjectWriter::new(out);
            for (k, v) in members.items() {
                o.key(k);
                write_json(o.out, v);
            }
            o.finish();
        }
        None => write_json(out, block),
    }
}

/// The result of normalizing one failure report.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Outcome {
    /// The contract object, or `None` when the report is not a failure.
    pub error: Option<CodeModeCallError>,
    /// What the outcome means for the upstream's circuit breaker.
    pub breaker: Breaker,
}

impl Outcome {
    /// `{"error": ..., "breaker": ...}` as compact JSON.
    pub fn to_json(&self) -> String {
        outcome_json(self.error.as_ref().map(CodeModeCallError::to_json).as_deref(), self.breaker)
    }
}

/// The outcome JSON around an error already serialized by [`CodeModeCallError::to_json`]
/// (`None`: not a failure), for callers that need both texts without writing the error twice.
pub fn outcome_json(error_json: Option<&str>, breaker: Breaker) -> String {
    let mut out = String::with_capacity(error_json.map_or(0, str::len) + 40);
    out.push_str("{\"error\":");
    out.push_str(error_json.unwrap_or("null"));
    out.push_str(",\"breaker\":");
    write_string(&mut out, breaker.as_str());
    out.push('}');
    out
}

/// Writes one JSON object member by member, handling the commas.
struct ObjectWriter<'a, S: JsonSink> {
    out: &'a mut S,
    first: bool,
}

impl<'a, S: JsonSink> ObjectWriter<'a, S> {
    fn new(out: &'a mut S) -> Self {
        out.put("{");
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.put(",");
        }
        self.first = false;
        write_string(self.out, k);
        self.out.put(":");
    }

    fn string(&mut self, k: &str, v: &str) {
        self.key(k);
        write_string(self.out, v);
    }

    fn bool(&mut self, k: &str, v: bool) {
        self.key(k);
        self.out.put(if v { "true" } else { "false" });
    }

    fn finish(self) {
        self.out.put("}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip() {
        for o in Origin::ALL {
            assert_eq!(Origin::from_wire(o.as_str()), Some(*o));
        }
        for a in RecoveryAction::ALL {
            assert_eq!(RecoveryAction::from_wire(a.as_str()), Some(*a));
        }
        assert_eq!(SameArguments::ALL.len(), 4);
        assert_eq!(SideEffects::from_wire("none_expected"), Some(SideEffects::NoneExpected));
        assert_eq!(Breaker::from_wire("maybe"), None);
    }

    #[test]
    fn optional_fields_are_omitted_not_null() {
        let e = CodeModeCallError {
            contract_version: 1,
            kind: "tool_error".into(),
            message: "m".into(),
            tool: None,
            origin: Origin::ToolExecution,
            recovery: Recovery {
                action: RecoveryAction::ReviseAndRetry,
                same_arguments: SameArguments::Discouraged,
                guidance: "g".into(),
                retry_after_ms: None,
            },
            side_effects: SideEffects::Possible,
            original_kind: None,
            kind_source: None,
            cause: None,
            safety: Some(Safety::default()),
            dispatched: None,
            invalid_arguments: vec![],
            evidence: Some(Evidence::default()),
        };
        assert_eq!(
            e.to_json(),
            r#"{"contract_version":1,"kind":"tool_error","message":"m","origin":"tool_execution","recovery":{"action":"revise_and_retry","same_arguments":"discouraged","guidance":"g"},"side_effects":"possible"}"#
        );
    }
}
