//! The input: a failure report. One JSON shape drives every surface (Rust, WIT, CLI, JS).
//!
//! ```json
//! {"tool": "github::create_issue",
//!  "annotations": {"readOnlyHint": false},
//!  "dispatched": true,
//!  "tool_result": {"content": [{"type": "text", "text": "..."}], "isError": true}}
//! ```
//!
//! Exactly one failure key: `tool_result`, `jsonrpc_error`, `transport`, `validation`,
//! `policy`, `budget` or `code_mode`. Adapters that hold typed values (the WASI guest, the
//! npm binding, the host) build the same report with the typed constructors below; the
//! JSON reader is built on those constructors, so both paths check exactly the same rules.

use crate::error::{ErrorCode, ReportError};
use crate::json::{exact_integer, parse_json, write_string, Json, JsonBuilder, JsonText};
use crate::rules::arguments::{check_arguments, ArgumentProblem};
use crate::rules::kinds::{is_well_formed, Kind};
use crate::search;
use crate::text::refusal;
use crate::wire::{Origin, Safety, TransportKind};

/// Longest fully-qualified tool name accepted, in UTF-16 code units.
pub(crate) const MAX_TOOL_NAME: usize = 256;

/// Longest `retry_after_ms` accepted: one day.
pub(crate) const MAX_RETRY_AFTER_MS: u64 = 86_400_000;

/// The failure tags, in the order the docs list them.
pub(crate) const FAILURE_TAGS: &[&str] = &["tool_result", "jsonrpc_error", "transport", "validation", "policy", "budget", "code_mode"];

/// A fully-qualified tool name, `namespace::name`: at most 256 UTF-16 units,
/// no control or invisible characters. Only [`ToolName::new`] makes one, so a report
/// never holds a name the contract refuses.
///
/// ```
/// use codemode_errors::ToolName;
/// assert_eq!(ToolName::new("github::create_issue").unwrap().as_str(), "github::create_issue");
/// assert_eq!(ToolName::new("create_issue").unwrap_err().path(), "tool");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToolName(String);

impl ToolName {
    /// Check `name`; the error's path is `tool`.
    ///
    /// ```
    /// use codemode_errors::ToolName;
    /// assert!(ToolName::new("fs::read_file").is_ok());
    /// assert_eq!(ToolName::new("fs::read\u{202E}file").unwrap_err().code().as_str(), "invalid_report");
    /// ```
    pub fn new(name: &str) -> Result<Self, ReportError> {
        Self::from_text(&JsonBuilder::text(name))
    }

    fn from_text(name: &JsonText) -> Result<Self, ReportError> {
        if name.total_utf16() > MAX_TOOL_NAME {
            return Err(invalid("tool", format!("is {} characters long; the limit is {MAX_TOOL_NAME}", name.total_utf16())));
        }
        let text = name.head();
        if text.chars().any(|c| c.is_control() || crate::text::sanitize::is_stripped(c)) {
            return Err(invalid("tool", "contains control or invisible characters"));
        }
        match search::split_once(text, "::") {
            Some((ns, n)) if !ns.is_empty() && !n.is_empty() => Ok(ToolName(text.to_owned())),
            _ => Err(invalid("tool", format!("must be fully qualified as \"namespace::name\", got {:?}", text))),
        }
    }

    /// The name.
    ///
    /// ```
    /// use codemode_errors::ToolName;
    /// let name = ToolName::new("github::create_issue")?;
    /// assert_eq!(name.as_str().split_once("::"), Some(("github", "create_issue")));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ToolName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What failed, tagged by its key in the report. Build one with the constructors
/// ([`Failure::tool_result`], [`Failure::jsonrpc_error`], [`Failure::transport`],
/// [`Failure::validation`], [`Failure::policy`], [`Failure::budget`],
/// [`Failure::code_mode`], ...), which check what the JSON reader checks.
///
/// ```
/// use codemode_errors::{normalize, Failure, FailureReport, TransportKind};
/// let failure = Failure::transport(TransportKind::ConnectionRefused, "connect ECONNREFUSED 127.0.0.1:8080");
/// let error = normalize(&FailureReport::new(failure), &Default::default()).error.unwrap();
/// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("network_error", "upstream_transport"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Failure {
    /// A complete MCP `CallToolResult` (checked for shape during normalization, because a
    /// malformed result is the upstream's failure, not the caller's).
    ToolResult(Json),
    /// A JSON-RPC error the upstream (or the local SDK) returned instead of a result.
    JsonRpcError {
        /// The JSON-RPC error code.
        code: i64,
        /// The error message.
        message: JsonText,
        /// The optional `data` member.
        data: Option<Json>,
    },
    /// The connection to the upstream failed.
    Transport {
        /// What failed.
        kind: TransportKind,
        /// The host's description.
        message: JsonText,
    },
    /// The arguments did not satisfy the tool's input schema.
    Validation(ValidationFailure),
    /// The gateway or sandbox blocked the call itself.
    Blocked {
        /// `Policy`, `Budget` or `CodeMode`.
        origin: Origin,
        /// The host's kind, snake_case.
        kind: String,
        /// The host's description.
        message: JsonText,
        /// How long to wait before retrying, when known.
        retry_after_ms: Option<u64>,
    },
}

/// The longest requested tool name an `unknown_tool` message quotes, in UTF-16 units.
pub(crate) const MAX_REQUESTED_NAME: usize = 200;

/// `name` cleaned for any policy and cut to `cap` units, as a JSON string. Redacted before
/// the cut, so no part of a secret survives it; the word the cut falls in is dropped, so no
/// part of a policy's secret does either (the policy cleans the message when the failure
/// is normalized).
fn push_quoted(out: &mut String, name: &str, cap: usize) {
    let kept = crate::text::clean_text_for_any_policy(name, cap, &mut crate::text::Redactions::default());
    write_string(out, &kept);
}

