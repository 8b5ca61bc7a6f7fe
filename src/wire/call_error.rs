//! The wire types of contract version 1: the error object a sandbox rejects with, and the
//! outcome a host receives. Serialization is hand-written so the bytes are fixed: compact,
//! one key order, optional fields omitted (never `null`).

use crate::json::{write_json, write_number, write_string, ByteCount, JsonSink};
use crate::text::{SafeJson, SafeText};

/// The contract version this crate emits and the highest it reads.
///
/// ```
/// let error = codemode_errors::parse_call_error(r#"{"kind":"timeout","message":"m"}"#).unwrap();
/// assert_eq!(error.contract_version, codemode_errors::CONTRACT_VERSION); // legacy payloads are upgraded
/// assert!(codemode_errors::parse_call_error(r#"{"contract_version":2,"kind":"timeout","message":"m"}"#).is_err());
/// ```
pub const CONTRACT_VERSION: u32 = 1;

wire_enum! {
    /// Where a failure came from (contract rule 3 and the classification section).
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::set","budget":{"kind":"quota_exceeded","message":"100 writes a day"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// use codemode_errors::Origin;
    /// assert_eq!(outcome.error.unwrap().origin, Origin::Budget);
    /// assert_eq!(Origin::from_wire("upstream_transport"), Some(Origin::UpstreamTransport));
    /// assert_eq!(Origin::ALL.len(), 6);
    /// ```
    pub Origin {
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"gh::create_issue","dispatched":true,"transport":{"kind":"connection_closed","message":"socket hang up"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// use codemode_errors::SideEffects;
    /// assert_eq!(outcome.error.unwrap().side_effects, SideEffects::Possible); // it left and no answer came
    /// assert_eq!(SideEffects::NoneExpected.as_str(), "none_expected");
    /// ```
    pub SideEffects {
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"gh::get_repo","tool_result":{"isError":true,"content":[{"type":"text","text":"401 Unauthorized: Bad credentials"}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// use codemode_errors::RecoveryAction;
    /// assert_eq!(outcome.error.unwrap().recovery.action, RecoveryAction::Reauthenticate);
    /// assert_eq!(RecoveryAction::from_wire("retry_later"), Some(RecoveryAction::RetryLater));
    /// ```
    pub RecoveryAction {
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::get","dispatched":false,"transport":{"kind":"connection_refused","message":"ECONNREFUSED"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// use codemode_errors::SameArguments;
    /// assert_eq!(outcome.error.unwrap().recovery.same_arguments, SameArguments::Safe); // never left, transient
    /// assert_eq!(SameArguments::Never.as_str(), "never");
    /// ```
    pub SameArguments {
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP/1.1 503 Service Unavailable"}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// use codemode_errors::KindSource;
    /// let error = outcome.error.unwrap();
    /// assert_eq!(error.kind_source, Some(KindSource::Recognized)); // from well-known text
    /// assert!(error.recognized_by.is_some()); // the rule that recognized it
    /// ```
    pub KindSource {
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
    ///
    /// ```
    /// use codemode_errors::{normalize_json, Breaker};
    /// let answered = r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"not found"}]}}"#;
    /// let unreachable = r#"{"transport":{"kind":"timeout","message":"no answer"}}"#;
    /// let blocked = r#"{"policy":{"kind":"forbidden","message":"no writes"}}"#;
    /// let breaker = |r| normalize_json(r, &Default::default()).unwrap().breaker;
    /// assert_eq!([breaker(answered), breaker(unreachable), breaker(blocked)], [Breaker::Success, Breaker::Failure, Breaker::None]);
    /// ```
    pub Breaker {
        /// The upstream answered: count a success.
        Success = "success",
        /// The upstream could not be reached or did not answer: count a failure.
        Failure = "failure",
        /// The upstream was not involved: count nothing.
        None = "none",
    }
}

/// Recovery advice (rules 11-13).
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool":"gh::search","tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP 429 Too Many Requests; Retry-After: 20"}]}}"#,
///     &Default::default(),
/// ).unwrap();
/// let recovery = outcome.error.unwrap().recovery;
/// assert_eq!((recovery.action.as_str(), recovery.retry_after_ms), ("retry_later", Some(20_000)));
/// assert!(!recovery.guidance.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Recovery {
    /// The next move.
    pub action: RecoveryAction,
    /// Whether repeating the exact call is appropriate.
    pub same_arguments: SameArguments,
    /// Authoritative advice in a sentence or two.
    pub guidance: SafeText,
    /// How long to wait before retrying, when known.
    pub retry_after_ms: Option<u64>,
}

/// The tool's MCP annotations, echoed as untrusted hints (rule 13).
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool":"fs::delete","annotations":{"readOnlyHint":false,"destructiveHint":true},"transport":{"kind":"timeout","message":"m"}}"#,
///     &Default::default(),
/// ).unwrap();
/// let safety = outcome.error.unwrap().safety.unwrap();
/// assert_eq!((safety.read_only_hint, safety.destructive_hint, safety.idempotent_hint), (Some(false), Some(true), None));
/// ```
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
    ///
    /// ```
    /// let mut hints = codemode_errors::Safety::default();
    /// assert!(hints.is_empty());
    /// hints.idempotent_hint = Some(true);
    /// assert!(!hints.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.read_only_hint.is_none() && self.destructive_hint.is_none() && self.idempotent_hint.is_none() && self.open_world_hint.is_none()
    }
}

/// One argument problem: which argument (a dotted path, `[i]` for items) and what is wrong.
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool":"gh::create_issue","validation":{"input_schema":{"type":"object","required":["title"],"additionalProperties":false},"arguments":{"titel":"x"}}}"#,
///     &Default::default(),
/// ).unwrap();
/// let error = outcome.error.unwrap();
/// let paths: Vec<&str> = error.invalid_arguments.iter().map(|a| a.path.as_str()).collect();
/// assert_eq!(paths, ["title", "titel"]); // missing, then unexpected
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidArgument {
    /// The argument, e.g. `title` or `labels[2]`; empty for the arguments object itself.
    pub path: SafeText,
    /// What is wrong, e.g. `missing required argument`.
    pub problem: SafeText,
}

/// The problem text of an argument problem that sanitizing left empty.
pub(crate) const PLACEHOLDER_PROBLEM: &str = "invalid value";

impl InvalidArgument {
    /// A problem with the argument at `path`, both cleaned by the pipeline. A problem that
    /// cleaning left empty reads [`PLACEHOLDER_PROBLEM`]: the schema wants a problem text.
    pub(crate) fn new(path: SafeText, problem: SafeText) -> Self {
        let problem = if problem.is_empty() { SafeText::literal(PLACEHOLDER_PROBLEM) } else { problem };
        InvalidArgument { path, problem }
    }
}

/// A text shown as evidence, already sanitized, redacted and capped; `original_length`
/// (UTF-16 code units) is set when the text was cut, and then the JSON says
/// `"truncated": true` too.
///
/// ```
/// let policy = codemode_errors::Policy::from_json(r#"{"max_text_chars": 64}"#).unwrap();
/// let report = format!(r#"{{"tool_result":{{"isError":true,"content":[{{"type":"text","text":"{}"}}]}}}}"#, "x".repeat(1000));
/// let error = codemode_errors::normalize_json(&report, &policy).unwrap().error.unwrap();
/// let shown = error.evidence.unwrap().content[0].shown_text().cloned().unwrap();
/// assert_eq!(shown.original_length, Some(1000)); // cut: the JSON says "truncated": true
/// assert!(shown.text.chars().count() <= 64);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ShownText {
    /// The text to show.
    pub text: SafeText,
    /// The length before the cut, when there was one.
    pub original_length: Option<u64>,
}

impl ShownText {
    /// A text shown cut short (`truncated`), or whole.
    pub(crate) fn new(text: SafeText, truncated: bool, original_length: usize) -> Self {
        ShownText { text, original_length: truncated.then_some(original_length as u64) }
    }

    fn write<S: JsonSink + ?Sized>(&self, o: &mut ObjectWriter<'_, S>) {
        o.text("text", &self.text);
        if let Some(n) = self.original_length {
            o.bool("truncated", true);
            o.key("original_length");
            write_number(o.out, n as f64);
        }
    }
}

/// What an embedded resource shows: its text, or only the size of its binary blob.
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool_result":{"isError":true,"content":[{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAAA"}}]}}"#,
///     &Default::default(),
/// ).unwrap();
/// use codemode_errors::{ContentDescriptor, ResourceBody};
/// let block = outcome.error.unwrap().evidence.unwrap().content.remove(0);
/// assert!(matches!(block, ContentDescriptor::Resource { body: ResourceBody::Blob { encoded_bytes: 4 }, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceBody {
    /// Neither text nor blob.
    Empty,
    /// The resource's text.
    Text(ShownText),
    /// A binary blob, never shown: its encoded length in UTF-16 units.
    Blob {
        /// The length of the base64 data.
        encoded_bytes: u64,
    },
}

