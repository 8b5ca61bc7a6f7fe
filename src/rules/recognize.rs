//! Recognition of well-known failure text, used only when no structured kind exists.
//!
//! Rules are data: a matcher, the kind it means and optionally its own advice. Matchers are
//! small hand-written scanners over a bounded window (substring searches, no regex
//! engine), so recognition costs a few microseconds. Recognition sharpens `kind` and
//! advice; it never changes `origin` or lowers `side_effects`.

use crate::json::utf16_prefix;
use crate::rules::arguments::{argument_kind, ArgumentProblem, CallView};
use crate::rules::kinds::{Advice, Kind};
use crate::rules::validators::{validator_problems, Text};
use crate::search;
use crate::search::ShortPairs;
use crate::wire::{RecoveryAction as A, SameArguments as S};

/// How much of a text recognition reads, in UTF-16 code units.
pub(crate) const RECOGNITION_WINDOW: usize = 4096;

/// A text and its ASCII-lowercased copy (same byte offsets), for case-insensitive search,
/// with the call it failed when the host passed it.
pub(crate) struct Haystack<'a> {
    /// The text as written.
    pub text: &'a str,
    /// `text` with ASCII letters lowercased.
    pub lower: String,
    /// The tool's input schema and the call's arguments.
    pub call: Option<CallView<'a>>,
    /// The text's pairs of bytes: a phrase with a pair the text lacks is not searched for.
    pairs: ShortPairs,
}

impl Haystack<'_> {
    /// Whether the lowercase text holds `phrase` (lowercase).
    fn holds(&self, phrase: &str) -> bool {
        self.pairs.may_contain(phrase) && search::contains(&self.lower, phrase)
    }
}

/// What a matcher found: a plain hit, or a status (HTTP code, errno name) to map through
/// [`STATUS_KINDS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Hit {
    /// The rule's own kind applies.
    Plain,
    /// The kind depends on this status.
    Status(String),
    /// Argument problems: the kind is what they mean ([`argument_kind`]).
    Problems(Vec<ArgumentProblem>),
    /// A library's message whose table row gives the kind and advice ([`Signature`]).
    Signature(Kind, Option<Advice>),
}

wire_enum! {
    /// The recognition rules, by the name tests and docs use.
    pub(crate) RuleId {
        /// An MCP SDK's argument-validation message (zod, jsonschema, pydantic).
        SdkInputValidation = "sdk_input_validation",
        /// The SDK's or a server's "tool not found".
        ToolNotFound = "tool_not_found",
        /// A path outside the allowed roots.
        PathOutsideAllowed = "path_outside_allowed",
        /// An HTTP status line or status code.
        HttpStatus = "http_status",
        /// An HTTP status with its reason phrase.
        HttpReason = "http_reason",
        /// An errno name.
        Errno = "errno",
        /// Rate-limit prose.
        RateLimitText = "rate_limit_text",
        /// A quota spent, in prose (`quota exceeded`, `quota of 100 requests exhausted`).
        QuotaText = "quota_text",
        /// Permission prose.
        PermissionText = "permission_text",
        /// A destination the server refuses to reach (a host outside its allowed list).
        ForbiddenTarget = "forbidden_target",
        /// A lookup's missing key printed alone, as Python prints a `KeyError` (`'total'`,
        /// `KeyError: 99`), when it is a value the call sent.
        MissingKey = "missing_key",
        /// Something the call named does not exist.
        NotFoundText = "not_found_text",
        /// What the call would create exists already.
        AlreadyExists = "already_exists",
        /// A server's own words for an argument the call left out (`Missing required
        /// argument`, `parameter is required`).
        MissingArgumentText = "missing_argument_text",
        /// The server names an argument value it refuses (`Invalid timezone: ...`).
        InvalidValueText = "invalid_value_text",
        /// A validation library's output (zod, valibot, ajv, jsonschema, pydantic, serde,
        /// mcp-go, a server's `name: problem` lines) naming arguments.
        ValidatorOutput = "validator_output",
        /// The tool's own backend could not be reached (a refused or reset connection, a
        /// name that does not resolve), as the OS, HTTP clients and drivers word it.
        BackendUnreachable = "backend_unreachable",
        /// A git command's `fatal:` / `error:` message.
        GitError = "git_error",
        /// A database engine's or driver's error (SQLite, PostgreSQL, MySQL, MongoDB).
        DatabaseError = "database_error",
        /// The OS's description of an error (`strerror`, Python's `[Errno N]` text).
        OsErrorText = "os_error_text",
        /// A command a tool runs: refused, not found, or out of time.
        ProcessError = "process_error",
        /// A value the tool cannot take, in the words interpreters and parsers use for
        /// it (`invalid syntax`, `division by zero`, `Unsupported URL protocol`).
        RefusedValue = "refused_value",
    }
}

/// What a rule's hit means.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Meaning {
    /// This kind, with advice of its own when the text says more than the kind.
    Kind(Kind, Option<Advice>),
    /// The kind the status the matcher found means ([`STATUS_KINDS`]).
    ByStatus,
    /// The kind the argument problems the matcher found mean: `missing_param` when every
    /// one is a missing argument, `invalid_param` otherwise (also with none nameable).
    ByProblems,
    /// The kind and advice of the [`Signature`] the matcher found.
    BySignature,
}