/// Longest catalog name quoted in an unknown tool's message, in UTF-16 code units.
const MAX_SUGGESTED_NAME: usize = 100;

/// Most tools or namespaces listed when none is near the requested name.
const MAX_LISTED: usize = 5;

impl Failure {
    /// A `CallToolResult` the call returned (any JSON: its shape is checked when it is
    /// normalized, since a malformed result is the upstream's failure).
    ///
    /// ```
    /// use codemode_errors::{normalize, parse_json, Failure, FailureReport};
    /// let result = parse_json(r#"{"isError":true,"content":[{"type":"text","text":"ENOENT: no such file or directory"}]}"#)?;
    /// let outcome = normalize(&FailureReport::new(Failure::tool_result(result)), &Default::default());
    /// assert_eq!(outcome.error.unwrap().kind, "not_found");
    /// assert_eq!(outcome.breaker.as_str(), "success"); // the upstream answered
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn tool_result(result: Json) -> Failure {
        Failure::ToolResult(result)
    }

    /// A JSON-RPC error the upstream, or the local MCP SDK, answered with.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport};
    /// let report = FailureReport::new(Failure::jsonrpc_error(-32602, "Invalid params", None));
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("invalid_param", "validation"));
    /// assert_eq!(error.kind_source.map(|s| s.as_str()), Some("structured")); // from the code
    /// ```
    pub fn jsonrpc_error(code: i64, message: &str, data: Option<Json>) -> Failure {
        Failure::JsonRpcError { code, message: JsonBuilder::text(message), data }
    }

    /// A transport failure: no complete result arrived.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport, TransportKind};
    /// let outcome = normalize(&FailureReport::new(Failure::transport(TransportKind::Dns, "getaddrinfo ENOTFOUND api.example")), &Default::default());
    /// assert_eq!(outcome.error.unwrap().kind, "network_error");
    /// assert_eq!(outcome.breaker.as_str(), "failure"); // the upstream was not reached
    /// ```
    pub fn transport(kind: TransportKind, message: &str) -> Failure {
        Failure::Transport { kind, message: JsonBuilder::text(message) }
    }

    /// Arguments that did not satisfy the tool's input schema; see [`ValidationFailure`]
    /// for what it must hold.
    ///
    /// ```
    /// use codemode_errors::{normalize, ArgumentProblem, Failure, FailureReport, ValidationFailure};
    /// let mut failure = ValidationFailure::default();
    /// failure.problems.push(ArgumentProblem::new("title", "missing required argument"));
    /// let error = normalize(&FailureReport::new(Failure::validation(failure)?), &Default::default()).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("missing_param", "validation"));
    /// assert!(Failure::validation(ValidationFailure::default()).is_err()); // nothing given
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn validation(failure: ValidationFailure) -> Result<Failure, ReportError> {
        failure.check().map(Failure::Validation)
    }

    /// `arguments` checked against the tool's `input_schema` by the core: the validation
    /// failure naming each problem, or `None` when the arguments satisfy the schema.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Failure};
    /// let schema = parse_json(r#"{"type":"object","required":["path"]}"#).unwrap();
    /// assert!(Failure::invalid_arguments(&parse_json("{}").unwrap(), &schema).is_some());
    /// assert!(Failure::invalid_arguments(&parse_json(r#"{"path":"a"}"#).unwrap(), &schema).is_none());
    /// ```
    pub fn invalid_arguments(arguments: &Json, input_schema: &Json) -> Option<Failure> {
        let problems = check_arguments(arguments, input_schema);
        (!problems.is_empty()).then(|| Failure::Validation(ValidationFailure { problems, ..ValidationFailure::default() }))
    }

    /// The gateway's policy blocked the call (`kind` snake_case, 1 to 64 characters).
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport};
    /// let report = FailureReport::new(Failure::policy("approval_required", "a person must approve deletes", None)?);
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("approval_required", "policy"));
    /// assert!(Failure::policy("Not Snake", "m", None).is_err());
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn policy(kind: &str, message: &str, retry_after_ms: Option<u64>) -> Result<Failure, ReportError> {
        blocked(Origin::Policy, &JsonBuilder::text(kind), JsonBuilder::text(message), retry_after_ms)
    }

    /// A budget or size limit blocked the call.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport};
    /// let report = FailureReport::new(Failure::budget("rate_limited", "50 calls a minute", Some(20_000))?);
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!(error.recovery.retry_after_ms, Some(20_000));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn budget(kind: &str, message: &str, retry_after_ms: Option<u64>) -> Result<Failure, ReportError> {
        blocked(Origin::Budget, &JsonBuilder::text(kind), JsonBuilder::text(message), retry_after_ms)
    }

    /// The code-mode sandbox or broker failed the call.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport};
    /// let report = FailureReport::new(Failure::code_mode("unknown_tool", "no tool named kv::put", None)?);
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("unknown_tool", "code_mode"));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn code_mode(kind: &str, message: &str, retry_after_ms: Option<u64>) -> Result<Failure, ReportError> {
        blocked(Origin::CodeMode, &JsonBuilder::text(kind), JsonBuilder::text(message), retry_after_ms)
    }

    /// The code-mode host itself failed (a trap, a tripped limit): `code_mode` /
    /// `internal_error`, with `message` (untrusted, redacted like any text) as the cause.
    ///
    /// ```
    /// use codemode_errors::{Failure, FailureReport, Normalizer};
    /// let error = Normalizer::default().normalize(&FailureReport::new(Failure::internal("the normalizer trapped"))).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("internal_error", "code_mode"));
    /// ```
    pub fn internal(message: &str) -> Failure {
        Failure::own(Origin::CodeMode, Kind::InternalError, JsonBuilder::text(message))
    }

    /// A block of the core's own kind, which needs no check.
    fn own(origin: Origin, kind: Kind, message: JsonText) -> Failure {
        Failure::Blocked { origin, kind: kind.as_str().to_owned(), message, retry_after_ms: None }
    }

    /// A failure report (or tool result) larger than the host's input bound: `budget` /
    /// `artifact_too_large`, with a cause naming both sizes. The host gives the sandbox this
    /// to reject with when it refused to read the input at all.
    ///
    /// ```
    /// use codemode_errors::{Failure, FailureReport, Normalizer};
    /// let error = Normalizer::default().normalize(&FailureReport::new(Failure::input_too_large(19_000_000, 8 << 20))).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("artifact_too_large", "budget"));
    /// assert!(error.cause.unwrap().contains("19000000 bytes"));
    /// ```
    pub fn input_too_large(bytes: usize, bound: usize) -> Failure {
        let mut message = String::from("the failure report is ");
        crate::json::write_decimal(&mut message, bytes as u64);
        message.push_str(" bytes, over the host's input bound of ");
        crate::json::write_decimal(&mut message, bound as u64);
        message.push_str(" bytes; nothing of it was read");
        Failure::own(Origin::Budget, Kind::ArtifactTooLarge, JsonText::whole(message))
    }

    /// A call to a tool the code-mode catalog does not hold. `requested` is the name the
    /// model's code asked for (`None` when it was not a string). Code mode decides this
    /// before anything is dispatched, so it is `unknown_tool` with origin `code_mode`; the
    /// name is quoted as JSON and capped, since model-written code chose it.
    ///
    /// ```
    /// use codemode_errors::{Failure, FailureReport, Normalizer};
    /// let report = FailureReport::new(Failure::unknown_tool(Some("github::creat_issue")));
    /// let error = Normalizer::default().normalize(&report).error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("unknown_tool", "code_mode"));
    /// assert!(error.cause.unwrap().contains(r#"no tool named "github::creat_issue""#));
    /// ```
    pub fn unknown_tool(requested: Option<&str>) -> Failure {
        Failure::unknown_tool_in(requested, &[])
    }

    /// [`Failure::unknown_tool`], naming what the catalog holds instead: the tools nearest
    /// to the requested name (`namespace::tool` each, at most three, by edit distance of
    /// the namespace and of the tool's name), else the tools of the requested namespace,
    /// else one tool of each namespace (at most five). Models often call a tool by a name
    /// close to a real one.
    ///
    /// ```
    /// use codemode_errors::{Failure, FailureReport, Normalizer};
    /// let catalog = ["kv::set", "kv::get", "fs::read_file"];
    /// let report = FailureReport::new(Failure::unknown_tool_in(Some("kv::gett"), &catalog));
    /// let cause = Normalizer::default().normalize(&report).error.unwrap().cause.unwrap();
    /// assert_eq!(cause.as_str(), r#"no tool named "kv::gett" in this code-mode catalog; the nearest: "kv::get", "kv::set""#);
    /// ```
    #[inline(never)]
    pub fn unknown_tool_in(requested: Option<&str>, catalog: &[&str]) -> Failure {
        let Some(name) = requested else {
            return Failure::own(Origin::CodeMode, Kind::UnknownTool, JsonText::whole("the requested tool name is not a string"));
        };
        fn namespace_of(t: &str) -> Option<&str> {
            t.rsplit_once("::").map(|(ns, _)| ns)
        }
        let mut message = String::from("no tool named ");
        push_quoted(&mut message, name, MAX_REQUESTED_NAME);
        message.push_str(" in this code-mode catalog");
        // The nearest tools, else the requested namespace's, else one tool a namespace.
        let mut shown = crate::rules::suggest::nearest(name, catalog);
        let mut lead = "; the nearest: ";
        if shown.is_empty() {
            shown = catalog.iter().copied().filter(|t| namespace_of(t) == namespace_of(name)).take(MAX_LISTED).collect();
            lead = "; its namespace holds: ";
        }
        if shown.is_empty() {
            for t in catalog {
                if shown.len() < MAX_LISTED && !shown.iter().any(|s| namespace_of(s) == namespace_of(t)) {
                    shown.push(t);
                }
            }
            lead = "; the catalog holds: ";
        }
        for (k, t) in shown.iter().enumerate() {
            message.push_str(if k == 0 { lead } else { ", " });
            push_quoted(&mut message, t, MAX_SUGGESTED_NAME);
        }
        Failure::own(Origin::CodeMode, Kind::UnknownTool, JsonText::whole(message))
    }

    /// The failure member `tag` of a report (`tool_result`, `jsonrpc_error`, `transport`,
    /// `validation`, `policy`, `budget` or `code_mode`) read from its JSON value, as the
    /// report reader reads it.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Failure, TransportKind};
    /// let failure = Failure::from_tagged_value("transport", &parse_json(r#"{"kind":"timeout","message":"no answer"}"#)?)?;
    /// assert_eq!(failure, Failure::transport(TransportKind::Timeout, "no answer"));
    /// assert_eq!(Failure::from_tagged_value("oops", &parse_json("{}")?).unwrap_err().path(), "oops");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_tagged_value(tag: &str, value: &Json) -> Result<Failure, ReportError> {
        if !FAILURE_TAGS.contains(&tag) {
            return Err(invalid(tag, format!("unknown failure tag; expected one of {}", FAILURE_TAGS.join(", "))));
        }
        parse_failure(tag, value)
    }
}