/// One MCP content block as evidence describes it (rules 7-10): its type and only what
/// may be shown. Binary data never passes (only its encoded size), `_meta` and
/// `annotations` never pass, and a block of a type the contract does not know keeps only
/// its (sanitized) type.
///
/// The JSON keeps `type` first, then the members in the order written here:
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool_result":{"isError":true,"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}}"#,
///     &Default::default(),
/// ).unwrap();
/// let block = &outcome.error.unwrap().evidence.unwrap().content[0];
/// assert_eq!(block.to_json(), r#"{"type":"image","mime_type":"image/png","encoded_bytes":12,"data_omitted":true}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentDescriptor {
    /// A text block.
    Text(ShownText),
    /// An image block: `data_omitted`.
    Image {
        /// Its MIME type.
        mime_type: Option<SafeText>,
        /// The length of the base64 data.
        encoded_bytes: u64,
    },
    /// An audio block: `data_omitted`.
    Audio {
        /// Its MIME type.
        mime_type: Option<SafeText>,
        /// The length of the base64 data.
        encoded_bytes: u64,
    },
    /// An embedded resource.
    Resource {
        /// Its URI.
        uri: Option<SafeText>,
        /// Its MIME type.
        mime_type: Option<SafeText>,
        /// Its text, or the size of its blob.
        body: ResourceBody,
    },
    /// A link to a resource.
    ResourceLink {
        /// Its URI.
        uri: Option<SafeText>,
        /// Its name.
        name: Option<SafeText>,
        /// Its MIME type.
        mime_type: Option<SafeText>,
    },
    /// A block of another type: `content_omitted`.
    Unknown {
        /// The block's type, sanitized and capped.
        block_type: SafeText,
    },
}