/// One recognition rule.
#[derive(Debug)]
pub(crate) struct RecognitionRule {
    /// Which rule.
    pub id: RuleId,
    /// What a text holds when the rule may match it.
    pub gate: Gate,
    /// Finds the rule's text.
    pub matcher: fn(&Haystack<'_>) -> Option<Hit>,
    /// What a hit means.
    pub meaning: Meaning,
}

/// What a text holds when a rule may match it: a text whose pairs rule out every literal
/// is passed by without running the matcher (in WebAssembly, without compiling it).
#[derive(Debug)]
pub(crate) enum Gate {
    /// Any text.
    Always,
    /// One of these (lowercase).
    Any(&'static [&'static str]),
    /// One of the phrases of these tables (lowercase).
    AnyOf(&'static [&'static [&'static str]]),
    /// One of a table's phrases.
    Signatures(&'static [Signature]),
}

impl Gate {
    fn may_match(&self, hay: &Haystack<'_>) -> bool {
        match self {
            Gate::Always => true,
            Gate::Any(literals) => literals.iter().any(|l| hay.pairs.may_contain(l)),
            Gate::AnyOf(tables) => tables.iter().flat_map(|t| t.iter()).any(|l| hay.pairs.may_contain(l)),
            Gate::Signatures(table) => table.iter().any(|s| hay.pairs.may_contain(s.phrase)),
        }
    }
}

/// The rules, first match wins.
pub(crate) const RECOGNITION_RULES: &[RecognitionRule] = &[
    RecognitionRule {
        id: RuleId::SdkInputValidation,
        gate: Gate::Any(&["valid", "required", "[type="]),
        matcher: sdk_validation,
        meaning: Meaning::ByProblems,
    },
    RecognitionRule {
        id: RuleId::ToolNotFound,
        gate: Gate::Any(&["tool"]),
        matcher: tool_not_found,
        meaning: Meaning::Kind(Kind::UnknownTool, None),
    },
    RecognitionRule {
        id: RuleId::PathOutsideAllowed,
        gate: Gate::Any(PATH_OUTSIDE_GATE),
        matcher: path_outside_allowed,
        meaning: Meaning::Kind(Kind::PathTraversal, Some((A::ReviseAndRetry, S::Never))),
    },
    RecognitionRule { id: RuleId::ValidatorOutput, gate: Gate::Always, matcher: validator_output, meaning: Meaning::ByProblems },
    RecognitionRule {
        id: RuleId::MissingArgumentText,
        gate: Gate::Any(&["missing", "required", "no value"]),
        matcher: missing_argument_text,
        meaning: Meaning::Kind(Kind::MissingParam, None),
    },
    RecognitionRule {
        id: RuleId::HttpStatus,
        gate: Gate::Any(&["http/", "status", "returned error", "http error "]),
        matcher: http_status,
        meaning: Meaning::ByStatus,
    },
    RecognitionRule { id: RuleId::HttpReason, gate: Gate::Always, matcher: http_reason, meaning: Meaning::ByStatus },
    RecognitionRule { id: RuleId::Errno, gate: Gate::Any(ERRNO_NAMES), matcher: errno, meaning: Meaning::ByStatus },
    RecognitionRule {
        id: RuleId::BackendUnreachable,
        gate: Gate::Any(UNREACHABLE_PHRASES),
        matcher: backend_unreachable,
        meaning: Meaning::Kind(Kind::ToolError, RETRY_LATER),
    },
    RecognitionRule {
        id: RuleId::GitError,
        gate: Gate::Signatures(GIT_SIGNATURES),
        matcher: |hay| signature(hay, GIT_SIGNATURES),
        meaning: Meaning::BySignature,
    },
    RecognitionRule {
        id: RuleId::DatabaseError,
        gate: Gate::Signatures(DATABASE_SIGNATURES),
        matcher: |hay| signature(hay, DATABASE_SIGNATURES),
        meaning: Meaning::BySignature,
    },
    RecognitionRule { id: RuleId::ProcessError, gate: Gate::AnyOf(PROCESS_PHRASES), matcher: process_error, meaning: Meaning::BySignature },
    RecognitionRule {
        id: RuleId::OsErrorText,
        gate: Gate::Signatures(OS_ERROR_SIGNATURES),
        matcher: |hay| signature(hay, OS_ERROR_SIGNATURES),
        meaning: Meaning::BySignature,
    },
    RecognitionRule {
        id: RuleId::RateLimitText,
        gate: Gate::Any(&["rate limit", "rate-limit", "ratelimit", "too many requests"]),
        matcher: rate_limit_text,
        meaning: Meaning::Kind(Kind::RateLimited, None),
    },
    RecognitionRule {
        id: RuleId::QuotaText,
        gate: Gate::Any(&["quota"]),
        matcher: quota_text,
        meaning: Meaning::Kind(Kind::QuotaExceeded, None),
    },
    RecognitionRule {
        id: RuleId::PermissionText,
        gate: Gate::Any(&["permission denied", "access denied"]),
        matcher: permission_text,
        meaning: Meaning::Kind(Kind::PermissionDenied, None),
    },
    RecognitionRule {
        id: RuleId::ForbiddenTarget,
        gate: Gate::Always,
        matcher: forbidden_target,
        meaning: Meaning::Kind(Kind::Forbidden, None),
    },
    RecognitionRule {
        id: RuleId::AlreadyExists,
        gate: Gate::Any(ALREADY_EXISTS_PHRASES),
        matcher: already_exists,
        meaning: Meaning::Kind(Kind::Conflict, None),
    },
    RecognitionRule { id: RuleId::MissingKey, gate: Gate::Always, matcher: missing_key, meaning: Meaning::Kind(Kind::NotFound, None) },
    RecognitionRule {
        id: RuleId::NotFoundText,
        gate: Gate::Any(&["no", "revision", "malformed"]),
        matcher: not_found_text,
        meaning: Meaning::Kind(Kind::NotFound, None),
    },
    RecognitionRule {
        id: RuleId::RefusedValue,
        gate: Gate::Signatures(VALUE_REFUSALS),
        matcher: |hay| signature(hay, VALUE_REFUSALS),
        meaning: Meaning::BySignature,
    },
    RecognitionRule {
        id: RuleId::RefusedValue,
        gate: Gate::Any(JSON_REFUSALS),
        matcher: json_argument_refused,
        meaning: Meaning::BySignature,
    },
    RecognitionRule {
        id: RuleId::InvalidValueText,
        gate: Gate::Any(&["invalid ", "unsupported ", "unknown ", "not a valid "]),
        matcher: invalid_value_text,
        meaning: Meaning::Kind(Kind::InvalidParam, None),
    },
];

/// Phrases that say something the call named does not exist (lowercase, whole words), each
/// holding "no", "revision" or "malformed" (`not_found_text` relies on it). "Tool … not
/// found" is matched first, as a missing tool.
const NOT_FOUND_PHRASES: &[&str] = &[
    "not found",
    "does not exist",
    "do not exist",
    "no such file",
    "no such path",
    "did not resolve to",
    "did not match any",
    "no item found",
    "unknown revision",
    "bad revision",
    "malformed object name",
    "not in index",
    // isomorphic-git's error class.
    "notfounderror",
];

/// Phrases of a server (or a framework without a structured format) saying the call left
/// an argument out (lowercase, whole words). Each names an argument, parameter, field or
/// property: "must be provided" alone is as often about configuration (an API key).
const MISSING_ARGUMENT_PHRASES: &[&str] = &[
    "missing required argument",
    "missing required arguments",
    "missing required parameter",
    "missing required parameters",
    "missing required field",
    "missing required property",
    "missing required input",
    "missing required option",
    "missing argument",
    "missing arguments",
    "missing parameter",
    "missing parameters",
    "required argument missing",
    "required parameter missing",
    "required argument is missing",
    "required parameter is missing",
    "argument is required",
    "parameter is required",
    "is a required argument",
    "is a required parameter",
    "is a required field",
    "field required",
    "no value provided for",
    "missing value for",
];

/// Phrases that say what the call would create exists already (lowercase, whole words).
const ALREADY_EXISTS_PHRASES: &[&str] = &["already exists", "already exist"];

/// Phrases of a server refusing a destination outside what it may reach.
const FORBIDDEN_TARGET_PHRASES: &[&str] = &[
    "not in the allowed domains",
    "not in the list of allowed",
    "not a public address",
    // A browser refusing a destination: a blocked scheme, Chromium's refusals.
    "protocol is blocked",
    "err_unsafe_port",
    "err_blocked_by_client",
    "err_blocked_by_response",
];

/// Names after "Invalid" that are credentials: an auth failure, not a bad argument.
const CREDENTIAL_WORDS: &[&str] =
    &["token", "credentials", "credential", "api", "password", "signature", "session", "key", "grant", "client"];

/// What a status means: (status, kind, advice override).
pub(crate) const STATUS_KINDS: &[(&str, Kind, Option<Advice>)] = &[
    ("401", Kind::AuthFailed, None),
    ("403", Kind::Forbidden, None),
    ("404", Kind::NotFound, None),
    ("409", Kind::Conflict, None),
    ("410", Kind::NotFound, None),
    ("429", Kind::RateLimited, None),
    ("5xx", Kind::ToolError, Some((A::RetryLater, S::Conditional))),
    ("ENOENT", Kind::NotFound, None),
    ("EACCES", Kind::PermissionDenied, None),
    ("EPERM", Kind::PermissionDenied, None),
    ("EEXIST", Kind::Conflict, None),
    ("ENOTEMPTY", Kind::Conflict, None),
    ("ENOTDIR", Kind::InvalidParam, None),
    ("EISDIR", Kind::InvalidParam, None),
    ("ETIMEDOUT", Kind::Timeout, None),
    ("ENAMETOOLONG", Kind::InvalidParam, None),
];

/// The kind (and advice) an HTTP status or errno name means, from [`STATUS_KINDS`].
pub(crate) fn status_kind(status: &str) -> Option<(Kind, Option<Advice>)> {
    let key = if status.len() == 3 && status.starts_with('5') && status.bytes().all(|b| b.is_ascii_digit()) { "5xx" } else { status };
    STATUS_KINDS.iter().find(|(s, _, _)| *s == key).map(|(_, kind, advice)| (*kind, *advice))
}

/// Texts of the MCP SDKs' argument-validation errors (lowercase).
const SDK_VALIDATION_TEXTS: &[&str] = &[
    "input validation error",
    "invalid arguments for tool",
    "validation error for ",
    "validation errors for ",
    "is a required property",
    "[type=missing",
    "parameter validation failed",
];

/// HTTP reason phrases recognized after a status code (lowercase).
const REASONS: &[(&str, &str)] = &[
    ("401", "unauthorized"),
    ("403", "forbidden"),
    ("404", "not found"),
    ("409", "conflict"),
    ("429", "too many requests"),
    ("500", "internal server error"),
    ("502", "bad gateway"),
    ("503", "service unavailable"),
    ("504", "gateway timeout"),
    ("504", "gateway time-out"),
];

/// What recognition found.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Recognition {
    /// The rule that matched.
    pub rule: RuleId,
    /// The kind it means.
    pub kind: Kind,
    /// Its own advice, when it has one.
    pub advice: Option<Advice>,
    /// A `Retry-After` found in the text, in milliseconds.
    pub retry_after_ms: Option<u64>,
    /// Arguments named by an SDK validation message.
    pub invalid_arguments: Vec<ArgumentProblem>,
}

/// Recognize well-known failure text, read against the call when the host passed it.
/// Reads at most [`RECOGNITION_WINDOW`] units.
pub(crate) fn recognize(text: &str, call: Option<CallView<'_>>) -> Option<Recognition> {
    let text = utf16_prefix(text, RECOGNITION_WINDOW);
    let lower = text.to_ascii_lowercase();
    let hay = Haystack { text, pairs: ShortPairs::of(&lower), lower, call };
    for rule in RECOGNITION_RULES.iter().filter(|r| r.gate.may_match(&hay)) {
        let Some(hit) = (rule.matcher)(&hay) else { continue };
        let mut invalid_arguments = Vec::new();
        let (kind, advice) = match (rule.meaning, hit) {
            (Meaning::Kind(kind, advice), _) => (kind, advice),
            (Meaning::ByStatus, Hit::Status(status)) => match status_kind(&status) {
                Some(found) => found,
                None => continue,
            },
            (Meaning::ByProblems, Hit::Problems(problems)) => {
                invalid_arguments = problems;
                // A validator's output that names no argument: what its codes or words say.
                let unnamed = if states_only_missing(&hay) { Kind::MissingParam } else { Kind::InvalidParam };
                (argument_kind(&invalid_arguments).unwrap_or(unnamed), None)
            }
            (Meaning::BySignature, Hit::Signature(kind, advice)) => (kind, advice),
            _ => continue,
        };
        return Some(Recognition { rule: rule.id, kind, advice, retry_after_ms: retry_after(&hay), invalid_arguments });
    }
    None
}

/// A server's own words for a missing argument. With the call in hand, not when the text
/// names what is missing and that is no property of the tool (an upstream API's
/// `Missing required parameter: 'messages'`, Terraform's `The argument "region" is
/// required`), nor when the call left nothing out that the tool requires.
fn missing_argument_text(hay: &Haystack<'_>) -> Option<Hit> {
    let at = MISSING_ARGUMENT_PHRASES.iter().find_map(|p| whole_words(hay, p).next().map(|at| at + p.len()))?;
    let Some(call) = hay.call else { return Some(Hit::Plain) };
    let after = hay.text[at..].trim_start_matches([':', ' ', '\'', '"', '`']);
    let named = after.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).next().unwrap_or("");
    let names_other = !named.is_empty() && named.len() <= 64 && !call.has_property(named) && after.len() < hay.text.len();
    let quoted_other = ['\'', '"', '`']
        .iter()
        .any(|&q| hay.text.split(q).skip(1).step_by(2).take(8).any(|v| looks_like_a_name(v) && !call.has_property(v)));
    (call.left_out_required() && !names_other && !quoted_other).then_some(Hit::Plain)
}

/// Whether `v` reads as a parameter's name: a letter, then letters, digits, `_` or `-`.
fn looks_like_a_name(v: &str) -> bool {
    (1..=64).contains(&v.len())
        && v.starts_with(|c: char| c.is_ascii_alphabetic())
        && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Whether a validator's output says only that arguments are missing: every pydantic
/// `[type=CODE` is `missing` or `missing_argument`, or, with no such code, it holds a
/// missing-argument phrase and none of a wrong value.
fn states_only_missing(hay: &Haystack<'_>) -> bool {
    if hay.call.is_some_and(|call| !call.left_out_required()) {
        return false;
    }
    let codes: Vec<&str> = search::positions(&hay.lower, "[type=")
        .take(32)
        .map(|at| {
            let rest = &hay.lower[at + "[type=".len()..];
            &rest[..rest.bytes().take_while(|b| b.is_ascii_lowercase() || *b == b'_').count()]
        })
        .collect();
    if !codes.is_empty() {
        return codes.iter().all(|c| matches!(*c, "missing" | "missing_argument"));
    }
    let missing =
        MISSING_ARGUMENT_PHRASES.iter().chain(["is required", "required property", "received undefined"].iter()).any(|p| hay.holds(p));
    let wrong = ["invalid", "must ", "should ", "not of type", "not one of", "too ", "greater", "less than"].iter().any(|p| hay.holds(p));
    missing && !wrong
}

/// Advice for a failure that may pass by itself: retry later, the same call only when it
/// is safe to repeat.
const RETRY_LATER: Option<Advice> = Some((A::RetryLater, S::Conditional));

/// A `Retry-After` in seconds (header or prose), as milliseconds.
fn retry_after(hay: &Haystack<'_>) -> Option<u64> {
    let bytes = hay.lower.as_bytes();
    for needle in ["retry-after", "retry after"] {
        for at in search::positions(&hay.lower, needle) {
            let mut i = at + needle.len();
            if matches!(bytes.get(i), Some(b'"' | b'\'')) {
                i += 1;
            }
            i = skip_blanks(bytes, i);
            if matches!(bytes.get(i), Some(b':' | b'=')) {
                i = skip_blanks(bytes, i + 1);
            }
            let end = digits_end(bytes, i);
            if (1..=7).contains(&(end - i)) && !bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
                return hay.text[i..end].parse::<u64>().ok().map(|s| s * 1000);
            }
        }
    }
    None
}

fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    i
}