/// A validation failure: the arguments and schema to check, or ready-made problems, or
/// the host's message. Start from [`ValidationFailure::default`], set what is known, and
/// hand it to [`Failure::validation`], which checks that `arguments` and `input_schema`
/// come together and that something is given.
///
/// ```
/// use codemode_errors::{normalize, parse_json, Failure, FailureReport, ValidationFailure};
/// let mut failure = ValidationFailure::default();
/// failure.input_schema = Some(parse_json(r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#)?);
/// failure.arguments = Some(parse_json(r#"{"n":"five"}"#)?);
/// let error = normalize(&FailureReport::new(Failure::validation(failure)?), &Default::default()).error.unwrap();
/// assert_eq!(error.invalid_arguments[0].path.as_str(), "n");
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ValidationFailure {
    /// The call's arguments.
    pub arguments: Option<Json>,
    /// The tool's input schema.
    pub input_schema: Option<Json>,
    /// Problems the host already found.
    pub problems: Vec<ArgumentProblem>,
    /// The host's description.
    pub message: Option<JsonText>,
}

impl ValidationFailure {
    fn check(self) -> Result<Self, ReportError> {
        let has_check = self.arguments.is_some() && self.input_schema.is_some();
        if !has_check && self.problems.is_empty() && self.message.is_none() {
            return Err(invalid("validation", "needs `arguments` with `input_schema`, or `problems`, or a `message`"));
        }
        if self.input_schema.is_some() != self.arguments.is_some() {
            let missing = if self.arguments.is_none() { "arguments" } else { "input_schema" };
            return Err(invalid(&format!("validation.{missing}"), "is required when the other is given"));
        }
        Ok(self)
    }
}

