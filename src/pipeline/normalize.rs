//! The pipeline: a failure report in, an [`Outcome`] out.

use crate::error::ReportError;
use crate::evidence::{describe_block, mistyped_member, render_json, split_secrets, JsonCaps};
use crate::input::call_error::{call_error_under, message_json};
use crate::input::failure_report::MAX_RETRY_AFTER_MS;
use crate::input::failure_report::MAX_TOOL_NAME;
use crate::input::{Failure, FailureReport, ValidationFailure};
use crate::json::{exact_integer, parse_json, Json, JsonBuilder, JsonList, JsonText};
use crate::pipeline::message::{clean_problem, compose_message, short_cause, MAX_CAUSE};
use crate::rules::arguments::{argument_kind, arguments_named_in, check_arguments, ArgumentProblem, CallView, MAX_INVALID_ARGUMENTS};
use crate::rules::classify::{jsonrpc_code, transport_kind};
use crate::rules::kinds::{canonicalize, clean_kind, sanitize_original, Advice, Kind};
use crate::rules::policy::Policy;
use crate::rules::recognize::{recognize, status_kind, Recognition, RuleId};
use crate::rules::recovery::{advice_for, recovery, side_effects, AdviceInput};
use crate::rules::shrink::fit_to_cap;
use crate::search;
use crate::text::{clean_whole, clean_whole_if_changed, one_line, qualified_label, CustomRules, Redactions, SafeText};
use crate::wire::{
    Breaker, CodeModeCallError, ContentDescriptor, Evidence, InvalidArgument, KindSource, Origin, Outcome, RecoveryAction, SameArguments,
    CONTRACT_VERSION,
};

/// Turns failure reports into outcomes under one [`Policy`]. Cheap to build and to share:
/// rule tables are compiled once per process.
///
/// ```
/// use codemode_errors::{Normalizer, Policy};
/// let normalizer = Normalizer::new(Policy::default());
/// let outcome = normalizer
///     .normalize_json(r#"{"tool":"fs::read_file","tool_result":{"content":[{"type":"text","text":"ENOENT: no such file"}],"isError":true}}"#)
///     .unwrap();
/// let error = outcome.error.unwrap();
/// assert_eq!(error.kind, "not_found");
/// assert_eq!(error.origin.as_str(), "tool_execution");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Normalizer {
    policy: Policy,
}

/// Everything decided about a failure before the message and size cap.
struct Draft {
    origin: Origin,
    kind: String,
    kind_source: KindSource,
    /// The recognition rule that decided the kind, when one did.
    recognized_by: Option<RuleId>,
    original_kind: Option<SafeText>,
    breaker: Breaker,
    retry_after_ms: Option<u64>,
    advice: Option<Advice>,
    /// As found; cleaned when the error is finished.
    invalid_arguments: Vec<ArgumentProblem>,
    cause: Option<SafeText>,
    evidence: Evidence,
    counts: Redactions,
}

impl Draft {
    fn new(origin: Origin, kind: &str, kind_source: KindSource, breaker: Breaker) -> Self {
        Draft {
            origin,
            kind: kind.to_owned(),
            kind_source,
            recognized_by: None,
            original_kind: None,
            breaker,
            retry_after_ms: None,
            advice: None,
            invalid_arguments: Vec::new(),
            cause: None,
            evidence: Evidence::default(),
            counts: Redactions::default(),
        }
    }

    /// Let recognized text sharpen a kind that is not already specific.
    fn sharpen(&mut self, found: Recognition) {
        self.kind = found.kind.as_str().to_owned();
        self.kind_source = KindSource::Recognized;
        self.recognized_by = Some(found.rule);
        self.advice = found.advice;
        self.retry_after_ms = self.retry_after_ms.or(found.retry_after_ms);
        if self.invalid_arguments.is_empty() {
            self.invalid_arguments = found.invalid_arguments;
        }
    }

    fn set_cause(&mut self, text: &str, custom: &CustomRules) {
        self.cause = short_cause(text, custom, &mut self.counts);
    }
}