fn word_before(bytes: &[u8], i: usize) -> bool {
    i > 0 && search::is_word_byte(bytes[i - 1])
}

fn word_after(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).is_some_and(|&b| search::is_word_byte(b))
}

/// Occurrences of `word` in the lowercase text that stand alone as a word.
fn whole_words<'a>(hay: &'a Haystack<'_>, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    // A phrase with a pair the text lacks is not there: most phrases end here.
    let lower = if hay.pairs.may_contain(word) { hay.lower.as_str() } else { "" };
    search::whole_word_positions(lower, word)
}

fn sdk_validation(hay: &Haystack<'_>) -> Option<Hit> {
    // Every text but the pydantic marker says "valid" or "required": one search rules most texts out.
    let maybe = ["valid", "required", "[type="].iter().any(|w| hay.holds(w));
    let sdk = maybe && SDK_VALIDATION_TEXTS.iter().any(|t| hay.holds(t));
    sdk.then(|| Hit::Problems(validator_problems(Text { text: hay.text, pairs: &hay.pairs }, hay.call).unwrap_or_default()))
}

/// A validation library's output, in any of the formats [`validator_problems`] reads.
#[inline(never)] // only for validation text; kept out of `recognize` (docs/PERFORMANCE-js.md)
fn validator_output(hay: &Haystack<'_>) -> Option<Hit> {
    validator_problems(Text { text: hay.text, pairs: &hay.pairs }, hay.call).map(Hit::Problems)
}

/// A library's message: a phrase (lowercase, matched as whole words) and what it means.
#[derive(Debug)]
pub(crate) struct Signature {
    /// The words.
    pub phrase: &'static str,
    /// The kind they mean.
    pub kind: Kind,
    /// Advice of their own, when the kind's is not right for them.
    pub advice: Option<Advice>,
}

const fn sig(phrase: &'static str, kind: Kind) -> Signature {
    Signature { phrase, kind, advice: None }
}

/// The first row of `table` whose phrase the text holds as whole words.
fn signature(hay: &Haystack<'_>, table: &[Signature]) -> Option<Hit> {
    table.iter().find(|s| whole_words(hay, s.phrase).next().is_some()).map(|s| Hit::Signature(s.kind, s.advice))
}

/// git's `fatal:` / `error:` messages, as servers pass its stderr (GitPython's
/// `GitCommandError` quotes it). "did not match any", "unknown revision", "bad revision"
/// and "already exists" are the phrase families' (not found, conflict).
const GIT_SIGNATURES: &[Signature] = &[
    sig("not a git repository", Kind::NotFound),
    sig("does not appear to be a git repository", Kind::NotFound),
    sig("not a valid object name", Kind::NotFound),
    sig("invalid object name", Kind::NotFound),
    sig("is not a commit", Kind::NotFound),
    sig("needed a single revision", Kind::NotFound),
    sig("does not match any", Kind::NotFound),
    sig("no stash entries found", Kind::NotFound),
    sig("could not resolve", Kind::NotFound),
    sig("not something we can merge", Kind::NotFound),
    sig("invalid reference", Kind::NotFound),
    sig("couldn't find remote ref", Kind::NotFound),
    sig("no such remote", Kind::NotFound),
    sig("is not a valid branch name", Kind::InvalidParam),
    sig("not a valid ref name", Kind::InvalidParam),
    sig("nothing to commit", Kind::Conflict),
    sig("would be overwritten by", Kind::Conflict),
    sig("automatic merge failed", Kind::Conflict),
    sig("is not fully merged", Kind::Conflict),
    sig("you need to resolve your current index first", Kind::Conflict),
    sig("unmerged files", Kind::Conflict),
    sig("used by worktree", Kind::Conflict),
    // simple-git's and git's refusals of unsafe options and transports.
    sig("potential exploit argument blocked", Kind::Forbidden),
    sig("is not permitted without enabling", Kind::Forbidden),
    // isomorphic-git's `"x" would be an invalid git reference`.
    sig("invalid git reference", Kind::InvalidParam),
    sig("authentication failed for", Kind::AuthFailed),
    sig("could not read username", Kind::AuthFailed),
];

/// Database engines' and drivers' messages. A missing table or column is something the
/// call named that does not exist (list the schema again); a statement the parser refuses
/// is a bad argument; a broken constraint is a conflict with what is stored.
const DATABASE_SIGNATURES: &[Signature] = &[
    sig("no such table", Kind::NotFound),
    sig("no such column", Kind::NotFound),
    sig("unknown column", Kind::NotFound),
    sig("unknown database", Kind::NotFound),
    sig("doesn't exist", Kind::NotFound),
    sig("unique constraint failed", Kind::Conflict),
    sig("violates unique constraint", Kind::Conflict),
    sig("duplicate entry", Kind::Conflict),
    sig("duplicate key", Kind::Conflict),
    sig("foreign key constraint", Kind::Conflict),
    sig("not null constraint failed", Kind::InvalidParam),
    sig("violates not-null constraint", Kind::InvalidParam),
    sig("check constraint failed", Kind::InvalidParam),
    sig("violates check constraint", Kind::InvalidParam),
    sig("invalid input syntax for type", Kind::InvalidParam),
    sig("doesn't have a default value", Kind::InvalidParam),
    sig("data too long for column", Kind::InvalidParam),
    // SQLite's `near "x": syntax error`, PostgreSQL's `syntax error at or near`.
    sig("syntax error", Kind::InvalidParam),
    sig("error in your sql syntax", Kind::InvalidParam),
    sig("incomplete input", Kind::InvalidParam),
    // SQLite's refusals of a statement or a value: an unknown function, a value a STRICT
    // column cannot store, parameters that do not match the statement.
    sig("no such function", Kind::InvalidParam),
    sig("datatype mismatch", Kind::InvalidParam),
    sig("cannot store text value in", Kind::InvalidParam),
    sig("cannot store integer value in", Kind::InvalidParam),
    sig("cannot store real value in", Kind::InvalidParam),
    sig("cannot store blob value in", Kind::InvalidParam),
    sig("incorrect number of bindings", Kind::InvalidParam),
    sig("file is not a database", Kind::InvalidParam),
    sig("attempt to write a readonly database", Kind::PermissionDenied),
    sig("read-only transaction", Kind::PermissionDenied),
    sig("readonly database", Kind::PermissionDenied),
    sig("password authentication failed", Kind::AuthFailed),
    sig("access denied for user", Kind::AuthFailed),
    sig("authentication failed", Kind::AuthFailed),
    sig("command denied to user", Kind::PermissionDenied),
    Signature { phrase: "database is locked", kind: Kind::ToolError, advice: RETRY_LATER },
    // node-postgres refusing a query that is not a string.
    sig("null or undefined query", Kind::MissingParam),
    sig("query must have either text or a name", Kind::InvalidParam),
];

/// JSON parsers' refusals: Python's `json` (`Expecting ',' delimiter: line 1 column 9`),
/// V8's `JSON.parse`. Only the call's own JSON is the call's fault: most of these texts
/// are a backend's reply that was not JSON (an HTML error page), a tool error.
const JSON_REFUSALS: &[&str] = &[
    "expecting property name enclosed in double quotes",
    "expecting value: line",
    "delimiter: line",
    "unterminated string starting at",
    "extra data: line",
    "is not valid json",
    "unexpected end of json input",
];