impl ContentDescriptor {
    /// The block type as the JSON names it.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"a"},{"type":"hologram","x":1}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let evidence = outcome.error.unwrap().evidence.unwrap();
    /// let types: Vec<&str> = evidence.content.iter().map(|b| b.block_type()).collect();
    /// assert_eq!(types, ["text", "hologram"]);
    /// ```
    pub fn block_type(&self) -> &str {
        match self {
            ContentDescriptor::Text(_) => "text",
            ContentDescriptor::Image { .. } => "image",
            ContentDescriptor::Audio { .. } => "audio",
            ContentDescriptor::Resource { .. } => "resource",
            ContentDescriptor::ResourceLink { .. } => "resource_link",
            ContentDescriptor::Unknown { block_type } => block_type,
        }
    }

    /// The type of a known block.
    fn block_type_word(&self) -> &'static str {
        match self {
            ContentDescriptor::Text(_) => "text",
            ContentDescriptor::Image { .. } => "image",
            ContentDescriptor::Audio { .. } => "audio",
            ContentDescriptor::Resource { .. } => "resource",
            ContentDescriptor::ResourceLink { .. } => "resource_link",
            ContentDescriptor::Unknown { .. } => "",
        }
    }

    /// The text shown, for a text block or a text resource.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"ENOENT: no such file"}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let evidence = outcome.error.unwrap().evidence.unwrap();
    /// assert_eq!(evidence.content[0].shown_text().map(|t| t.text.as_str()), Some("ENOENT: no such file"));
    /// ```
    pub fn shown_text(&self) -> Option<&ShownText> {
        match self {
            ContentDescriptor::Text(t) | ContentDescriptor::Resource { body: ResourceBody::Text(t), .. } => Some(t),
            _ => None,
        }
    }

    /// The text shown, to edit (the shrink steps of the size cap).
    pub(crate) fn shown_text_mut(&mut self) -> Option<&mut ShownText> {
        match self {
            ContentDescriptor::Text(t) | ContentDescriptor::Resource { body: ResourceBody::Text(t), .. } => Some(t),
            _ => None,
        }
    }

    /// The descriptor as compact JSON, `type` first.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"hologram","x":1}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let block = &outcome.error.unwrap().evidence.unwrap().content[0];
    /// assert_eq!(block.to_json(), r#"{"type":"hologram","content_omitted":true}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64);
        self.write(&mut out);
        out
    }

    /// Append the compact JSON to `out`.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"image","data":"AAAA"}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let block = &outcome.error.unwrap().evidence.unwrap().content[0];
    /// let mut out = String::from("[");
    /// block.write(&mut out);
    /// out.push(']');
    /// assert_eq!(out, r#"[{"type":"image","encoded_bytes":4,"data_omitted":true}]"#);
    /// ```
    pub fn write<S: JsonSink + ?Sized>(&self, out: &mut S) {
        let mut o = ObjectWriter::new(out);
        match self {
            ContentDescriptor::Unknown { block_type } => o.text("type", block_type),
            known => o.word("type", known.block_type_word()),
        }
        let optional = |o: &mut ObjectWriter<'_, S>, key: &'static str, v: &Option<SafeText>| {
            if let Some(v) = v {
                o.text(key, v);
            }
        };
        match self {
            ContentDescriptor::Text(t) => t.write(&mut o),
            ContentDescriptor::Image { mime_type, encoded_bytes } | ContentDescriptor::Audio { mime_type, encoded_bytes } => {
                optional(&mut o, "mime_type", mime_type);
                o.key("encoded_bytes");
                write_number(o.out, *encoded_bytes as f64);
                o.bool("data_omitted", true);
            }
            ContentDescriptor::Resource { uri, mime_type, body } => {
                optional(&mut o, "uri", uri);
                optional(&mut o, "mime_type", mime_type);
                match body {
                    ResourceBody::Empty => {}
                    ResourceBody::Text(t) => t.write(&mut o),
                    ResourceBody::Blob { encoded_bytes } => {
                        o.key("encoded_bytes");
                        write_number(o.out, *encoded_bytes as f64);
                        o.bool("data_omitted", true);
                    }
                }
            }
            ContentDescriptor::ResourceLink { uri, name, mime_type } => {
                optional(&mut o, "uri", uri);
                optional(&mut o, "name", name);
                optional(&mut o, "mime_type", mime_type);
            }
            ContentDescriptor::Unknown { .. } => o.bool("content_omitted", true),
        }
        o.finish();
    }
}