impl Normalizer {
    /// A normalizer applying `policy`.
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy};
    /// let normalizer = Normalizer::new(Policy::from_json(r#"{"secret_keys": ["acme_session"]}"#)?);
    /// assert_eq!(normalizer.redact_text("acme_session=s3cr3t"), "acme_session=[REDACTED:secret_field]");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn new(policy: Policy) -> Self {
        Normalizer { policy }
    }

    /// The policy in force.
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Policy};
    /// let normalizer = Normalizer::new(Policy::from_json(r#"{"max_text_chars": 2048}"#)?);
    /// assert_eq!(normalizer.policy().max_text_chars(), 2048);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The policy's additions to the redaction rules.
    fn custom(&self) -> &CustomRules {
        self.policy.custom_rules()
    }

    /// Normalize a report given as JSON text.
    ///
    /// ```
    /// let normalizer = codemode_errors::Normalizer::default();
    /// let outcome = normalizer.normalize_json(r#"{"tool":"kv::get","code_mode":{"kind":"unknown_tool","message":"no tool kv::gett"}}"#)?;
    /// assert_eq!(outcome.breaker.as_str(), "none"); // the upstream was not involved
    /// assert_eq!(normalizer.normalize_json("[]").unwrap_err().code().as_str(), "invalid_report");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn normalize_json(&self, report: &str) -> Result<Outcome, ReportError> {
        self.normalize_value(&parse_json(report)?)
    }

    /// Normalize a report given as a bounded JSON value.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Normalizer};
    /// let report = parse_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"m"}}"#)?;
    /// assert_eq!(Normalizer::default().normalize_value(&report)?.error.unwrap().kind, "timeout");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn normalize_value(&self, report: &Json) -> Result<Outcome, ReportError> {
        Ok(self.normalize(&FailureReport::from_value(report)?))
    }

    /// Normalize a parsed report. Never fails: every report has an outcome.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Failure, FailureReport, Normalizer};
    /// let result = parse_json(r#"{"content":[{"type":"text","text":"done"}]}"#)?;
    /// let outcome = Normalizer::default().normalize(&FailureReport::new(Failure::tool_result(result)));
    /// assert!(outcome.error.is_none()); // a successful result is no failure
    /// assert_eq!(outcome.breaker.as_str(), "success");
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn normalize(&self, report: &FailureReport) -> Outcome {
        let draft = match &report.failure {
            Failure::ToolResult(result) => match self.tool_result(result, call_view(report)) {
                Some(draft) => draft,
                None => return Outcome { error: None, breaker: Breaker::Success },
            },
            Failure::JsonRpcError { code, message, data } => self.jsonrpc_error(*code, message, data.as_ref(), call_view(report)),
            Failure::Transport { kind, message } => {
                let (kind, breaker) = transport_kind(*kind);
                let mut d = Draft::new(Origin::UpstreamTransport, kind.as_str(), KindSource::Structured, breaker);
                d.set_cause(message.head(), self.custom());
                d
            }
            Failure::Validation(v) => self.validation(v),
            Failure::Blocked { origin, kind, message, retry_after_ms } => {
                let mut d = Draft::new(*origin, kind, KindSource::Structured, Breaker::None);
                d.retry_after_ms = *retry_after_ms;
                d.set_cause(message.head(), self.custom());
                d
            }
        };
        let breaker = draft.breaker;
        Outcome { error: Some(self.finish(report, draft)), breaker }
    }

    fn finish(&self, report: &FailureReport, mut d: Draft) -> CodeModeCallError {
        // A tool result's text gives `unknown_tool` only when it names the called tool: a
        // server saying some other tool is missing did not say this one is.
        if d.recognized_by == Some(RuleId::ToolNotFound) && d.origin == Origin::ToolExecution {
            if let (Some(tool), Some(cause)) = (&report.tool, &d.cause) {
                let name = tool.as_str().rsplit("::").next().unwrap_or(tool.as_str());
                // "Unknown tool" with no name after it is about the call it answers.
                if !search::contains_ignore_ascii_case(cause, &name.to_ascii_lowercase()) && !names_no_tool(cause) {
                    d.kind = Kind::ToolError.as_str().to_owned();
                    d.kind_source = KindSource::Default;
                    d.recognized_by = None;
                    d.advice = None;
                }
            }
        }
        // The tool's own text about its arguments, read against its schema.
        if let (Some(call), true) = (&report.call, d.invalid_arguments.is_empty()) {
            if let (Some(kind), Some(cause)) = (Kind::stable(&d.kind), &d.cause) {
                d.invalid_arguments = arguments_named_in(cause, kind, &call.input_schema, call.arguments.as_ref());
            }
        }
        // Argument problems are untrusted text whatever their source (SDK messages, hosts).
        let custom = self.custom();
        // A path that reads as nothing (the arguments object itself, or text the cleaning
        // removes) names no argument: left out.
        let invalid_arguments: Vec<InvalidArgument> = d
            .invalid_arguments
            .iter()
            .filter(|p| !p.path.trim().is_empty())
            .map(|p| clean_problem(p, custom, &mut d.counts))
            .filter(|a| !a.path.trim().is_empty())
            .collect();
        // A tool name the report reader accepted can still hold a secret or a marker.
        let tool = report.tool.as_ref().map(|t| qualified_label(t.as_str(), MAX_TOOL_NAME, custom, &mut d.counts));
        // Kinds are the table's, checked host kinds or stable upstream kinds: identifiers.
        // A host's kind can still have a token's shape: then the kind is `tool_error` and
        // the host's, redacted, is the original kind (as the reader reads it back).
        let kind = match clean_kind(&d.kind, custom) {
            Some(kind) => kind,
            None => {
                if d.original_kind.is_none() {
                    d.original_kind = sanitize_original(&d.kind, custom, &mut d.counts);
                }
                Kind::ToolError.name()
            }
        };
        let safety = report.annotations;
        let recovery = recovery(AdviceInput {
            kind: &d.kind,
            origin: d.origin,
            override_advice: d.advice,
            safety,
            dispatched: report.dispatched,
            retry_after_ms: d.retry_after_ms,
        });
        let effects = side_effects(d.origin, &d.kind, safety, report.dispatched);
        let message = compose_message(tool.as_ref(), d.origin, &kind, &recovery, effects, d.cause.as_ref(), custom);
        d.evidence.redactions = d.counts.to_pairs();
        let mut error = CodeModeCallError {
            contract_version: CONTRACT_VERSION,
            kind,
            message,
            tool,
            origin: d.origin,
            recovery,
            side_effects: effects,
            original_kind: d.original_kind,
            kind_source: Some(d.kind_source),
            recognized_by: d.recognized_by.and_then(|r| SafeText::identifier(r.as_str())),
            cause: d.cause,
            safety: Some(safety).filter(|s| !s.is_empty()),
            dispatched: report.dispatched,
            invalid_arguments,
            evidence: Some(d.evidence).filter(|e| !e.is_empty()),
        };
        fit_to_cap(&mut error, self.policy.max_error_bytes(), custom);
        error
    }

    /// `None`: not a failure. A malformed result is a `decode_error` draft.
    fn tool_result(&self, result: &Json, call: Option<CallView<'_>>) -> Option<Draft> {
        if result.as_object().is_none() {
            return Some(self.malformed_value("tool_result", None, result, "a CallToolResult object"));
        }
        match result.get("resultType") {
            None | Some(Json::Null) => {}
            Some(Json::String(t)) if t.head() == "input_required" => return None,
            Some(Json::String(_)) => {}
            Some(other) => return Some(self.malformed_value("tool_result.resultType", None, other, "a string")),
        }
        let empty = JsonList::new(Vec::new(), 0);
        let content = match result.get("content") {
            None | Some(Json::Null) => &empty,
            Some(Json::Array(list)) => list,
            Some(other) => return Some(self.malformed_value("tool_result.content", None, other, "an array")),
        };
        let shown = &content.items()[..content.items().len().min(self.policy.max_content_blocks())];
        let mut types = Vec::with_capacity(shown.len());
        for (i, block) in shown.iter().enumerate() {
            match block.get("type") {
                Some(Json::String(t)) => match mistyped_member(block, t.head()) {
                    Some((member, value, expected)) => {
                        return Some(self.malformed_value("tool_result.content", Some((i, member)), value, expected))
                    }
                    None => types.push(t.head()),
                },
                Some(other) => return Some(self.malformed_value("tool_result.content", Some((i, ".type")), other, "a string")),
                None if block.as_object().is_some() => return Some(self.malformed_block(i)),
                None => return Some(self.malformed_value("tool_result.content", Some((i, "")), block, "a content block")),
            }
        }
        match result.get("isError") {
            None | Some(Json::Null) | Some(Json::Bool(false)) => return None,
            Some(Json::Bool(true)) => {}
            Some(other) => return Some(self.malformed_value("tool_result.isError", None, other, "a boolean")),
        }

        let mut d = Draft::new(Origin::ToolExecution, Kind::ToolError.as_str(), KindSource::Default, Breaker::Success);
        let shown_refs: Vec<&Json> = shown.iter().collect();
        let custom = self.custom();
        let rejoined = split_secrets(&shown_refs, &types, custom, &mut d.counts);
        for ((block, ty), rejoined) in shown.iter().zip(&types).zip(&rejoined) {
            d.evidence.content.push(describe_block(rejoined.as_ref().unwrap_or(block), ty, &self.policy, &mut d.counts));
        }
        d.evidence.omitted_content_blocks = content.total() - shown.len();
        let structured = result.get("structuredContent").filter(|v| !matches!(v, Json::Null));
        if let Some(sc) = structured {
            d.evidence.structured_content = Some(render_json(sc, JsonCaps::structured(&self.policy), custom, &mut d.counts));
        }

        let first_text = shown.iter().zip(&types).find(|(_, t)| **t == "text").and_then(|(b, _)| b.get("text")).and_then(Json::as_text);
        let parsed_from_text = first_text.and_then(|t| self.error_object_in_text(t));
        let found = structured.and_then(error_object).or(parsed_from_text.as_ref().and_then(error_object));
        let mut recognition_text = first_text.map(JsonText::head).unwrap_or("");
        if let Some(err) = found {
            d.evidence.parsed_error = Some(render_json(err, JsonCaps::parsed_error(&self.policy), custom, &mut d.counts));
            if let Some(raw) = err.get("kind").and_then(Json::as_str) {
                let c = canonicalize(raw, custom, &mut d.counts);
                d.kind = c.kind.into_string();
                d.original_kind = c.original;
                d.kind_source = KindSource::Structured;
            }
            if d.kind_source == KindSource::Default {
                // An HTTP API's error body: its status is a structured signal.
                if let Some((kind, advice)) = http_status_field(err).and_then(|s| status_kind(&s)) {
                    d.kind = kind.as_str().to_owned();
                    d.advice = advice;
                    d.kind_source = KindSource::Structured;
                }
            }
            d.retry_after_ms = err.get("retry_after_ms").and_then(retry_after);
            if let Some(m) = err.get("message").and_then(Json::as_str) {
                recognition_text = m;
            }
        }
        if let Some(hint) = result.get("_meta").and_then(|m| m.get(TOOL_FAILURE_META)).filter(|h| h.as_object().is_some()) {
            tool_failure_hint(&mut d, hint, &self.policy);
        }
        if d.kind_source == KindSource::Default {
            if let Some(found) = recognize(recognition_text, call) {
                d.sharpen(found);
            }
        }
        let structured_message = found.and_then(|e| e.get("message")).and_then(Json::as_str);
        // A cause from the first text block reuses its evidence, already sanitized and redacted.
        let first_block = types.iter().position(|t| *t == "text").map(|i| &d.evidence.content[i]);
        let first_evidence = first_block.and_then(ContentDescriptor::shown_text).map(|t| (&t.text, t.original_length.is_some()));
        match (structured_message, first_evidence) {
            (Some(m), _) => d.set_cause(m, custom),
            (None, Some((t, cut))) if !t.trim().is_empty() => d.cause = Some(one_line(t, MAX_CAUSE, cut, custom)),
            _ => d.set_cause("the tool reported isError without any text", custom),
        }
        Some(d)
    }

    /// A JSON error object in a text block: only blocks within the parse cap are tried.
    fn error_object_in_text(&self, text: &JsonText) -> Option<Json> {
        if !text.is_complete() || text.total_utf16() > self.policy.max_parse_chars() || !text.head().trim_start().starts_with('{') {
            return None;
        }
        parse_json(text.head()).ok().filter(|v| v.as_object().is_some())
    }

    // Kept out of line: most first calls are tool results, and V8 compiles a function
    // whole the first time it runs (docs/PERFORMANCE-js.md).
    #[inline(never)]
    fn jsonrpc_error(&self, code: i64, message: &JsonText, data: Option<&Json>, call: Option<CallView<'_>>) -> Draft {
        let mut d = match jsonrpc_code(code) {
            Some(r) => Draft::new(r.origin, r.kind.as_str(), KindSource::Structured, r.breaker),
            None => Draft::new(Origin::ToolExecution, Kind::ToolError.as_str(), KindSource::Default, Breaker::Success),
        };
        let data_kind = data.and_then(|v| v.get("kind")).and_then(Json::as_str);
        match data_kind {
            Some(k) if Kind::stable(k).is_some() => {
                d.kind = k.to_owned();
                d.kind_source = KindSource::Structured;
            }
            Some(k) => d.original_kind = sanitize_original(k, self.custom(), &mut d.counts),
            None => {}
        }
        // MCP 2026-07-28 reports a resource that does not exist as invalid params with the
        // URI in `data`: the object is missing, not the arguments malformed.
        if code == -32602 && data_kind.is_none() && data.and_then(|v| v.get("uri")).and_then(Json::as_str).is_some() {
            d.kind = Kind::NotFound.as_str().to_owned();
            d.origin = Origin::ToolExecution;
        }
        d.retry_after_ms = data.and_then(|v| v.get("retry_after_ms")).and_then(retry_after);
        // Recognition may sharpen the generic readings of a code, never a specific one.
        let generic = d.kind_source == KindSource::Default
            || (data_kind.is_none_or(|k| Kind::stable(k).is_none())
                && matches!(code, -32602 | -32603)
                && d.kind != Kind::NotFound.as_str());
        // An invalid request (-32600) is the gateway's, except a server's own answer that the
        // tool does not exist, which some frameworks send with this code.
        let found = if generic || code == -32600 { recognize(message.head(), call) } else { None };
        let found = found.filter(|f| generic || f.kind == Kind::UnknownTool);
        if let Some(found) = found {
            if found.kind == Kind::UnknownTool && (-32602..=-32600).contains(&code) {
                d.origin = Origin::CodeMode;
            }
            if code == -32602 && matches!(found.rule, RuleId::SdkInputValidation | RuleId::ValidatorOutput) {
                // Keep the structured kind (`invalid_param`) unless only arguments are
                // missing; take the named arguments.
                d.kind = found.kind.as_str().to_owned();
                d.invalid_arguments = found.invalid_arguments;
            } else if code != -32602 || matches!(found.kind, Kind::UnknownTool | Kind::NotFound) {
                // -32602 is "invalid params" to JSON-RPC; a server naming what a parameter
                // points to as missing says more: `not_found`. A server that answers with
                // an error of its own because its backend is unreachable: outside a
                // completed result, that is what `upstream_error` names (retry later).
                let mut found = found;
                if found.rule == RuleId::BackendUnreachable {
                    found.kind = Kind::UpstreamError;
                    found.advice = None;
                }
                d.sharpen(found);
            }
        }
        let mut members = vec![("code".to_owned(), Json::Number(code as f64)), ("message".to_owned(), Json::String(message.clone()))];
        if let Some(data) = data {
            members.push(("data".to_owned(), data.clone()));
        }
        let object = JsonBuilder::object(members, if data.is_some() { 3 } else { 2 });
        d.evidence.parsed_error = Some(render_json(&object, JsonCaps::parsed_error(&self.policy), self.custom(), &mut d.counts));
        // The SDKs already prefix "MCP error <code>:"; do not say it twice. The whole head
        // goes to the cause, which redacts before it cuts: a cut here would come before
        // redaction, and whitespace the cause collapses can bring text from past any fixed
        // cut into view, a secret's first part with it.
        let head = message.head();
        let sdk_prefix = format!("MCP error {code}:");
        if head.starts_with(&sdk_prefix) {
            d.set_cause(head, self.custom());
        } else {
            d.set_cause(&format!("JSON-RPC error {code}: {head}"), self.custom());
        }
        d
    }

    /// Sanitize and redact free text, without capping it.
    ///
    /// ```
    /// let n = codemode_errors::Normalizer::default();
    /// assert_eq!(n.redact_text("token=abc123\u{202E}"), "token=[REDACTED:secret_field]");
    /// ```
    pub fn redact_text(&self, text: &str) -> String {
        let mut counts = Redactions::default();
        self.redact_text_counted(text, &mut counts)
    }

    /// [`Normalizer::redact_text`], or `None` when the text comes out exactly as it went in:
    /// a caller that holds the text keeps it, and a long clean text is neither copied nor
    /// compared.
    ///
    /// ```
    /// let n = codemode_errors::Normalizer::default();
    /// assert_eq!(n.redact_text_if_changed("GET /v1/items?page=2 200"), None);
    /// assert_eq!(n.redact_text_if_changed("password=hunter2").as_deref(), Some("password=[REDACTED:secret_field]"));
    /// ```
    pub fn redact_text_if_changed(&self, text: &str) -> Option<String> {
        let mut counts = Redactions::default();
        clean_whole_if_changed(text, self.custom(), &mut counts).map(SafeText::into_string)
    }

    /// [`Normalizer::redact_text`], counting redactions by family.
    ///
    /// ```
    /// use codemode_errors::{Normalizer, Redactions};
    /// let mut counts = Redactions::default();
    /// let clean = Normalizer::default().redact_text_counted("password=a1 secret=b2", &mut counts);
    /// assert_eq!(clean, "password=[REDACTED:secret_field] secret=[REDACTED:secret_field]");
    /// assert_eq!(counts.get("secret_field"), 2);
    /// ```
    pub fn redact_text_counted(&self, text: &str, counts: &mut Redactions) -> String {
        clean_whole(text, self.custom(), counts).into_string()
    }

    /// A redacted copy of a JSON value: members whose keys name secrets are replaced and
    /// every string is redacted as free text. Only the reader's input limits apply.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Normalizer};
    /// let value = parse_json(r#"{"headers":{"Authorization":"Bearer abc.def.ghi"},"note":"token=xyz"}"#)?;
    /// let clean = Normalizer::default().redact_json(&value);
    /// assert_eq!(clean.to_json(), r#"{"headers":{"Authorization":"[REDACTED:secret_field]"},"note":"token=[REDACTED:secret_field]"}"#);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn redact_json(&self, value: &Json) -> Json {
        let mut counts = Redactions::default();
        render_json(value, JsonCaps::unbounded(), self.custom(), &mut counts).into_json()
    }

    /// Read a contract object back from `Error.message`, as the free
    /// [`parse_call_error`](crate::parse_call_error) does, but with its texts cleaned under
    /// this normalizer's policy: an object it made reads back byte for byte, what its
    /// policy's `allow` and `allow_keys` let pass included (the free reader knows no
    /// policy, so it redacts them).
    ///
    /// ```
    /// use codemode_errors::{parse_call_error, Normalizer, Policy};
    /// let n = Normalizer::new(Policy::from_json(r#"{"allow": ["pk_demo_0000"]}"#)?);
    /// let error = n.normalize_json(r#"{"tool":"a::b","transport":{"kind":"timeout","message":"api_key=pk_demo_0000"}}"#)?.error.unwrap();
    /// assert_eq!(n.parse_call_error(&error.to_json())?, error);
    /// assert_ne!(parse_call_error(&error.to_json())?, error);
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn parse_call_error(&self, message: &str) -> Result<CodeModeCallError, ReportError> {
        self.call_error_from_value(&message_json(message)?)
    }

    /// [`Normalizer::parse_call_error`] of an already-read JSON value.
    ///
    /// ```
    /// use codemode_errors::{parse_json, Normalizer};
    /// let value = parse_json(r#"{"kind":"Timeout!","message":"no answer"}"#)?;
    /// let error = Normalizer::default().call_error_from_value(&value)?;
    /// assert_eq!(error.kind, "tool_error"); // a kind that is no identifier
    /// assert_eq!(error.original_kind.as_deref(), Some("Timeout!"));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn call_error_from_value(&self, value: &Json) -> Result<CodeModeCallError, ReportError> {
        call_error_under(value, self.custom())
    }
}