/// A JSON parser's refusal when the call sent JSON text (a string argument that opens
/// with `{` or `[`): the argument to revise.
fn json_argument_refused(hay: &Haystack<'_>) -> Option<Hit> {
    let call = hay.call?;
    let sent_json = call
        .property_names()
        .any(|name| call.argument(name).and_then(crate::json::Json::as_str).is_some_and(|v| v.trim_start().starts_with(['{', '['])));
    (sent_json && JSON_REFUSALS.iter().any(|p| whole_words(hay, p).next().is_some())).then_some(Hit::Signature(Kind::InvalidParam, None))
}

/// A value the tool cannot take, as parsers, interpreters and URL handlers word it: the
/// call's value is what to revise.
const VALUE_REFUSALS: &[Signature] = &[
    sig("invalid syntax", Kind::InvalidParam),
    sig("unexpected token", Kind::InvalidParam),
    sig("unexpected end of input", Kind::InvalidParam),
    sig("division by zero", Kind::InvalidParam),
    sig("unknown identifier", Kind::InvalidParam),
    sig("unsupported url protocol", Kind::InvalidParam),
    sig("unsupported protocol", Kind::InvalidParam),
    sig("unsupported uri scheme", Kind::InvalidParam),
    sig("unsupported scheme", Kind::InvalidParam),
    sig("cannot specify both", Kind::InvalidParam),
    sig("mutually exclusive", Kind::InvalidParam),
    sig("is a reserved", Kind::InvalidParam),
    // requests: a URL with no adapter for its scheme.
    sig("no connection adapters were found", Kind::InvalidParam),
    // pydantic's message alone (`Input should be 'asc' or 'desc'`).
    sig("input should be", Kind::InvalidParam),
    // MongoDB drivers (bson, the Node driver, pymongo): ids, documents, names, URIs.
    sig("must be a 24 character hex string", Kind::InvalidParam),
    sig("hex string must be 24 characters", Kind::InvalidParam),
    sig("atomic operators", Kind::InvalidParam),
    sig("only works with $ operators", Kind::InvalidParam),
    sig("can not include $ operators", Kind::InvalidParam),
    sig("must be an array of documents", Kind::InvalidParam),
    sig("must be a plain object", Kind::InvalidParam),
    sig("names must not contain", Kind::InvalidParam),
    sig("names cannot contain", Kind::InvalidParam),
    sig("invalid connection string", Kind::InvalidParam),
    sig("invalid uri scheme", Kind::InvalidParam),
    sig("invalid scheme", Kind::InvalidParam),
    sig("port must be an integer", Kind::InvalidParam),
    // openpyxl's cells, ranges, titles and values; pandas' and Python's conversions.
    sig("is not a valid coordinate or range", Kind::InvalidParam),
    sig("row numbers must be between", Kind::InvalidParam),
    sig("values must be at least", Kind::InvalidParam),
    sig("found in sheet title", Kind::InvalidParam),
    sig("value must be one of", Kind::InvalidParam),
    sig("cannot be used in worksheets", Kind::InvalidParam),
    sig("file format cannot be determined", Kind::InvalidParam),
    sig("does not support the old .xls file format", Kind::InvalidParam),
    sig("could not convert string to", Kind::InvalidParam),
    sig("invalid literal for int", Kind::InvalidParam),
    sig("unable to parse string", Kind::InvalidParam),
    sig("unknown datetime string format", Kind::InvalidParam),
    sig("positional indexer is out-of-bounds", Kind::InvalidParam),
    // Python's shlex; SQLite drivers' parameter counts.
    sig("no closing quotation", Kind::InvalidParam),
    sig("no escaped character", Kind::InvalidParam),
    sig("too few parameter values", Kind::InvalidParam),
    // A file over a tool's size limit, and the OS's `EFBIG`.
    sig("file too large", Kind::ArtifactTooLarge),
    sig("file is too large", Kind::ArtifactTooLarge),
];

/// The OS's descriptions of errors (glibc's `strerror`, which Python's `[Errno N]` and
/// most runtimes print); "no such file or directory" and "permission denied" are the
/// phrase families'.
const OS_ERROR_SIGNATURES: &[Signature] = &[
    sig("file exists", Kind::Conflict),
    sig("directory not empty", Kind::Conflict),
    sig("is a directory", Kind::InvalidParam),
    sig("not a directory", Kind::InvalidParam),
    sig("operation not permitted", Kind::PermissionDenied),
    sig("read-only file system", Kind::PermissionDenied),
    sig("connection timed out", Kind::Timeout),
    sig("file name too long", Kind::InvalidParam),
    sig("name too long", Kind::InvalidParam),
    sig("address already in use", Kind::Conflict),
];

/// How the OS, HTTP clients and database drivers say a connection to a server failed: the
/// tool's own backend is down or unreachable. Inside a completed result this is no
/// transport failure of the call (the tool answered): `tool_error`, advised to retry later.
const UNREACHABLE_PHRASES: &[&str] = &[
    "econnrefused",
    "econnreset",
    "enotfound",
    "eai_again",
    "ehostunreach",
    "enetunreach",
    "connection refused",
    "connection reset by peer",
    "couldn't connect to server",
    "could not connect to server",
    "failed to connect to",
    "failed to establish a new connection",
    "all connection attempts failed",
    "cannot connect to host",
    "connect call failed",
    "socket hang up",
    "fetch failed",
    "could not resolve host",
    "name or service not known",
    "nodename nor servname provided",
    "temporary failure in name resolution",
    "no route to host",
    "network is unreachable",
    "server selection timed out",
    // pymongo's server selection, when a port accepts but nothing answers.
    "no servers found yet",
    "no address associated with hostname",
    "failed to resolve",
    "could not translate host name",
    "getaddrinfo failed",
    "target machine actively refused it",
    "connection terminated unexpectedly",
    "other side closed",
    // Chromium's net errors (Playwright, Puppeteer), as `net::ERR_…`.
    "err_connection_refused",
    "err_connection_reset",
    "err_connection_closed",
    "err_name_not_resolved",
    "err_address_unreachable",
    "err_internet_disconnected",
];

fn backend_unreachable(hay: &Haystack<'_>) -> Option<Hit> {
    UNREACHABLE_PHRASES.iter().any(|p| whole_words(hay, p).next().is_some()).then_some(Hit::Plain)
}

/// A command a tool runs: refused by the tool's allow list (`Command 'rm' is not allowed`,
/// `shell operator ';' not allowed`), not found (`sh: foo: command not found`), or out of
/// time (`Command timed out after 5 seconds`, Python's `TimeoutExpired`).
fn process_error(hay: &Haystack<'_>) -> Option<Hit> {
    let refused = REFUSALS.iter().any(|w| hay.holds(w))
        && hay.lower.lines().any(|line| {
            ["command", "commands", "operator", "operators", "executable", "program", "transport"]
                .iter()
                .any(|w| search::has_whole_word(line, w))
                && REFUSALS.iter().any(|w| search::contains(line, w))
        });
    if refused {
        return Some(Hit::Signature(Kind::Forbidden, None));
    }
    // The program the call names does not exist: bash's `command not found`, dash's
    // `sh: 1: NAME: not found`. The call's command is what to revise.
    let dash = hay.holds(": not found") && hay.lower.lines().any(dash_not_found);
    let spawn = hay.holds("spawn ")
        && hay.lower.lines().any(|l| {
            let mut words = l.split_whitespace().rev();
            words.next() == Some("enoent") && words.next().is_some_and(|p| program_sent(hay, p)) && words.next() == Some("spawn")
        });
    if dash || spawn || whole_words(hay, "command not found").next().is_some() {
        return Some(Hit::Signature(Kind::InvalidParam, None));
    }
    // axios: `timeout of 500ms exceeded`.
    let axios = hay.holds("timeout of ") && hay.holds("ms exceeded");
    (axios || TIMED_OUT.iter().any(|w| whole_words(hay, w).next().is_some())).then_some(Hit::Signature(Kind::Timeout, None))
}

/// The phrases [`process_error`] reads: refusals, a command not found, running out of
/// time, and axios' `timeout of 500ms exceeded` (by its `timeout`, for the gate).
const PROCESS_PHRASES: &[&[&str]] = &[REFUSALS, &["command not found", "timeout", "spawn "], TIMED_OUT];

/// A server refusing a command or an operator.
const REFUSALS: &[&str] = &["not allowed", "not an allowed", "not permitted", "is blocked", "is disallowed", "not in the allowed"];

/// A process or a request running out of time.
const TIMED_OUT: &[&str] = &[
    "timed out",
    "timeout expired",
    "deadline exceeded",
    "time limit exceeded",
    "timeout exceeded",
    "aborted due to timeout",
    "err_timed_out",
    "timeouterror",
];

/// Whether a line is dash's `sh: 1: NAME: not found`.
fn dash_not_found(line: &str) -> bool {
    let Some(at) = search::find(line, "sh: ") else { return false };
    let rest = &line[at + "sh: ".len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(": ") && rest[digits..].trim_end().ends_with(": not found")
}

/// `Unknown tool`, or `tool … not found` within 200 bytes on one line.
fn tool_not_found(hay: &Haystack<'_>) -> Option<Hit> {
    if whole_words(hay, "unknown tool").next().is_some() {
        return Some(Hit::Plain);
    }
    // `Tool get_weather not found`, `tool 'x' not found`, `tool not found`: the words
    // between are the tool's name and nothing else. `Error executing tool get_item: Item
    // named 'x' not found` names an object the tool did not find, not a missing tool.
    let bytes = hay.lower.as_bytes();
    for at in whole_words(hay, "tool") {
        let mut i = skip_blanks(bytes, at + "tool".len());
        if hay.lower[i..].starts_with("not found") && !word_after(bytes, i + "not found".len()) {
            return Some(Hit::Plain);
        }
        let quoted = matches!(bytes.get(i), Some(b'\'' | b'"' | b'`'));
        i += usize::from(quoted);
        let name_end = i + bytes[i..]
            .iter()
            .take(200)
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':' | b'/'))
            .count();
        let mut j = name_end;
        if quoted && matches!(bytes.get(j), Some(b'\'' | b'"' | b'`')) {
            j += 1;
        }
        let j = skip_blanks(bytes, j);
        if name_end > i && hay.lower[j..].starts_with("not found") && !word_after(bytes, j + "not found".len()) {
            return Some(Hit::Plain);
        }
    }
    None
}