/// A failure report: the tool, its untrusted annotations, the trusted dispatch fact and
/// the failure itself.
///
/// ```
/// use codemode_errors::{Failure, FailureReport, Normalizer, ToolName, TransportKind};
/// let report = FailureReport::new(Failure::transport(TransportKind::Timeout, "no answer in 30 s"))
///     .with_tool(Some(ToolName::new("github::create_issue")?))
///     .with_dispatched(Some(true));
/// let error = Normalizer::default().normalize(&report).error.unwrap();
/// assert_eq!(error.kind, "timeout");
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FailureReport {
    /// `namespace::name`, when known.
    pub tool: Option<ToolName>,
    /// The tool's MCP annotations (untrusted hints).
    pub annotations: Safety,
    /// Whether the request certainly left the gateway (`None`: unknown).
    pub dispatched: Option<bool>,
    /// The called tool's `inputSchema` and the call's arguments, when the host has them
    /// (the catalog does): the tool's own failure text then names arguments of the schema.
    pub call: Option<CallArguments>,
    /// What failed.
    pub failure: Failure,
}

/// A call's arguments with the tool's input schema they were meant for.
///
/// ```
/// use codemode_errors::{parse_json, FailureReport};
/// let report = FailureReport::from_json(
///     r#"{"tool":"fs::read_file","input_schema":{"type":"object"},"arguments":{"path":"/x"},"code_mode":{"kind":"internal_error","message":"m"}}"#,
/// )?;
/// let call = report.call.unwrap();
/// assert_eq!(call.arguments, Some(parse_json(r#"{"path":"/x"}"#)?));
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CallArguments {
    /// The tool's `inputSchema` (a JSON Schema object).
    pub input_schema: Json,
    /// The arguments the call sent, when known (any JSON value: a model may send a
    /// string where an object belongs).
    pub arguments: Option<Json>,
}

impl FailureReport {
    /// A report of `failure` with nothing else known.
    ///
    /// ```
    /// use codemode_errors::{Failure, FailureReport};
    /// let report = FailureReport::new(Failure::internal("the guest trapped"));
    /// assert!(report.tool.is_none() && report.dispatched.is_none());
    /// ```
    pub fn new(failure: Failure) -> Self {
        FailureReport { tool: None, annotations: Safety::default(), dispatched: None, call: None, failure }
    }