/// Sanitized, redacted, capped evidence from the failure (rules 7-10).
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"denied for password=hunter2"}],"structuredContent":{"code":"E_DENIED"}}}"#,
///     &Default::default(),
/// ).unwrap();
/// let evidence = outcome.error.unwrap().evidence.unwrap();
/// assert_eq!(evidence.content.len(), 1);
/// assert_eq!(evidence.structured_content.unwrap().to_json(), r#"{"code":"E_DENIED"}"#);
/// assert_eq!(evidence.redactions[0].0.as_str(), "secret_field");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Evidence {
    /// One descriptor per content block, in order.
    pub content: Vec<ContentDescriptor>,
    /// The redacted, capped `structuredContent`.
    pub structured_content: Option<SafeJson>,
    /// The structured error object found in the result, redacted and capped.
    pub parsed_error: Option<SafeJson>,
    /// Content blocks not shown (beyond the cap, or dropped to fit the size cap).
    pub omitted_content_blocks: usize,
    /// How many redactions each family made, by family name, sorted.
    pub redactions: Vec<(SafeText, u64)>,
}

impl Evidence {
    /// Whether there is nothing to show.
    ///
    /// ```
    /// assert!(codemode_errors::Evidence::default().is_empty());
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// assert!(!outcome.error.unwrap().evidence.unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.content.is_empty()
            && self.structured_content.is_none()
            && self.parsed_error.is_none()
            && self.omitted_content_blocks == 0
            && self.redactions.is_empty()
    }
}