/// "path outside (the) allowed directories", "not in allowed directories", "outside allowed
/// roots", "is outside the (allowed) repository".
fn path_outside_allowed(hay: &Haystack<'_>) -> Option<Hit> {
    // Each form holds one of the gate's words: most texts are ruled out before reading lines.
    if !PATH_OUTSIDE_GATE.iter().any(|w| hay.holds(w)) {
        return None;
    }
    hay.lower
        .lines()
        .any(|line| {
            let allowed = ["allowed director", "allowed roots", "allowed paths", "allowed path", "allowed folder"]
                .iter()
                .any(|a| search::contains(line, a));
            let outside = search::has_whole_word(line, "outside")
                || ["not in", "not within", "not under", "not inside"].iter().any(|w| search::has_whole_word(line, w));
            // A path resolved past the root it must stay in: `path.relative` or
            // `Path.resolve` checks word it as outside or escaping a root, or name the attack.
            let past_a_root = ["outside", "escapes", "escaped", "escaping"].iter().any(|w| root_follows(line, w));
            let traversal = ["path traversal", "directory traversal"].iter().any(|w| search::contains(line, w));
            past_a_root || traversal || (allowed && outside)
        })
        .then_some(Hit::Plain)
}

/// Whether `verb` (a whole word of `line`) is followed by a root the tool must stay in:
/// `outside the repository`, `escapes the root directory`, `outside of the allowed
/// directories`, `outside base directory` (at most three such words before the noun).
fn root_follows(line: &str, verb: &str) -> bool {
    const BEFORE_THE_NOUN: &[&str] = &["of", "the", "its", "allowed", "base", "working", "project", "configured", "permitted", "sandbox"];
    const ROOTS: &[&str] = &["root", "director", "workspace", "sandbox", "project", "repositor", "folder", "base path", "allowed path"];
    search::whole_word_positions(line, verb).take(8).any(|at| {
        let mut rest = line[at + verb.len()..].trim_start();
        for _ in 0..4 {
            if ROOTS.iter().any(|r| rest.starts_with(r)) {
                return true;
            }
            match BEFORE_THE_NOUN.iter().find(|w| rest.starts_with(*w) && rest[w.len()..].starts_with(' ')) {
                Some(w) => rest = rest[w.len()..].trim_start(),
                None => return false,
            }
        }
        false
    })
}

/// The words one of which each form of a path outside the allowed roots holds.
const PATH_OUTSIDE_GATE: &[&str] = &["outside", "not in", "not within", "not under", "escape", "traversal"];

/// A destination the server may not reach: outside its allowed hosts or addresses, or a
/// page a site's robots.txt (RFC 9309) disallows for automated clients.
fn forbidden_target(hay: &Haystack<'_>) -> Option<Hit> {
    let robots = hay.holds("robots.txt") && ["not allowed", "disallow"].iter().any(|w| hay.holds(w));
    (robots || FORBIDDEN_TARGET_PHRASES.iter().any(|p| hay.holds(p))).then_some(Hit::Plain)
}

fn already_exists(hay: &Haystack<'_>) -> Option<Hit> {
    ALREADY_EXISTS_PHRASES.iter().any(|p| whole_words(hay, p).next().is_some()).then_some(Hit::Plain)
}

/// The text, past an SDK's prefix and `Error:` / `KeyError:`, is one quoted value or
/// number the call sent: Python's `str(KeyError)` (a dict, a DataFrame's column, a
/// workbook's sheet) says only which key was missing.
fn missing_key(hay: &Haystack<'_>) -> Option<Hit> {
    let call = hay.call?;
    let mut text = hay.text.trim();
    if text.len() > 200 {
        return None;
    }
    let mut key_error = false;
    loop {
        let lower = text.to_ascii_lowercase();
        let sdk = ["error calling tool ", "error executing tool "].iter().find(|p| lower.starts_with(*p));
        if let Some(rest) = sdk.and_then(|p| text[p.len()..].split_once(": ")).map(|(_, rest)| rest) {
            text = rest.trim_start();
        } else if let Some(rest) = ["Error: ", "KeyError: ", "error: "].iter().find_map(|p| text.strip_prefix(p)) {
            key_error |= text.starts_with("KeyError");
            text = rest.trim_start();
        } else {
            break;
        }
    }
    let quoted =
        ['\'', '"'].iter().any(|&q| text.len() >= 2 && text.starts_with(q) && text.ends_with(q) && !text[1..text.len() - 1].contains(q));
    // A number alone is a key only when named one (`Error: 0` is as often an assertion's).
    let number = key_error && !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit());
    if (quoted || number) && call.argument_valued(text).is_some() {
        return Some(Hit::Plain);
    }
    // `Could not find release-1.`: what could not be found is a value the call sent
    // (`Could not find exact match for edit` names none).
    let lower = text.to_ascii_lowercase();
    let what = ["could not find ", "cannot find ", "can't find "].iter().find_map(|p| lower.strip_prefix(p).map(|_| &text[p.len()..]))?;
    let what = what.trim_end().trim_end_matches('.');
    (!what.contains(char::is_whitespace) && call.argument_valued(what).is_some()).then_some(Hit::Plain)
}

fn not_found_text(hay: &Haystack<'_>) -> Option<Hit> {
    // Every phrase holds "no", "revision" or "malformed": one search rules most texts out.
    let maybe = ["no", "revision", "malformed"].iter().any(|w| hay.holds(w));
    (maybe && (NOT_FOUND_PHRASES.iter().any(|p| whole_words(hay, p).next().is_some()) || no_thing_found(hay))).then_some(Hit::Plain)
}

/// `No tasks found`, `no matches found`: "no", one word, "found" (with more words between,
/// what was not found may be a detail of a value the tool refused).
fn no_thing_found(hay: &Haystack<'_>) -> bool {
    whole_words(hay, "found").any(|at| {
        let before = hay.lower[..at].trim_end_matches(' ');
        let before = &before[search::ceil_boundary(before, before.len().saturating_sub(64))..];
        let words: Vec<&str> = before.rsplit(' ').take(3).collect();
        let word = |w: &&str| !w.is_empty() && w.len() <= 24 && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'-');
        match words.as_slice() {
            [thing, "no", ..] => word(thing),
            _ => false,
        }
    })
}

/// A value refused in a server's own words: `Invalid <name>: <value>`, `Invalid <name>
/// format`, `Invalid <name> value`, `Invalid <name> '<value>'`, `Invalid value for <name>`,
/// or `Invalid <property>` where a clause starts; `<value> is not a valid <name>` when the
/// name is a property of the tool or the value one the call sent. A credential's name
/// (`Invalid token`) is an auth failure, not a bad argument.
fn invalid_value_text(hay: &Haystack<'_>) -> Option<Hit> {
    // `Invalid NAME…` where a clause starts: the text's start, a line's, or after `: `
    // (`Error executing tool x: Invalid timezone: …`, `Failed to paint: invalid color …`).
    let lower = hay.lower.as_str();
    let clause_start = |at: usize| {
        let before = lower[..at].trim_end_matches([' ', '\t']);
        before.is_empty() || before.ends_with(['\n', ':', '.', ';'])
    };
    const NOT_A_VALID: &str = " is not a valid ";
    let leads = ["invalid ", "unsupported ", "unknown "]
        .into_iter()
        .flat_map(|lead| search::positions(lower, lead).filter(|&at| clause_start(at)).take(16).map(move |at| (at, lead)));
    let not_a_valid = search::positions(lower, NOT_A_VALID).take(16).map(|at| (at, NOT_A_VALID));
    for (at, lead) in leads.chain(not_a_valid) {
        let rest = &lower[at + lead.len()..];
        let name_end = rest.bytes().take(64).take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        let (name, after) = rest.split_at(name_end);
        if name.is_empty() || CREDENTIAL_WORDS.contains(&name) {
            continue;
        }
        let generic = matches!(name, "value" | "argument" | "parameter" | "input" | "option");
        // What the tool runs on is no argument (`Unsupported platform`, `Invalid engine`).
        if ENVIRONMENT_NOUNS.contains(&name) {
            continue;
        }
        // A property of the tool that the call sent: the call's own value is refused.
        let sent = |n: &str| {
            hay.call.and_then(|call| call.property_names().find(|p| p.eq_ignore_ascii_case(n)).and_then(|p| call.argument(p))).is_some()
        };
        let names_a_property = sent(name);
        let quoted_after = || {
            let value = hay.text[at + lead.len() + name_end..].trim_start_matches(':').trim_start();
            let value = value.split(['\n', ',', ';']).next().unwrap_or(value).trim_end_matches('.');
            hay.call.is_some_and(|call| call.argument_valued(value).is_some())
        };
        let refuses = if lead == "unknown " {
            // `Unknown <name>: '<value>'` says as much only of the call's own values.
            !generic && (names_a_property || quoted_after())
        } else if lead != NOT_A_VALID {
            // `Invalid NAME: v`, `Invalid NAME format`, `Invalid NAME value`, `Invalid NAME 'v'`,
            // `Invalid value for NAME`, or a NAME the tool's schema has.
            // and with the call in hand, `Invalid NAME 'v'` for a value it sent and `Invalid
            // value for NAME` for a property it sent.
            let for_property = || {
                after
                    .strip_prefix(" for ")
                    .map(|r| r.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or(r))
                    .is_some_and(sent)
            };
            (after.starts_with(':') && !generic)
                || after.starts_with(" format")
                || after.starts_with(" value")
                || ([" '", " \"", " `"].iter().any(|q| after.starts_with(q)) && quoted_after())
                || (generic && for_property())
                || names_a_property
        } else {
            // `'v' is not a valid NAME`: a property's name, or a value the call sent.
            names_a_property || quoted_argument_before(hay, at)
        };
        if refuses {
            return Some(Hit::Plain);
        }
    }
    None
}

