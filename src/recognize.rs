//! Recognition of well-known failure text, used only when no structured kind exists.
//!
//! Rules are data: a pattern, the kind it means and optionally its own advice. Recognition
//! sharpens `kind` and advice; it never changes `origin` or lowers `side_effects`.

use std::sync::OnceLock;

use regex_lite::Regex;

use crate::contract::{InvalidArgument, RecoveryAction as A, SameArguments as S};
use crate::json::{parse_json, utf16_prefix, Json};
use crate::recovery::Advice;
use crate::sanitize::strip_controls;

/// How much of a text recognition reads, in UTF-16 code units.
pub const RECOGNITION_WINDOW: usize = 4096;

/// Most argument problems reported.
pub const MAX_INVALID_ARGUMENTS: usize = 32;

/// Longest argument path or problem kept, in UTF-16 code units.
pub const MAX_ARGUMENT_TEXT: usize = 200;

/// One recognition rule.
#[derive(Debug)]
pub struct RecognitionRule {
    /// A short name, for tests and docs.
    pub name: &'static str,
    /// The pattern; a group named `status` carries an HTTP status or errno to map further.
    pub pattern: &'static str,
    /// The kind a match means (`""` when the `status` group decides).
    pub kind: &'static str,
    /// Advice that replaces the kind's own, when the text says more than the kind.
    pub advice: Option<Advice>,
}

/// The rules, first match wins.
pub const RECOGNITION_RULES: &[RecognitionRule] = &[
    RecognitionRule {
        name: "sdk_input_validation",
        pattern: r"(?i)input validation error|invalid arguments for tool|validation errors? for |is a required property|\[type=missing",
        kind: "invalid_param",
        advice: None,
    },
    RecognitionRule {
        name: "tool_not_found",
        pattern: r"(?i)\bunknown tool\b|\btool\b[^\n]{0,200}?\bnot found\b",
        kind: "unknown_tool",
        advice: None,
    },
    RecognitionRule {
        name: "path_outside_allowed",
        pattern: r"(?i)path outside (?:of )?(?:the )?allowed director|not in (?:the )?allowed director|outside (?:of )?(?:the )?allowed (?:roots|paths)",
        kind: "path_traversal",
        advice: Some((A::ReviseAndRetry, S::Never)),
    },
    RecognitionRule {
        name: "http_status",
        pattern: r"(?i)\b(?:HTTP/[0-9.]+[ \t]+|status(?:[ _]code)?[ \t]*[:=]?[ \t]*)(?P<status>[1-5][0-9][0-9])\b",
        kind: "",
        advice: None,
    },
    RecognitionRule {
        name: "http_reason",
        pattern: r"(?i)\b(?P<status>401|403|404|409|429|500|502|503|504)[ \t]+(?:unauthorized|forbidden|not found|conflict|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out)\b",
        kind: "",
        advice: None,
    },
    RecognitionRule { name: "errno", pattern: r"\b(?P<status>ENOENT|EACCES|EPERM|ENOTDIR|EISDIR|ETIMEDOUT)\b", kind: "", advice: None },
    RecognitionRule {
        name: "rate_limit_text",
        pattern: r"(?i)\brate[ -]?limit(?:ed)?\b|\btoo many requests\b",
        kind: "rate_limited",
        advice: None,
    },
    RecognitionRule {
        name: "permission_text",
        pattern: r"(?i)\bpermission denied\b|\baccess denied\b",
        kind: "permission_denied",
        advice: None,
    },
];

/// What a `status` group value means: (status, kind, advice override).
pub const STATUS_KINDS: &[(&str, &str, Option<Advice>)] = &[
    ("401", "auth_failed", None),
    ("403", "forbidden", None),
    ("404", "not_found", None),
    ("409", "conflict", None),
    ("429", "rate_limited", None),
    ("5xx", "tool_error", Some((A::RetryLater, S::Conditional))),
    ("ENOENT", "not_found", None),
    ("EACCES", "permission_denied", None),
    ("EPERM", "permission_denied", None),
    ("ENOTDIR", "invalid_param", None),
    ("EISDIR", "invalid_param", None),
    ("ETIMEDOUT", "timeout", None),
];