impl Normalizer {
    /// The outcome for a result the upstream sent malformed.
    /// [`Normalizer::malformed`] for a member of the wrong type: `path` (with an item's
    /// index and the rest of its path, when one is given) is `value`, not `expected`. Out
    /// of line, with its formatting, so a well-formed result's path compiles none of it.
    #[cold]
    #[inline(never)]
    fn malformed_value(&self, path: &str, item: Option<(usize, &str)>, value: &Json, expected: &str) -> Draft {
        let path = match item {
            Some((i, rest)) => format!("{path}[{i}]{rest}"),
            None => path.to_owned(),
        };
        self.malformed(&path, &format!("is {}, not {expected}", value.type_name()))
    }

    /// A content block without a `type`.
    #[cold]
    #[inline(never)]
    fn malformed_block(&self, i: usize) -> Draft {
        self.malformed(&format!("tool_result.content[{i}]"), "has no `type`")
    }

    #[inline(never)]
    fn malformed(&self, path: &str, problem: &str) -> Draft {
        let mut d = Draft::new(Origin::UpstreamTransport, Kind::DecodeError.as_str(), KindSource::Structured, Breaker::Failure);
        d.set_cause(&format!("malformed tool result: {path} {problem}"), self.custom());
        d
    }

    /// Kept out of line, as [`Normalizer::jsonrpc_error`].
    #[inline(never)]
    fn validation(&self, v: &ValidationFailure) -> Draft {
        let mut problems = v.problems.clone();
        if let (Some(args), Some(schema)) = (&v.arguments, &v.input_schema) {
            problems.extend(check_arguments(args, schema));
        }
        problems.truncate(MAX_INVALID_ARGUMENTS);
        let kind = argument_kind(&problems).unwrap_or(Kind::ValidationFailed);
        let mut d = Draft::new(Origin::Validation, kind.as_str(), KindSource::Structured, Breaker::None);
        let summary = match &v.message {
            Some(m) => m.head().to_owned(),
            None if problems.is_empty() => "the arguments do not satisfy the tool's input schema".to_owned(),
            None => {
                // The summary is cut from cleaned problems (their redactions are counted when
                // the error is finished), then cleaned again as the cause.
                let mut uncounted = Redactions::default();
                let shown: Vec<String> = problems
                    .iter()
                    .take(4)
                    .map(|p| clean_problem(p, self.custom(), &mut uncounted))
                    .map(|a| format!("{} ({})", if a.path.is_empty() { "arguments" } else { &a.path }, a.problem))
                    .collect();
                shown.join("; ")
            }
        };
        d.invalid_arguments = problems;
        d.set_cause(&summary, self.custom());
        d
    }
}