/// Nouns of what a tool runs on, which `Invalid …` / `Unsupported …` name without the call
/// being at fault.
const ENVIRONMENT_NOUNS: &[&str] = &[
    "platform",
    "engine",
    "os",
    "architecture",
    "arch",
    "runtime",
    "environment",
    "header",
    "character",
    "response",
    "state",
    "configuration",
    "config",
];

/// Whether the word or quoted value that ends at `at` is the value of one of the call's
/// arguments (`'purple' is not a valid colour`).
fn quoted_argument_before(hay: &Haystack<'_>, at: usize) -> bool {
    let Some(call) = hay.call else { return false };
    let before = hay.text[..at].trim_end();
    let start = match before.chars().next_back() {
        Some(q @ ('\'' | '"' | '`')) => before[..before.len() - 1].rfind(q).unwrap_or(0),
        _ => before.rfind(|c: char| c.is_whitespace() || c == ':').map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8)),
    };
    call.argument_valued(&before[start..]).is_some()
}

/// `HTTP/1.1 404`, `status: 404`, `status code 404`, `status_code=404`.
fn http_status(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let code_at = |i: usize| {
        let end = digits_end(bytes, i);
        (end - i == 3 && (b'1'..=b'5').contains(&bytes[i]) && !word_after(bytes, end)).then(|| hay.text[i..end].to_owned())
    };
    for at in search::positions(&hay.lower, "http/") {
        if word_before(bytes, at) {
            continue;
        }
        let mut i = at + 5;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let code = skip_blanks(bytes, i);
        if code > i {
            if let Some(c) = code_at(code) {
                return Some(Hit::Status(c));
            }
        }
    }
    // urllib's `HTTPError`: `HTTP Error 401: Unauthorized`.
    for at in search::positions(&hay.lower, "http error ") {
        if let Some(c) = code_at(at + "http error ".len()) {
            return Some(Hit::Status(c));
        }
    }
    // curl `--fail`: `The requested URL returned error: 404`.
    for at in search::positions(&hay.lower, "returned error: ") {
        if let Some(c) = code_at(at + "returned error: ".len()) {
            return Some(Hit::Status(c));
        }
    }
    for at in search::positions(&hay.lower, "status").filter(|&i| !word_before(bytes, i)) {
        let mut i = at + "status".len();
        for suffix in [" code", "_code", "code"] {
            if hay.lower[i..].starts_with(suffix) {
                i += suffix.len();
                break;
            }
        }
        i = skip_blanks(bytes, i);
        if matches!(bytes.get(i), Some(b':' | b'=')) {
            i = skip_blanks(bytes, i + 1);
        }
        if let Some(c) = code_at(i) {
            return Some(Hit::Status(c));
        }
    }
    None
}

/// `404 Not Found`, `429 Too Many Requests`, `503 Service Unavailable`, ..., also with
/// `requests`' class between (`404 Client Error: Not Found`).
fn http_reason(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let mut i = 0;
    while i + 3 <= bytes.len() {
        let end = digits_end(bytes, i);
        if end == i {
            i += 1;
            continue;
        }
        if end - i == 3 && !word_before(bytes, i) {
            let code = &hay.lower[i..end];
            let mut r = skip_blanks(bytes, end);
            // Python `requests`: `404 Client Error: Not Found for url: ...`; aiohttp:
            // `404, message='Not Found', url=...`.
            for class in ["client error: ", "server error: "] {
                if r > end && hay.lower[r..].starts_with(class) {
                    r += class.len();
                }
            }
            if r == end && hay.lower[r..].starts_with(", message='") {
                r += ", message='".len();
            }
            let hit = r > end
                && REASONS
                    .iter()
                    .any(|(c, reason)| *c == code && hay.lower[r..].starts_with(reason) && !word_after(bytes, r + reason.len()));
            if hit {
                return Some(Hit::Status(code.to_owned()));
            }
        }
        i = end;
    }
    None
}

/// The errno names [`STATUS_KINDS`] holds, lowercase (the rule's gate).
const ERRNO_NAMES: &[&str] = &["enoent", "eacces", "eperm", "eexist", "enotempty", "enotdir", "eisdir", "etimedout", "enametoolong"];

/// Node errno names, upper case as Node prints them.
fn errno(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.text.as_bytes();
    STATUS_KINDS.iter().filter(|(s, _, _)| s.starts_with('E')).find_map(|(name, _, _)| {
        search::positions(hay.text, name)
            .any(|i| !word_before(bytes, i) && !word_after(bytes, i + name.len()) && !spawned(hay, i))
            .then(|| Hit::Status((*name).to_owned()))
    })
}

/// Whether the errno at `i` is Node's `spawn PROGRAM ENOENT` for a program that is missing,
/// which [`process_error`] reads as the command to revise. Not for a shell: Node words a
/// missing working directory as `spawn /bin/sh ENOENT`, and the shell is there.
fn spawned(hay: &Haystack<'_>, i: usize) -> bool {
    // The two words before it, read back at most 256 bytes: a bounded look a position.
    let floor = search::ceil_boundary(&hay.lower, i.saturating_sub(256));
    let mut words = hay.lower[floor..i].split_whitespace().rev();
    let program = words.next();
    hay.lower[i..].starts_with("enoent") && words.next() == Some("spawn") && program.is_some_and(|p| program_sent(hay, p))
}

/// Whether `program` (lowercase) is no shell and is what a command the call sent starts
/// with (`spawn git ENOENT` from a tool that runs git itself is the tool's own failure).
fn program_sent(hay: &Haystack<'_>, program: &str) -> bool {
    let Some(call) = hay.call else { return false };
    !is_shell(program)
        && call.property_names().any(|name| {
            let first = call.argument(name).and_then(crate::json::Json::as_str).and_then(|v| v.split_whitespace().next());
            first.is_some_and(|w| w.eq_ignore_ascii_case(program))
        })
}

/// Whether `program` (lowercase) is a shell Node's `exec` runs commands through.
fn is_shell(program: &str) -> bool {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    matches!(name, "sh" | "bash" | "dash" | "zsh" | "cmd.exe" | "powershell.exe" | "pwsh")
}

fn rate_limit_text(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let rate = ["rate limit", "rate-limit", "ratelimit"].iter().any(|w| search::positions(&hay.lower, w).any(|i| !word_before(bytes, i)));
    (rate || whole_words(hay, "too many requests").next().is_some()).then_some(Hit::Plain)
}

/// A line that says a quota is spent: "quota" with "exceeded", "exhausted", "used up" or
/// "reached", or OpenAI's `insufficient_quota`.
fn quota_text(hay: &Haystack<'_>) -> Option<Hit> {
    // The verb in the same clause as "quota", a few words on, with no share of it
    // (`quota 80% reached` is a warning) and no negation.
    let spent = |clause: &str| {
        ["exceeded", "exhausted", "used up", "reached"].iter().any(|w| search::has_whole_word(clause, w))
            && !clause.contains('%')
            && !search::has_whole_word(clause, "not")
    };
    let said = hay.holds("insufficient_quota")
        || search::whole_word_positions(&hay.lower, "quota").take(16).any(|at| {
            let rest = &hay.lower[at..];
            let clause = &rest[..rest.find(['.', ';', ',', '\n']).unwrap_or(rest.len()).min(64)];
            spent(&clause[..search::floor_boundary(clause, clause.len())])
        });
    said.then_some(Hit::Plain)
}