/// What recognition found.
#[derive(Clone, Debug, PartialEq)]
pub struct Recognition {
    /// The rule that matched.
    pub rule: &'static str,
    /// The kind it means.
    pub kind: &'static str,
    /// Its own advice, when it has one.
    pub advice: Option<Advice>,
    /// A `Retry-After` found in the text, in milliseconds.
    pub retry_after_ms: Option<u64>,
    /// Arguments named by an SDK validation message.
    pub invalid_arguments: Vec<InvalidArgument>,
}

fn compiled() -> &'static [(&'static RecognitionRule, Regex)] {
    static RULES: OnceLock<Vec<(&'static RecognitionRule, Regex)>> = OnceLock::new();
    RULES.get_or_init(|| RECOGNITION_RULES.iter().filter_map(|r| Regex::new(r.pattern).ok().map(|re| (r, re))).collect())
}

fn retry_after_regex() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?i)retry[ -]after[\x22']?[ \t]*[:=]?[ \t]*(?P<secs>[0-9]{1,7})\b").ok()).as_ref()
}

/// Recognize well-known failure text. Reads at most [`RECOGNITION_WINDOW`] units.
pub fn recognize(text: &str) -> Option<Recognition> {
    let text = utf16_prefix(text, RECOGNITION_WINDOW);
    for (rule, re) in compiled() {
        let Some(caps) = re.captures(text) else {
            continue;
        };
        let (kind, advice) = match caps.name("status") {
            Some(status) => {
                let key = if status.as_str().starts_with('5') { "5xx" } else { status.as_str() };
                match STATUS_KINDS.iter().find(|(s, _, _)| *s == key) {
                    Some((_, kind, advice)) => (*kind, *advice),
                    None => continue,
                }
            }
            None => (rule.kind, rule.advice),
        };
        let mut found = Recognition { rule: rule.name, kind, advice, retry_after_ms: retry_after_ms(text), invalid_arguments: Vec::new() };
        if rule.name == "sdk_input_validation" {
            found.invalid_arguments = sdk_argument_problems(text);
            if !found.invalid_arguments.is_empty() && found.invalid_arguments.iter().all(|a| a.problem == MISSING) {
                found.kind = "missing_param";
            }
        }
        return Some(found);
    }
    None
}

/// A `Retry-After` in seconds, as milliseconds.
pub fn retry_after_ms(text: &str) -> Option<u64> {
    let caps = retry_after_regex()?.captures(text)?;
    caps.name("secs")?.as_str().parse::<u64>().ok().map(|s| s * 1000)
}

/// The problem text for an absent required argument.
pub const MISSING: &str = "missing required argument";

/// Argument problems named by the MCP SDKs' validation messages: the TypeScript SDK's zod
/// issue list (JSON), the Python SDK's jsonschema and pydantic messages.
pub fn sdk_argument_problems(text: &str) -> Vec<InvalidArgument> {
    let mut problems = zod_issues(text);
    if problems.is_empty() {
        problems = jsonschema_required(text);
    }
    if problems.is_empty() {
        problems = pydantic_errors(text);
    }
    problems.truncate(MAX_INVALID_ARGUMENTS);
    problems
}

fn clean(text: &str) -> String {
    let one_line: String = strip_controls(utf16_prefix(text, MAX_ARGUMENT_TEXT * 2)).split_whitespace().collect::<Vec<_>>().join(" ");
    utf16_prefix(&one_line, MAX_ARGUMENT_TEXT).to_owned()
}

fn zod_issues(text: &str) -> Vec<InvalidArgument> {
    let Some(start) = text.find("[{").or_else(|| text.find("[\n")) else {
        return Vec::new();
    };
    let Some(end) = text.rfind(']') else {
        return Vec::new();
    };
    if end < start {
        return Vec::new();
    }
    let Ok(Json::Array(issues)) = parse_json(&text[start..=end]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for issue in issues.items() {
        let message = issue.get("message").and_then(Json::as_str).unwrap_or("invalid value");
        let code = issue.get("code").and_then(Json::as_str).unwrap_or("");
        if code == "unrecognized_keys" {
            if let Some(keys) = issue.get("keys").and_then(Json::as_array) {
                let base = zod_path(issue);
                for k in keys.items().iter().filter_map(Json::as_str) {
                    let path = if base.is_empty() { k.to_owned() } else { format!("{base}.{k}") };
                    out.push(InvalidArgument::new(clean(&path), "unexpected argument"));
                }
                continue;
            }
        }
        let received = issue.get("received").and_then(Json::as_str).unwrap_or("");
        let missing =
            code == "invalid_type" && (received == "undefined" || message.contains("received undefined") || message == "Required");
        let problem = if missing { MISSING.to_owned() } else { clean(message) };
        out.push(InvalidArgument::new(clean(&zod_path(issue)), problem));
    }
    out
}

fn zod_path(issue: &Json) -> String {
    let mut path = String::new();
    for part in issue.get("path").and_then(Json::as_array).map(|a| a.items()).unwrap_or_default() {
        match part {
            Json::Number(n) => path.push_str(&format!("[{n}]")),
            Json::String(s) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(s.head());
            }
            _ => {}
        }
    }
    path
}