    /// This report with the tool's `input_schema` and the call's `arguments`.
    ///
    /// ```
    /// use codemode_errors::{normalize, parse_json, Failure, FailureReport};
    /// let schema = parse_json(r#"{"type":"object","properties":{"path":{"type":"string"}}}"#)?;
    /// let result = parse_json(r#"{"isError":true,"content":[{"type":"text","text":"ENOENT: no such file or directory, open '/tmp/x'"}]}"#)?;
    /// let report = FailureReport::new(Failure::tool_result(result)).with_call(schema, Some(parse_json(r#"{"path":"/tmp/x"}"#)?));
    /// assert!(report.call.is_some());
    /// assert_eq!(normalize(&report, &Default::default()).error.unwrap().kind, "not_found");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_call(mut self, input_schema: Json, arguments: Option<Json>) -> Self {
        self.call = Some(CallArguments { input_schema, arguments });
        self
    }

    /// This report for `tool`.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport, ToolName};
    /// let report = FailureReport::new(Failure::internal("trap")).with_tool(Some(ToolName::new("fs::read_file")?));
    /// assert_eq!(normalize(&report, &Default::default()).error.unwrap().tool.as_deref(), Some("fs::read_file"));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_tool(mut self, tool: Option<ToolName>) -> Self {
        self.tool = tool;
        self
    }

    /// This report with the tool's MCP annotations.
    ///
    /// ```
    /// use codemode_errors::{normalize, FailureReport, Safety};
    /// let mut hints = Safety::default();
    /// hints.read_only_hint = Some(true);
    /// let report = FailureReport::from_json(r#"{"transport":{"kind":"timeout","message":"m"}}"#)?.with_annotations(hints);
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!(error.side_effects.as_str(), "none_expected"); // a read-only tool changes nothing
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_annotations(mut self, annotations: Safety) -> Self {
        self.annotations = annotations;
        self
    }

    /// This report with the host's dispatch fact (`None`: unknown).
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport, TransportKind};
    /// let report = FailureReport::new(Failure::transport(TransportKind::ConnectionRefused, "ECONNREFUSED")).with_dispatched(Some(false));
    /// let error = normalize(&report, &Default::default()).error.unwrap();
    /// assert_eq!(error.dispatched, Some(false));
    /// assert_eq!(error.side_effects.as_str(), "none_expected"); // it never left the gateway
    /// ```
    pub fn with_dispatched(mut self, dispatched: Option<bool>) -> Self {
        self.dispatched = dispatched;
        self
    }

    /// This report with the tool and annotations of `header`.
    ///
    /// ```
    /// use codemode_errors::{parse_json, CallHeader, Failure, FailureReport};
    /// let header = CallHeader::from_value(&parse_json(r#"{"tool":"kv::get","annotations":{"readOnlyHint":true}}"#)?)?;
    /// let report = FailureReport::new(Failure::internal("trap")).with_header(&header);
    /// assert_eq!(report.tool.map(|t| t.to_string()), Some("kv::get".to_owned()));
    /// assert_eq!(report.annotations.read_only_hint, Some(true));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn with_header(self, header: &CallHeader) -> Self {
        self.with_tool(header.tool.clone()).with_annotations(header.annotations)
    }

    /// Parse a report from JSON text.
    ///
    /// ```
    /// use codemode_errors::FailureReport;
    /// let report = FailureReport::from_json(r#"{"tool":"fs::read_file","dispatched":true,"transport":{"kind":"timeout","message":"m"}}"#)?;
    /// assert_eq!(report.dispatched, Some(true));
    /// let err = FailureReport::from_json(r#"{"tool":"fs::read_file","color":"red","transport":{"kind":"timeout","message":"m"}}"#).unwrap_err();
    /// assert_eq!(err.path(), "color"); // unknown fields are refused
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        Self::from_value(&parse_json(text)?)
    }

    /// Read a report from a bounded JSON value.
    ///
    /// ```
    /// use codemode_errors::{parse_json, FailureReport};
    /// let value = parse_json(r#"{"tool":"fs::read_file","budget":{"kind":"quota_exceeded","message":"m"},"policy":{"kind":"forbidden","message":"m"}}"#)?;
    /// let err = FailureReport::from_value(&value).unwrap_err();
    /// assert_eq!(err.path(), "policy"); // exactly one failure
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_value(value: &Json) -> Result<Self, ReportError> {
        let members =
            value.as_object().ok_or_else(|| invalid("", format!("a failure report is a JSON object, not {}", value.type_name())))?;
        let mut tool = None;
        let mut annotations = Safety::default();
        let mut dispatched = None;
        let mut failure = None;
        let (mut input_schema, mut arguments) = (None, None);
        for (key, v) in members.items() {
            match key.as_str() {
                "tool" => tool = parse_tool(v)?,
                "input_schema" => match v {
                    Json::Object(_) => input_schema = Some(v.clone()),
                    Json::Null => {}
                    other => {
                        return Err(invalid("input_schema", format!("must be the tool's inputSchema object, not {}", other.type_name())))
                    }
                },
                // What the call sent, whatever it was (a model may send a string).
                "arguments" => arguments = Some(v.clone()),
                "annotations" => annotations = parse_annotations(v)?,
                "dispatched" => {
                    dispatched = match v {
                        Json::Null => None,
                        Json::Bool(b) => Some(*b),
                        other => return Err(invalid("dispatched", format!("must be true, false or null, not {}", other.type_name()))),
                    }
                }
                tag if FAILURE_TAGS.contains(&tag) => {
                    if let Some((first, _)) = &failure {
                        return Err(invalid(tag, format!("a report holds exactly one failure, but it has both `{first}` and `{tag}`")));
                    }
                    failure = Some((tag.to_owned(), parse_failure(tag, v)?));
                }
                other => {
                    return Err(invalid(
                        other,
                        format!(
                            "unknown report field; expected tool, annotations, dispatched, input_schema, arguments or one failure tag ({})",
                            FAILURE_TAGS.join(", ")
                        ),
                    ))
                }
            }
        }
        let (_, failure) =
            failure.ok_or_else(|| invalid("", format!("a report needs exactly one failure: one of {}", FAILURE_TAGS.join(", "))))?;
        // Arguments name nothing without the schema they were meant for (an unknown tool's).
        let call = input_schema.map(|input_schema| CallArguments { input_schema, arguments });
        Ok(FailureReport { tool, annotations, dispatched, call, failure })
    }
}

/// What a sandbox knows of a tool before any call to it fails: its name and annotations.
/// Checked once (a catalog entry), then given to every report of a call to that tool.
///
/// ```
/// use codemode_errors::{parse_json, CallHeader};
/// let header = CallHeader::from_value(&parse_json(r#"{"tool":"fs::read_file","annotations":{"readOnlyHint":true}}"#).unwrap()).unwrap();
/// assert_eq!(header.tool.unwrap().as_str(), "fs::read_file");
/// assert_eq!(header.annotations.read_only_hint, Some(true));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct CallHeader {
    /// `namespace::name`, when known.
    pub tool: Option<ToolName>,
    /// The tool's MCP annotations (untrusted hints).
    pub annotations: Safety,
}