fn permission_text(hay: &Haystack<'_>) -> Option<Hit> {
    ["permission denied", "access denied"].iter().any(|w| whole_words(hay, w).next().is_some()).then_some(Hit::Plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::arguments::MISSING;

    #[test]
    fn ts_sdk_zod_messages_name_each_argument() {
        let text = r#"MCP error -32602: Input validation error: Invalid arguments for tool create_issue: [
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "undefined",
    "path": ["title"],
    "message": "Required"
  },
  {
    "code": "invalid_type",
    "expected": "array",
    "received": "string",
    "path": ["labels", 0],
    "message": "Expected array, received string"
  }
]"#;
        let r = recognize(text, None).unwrap();
        assert_eq!(r.kind, Kind::InvalidParam);
        assert_eq!(r.invalid_arguments[0], ArgumentProblem::new("title", MISSING));
        assert_eq!(r.invalid_arguments[1], ArgumentProblem::new("labels[0]", "Expected array, received string"));
    }

    #[test]
    fn only_missing_arguments_make_missing_param() {
        let text = r#"Input validation error: Invalid arguments for tool echo: [{"expected":"string","code":"invalid_type","path":["message"],"message":"Invalid input: expected string, received undefined"}]"#;
        let r = recognize(text, None).unwrap();
        assert_eq!(r.kind, Kind::MissingParam);
        assert_eq!(r.invalid_arguments, vec![ArgumentProblem::new("message", MISSING)]);
    }

    #[test]
    fn ts_sdk_zod4_lines_name_each_argument() {
        let text = "MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at message\nToo big: expected number to be <=10 at opts.count[0]";
        let r = recognize(text, None).unwrap();
        assert_eq!(r.kind, Kind::InvalidParam);
        assert_eq!(
            r.invalid_arguments,
            vec![ArgumentProblem::new("message", MISSING), ArgumentProblem::new("opts.count[0]", "Too big: expected number to be <=10")]
        );
        let only_missing =
            "Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at message";
        assert_eq!(recognize(only_missing, None).unwrap().kind, Kind::MissingParam);
    }

    #[test]
    fn python_sdk_messages_name_each_argument() {
        let r = recognize("Input validation error: 'path' is a required property", None).unwrap();
        assert_eq!(r.invalid_arguments, vec![ArgumentProblem::new("path", MISSING)]);
        let text = "Error executing tool add: 2 validation errors for addArguments\na\n  Field required [type=missing, input_value={}, input_type=dict]\nb\n  Input should be a valid integer [type=int_parsing, input_value='x', input_type=str]";
        let r = recognize(text, None).unwrap();
        assert_eq!(
            r.invalid_arguments,
            vec![ArgumentProblem::new("a", MISSING), ArgumentProblem::new("b", "Input should be a valid integer")]
        );
    }

    /// (text, rule, kind)
    const CASES: &[(&str, &str, &str)] = &[
        ("Tool get_weather not found", "tool_not_found", "unknown_tool"),
        ("Error executing tool get_item: Item named 'x' not found", "not_found_text", "not_found"),
        ("Ref 'hotfix' did not resolve to an object", "not_found_text", "not_found"),
        ("fatal: pathspec 'src/missing.py' did not match any files", "not_found_text", "not_found"),
        ("Cannot create branch 'feature': refs/heads/feature already exists", "already_exists", "conflict"),
        ("EEXIST: file already exists, mkdir '/srv/a'", "errno", "conflict"),
        ("Path '../outside.txt' is outside the repository '/srv/repo'", "path_outside_allowed", "path_traversal"),
        ("Domain 127.0.0.1 is not in the allowed domains list.", "forbidden_target", "forbidden"),
        ("Error executing tool convert_time: Invalid timezone: 'Mars/Olympus'", "invalid_value_text", "invalid_param"),
        ("Invalid time format. Expected HH:MM [24-hour format]", "invalid_value_text", "invalid_param"),
        ("Unknown tool: frobnicate", "tool_not_found", "unknown_tool"),
        ("Access denied - path outside allowed directories: /etc/passwd not in /tmp", "path_outside_allowed", "path_traversal"),
        ("GitHub API error: HTTP/1.1 401 Unauthorized", "http_status", "auth_failed"),
        ("request failed with status code 403", "http_status", "forbidden"),
        ("404 Not Found: /repos/x", "http_reason", "not_found"),
        ("409 Conflict", "http_reason", "conflict"),
        ("429 Too Many Requests; Retry-After: 30", "http_reason", "rate_limited"),
        ("upstream said HTTP/2 503", "http_status", "tool_error"),
        ("ENOENT: no such file or directory, open '/x'", "errno", "not_found"),
        ("EACCES: permission denied, open '/root'", "errno", "permission_denied"),
        ("connect ETIMEDOUT 10.0.0.1:443", "errno", "timeout"),
        ("You have hit the rate limit", "rate_limit_text", "rate_limited"),
        // Validators' own output, with no SDK around it.
        (r#"Error: [{"code":"invalid_type","expected":"string","received":"undefined","path":["q"],"message":"Required"}]"#, "validator_output", "missing_param"),
        ("required argument \"owner\" not found", "validator_output", "missing_param"),
        // A backend the tool could not reach: the tool answered, so no transport kind.
        ("connect ECONNREFUSED 127.0.0.1:5432", "backend_unreachable", "tool_error"),
        ("curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server", "backend_unreachable", "tool_error"),
        ("HTTPConnectionPool(host='localhost', port=9): Max retries exceeded with url: / (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))", "backend_unreachable", "tool_error"),
        ("TypeError: fetch failed", "backend_unreachable", "tool_error"),
        // git's messages.
        ("fatal: not a git repository (or any of the parent directories): .git", "git_error", "not_found"),
        ("fatal: Not a valid object name deadbeef", "git_error", "not_found"),
        ("merge: ghost - not something we can merge", "git_error", "not_found"),
        ("nothing to commit, working tree clean", "git_error", "conflict"),
        ("fatal: Authentication failed for 'https://git.example/x.git/'", "git_error", "auth_failed"),
        ("fatal: no such path 'nope.txt' in HEAD", "not_found_text", "not_found"),
        // Databases.
        ("sqlite3.OperationalError: no such table: users", "database_error", "not_found"),
        ("UNIQUE constraint failed: users.email", "database_error", "conflict"),
        ("duplicate key value violates unique constraint \"users_pkey\"", "database_error", "conflict"),
        ("near \"SELEC\": syntax error", "database_error", "invalid_param"),
        ("syntax error at or near \"FORM\"", "database_error", "invalid_param"),
        ("attempt to write a readonly database", "database_error", "permission_denied"),
        ("E11000 duplicate key error collection: test.users index: _id_", "database_error", "conflict"),
        // The OS's descriptions, processes, HTTP clients.
        ("[Errno 17] File exists: '/srv/a'", "os_error_text", "conflict"),
        ("[Errno 21] Is a directory: '/srv'", "os_error_text", "invalid_param"),
        ("Command 'rm' is not allowed", "process_error", "forbidden"),
        ("shell operator ';' not allowed in command", "process_error", "forbidden"),
        ("bash: line 1: frobnicate: command not found", "process_error", "invalid_param"),
        ("Command timed out after 1 seconds", "process_error", "timeout"),
        ("404 Client Error: Not Found for url: http://127.0.0.1:9/x", "http_reason", "not_found"),
        ("Command failed: frob\n/bin/sh: 1: frob: not found\n", "process_error", "invalid_param"),
        ("page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/", "backend_unreachable", "tool_error"),
        ("page.goto: net::ERR_UNSAFE_PORT at http://127.0.0.1:1/", "forbidden_target", "forbidden"),
        ("Access to \"file:\" protocol is blocked.", "forbidden_target", "forbidden"),
        ("Client was passed a null or undefined query", "database_error", "missing_param"),
        ("Error: No tasks found for ID(s): 99", "not_found_text", "not_found"),
        ("SyntaxError: invalid syntax (<unknown>, line 1)", "refused_value", "invalid_param"),
        ("Unsupported URL protocol for ftp://x/a", "refused_value", "invalid_param"),
        ("Cannot specify both head and tail parameters simultaneously", "refused_value", "invalid_param"),
        ("404, message='Not Found', url='http://127.0.0.1:5997/missing'", "http_reason", "not_found"),
        ("curl: (22) The requested URL returned error: 403", "http_status", "forbidden"),
        ("timeout of 500ms exceeded", "process_error", "timeout"),
        ("Table 'app.nosuch' doesn't exist", "database_error", "not_found"),
        // A server's own words for a path past its root, a missing argument, a refused value.
        ("Error: Path escapes the root directory: ../../etc", "path_outside_allowed", "path_traversal"),
        ("Path traversal detected in '../secret'", "path_outside_allowed", "path_traversal"),
        ("File /etc/hosts is not within the allowed paths", "path_outside_allowed", "path_traversal"),
        ("Missing required argument", "missing_argument_text", "missing_param"),
        ("Error: missing required parameter 'owner'", "missing_argument_text", "missing_param"),
        ("The repo parameter is required", "missing_argument_text", "missing_param"),
        ("Missing required argument [type=missing_argument, input_value={}, input_type=dict]", "sdk_input_validation", "missing_param"),
        ("Unsupported currency: 'XYZ'", "invalid_value_text", "invalid_param"),
        // Libraries' own words: urllib, git, SQLite, Python's json, requests, pydantic,
        // the OS, Node's spawn, a quota.
        ("Error: HTTP Error 401: Unauthorized", "http_status", "auth_failed"),
        ("error: No such remote: 'upstream'", "git_error", "not_found"),
        ("error: the branch 'feature' is not fully merged", "git_error", "conflict"),
        ("Error: no such function: LEN", "database_error", "invalid_param"),
        ("cannot store TEXT value in INTEGER column items.qty", "database_error", "invalid_param"),
        ("Incorrect number of bindings supplied. The current statement uses 2, and there are 1 supplied.", "database_error", "invalid_param"),
        ("No connection adapters were found for 'ftp://127.0.0.1/file.txt'", "refused_value", "invalid_param"),
        ("Input should be 'asc' or 'desc'", "refused_value", "invalid_param"),
        ("[Errno 98] Address already in use", "os_error_text", "conflict"),
        ("[Errno 36] File name too long: '/srv/x'", "os_error_text", "invalid_param"),
        ("spawn /bin/sh ENOENT", "errno", "not_found"),
        ("Daily search quota of 100 requests exhausted; resets at 00:00 UTC", "quota_text", "quota_exceeded"),
        // MongoDB drivers, openpyxl, pandas, shlex, isomorphic-git, simple-git, processes.
        ("input must be a 24 character hex string, 12 byte Uint8Array, or an integer", "refused_value", "invalid_param"),
        ("Update document requires atomic operators", "refused_value", "invalid_param"),
        ("collection names must not contain '$': 'orders$v2'", "refused_value", "invalid_param"),
        ("Row numbers must be between 1 and 1048576. Row number supplied was 0", "refused_value", "invalid_param"),
        ("Excel file format cannot be determined, you must specify an engine manually.", "refused_value", "invalid_param"),
        ("could not convert string to float: '1,5 EUR'", "refused_value", "invalid_param"),
        ("No closing quotation", "refused_value", "invalid_param"),
        ("File too large: 2097152 bytes (max 1048576)", "refused_value", "artifact_too_large"),
        ("NotFoundError: Could not find origin/nope.", "not_found_text", "not_found"),
        ("\"['total'] not in index\"", "not_found_text", "not_found"),
        ("you need to resolve your current index first", "git_error", "conflict"),
        ("git.fetch: potential exploit argument blocked.", "git_error", "forbidden"),
        ("\"bad..name\" would be an invalid git reference", "git_error", "invalid_param"),
        ("Security violation: python3 is not an allowed executable", "process_error", "forbidden"),
        ("Shell operators are not allowed", "process_error", "forbidden"),
        ("TimeoutError: ", "process_error", "timeout"),
        ("ENAMETOOLONG: name too long, open '/srv/x'", "errno", "invalid_param"),
        ("No servers found yet, Timeout: 0.7s, Topology Description: <...>", "backend_unreachable", "tool_error"),
        // Validators' output as JSON: ajv's objects, pydantic's `json()`, zod's and
        // valibot's trees, valibot's key issues.
        (r#"[{"instancePath":"","keyword":"required","params":{"missingProperty":"path"},"message":"must have required property 'path'"}]"#, "validator_output", "missing_param"),
        (r#"[{"type":"int_parsing","loc":["limit"],"msg":"Input should be a valid integer","input":"ten"}]"#, "validator_output", "invalid_param"),
        (r#"{"formErrors":[],"fieldErrors":{"count":["Expected number, received string"]}}"#, "validator_output", "invalid_param"),
        (r#"{"_errors":[],"owner":{"_errors":["Required"]}}"#, "validator_output", "missing_param"),
        ("Invalid key: Expected \"owner\" but received undefined", "validator_output", "missing_param"),
        ("ER_ACCESS_DENIED_ERROR: Access denied for user 'u'@'localhost' (using password: YES)", "database_error", "auth_failed"),
        ("MongoServerError: Authentication failed.", "database_error", "auth_failed"),
        ("fatal: 'nosuch' is not a commit and a branch 'b' cannot be created from it", "git_error", "not_found"),
        ("error: src refspec main does not match any", "git_error", "not_found"),
        ("Cannot connect to host 127.0.0.1:5999 ssl:default [Connect call failed ('127.0.0.1', 5999)]", "backend_unreachable", "tool_error"),
        ("psycopg2.OperationalError: could not translate host name \"db\" to address: Name or service not known", "backend_unreachable", "tool_error"),
        ("Failed to fetch http://127.0.0.1/a - status code 410", "http_status", "not_found"),
        ("robots.txt for this site disallows fetching /private", "forbidden_target", "forbidden"),
    ];

    #[test]
    fn a_missing_object_is_not_a_missing_tool() {
        for text in [
            "Error executing tool get_item: Item named 'x' not found",
            "tool run failed: the file was not found",
            "The tool could not continue: record 42 not found",
        ] {
            assert_ne!(recognize(text, None).map(|r| r.kind), Some(Kind::UnknownTool), "{text}");
        }
        for text in
            ["Tool get_weather not found", "tool 'fs.read' not found", "Tool not found", "MCP error -32602: Tool frobnicate not found"]
        {
            assert_eq!(recognize(text, None).map(|r| r.kind), Some(Kind::UnknownTool), "{text}");
        }
    }

    #[test]
    fn well_known_texts_are_recognized() {
        for (text, rule, kind) in CASES {
            let r = recognize(text, None).unwrap_or_else(|| panic!("not recognized: {text}"));
            assert_eq!((r.rule.as_str(), r.kind.as_str()), (*rule, *kind), "{text}");
        }
    }

    #[test]
    fn values_refused_in_a_servers_words_are_read_against_the_call() {
        let schema = crate::json::parse_json(
            r#"{"type":"object","properties":{"color":{"type":"string"},"size":{"type":"integer"}},"required":["color"]}"#,
        )
        .unwrap();
        let args = crate::json::parse_json(r#"{"color":"purple","size":3}"#).unwrap();
        let call = Some(CallView { schema: &schema, arguments: Some(&args) });
        for text in ["Invalid color 'purple'", "Failed to render: invalid value for size", "Error: 'purple' is not a valid colour"] {
            assert_eq!(recognize(text, call).map(|r| (r.rule, r.kind)), Some((RuleId::InvalidValueText, Kind::InvalidParam)), "{text}");
        }
        // A quoted value the call did not send, a value for something else, what the tool
        // runs on: not the call's values.
        for text in [
            "invalid character '<' looking for beginning of value",
            "Invalid value \"undefined\" for header \"Authorization\"",
            "Unsupported platform: linux-arm64",
        ] {
            assert_ne!(recognize(text, call).map(|r| r.rule), Some(RuleId::InvalidValueText), "{text}");
        }
        // A JSON parser's refusal is the call's only when the call sent JSON text.
        assert_eq!(recognize("Expecting ',' delimiter: line 1 column 9 (char 8)", call).map(|r| r.kind), None);
        let json_args = crate::json::parse_json(r#"{"color":"{\"a\" 1}"}"#).unwrap();
        let json_call = Some(CallView { schema: &schema, arguments: Some(&json_args) });
        let r = recognize("Expecting ',' delimiter: line 1 column 9 (char 8)", json_call).unwrap();
        assert_eq!((r.rule, r.kind), (RuleId::RefusedValue, Kind::InvalidParam));
        // Node's `spawn PROGRAM ENOENT`: the call's command only when it starts with it.
        let cmd_schema = crate::json::parse_json(r#"{"type":"object","properties":{"command":{"type":"string"}}}"#).unwrap();
        let cmd_args = crate::json::parse_json(r#"{"command":"frobnicate --all"}"#).unwrap();
        let cmd_call = Some(CallView { schema: &cmd_schema, arguments: Some(&cmd_args) });
        let r = recognize("spawn frobnicate ENOENT", cmd_call).unwrap();
        assert_eq!((r.rule, r.kind), (RuleId::ProcessError, Kind::InvalidParam));
        assert_eq!(recognize("Error: spawn git ENOENT", cmd_call).map(|r| r.kind), Some(Kind::NotFound));
        // A multi-byte blank before the value (a review's panic).
        assert_eq!(recognize("Value\u{a0}purple is not a valid colour", call).map(|r| r.kind), Some(Kind::InvalidParam));
        assert!(recognize("値\u{3000}purple is not a valid colour", call).is_some());
        // Outside, but not a root the tool must stay in.
        for text in [
            "Upload failed: file size 12 MB is outside the allowed range (1-10 MB)",
            "ERROR:root:Read outside buffer while parsing file data.bin",
            "Error: cannot initialize allowed directories: ALLOWED_DIRS empty",
        ] {
            assert_ne!(recognize(text, call).map(|r| r.rule), Some(RuleId::PathOutsideAllowed), "{text}");
        }
        // A server's own missing-argument words about something the tool does not have.
        let r = recognize("Error code: 400 - Missing required parameter: 'messages'.", call);
        assert_ne!(r.map(|r| r.kind), Some(Kind::MissingParam));
    }

    #[test]
    fn a_missing_key_printed_alone_is_a_value_the_call_sent() {
        let schema = crate::json::parse_json(
            r#"{"type":"object","properties":{"column":{"type":"string"},"row":{"type":"integer"},"branch":{"type":"string"}}}"#,
        )
        .unwrap();
        let args = crate::json::parse_json(r#"{"column":"total","row":99,"branch":"release-1"}"#).unwrap();
        let call = Some(CallView { schema: &schema, arguments: Some(&args) });
        for text in ["'total'", "KeyError: 'total'", "Error calling tool 'sum': 'total'", "KeyError: 99", "Could not find release-1."] {
            assert_eq!(recognize(text, call).map(|r| (r.rule, r.kind)), Some((RuleId::MissingKey, Kind::NotFound)), "{text}");
        }
        // A value the call did not send, or a sentence, is no missing key.
        for text in ["'region'", "Error: 99", "Could not find exact match for edit: total"] {
            assert_ne!(recognize(text, call).map(|r| r.rule), Some(RuleId::MissingKey), "{text}");
        }
    }

    #[test]
    fn retry_after_and_5xx_advice() {
        let r = recognize("429 Too Many Requests; Retry-After: 30", None).unwrap();
        assert_eq!(r.retry_after_ms, Some(30_000));
        let r = recognize("HTTP/1.1 502 Bad Gateway", None).unwrap();
        assert_eq!(r.advice, Some((A::RetryLater, S::Conditional)));
    }

    #[test]
    fn phrase_families_hold_the_words_their_gates_search_for() {
        assert!(NOT_FOUND_PHRASES.iter().all(|p| ["no", "revision", "malformed"].iter().any(|w| p.contains(w))));
        assert!(SDK_VALIDATION_TEXTS.iter().all(|t| ["valid", "required", "[type="].iter().any(|w| t.contains(w))));
        assert!(MISSING_ARGUMENT_PHRASES.iter().all(|t| ["missing", "required", "no value"].iter().any(|w| t.contains(w))));
        assert!(PATH_OUTSIDE_GATE.iter().any(|w| "escape".contains(w)));
    }

    #[test]
    fn ordinary_text_is_not_recognized() {
        for text in [
            "the total was 404 items",
            "file 500.txt is empty",
            "status: ok",
            // Near misses of the phrase families: a word that only contains the phrase, an
            // invalid credential (an auth failure), a value that is merely invalid prose.
            "the notfound flag is set",
            "existsAlready: false",
            "this request is invalid",
            "invalid token: expired",
            "Connection failed: invalid response from server",
            "press escape to leave the root menu",
            "the API key must be provided in the environment",
            "Unknown error: something broke",
            "the quota is 100 requests a day",
            // Near misses of the library families.
            "the command finished and was allowed to continue",
            "the key is a duplicate of none",
            "connected to 127.0.0.1 after a refused attempt",
            "committed; nothing left",
            "we found no problems",
            "No file extensions found for language klingon",
        ] {
            assert_eq!(recognize(text, None), None, "{text}");
        }
    }
}