fn jsonschema_required(text: &str) -> Vec<InvalidArgument> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(re) = RE.get_or_init(|| Regex::new(r"'(?P<name>[^'\n]{1,100})' is a required property").ok()).as_ref() else {
        return Vec::new();
    };
    re.captures_iter(text).map(|c| InvalidArgument::new(clean(&c["name"]), MISSING)).collect()
}

fn pydantic_errors(text: &str) -> Vec<InvalidArgument> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    let Some(re) = RE
        .get_or_init(|| {
            Regex::new(r"(?m)^(?P<loc>[A-Za-z_][A-Za-z0-9_.\[\]]{0,100})\r?\n[ \t]+(?P<msg>[^\n\[]{1,200}?)[ \t]*\[type=(?P<ty>[a-z_]+)")
                .ok()
        })
        .as_ref()
    else {
        return Vec::new();
    };
    re.captures_iter(text)
        .map(|c| {
            let problem = if &c["ty"] == "missing" { MISSING.to_owned() } else { clean(&c["msg"]) };
            InvalidArgument::new(clean(&c["loc"]), problem)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles() {
        assert_eq!(compiled().len(), RECOGNITION_RULES.len());
        assert!(retry_after_regex().is_some());
    }

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
        let r = recognize(text).unwrap();
        assert_eq!(r.kind, "invalid_param");
        assert_eq!(r.invalid_arguments[0], InvalidArgument::new("title", MISSING));
        assert_eq!(r.invalid_arguments[1], InvalidArgument::new("labels[0]", "Expected array, received string"));
    }

    #[test]
    fn only_missing_arguments_make_missing_param() {
        let text = r#"Input validation error: Invalid arguments for tool echo: [{"expected":"string","code":"invalid_type","path":["message"],"message":"Invalid input: expected string, received undefined"}]"#;
        let r = recognize(text).unwrap();
        assert_eq!(r.kind, "missing_param");
        assert_eq!(r.invalid_arguments, vec![InvalidArgument::new("message", MISSING)]);
    }

    #[test]
    fn python_sdk_messages_name_each_argument() {
        let r = recognize("Input validation error: 'path' is a required property").unwrap();
        assert_eq!(r.invalid_arguments, vec![InvalidArgument::new("path", MISSING)]);
        let text = "Error executing tool add: 2 validation errors for addArguments\na\n  Field required [type=missing, input_value={}, input_type=dict]\nb\n  Input should be a valid integer [type=int_parsing, input_value='x', input_type=str]";
        let r = recognize(text).unwrap();
        assert_eq!(
            r.invalid_arguments,
            vec![InvalidArgument::new("a", MISSING), InvalidArgument::new("b", "Input should be a valid integer")]
        );
    }

    /// (text, rule, kind)
    const CASES: &[(&str, &str, &str)] = &[
        ("Tool get_weather not found", "tool_not_found", "unknown_tool"),
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
    ];

    #[test]
    fn well_known_texts_are_recognized() {
        for (text, rule, kind) in CASES {
            let r = recognize(text).unwrap_or_else(|| panic!("not recognized: {text}"));
            assert_eq!((r.rule, r.kind), (*rule, *kind), "{text}");
        }
    }

    #[test]
    fn retry_after_and_5xx_advice() {
        let r = recognize("429 Too Many Requests; Retry-After: 30").unwrap();
        assert_eq!(r.retry_after_ms, Some(30_000));
        let r = recognize("HTTP/1.1 502 Bad Gateway").unwrap();
        assert_eq!(r.advice, Some((A::RetryLater, S::Conditional)));
    }

    #[test]
    fn ordinary_text_is_not_recognized() {
        for text in ["the total was 404 items", "Division by zero", "file 500.txt is empty", "status: ok"] {
            assert_eq!(recognize(text), None, "{text}");
        }
    }
}