/// Whether a text's "unknown tool" stands without a name after it (at its end, or before
/// a full stop or a line break): it is about the call it answers.
fn names_no_tool(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let bare = search::positions(&lower, "unknown tool").any(|at| {
        let rest = lower[at + "unknown tool".len()..].trim_start_matches([' ', '\t']);
        rest.is_empty() || rest.starts_with(['.', '\n', '\r', ';', ')']) || rest.trim_start_matches(':').trim().is_empty()
    });
    bare
}

/// The call a report carries, as recognition reads it.
fn call_view(report: &FailureReport) -> Option<CallView<'_>> {
    report.call.as_ref().map(|c| CallView { schema: &c.input_schema, arguments: c.arguments.as_ref() })
}

/// The `_meta` key of the draft MCP tool-failure metadata.
const TOOL_FAILURE_META: &str = "io.modelcontextprotocol/toolFailure";

/// Read the draft tool-failure metadata (`class`, `code`, `retryable`, `retryNotBefore`,
/// `correlationId`, `agentGuidance`) as an untrusted hint, like `structuredContent.error`:
/// `class` (else `code`) may give the kind when nothing structured did; `retryable: false`
/// makes the advice stricter (never repeat the same call, no retry-later), `true` never
/// makes it safer; a numeric `retryNotBefore` (milliseconds) gives the timing when none
/// is known (a timestamp needs a clock the core does not read); the object itself, with
/// `correlationId`, is kept sanitized as the parsed error when there is none.
fn tool_failure_hint(d: &mut Draft, hint: &Json, policy: &Policy) {
    if d.kind_source == KindSource::Default {
        let raw = hint.get("class").and_then(Json::as_str).or_else(|| hint.get("code").and_then(Json::as_str));
        if let Some(raw) = raw {
            let c = canonicalize(raw, policy.custom_rules(), &mut d.counts);
            if c.kind.as_str() != Kind::ToolError.as_str() {
                d.kind = c.kind.into_string();
                d.kind_source = KindSource::Structured;
            }
            d.original_kind = d.original_kind.take().or(c.original);
        }
    }
    if hint.get("retryable").and_then(Json::as_bool) == Some(false) {
        let (action, _) = d.advice.unwrap_or_else(|| advice_for(&d.kind, d.origin));
        let action = if action == RecoveryAction::RetryLater { RecoveryAction::ReviseAndRetry } else { action };
        d.advice = Some((action, SameArguments::Never));
    }
    if d.retry_after_ms.is_none() {
        d.retry_after_ms = hint.get("retryNotBefore").and_then(retry_after);
    }
    if d.evidence.parsed_error.is_none() {
        d.evidence.parsed_error = Some(render_json(hint, JsonCaps::parsed_error(policy), policy.custom_rules(), &mut d.counts));
    }
}