/// The contract object: what `Error.message` holds as JSON. Only the normalizer and the
/// tolerant reader ([`parse_call_error`](crate::parse_call_error)) make one, so every
/// value went through the rules.
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool":"gh::create_issue","policy":{"kind":"forbidden","message":"the route forbids writes"}}"#,
///     &Default::default(),
/// ).unwrap();
/// let error = outcome.error.unwrap();
/// let message = error.to_json(); // what the sandbox rejects with: new Error(message)
/// assert!(message.starts_with(r#"{"contract_version":1,"kind":"forbidden","#));
/// assert_eq!(codemode_errors::parse_call_error(&message).unwrap(), error);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CodeModeCallError {
    /// Always [`CONTRACT_VERSION`] for objects this crate builds.
    pub contract_version: u32,
    /// The canonical kind (rule 1).
    pub kind: SafeText,
    /// A standalone, model-readable account of the failure (rule 1).
    pub message: SafeText,
    /// The fully-qualified tool, `namespace::name`, when known (rule 2).
    pub tool: Option<SafeText>,
    /// Where the failure came from (rule 3).
    pub origin: Origin,
    /// What to do next (rule 11).
    pub recovery: Recovery,
    /// Whether the call may have changed anything (rule 12).
    pub side_effects: SideEffects,
    /// The untrusted kind as the upstream sent it, when it differs from `kind`.
    pub original_kind: Option<SafeText>,
    /// How `kind` was decided (additive).
    pub kind_source: Option<KindSource>,
    /// The recognition rule that decided `kind` from failure text, when one did (additive),
    /// so a wrong answer can be traced to its rule.
    pub recognized_by: Option<SafeText>,
    /// A short sanitized cause.
    pub cause: Option<SafeText>,
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let message = outcome.error.unwrap().to_json(); // reject with new Error(message)
    /// assert!(message.starts_with(r#"{"contract_version":1,"kind":"timeout","message":"#));
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(1024);
        self.write(&mut out as &mut dyn JsonSink);
        out
    }

    /// The length in bytes of [`CodeModeCallError::to_json`], measured without building it.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let error = outcome.error.unwrap();
    /// assert_eq!(error.json_len(), error.to_json().len());
    /// assert!(error.json_len() <= codemode_errors::Policy::default().max_error_bytes());
    /// ```
    pub fn json_len(&self) -> usize {
        let mut count = ByteCount::default();
        // Through the same `dyn` writer as `to_json`: one copy of the writer's code, which
        // a first call in a WebAssembly engine compiles once.
        self.write(&mut count as &mut dyn JsonSink);
        count.0
    }

    /// Append the compact JSON to `out` (a `String`, or a [`ByteCount`] that measures it).
    ///
    /// ```
    /// use codemode_errors::json::ByteCount;
    /// let error = codemode_errors::parse_call_error(r#"{"kind":"timeout","message":"no answer"}"#).unwrap();
    /// let (mut text, mut count) = (String::new(), ByteCount::default());
    /// error.write(&mut text);
    /// error.write(&mut count);
    /// assert_eq!((text, count.0), (error.to_json(), error.json_len()));
    /// ```
    pub fn write<S: JsonSink + ?Sized>(&self, out: &mut S) {
        let mut o = ObjectWriter::new(out);
        o.key("contract_version");
        write_number(o.out, f64::from(self.contract_version));
        o.text("kind", &self.kind);
        o.text("message", &self.message);
        if let Some(tool) = &self.tool {
            o.text("tool", tool);
        }
        o.word("origin", self.origin.as_str());
        o.key("recovery");
        {
            let r = &self.recovery;
            let mut ro = ObjectWriter::new(o.out);
            ro.word("action", r.action.as_str());
            ro.word("same_arguments", r.same_arguments.as_str());
            ro.text("guidance", &r.guidance);
            if let Some(ms) = r.retry_after_ms {
                ro.key("retry_after_ms");
                write_number(ro.out, ms as f64);
            }
            ro.finish();
        }
        o.word("side_effects", self.side_effects.as_str());
        if let Some(k) = &self.original_kind {
            o.text("original_kind", k);
        }
        if let Some(s) = self.kind_source {
            o.word("kind_source", s.as_str());
        }
        if let Some(r) = &self.recognized_by {
            o.text("recognized_by", r);
        }
        if let Some(c) = &self.cause {
            o.text("cause", c);
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
                ao.text("path", &a.path);
                ao.text("problem", &a.problem);
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

fn write_evidence<S: JsonSink + ?Sized>(out: &mut S, e: &Evidence) {
    let mut o = ObjectWriter::new(out);
    if !e.content.is_empty() {
        o.key("content");
        o.out.put("[");
        for (i, block) in e.content.iter().enumerate() {
            if i > 0 {
                o.out.put(",");
            }
            block.write(o.out);
        }
        o.out.put("]");
    }
    if let Some(v) = &e.structured_content {
        o.key("structured_content");
        write_json(o.out, v.as_json());
    }
    if let Some(v) = &e.parsed_error {
        o.key("parsed_error");
        write_json(o.out, v.as_json());
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

/// The result of normalizing one failure report.
///
/// ```
/// let outcome = codemode_errors::normalize_json(
///     r#"{"tool_result":{"content":[{"type":"text","text":"ok"}]}}"#,
///     &Default::default(),
/// ).unwrap();
/// assert!(outcome.error.is_none()); // a success is not a failure
/// assert_eq!(outcome.to_json(), r#"{"error":null,"breaker":"success"}"#);
/// ```
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
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let json = outcome.to_json();
    /// assert!(json.starts_with(r#"{"error":{"contract_version":1,"#) && json.ends_with(r#""breaker":"failure"}"#));
    /// ```
    pub fn to_json(&self) -> String {
        outcome_json(self.error.as_ref().map(CodeModeCallError::to_json).as_deref(), self.breaker)
    }
}

impl Outcome {
    /// The error's JSON (`None`: not a failure) and the outcome's, with the error
    /// serialized once, for callers that need both texts.
    ///
    /// ```
    /// let outcome = codemode_errors::normalize_json(
    ///     r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"m"}}"#,
    ///     &Default::default(),
    /// ).unwrap();
    /// let (error, whole) = outcome.to_json_parts();
    /// let error = error.unwrap();
    /// assert_eq!(whole, format!(r#"{{"error":{error},"breaker":"failure"}}"#));
    /// ```
    pub fn to_json_parts(&self) -> (Option<String>, String) {
        let error = self.error.as_ref().map(CodeModeCallError::to_json);
        let outcome = outcome_json(error.as_deref(), self.breaker);
        (error, outcome)
    }
}

/// The outcome JSON around an error already serialized by [`CodeModeCallError::to_json`].
fn outcome_json(error_json: Option<&str>, breaker: Breaker) -> String {
    let mut out = String::with_capacity(error_json.map_or(0, str::len) + 40);
    out.push_str("{\"error\":");
    out.push_str(error_json.unwrap_or("null"));
    out.push_str(",\"breaker\":");
    write_string(&mut out, breaker.as_str());
    out.push('}');
    out
}

/// Writes one JSON object member by member, handling the commas.
struct ObjectWriter<'a, S: JsonSink + ?Sized> {
    out: &'a mut S,
    first: bool,
}

impl<'a, S: JsonSink + ?Sized> ObjectWriter<'a, S> {
    fn new(out: &'a mut S) -> Self {
        out.put("{");
        ObjectWriter { out, first: true }
    }

    /// A member's key: one of the core's own field names, or a safe text.
    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.put(",");
        }
        self.first = false;
        write_string(self.out, k);
        self.out.put(":");
    }

    /// A member whose value went through the text pipeline.
    fn text(&mut self, k: &'static str, v: &SafeText) {
        self.key(k);
        write_string(self.out, v);
    }

    /// A member whose value is one of the core's own words (a wire enum's name).
    fn word(&mut self, k: &'static str, v: &'static str) {
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
            kind: SafeText::literal("tool_error"),
            message: SafeText::literal("m"),
            tool: None,
            origin: Origin::ToolExecution,
            recovery: Recovery {
                action: RecoveryAction::ReviseAndRetry,
                same_arguments: SameArguments::Discouraged,
                guidance: SafeText::literal("g"),
                retry_after_ms: None,
            },
            side_effects: SideEffects::Possible,
            original_kind: None,
            kind_source: None,
            recognized_by: None,
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