impl CallHeader {
    /// A header for `tool` with `annotations`.
    ///
    /// ```
    /// use codemode_errors::{CallHeader, Safety, ToolName};
    /// let header = CallHeader::new(Some(ToolName::new("kv::get")?), Safety::default());
    /// assert_eq!(header.tool.unwrap().as_str(), "kv::get");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn new(tool: Option<ToolName>, annotations: Safety) -> Self {
        CallHeader { tool, annotations }
    }

    /// Read a header (`{tool?, annotations?}`) from a bounded JSON value, with the report
    /// reader's rules for each member.
    ///
    /// ```
    /// use codemode_errors::{parse_json, CallHeader};
    /// let header = CallHeader::from_value(&parse_json(r#"{"tool":"kv::get"}"#)?)?;
    /// assert!(header.annotations.is_empty());
    /// assert_eq!(CallHeader::from_value(&parse_json(r#"{"tool":"get"}"#)?).unwrap_err().path(), "tool");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_value(value: &Json) -> Result<Self, ReportError> {
        let members = value
            .as_object()
            .ok_or_else(|| invalid("", format!("a call header is an object of tool and annotations, not {}", value.type_name())))?;
        let mut header = CallHeader::default();
        for (key, v) in members.items() {
            match key.as_str() {
                "tool" => header.tool = parse_tool(v)?,
                "annotations" => header.annotations = parse_annotations(v)?,
                other => return Err(invalid(other, "unknown call header field; expected tool or annotations")),
            }
        }
        Ok(header)
    }
}

/// An `invalid_report` error at `path`.
pub(crate) fn invalid(path: &str, message: impl Into<String>) -> ReportError {
    refusal(ErrorCode::InvalidReport, path, message)
}

fn parse_tool(v: &Json) -> Result<Option<ToolName>, ReportError> {
    match v {
        Json::Null => Ok(None),
        Json::String(t) => ToolName::from_text(t).map(Some),
        other => Err(invalid("tool", format!("must be a string \"namespace::name\", not {}", other.type_name()))),
    }
}

/// Annotations come from the upstream: hints of the wrong type are ignored, not errors.
fn parse_annotations(v: &Json) -> Result<Safety, ReportError> {
    match v {
        Json::Null => Ok(Safety::default()),
        Json::Object(_) => Ok(Safety {
            read_only_hint: v.get("readOnlyHint").and_then(Json::as_bool),
            destructive_hint: v.get("destructiveHint").and_then(Json::as_bool),
            idempotent_hint: v.get("idempotentHint").and_then(Json::as_bool),
            open_world_hint: v.get("openWorldHint").and_then(Json::as_bool),
        }),
        other => Err(invalid("annotations", format!("must be an object of MCP ToolAnnotations, not {}", other.type_name()))),
    }
}

fn object<'a>(tag: &str, v: &'a Json) -> Result<&'a Json, ReportError> {
    match v {
        Json::Object(_) => Ok(v),
        other => Err(invalid(tag, format!("must be an object, not {}", other.type_name()))),
    }
}

/// The report's own objects are closed: a member other than `known` is refused at
/// `tag.member`, naming the members the object takes (the same rule as the top level).
pub(crate) fn only_members(tag: &str, v: &Json, known: &[&str]) -> Result<(), ReportError> {
    let Some(members) = v.as_object() else { return Ok(()) };
    match members.items().iter().find(|(key, _)| !known.contains(&key.as_str())) {
        Some((key, _)) => Err(invalid(&format!("{tag}.{key}"), format!("unknown member; expected {}", known.join(", ")))),
        None => Ok(()),
    }
}

fn required_text(tag: &str, v: &Json, key: &str) -> Result<JsonText, ReportError> {
    match v.get(key) {
        Some(Json::String(t)) => Ok(t.clone()),
        Some(other) => Err(invalid(&format!("{tag}.{key}"), format!("must be a string, not {}", other.type_name()))),
        None => Err(invalid(&format!("{tag}.{key}"), "is required")),
    }
}

fn parse_failure(tag: &str, v: &Json) -> Result<Failure, ReportError> {
    match tag {
        // Shape problems inside a tool result are the upstream's; normalization reports them.
        "tool_result" => Ok(Failure::ToolResult(v.clone())),
        "jsonrpc_error" => {
            only_members(tag, object(tag, v)?, &["code", "message", "data"])?;
            parse_jsonrpc_error(v)
        }
        "transport" => {
            only_members(tag, object(tag, v)?, &["kind", "message"])?;
            parse_transport(v)
        }
        "validation" => {
            only_members(tag, object(tag, v)?, &["arguments", "input_schema", "problems", "message"])?;
            parse_validation(v).map(Failure::Validation)
        }
        _ => {
            only_members(tag, object(tag, v)?, &["kind", "message", "retry_after_ms"])?;
            parse_blocked(tag, v)
        }
    }
}

// The readers below are kept out of line: most reports hold a tool result, and V8
// compiles a function whole the first time it runs (docs/PERFORMANCE-js.md).

#[inline(never)]
fn parse_jsonrpc_error(v: &Json) -> Result<Failure, ReportError> {
    let code = match v.get("code") {
        Some(c) => c.as_f64().and_then(exact_integer).ok_or_else(|| invalid("jsonrpc_error.code", "must be an integer"))?,
        None => return Err(invalid("jsonrpc_error.code", "is required")),
    };
    let message = match v.get("message") {
        Some(Json::String(t)) => t.clone(),
        None | Some(Json::Null) => JsonText::whole(""),
        Some(other) => return Err(invalid("jsonrpc_error.message", format!("must be a string, not {}", other.type_name()))),
    };
    Ok(Failure::JsonRpcError { code, message, data: v.get("data").cloned() })
}