/// The structured error object in a value: its `error` member when that is an object,
/// else the value itself when it carries a `kind` or `message`.
fn error_object(value: &Json) -> Option<&Json> {
    let carries = |v: &Json| v.get("kind").and_then(Json::as_str).is_some() || v.get("message").and_then(Json::as_str).is_some();
    match value.get("error") {
        Some(inner) if inner.as_object().is_some() && carries(inner) => Some(inner),
        _ if value.as_object().is_some() && carries(value) => Some(value),
        _ => None,
    }
}

/// A 3-digit HTTP status in an error object's `status`, `status_code` or `statusCode`.
fn http_status_field(err: &Json) -> Option<String> {
    let value = ["status", "status_code", "statusCode"].iter().find_map(|k| err.get(k))?;
    let text = match value {
        Json::Number(n) => exact_integer(*n)?.to_string(),
        Json::String(t) => t.head().trim().to_owned(),
        _ => return None,
    };
    (text.len() == 3 && text.bytes().all(|b| b.is_ascii_digit())).then_some(text)
}

fn retry_after(v: &Json) -> Option<u64> {
    v.as_f64().and_then(exact_integer).and_then(|n| u64::try_from(n).ok()).filter(|n| *n <= MAX_RETRY_AFTER_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(report: &str) -> Outcome {
        Normalizer::default().normalize_json(report).unwrap()
    }

    #[test]
    fn successes_and_input_required_are_not_errors() {
        for r in [
            r#"{"tool_result":{"content":[{"type":"text","text":"ok"}]}}"#,
            r#"{"tool_result":{"content":[],"isError":false}}"#,
            r#"{"tool_result":{"resultType":"input_required","inputRequests":{}}}"#,
        ] {
            assert_eq!(outcome(r).to_json(), r#"{"error":null,"breaker":"success"}"#);
        }
    }

    /// A host's kind is checked for its alphabet, which a token's shape can have: such a
    /// kind reaches the model as `tool_error`, the host's redacted beside it, and reads
    /// back unchanged.
    #[test]
    fn a_host_kind_shaped_like_a_token_is_redacted() {
        for (tag, token, family) in [
            ("budget", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github_token"),
            ("policy", "github_pat_bb2l48ys11wrv___________v4", "github_token"),
        ] {
            let report = format!(r#"{{"tool":"gh::push","{tag}":{{"kind":"{token}","message":"blocked"}}}}"#);
            let e = outcome(&report).error.unwrap();
            let json = e.to_json();
            assert!(!json.contains(token), "{json}");
            assert_eq!(e.kind, "tool_error", "{json}");
            assert_eq!(e.original_kind.as_deref(), Some(format!("[REDACTED:{family}]").as_str()), "{json}");
            assert_eq!(crate::parse_call_error(&json).unwrap().to_json(), json);
        }
        // A kind without one is kept as the host wrote it.
        let e = outcome(r#"{"tool":"gh::push","budget":{"kind":"monthly_quota_2026","message":"spent"}}"#).error.unwrap();
        assert_eq!((e.kind.as_str(), e.original_kind), ("monthly_quota_2026", None));
    }

    #[test]
    fn completed_errors_never_trip_the_breaker() {
        let o = outcome(
            r#"{"tool_result":{"content":[{"type":"text","text":"{\"kind\":\"network_error\",\"message\":\"boom\"}"}],"isError":true}}"#,
        );
        assert_eq!(o.breaker, Breaker::Success);
        let e = o.error.unwrap();
        assert_eq!((e.kind.as_str(), e.original_kind.as_deref(), e.origin), ("tool_error", Some("network_error"), Origin::ToolExecution));
    }

    #[test]
    fn malformed_results_are_decode_errors() {
        let o = outcome(r#"{"tool_result":{"content":[{"text":"no type"}],"isError":true}}"#);
        let e = o.error.unwrap();
        assert_eq!(e.kind, "decode_error");
        assert_eq!(o.breaker, Breaker::Failure);
        assert!(e.cause.unwrap().contains("tool_result.content[0]"));
    }

    /// A member the evidence reads, present with a type MCP does not give it, is the
    /// upstream's malformed result (named), never read as empty; unknown members are not.
    #[test]
    fn mistyped_block_members_are_named_decode_errors() {
        for (block, path) in [
            (r#"{"type":"text","text":5}"#, "tool_result.content[1].text is number, not a string"),
            (r#"{"type":"image","data":"AAAA","mimeType":["image/png"]}"#, "tool_result.content[1].mimeType is array"),
            (r#"{"type":"resource","resource":"file:///a"}"#, "tool_result.content[1].resource is string, not an object"),
            (r#"{"type":"resource","resource":{"uri":"file:///a","text":{"t":1}}}"#, "tool_result.content[1].resource.text is object"),
            (r#"{"type":"resource_link","uri":7,"name":"a"}"#, "tool_result.content[1].uri is number"),
        ] {
            let report = format!(r#"{{"tool_result":{{"content":[{{"type":"text","text":"ok"}},{block}],"isError":true}}}}"#);
            let e = outcome(&report).error.unwrap();
            assert_eq!(e.kind, "decode_error", "{block}");
            assert!(e.cause.as_deref().unwrap_or("").contains(path), "{block}: {:?}", e.cause);
        }
        let open =
            r#"{"tool_result":{"content":[{"type":"text","text":"boom","annotations":{"priority":1},"_meta":{"x":1}}],"isError":true}}"#;
        assert_eq!(outcome(open).error.unwrap().kind, "tool_error");
    }

    #[test]
    fn redact_json_handles_any_text_without_caps() {
        let n = Normalizer::default();
        let v = parse_json(r#"{"note":"café ☕","password":"p","list":["ghp_abcdefghijklmnopqrstuvwxyz0123456789"]}"#).unwrap();
        assert_eq!(
            n.redact_json(&v).to_string(),
            r#"{"list":["[REDACTED:github_token]"],"note":"café ☕","password":"[REDACTED:secret_field]"}"#
        );
    }

    /// A policy's rules reach every text and value a normalizer cleans.
    #[test]
    fn a_policys_rules_apply_wherever_the_normalizer_redacts() {
        let policy = Policy::from_json(
            r#"{"secret_keys": ["acme_session"], "allow": ["pk_demo_0000"], "allow_keys": ["token_budget"],
                "token_formats": [{"family": "acme_token", "prefix": "acme_", "alphabet": "alnum", "min_body_length": 24}]}"#,
        )
        .unwrap();
        let n = Normalizer::new(policy);
        let token = "acme_0123456789abcdefghijklmn";
        let report = format!(
            r#"{{"tool":"a::b","tool_result":{{"isError":true,"content":[{{"type":"text","text":"{{\"message\":\"sent {token}, AcmeSession: s3cr3t\"}}"}}],
              "structuredContent":{{"acmeSessions":"abc","token_budget":5,"api_key":"pk_demo_0000","password":"pk_demo_0000x","note":"{token}"}}}}}}"#
        );
        let e = n.normalize_json(&report).unwrap().error.unwrap();
        let json = e.to_json();
        assert!(!json.contains(token) && !json.contains("s3cr3t") && !json.contains("pk_demo_0000x"), "{json}");
        assert_eq!(e.cause.as_deref(), Some("sent [REDACTED:acme_token], AcmeSession: [REDACTED:secret_field]"));
        let structured = e.evidence.as_ref().unwrap().structured_content.as_ref().unwrap().to_json();
        assert_eq!(
            structured,
            r#"{"acmeSessions":"[REDACTED:secret_field]","api_key":"pk_demo_0000","note":"[REDACTED:acme_token]","password":"[REDACTED:secret_field]","token_budget":5}"#
        );
        let redactions = &e.evidence.as_ref().unwrap().redactions;
        assert!(redactions.iter().any(|(f, n)| f.as_str() == "acme_token" && *n >= 2), "{redactions:?}");
        assert_eq!(n.parse_call_error(&json).unwrap().to_json(), json);
        // The free functions know no policy.
        assert_eq!(crate::redact_text(&format!("acmeSession=s3cr3t {token}")), format!("acmeSession=s3cr3t {token}"));
        assert_eq!(n.redact_text(&format!("acmeSession=s3cr3t {token}")), "acmeSession=[REDACTED:secret_field] [REDACTED:acme_token]");
        let value = parse_json(r#"{"token_budget":5,"acme_session":"x","k":"pk_demo_0000"}"#).unwrap();
        assert_eq!(n.redact_json(&value).to_string(), r#"{"acme_session":"[REDACTED:secret_field]","k":"pk_demo_0000","token_budget":5}"#);
    }

    #[test]
    fn message_is_standalone() {
        let e = outcome(r#"{"tool":"gh::create_issue","transport":{"kind":"timeout","message":"no answer in 30s"}}"#).error.unwrap();
        assert!(e.message.starts_with("The call to gh::create_issue did not complete"), "{}", e.message);
        assert!(e.message.contains("transport failure"));
        assert!(e.message.contains("Cause: no answer in 30s"));
        assert!(e.message.contains(e.recovery.guidance.as_str()));
    }
}