#[inline(never)]
fn parse_transport(v: &Json) -> Result<Failure, ReportError> {
    let tag = "transport";
    let kind_text = required_text(tag, v, "kind")?;
    let kind = TransportKind::from_wire(kind_text.head()).ok_or_else(|| {
        let names: Vec<&str> = TransportKind::ALL.iter().map(|k| k.as_str()).collect();
        invalid("transport.kind", format!("unknown transport kind {:?}; expected one of {}", kind_text.head(), names.join(", ")))
    })?;
    let message = match v.get("message") {
        Some(Json::String(t)) => t.clone(),
        Some(other) => return Err(invalid("transport.message", format!("must be a string, not {}", other.type_name()))),
        None => JsonText::whole(""),
    };
    Ok(Failure::Transport { kind, message })
}

/// The report tag of a blocking origin.
fn blocked_tag(origin: Origin) -> &'static str {
    match origin {
        Origin::Policy => "policy",
        Origin::Budget => "budget",
        _ => "code_mode",
    }
}

/// `policy`, `budget` and the code-mode failures: a well-formed kind, a message, maybe a
/// retry delay within [`MAX_RETRY_AFTER_MS`].
fn blocked(origin: Origin, kind: &JsonText, message: JsonText, retry_after_ms: Option<u64>) -> Result<Failure, ReportError> {
    let tag = blocked_tag(origin);
    check_kind(tag, kind)?;
    if retry_after_ms.is_some_and(|ms| ms > MAX_RETRY_AFTER_MS) {
        return Err(retry_after_error(tag));
    }
    Ok(Failure::Blocked { origin, kind: kind.head().to_owned(), message, retry_after_ms })
}

fn check_kind(tag: &str, kind: &JsonText) -> Result<(), ReportError> {
    if !is_well_formed(kind.head()) || !kind.is_complete() {
        return Err(invalid(&format!("{tag}.kind"), "must be 1 to 64 characters of lowercase letters, digits and underscores"));
    }
    Ok(())
}

fn retry_after_error(tag: &str) -> ReportError {
    invalid(&format!("{tag}.retry_after_ms"), format!("must be a whole number of milliseconds from 0 to {MAX_RETRY_AFTER_MS}"))
}

#[inline(never)]
fn parse_blocked(tag: &str, v: &Json) -> Result<Failure, ReportError> {
    let origin = match tag {
        "policy" => Origin::Policy,
        "budget" => Origin::Budget,
        _ => Origin::CodeMode,
    };
    let kind = required_text(tag, v, "kind")?;
    check_kind(tag, &kind)?;
    let message = required_text(tag, v, "message")?;
    let retry_after_ms = match v.get("retry_after_ms") {
        None | Some(Json::Null) => None,
        Some(n) => Some(n.as_i64().and_then(|n| u64::try_from(n).ok()).ok_or_else(|| retry_after_error(tag))?),
    };
    blocked(origin, &kind, message, retry_after_ms)
}

#[inline(never)]
fn parse_validation(v: &Json) -> Result<ValidationFailure, ReportError> {
    let mut out =
        ValidationFailure { arguments: v.get("arguments").cloned(), input_schema: v.get("input_schema").cloned(), ..Default::default() };
    if let Some(m) = v.get("message") {
        out.message = Some(m.as_text().cloned().ok_or_else(|| invalid("validation.message", "must be a string"))?);
    }
    if let Some(problems) = v.get("problems") {
        let list = problems.as_array().ok_or_else(|| invalid("validation.problems", "must be an array of {path, problem}"))?;
        for (i, p) in list.items().iter().enumerate() {
            let at = format!("validation.problems[{i}]");
            only_members(&at, p, &["path", "problem"])?;
            let path = p.get("path").and_then(Json::as_str).ok_or_else(|| invalid(&at, "needs a string `path`"))?;
            let problem = p.get("problem").and_then(Json::as_str).ok_or_else(|| invalid(&at, "needs a string `problem`"))?;
            out.problems.push(ArgumentProblem::new(path, problem));
        }
    }
    out.check()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ReportError {
        FailureReport::from_json(text).unwrap_err()
    }

    #[test]
    fn unknown_tools_are_code_mode_failures_that_quote_a_capped_name() {
        let Failure::Blocked { origin, kind, message, .. } = Failure::unknown_tool(Some("a\"b")) else { panic!("not blocked") };
        assert_eq!(
            (origin, kind.as_str(), message.head()),
            (Origin::CodeMode, "unknown_tool", r#"no tool named "a\"b" in this code-mode catalog"#)
        );
        let long = "x ".repeat(MAX_REQUESTED_NAME * 10);
        let Failure::Blocked { message, .. } = Failure::unknown_tool(Some(&long)) else { panic!("not blocked") };
        assert!(message.head().len() < MAX_REQUESTED_NAME + 60 && message.head().contains("x …\" in"), "{}", message.head());
        // A secret straddling the cut is redacted whole, not cut in half.
        let straddling = format!("{}ghp_abcdefghijklmnopqrstuvwxyz0123456789", "x".repeat(MAX_REQUESTED_NAME - 39));
        let Failure::Blocked { message, .. } = Failure::unknown_tool(Some(&straddling)) else { panic!("not blocked") };
        assert!(!message.head().contains("ghp_"), "{}", message.head());
        let Failure::Blocked { message, .. } = Failure::unknown_tool(None) else { panic!("not blocked") };
        assert_eq!(message.head(), "the requested tool name is not a string");
    }

    /// A policy's token the cut falls in is dropped whole: the message is cleaned again
    /// under the policy, which could no longer recognize a token cut in part.
    #[test]
    fn no_part_of_a_policy_token_survives_the_cut_of_an_unknown_tool_name() {
        let policy = crate::Policy::from_json(
            r#"{"token_formats":[{"family":"acme_token","prefix":"acme_","alphabet":"alnum","min_body_length":24}]}"#,
        )
        .unwrap();
        let normalizer = crate::Normalizer::new(policy);
        let token = "acme_0123456789abcdefghijklmn";
        for filler in MAX_REQUESTED_NAME - 40..MAX_REQUESTED_NAME + 4 {
            let name = format!("{}:{token} tail", "ab ".repeat(filler / 3) + &"c".repeat(filler % 3));
            let report = FailureReport::new(Failure::unknown_tool(Some(&name)));
            let json = normalizer.normalize(&report).error.unwrap().to_json();
            let leaked = (0..token.len() - 6).map(|i| &token[i..i + 6]).find(|part| json.contains(part));
            assert_eq!(leaked, None, "filler {filler}: {json}");
        }
    }

    #[test]
    fn a_full_report_parses() {
        let r = FailureReport::from_json(
            r#"{"tool":"gh::create_issue","annotations":{"readOnlyHint":true,"title":"x"},"dispatched":false,"transport":{"kind":"timeout","message":"no answer"}}"#,
        )
        .unwrap();
        assert_eq!(r.tool.as_ref().map(ToolName::as_str), Some("gh::create_issue"));
        assert_eq!(r.annotations.read_only_hint, Some(true));
        assert_eq!(r.dispatched, Some(false));
        assert!(matches!(r.failure, Failure::Transport { kind: TransportKind::Timeout, .. }));
    }

    #[test]
    fn report_errors_name_the_field() {
        assert!(err(r#"{"tool":"a::b"}"#).message().contains("exactly one failure"));
        assert_eq!(err(r#"{"policy":{"kind":"x","message":"m"},"budget":{"kind":"y","message":"m"}}"#).path(), "budget");
        assert_eq!(err(r#"{"frobnicate":{}}"#).path(), "frobnicate");
        assert_eq!(err(r#"{"transport":{"kind":"gremlins"}}"#).path(), "transport.kind");
        assert_eq!(err(r#"{"tool":"create_issue","transport":{"kind":"dns"}}"#).path(), "tool");
        assert_eq!(err(r#"{"policy":{"kind":"Bad Kind","message":"m"}}"#).path(), "policy.kind");
        assert_eq!(err(r#"{"budget":{"kind":"budget_exceeded","message":"m","retry_after_ms":-1}}"#).path(), "budget.retry_after_ms");
        assert_eq!(err(r#"{"jsonrpc_error":{"code":1.5,"message":"m"}}"#).path(), "jsonrpc_error.code");
        assert_eq!(err(r#"{"validation":{}}"#).path(), "validation");
        assert_eq!(err("[]").code(), ErrorCode::InvalidReport);
        assert_eq!(err(r#"{"dispatched":"yes","transport":{"kind":"dns"}}"#).path(), "dispatched");
    }

    /// The report's own objects are closed at every depth, like its top level; the
    /// upstream's objects it carries (`annotations`, `arguments`, `data`) stay open.
    #[test]
    fn unknown_members_are_refused_at_every_depth_of_the_reports_own_objects() {
        for (report, path) in [
            (r#"{"transport":{"kind":"timeout","mesage":"m"}}"#, "transport.mesage"),
            (r#"{"policy":{"kind":"denied","message":"m","retry_after":5}}"#, "policy.retry_after"),
            (r#"{"budget":{"kind":"budget_exceeded","message":"m","why":1}}"#, "budget.why"),
            (r#"{"code_mode":{"kind":"unknown_tool","message":"m","tool":"a::b"}}"#, "code_mode.tool"),
            (r#"{"jsonrpc_error":{"code":-32602,"message":"m","stack":"at x"}}"#, "jsonrpc_error.stack"),
            (r#"{"validation":{"message":"m","schema":{}}}"#, "validation.schema"),
            (r#"{"validation":{"problems":[{"path":"a","problem":"b","hint":"c"}]}}"#, "validation.problems[0].hint"),
        ] {
            let e = err(report);
            assert_eq!((e.code(), e.path()), (ErrorCode::InvalidReport, path), "{report}");
            assert!(e.message().contains("unknown member; expected"), "{report}: {}", e.message());
        }
        // A member of the wrong type is refused, never read as empty.
        assert_eq!(err(r#"{"jsonrpc_error":{"code":-32000,"message":5}}"#).path(), "jsonrpc_error.message");
        for open in [
            r#"{"annotations":{"title":"Create","readOnlyHint":false},"transport":{"kind":"dns"}}"#,
            r#"{"jsonrpc_error":{"code":-32000,"message":"m","data":{"anything":[1]}}}"#,
            r#"{"input_schema":{"type":"object","x-extension":1},"arguments":{"extra":true},"transport":{"kind":"dns"}}"#,
        ] {
            assert!(FailureReport::from_json(open).is_ok(), "{open}");
        }
    }

    /// A refusal quotes what it refuses; a secret in that is redacted, in the message and
    /// in the path (an unknown member named by a token).
    #[test]
    fn a_refusal_quotes_no_secret() {
        let token = "ghp_PgzhoXTcU2GVMay54IstgdyRsRXB4O7q71dA";
        for report in [
            format!(r#"{{"tool":"{token}","transport":{{"kind":"dns"}}}}"#),
            format!(r#"{{"bogus_{token}":1,"transport":{{"kind":"dns"}}}}"#),
            format!(r#"{{"transport":{{"kind":"{token}"}}}}"#),
            format!(r#"{{"tool":"password={token}x","transport":{{"kind":"dns"}}}}"#),
        ] {
            let refusal = err(&report).to_string();
            assert!(refusal.contains("[REDACTED:") && !refusal.contains("PgzhoXTcU2GVMay54"), "{refusal}");
        }
    }

    #[test]
    fn overlong_tool_names_are_refused() {
        let long = format!("ns::{}", "a".repeat(300));
        assert_eq!(err(&format!(r#"{{"tool":"{long}","transport":{{"kind":"dns"}}}}"#)).path(), "tool");
    }
}
