//! Property tests over generated failure reports: realistic `CallToolResult`s (random
//! text with planted secrets, every block type, nested structured content, random kinds,
//! annotations and dispatch facts), JSON-RPC, transport, validation and gateway failures,
//! under random policies. Plus hostile inputs that must end in a typed error or a capped
//! outcome, never a panic.
//!
//! Properties, each its own test so one failure does not hide another:
//! - every output conforms to both schemas and to the contract invariants, within
//!   `max_error_bytes`;
//! - no planted secret, binary payload or `_meta` marker survives anywhere in the output;
//! - the same report gives the same bytes, also with every object's keys shuffled;
//! - `parse_call_error` reads every output back to an equal struct;
//! - under a policy that adds redaction rules, outputs still conform and its normalizer's
//!   own reader reads them back equal.

use std::sync::OnceLock;

use codemode_errors::run::classify_run_json;
use codemode_errors::{parse_call_error, ErrorCode, Normalizer, Policy, TokenAlphabet, TokenFormat};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestCaseError};
use serde_json::{json, Map, Value};

// ---------------------------------------------------------------------------------------
// Generated inputs

/// A generated value and the strings that must never appear in any output built from it.
type Planted<T> = (T, Vec<String>);

/// Failure text real MCP servers and SDKs produce.
const PHRASES: &[&str] = &[
    "Error: ENOENT: no such file or directory, open '/Users/ann/notes.md'",
    "Error: Access denied - path outside allowed directories: /etc/passwd not in /Users/ann",
    "MCP error -32602: Input validation error: Invalid arguments for tool create_issue: [{\"code\":\"invalid_type\",\"expected\":\"string\",\"received\":\"undefined\",\"path\":[\"title\"],\"message\":\"Required\"}]",
    "Error executing tool add: 1 validation error for addArguments\nb\n  Field required [type=missing, input_value={'a': 1}, input_type=dict]",
    "Input validation error: 'path' is a required property",
    "{\"message\":\"Not Found\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"404\"}",
    "{\"error\":{\"kind\":\"network_error\",\"message\":\"socket hang up\"}}",
    "{\"kind\":\"rate_limited\",\"message\":\"slow down\",\"retry_after_ms\":2500}",
    "HTTP/1.1 429 Too Many Requests\nRetry-After: 30",
    "HTTP/1.1 401 Unauthorized",
    "Request failed with status code 403",
    "failed to get issue: GET https://api.github.com/repos/o/r/issues/1: 404 Not Found []",
    "HTTP/2 503 Service Unavailable",
    "409 Conflict",
    "Tool get_weather not found",
    "Unknown tool: frobnicate",
    "connect ETIMEDOUT 10.0.0.1:443",
    "EACCES: permission denied, open '/root/.ssh/id_rsa'",
    "You have exceeded a secondary rate limit",
    "Division by zero",
    "the total was 404 items",
];

/// Characters and markers the sanitizer must handle.
const SPECIALS: &[&str] = &[
    "\n",
    "\n    ",
    "\t",
    "\r\n",
    "\u{0}",
    "\u{7}",
    "\u{1b}[31m",
    "\u{85}",
    "\u{9b}",
    "\u{7f}",
    "\u{202e}",
    "\u{2066}",
    "\u{2069}",
    "\u{200f}",
    "\u{200b}",
    "\u{200d}",
    "\u{2060}",
    "\u{feff}",
    "<|im_start|>",
    "<|im_end|>",
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "</s>",
    "<start_of_turn>",
    "😀",
    "é",
    "日本語",
    "\"",
    "\\",
    "[REDACTED:api_key]",
];

/// A planted secret: the text to embed and the random parts that must not survive.
fn secret() -> impl Strategy<Value = Planted<String>> {
    (0usize..26, "[A-Za-z0-9]{40}", "[A-Za-z0-9]{40}", "[A-Za-z0-9]{40}")
        .prop_map(|(family, a, b, c)| {
            let a36 = &a[..36];
            let up16: String = a.to_uppercase().chars().take(16).collect();
            let (text, probes): (String, Vec<String>) = match family {
                0 => (format!("ghp_{a36}"), vec![a36.into()]),
                1 => (format!("github_pat_{a}"), vec![a.clone()]),
                2 => (format!("sk-proj-{a}"), vec![a.clone()]),
                3 => (format!("sk-ant-api03-{a}"), vec![a.clone()]),
                4 => (format!("AKIA{up16}"), vec![up16.clone()]),
                5 => (format!("xoxb-123456789012-{a}"), vec![a.clone()]),
                6 => (format!("glpat-{a}"), vec![a.clone()]),
                7 => (format!("AIza{}", &a[..35]), vec![a[..35].into()]),
                8 => (format!("sk_live_{a}"), vec![a.clone()]),
                9 => (format!("npm_{a36}"), vec![a36.into()]),
                10 => (format!("eyJ{a}.eyJ{b}.{c}"), vec![a.clone(), b.clone(), c.clone()]),
                11 => (format!("Authorization: Bearer {a}"), vec![a.clone()]),
                12 => (format!("Authorization: Basic {a}"), vec![a.clone()]),
                13 => (format!("Bearer {a}"), vec![a.clone()]),
                14 => (format!("password={a}"), vec![a.clone()]),
                15 => (format!("DB_PASSWORD={a}"), vec![a.clone()]),
                16 => (format!("\"client_secret\": \"{a}\""), vec![a.clone()]),
                17 => (format!("x-api-key: {a}"), vec![a.clone()]),
                18 => (format!("postgres://app:{a}@db.internal:5432/prod"), vec![a.clone()]),
                19 => (format!("https://api.example.com/v1/items?access_token={a}&page=2"), vec![a.clone()]),
                20 => (format!("\nCookie: session={a}; theme=dark\n"), vec![a.clone()]),
                21 => (format!("\n-----BEGIN RSA PRIVATE KEY-----\n{a}\n{b}\n-----END RSA PRIVATE KEY-----\n"), vec![a.clone(), b.clone()]),
                22 => (format!("refreshToken='{a}'"), vec![a.clone()]),
                23 => (format!("--password={a}"), vec![a.clone()]),
                24 => (format!("--api-key {a}"), vec![a.clone()]),
                _ => (format!("https://bucket.s3.amazonaws.com/f?X-Amz-Signature={a}&X-Amz-Expires=300"), vec![a.clone()]),
            };
            (text, probes)
        })
        .prop_flat_map(|(text, probes)| {
            // Whitespace or punctuation around the secret. Never a word character before it:
            // a token glued to a preceding word is no token boundary (a documented limit of
            // prefix matching).
            select(&[" {} ", "({})", " '{}' ", "\n{}\n", " <{}>", "[{}] ", " {}, ", "\t{}\t", " {}."][..])
                .prop_map(move |wrap| (wrap.replace("{}", &text), probes.clone()))
        })
}

fn fragment() -> impl Strategy<Value = Planted<String>> {
    prop_oneof![
        4 => "[A-Za-z0-9 ,.:;'/()_=-]{0,30}".prop_map(|s| (s, vec![])),
        2 => select(PHRASES).prop_map(|s| (s.to_owned(), vec![])),
        1 => "\\PC{0,12}".prop_map(|s| (s, vec![])),
        2 => select(SPECIALS).prop_map(|s| (s.to_owned(), vec![])),
        3 => secret(),
    ]
}

/// Free text with planted secrets, controls, markers and realistic failure phrases.
fn planted_text() -> impl Strategy<Value = Planted<String>> {
    prop::collection::vec(fragment(), 0..12).prop_map(|parts| {
        let mut text = String::new();
        let mut probes = Vec::new();
        for (t, p) in parts {
            text.push_str(&t);
            probes.extend(p);
        }
        (text, probes)
    })
}

/// An MCP SDK input-validation message (TypeScript zod issue list or Python pydantic
/// errors) whose argument names and issue messages carry planted text.
fn sdk_validation_text() -> impl Strategy<Value = Planted<String>> {
    let issue = (planted_text(), planted_text(), select(&["custom", "invalid_type", "too_small", "invalid_string"][..]));
    prop_oneof![
        (prop::collection::vec(issue, 1..4), "[a-z_]{1,12}").prop_map(|(issues, tool)| {
            let mut probes = Vec::new();
            let list: Vec<Value> = issues
                .into_iter()
                .map(|((path, p1), (message, p2), code)| {
                    probes.extend(p1);
                    probes.extend(p2);
                    // Some issues about nothing nameable: the arguments object, a blank name.
                    let path = match path.len() % 7 {
                        0 => json!([]),
                        1 => json!([" \t"]),
                        _ => json!([path]),
                    };
                    json!({"code": code, "path": path, "message": message})
                })
                .collect();
            let issues = serde_json::to_string_pretty(&Value::Array(list)).expect("issues serialize");
            (format!("MCP error -32602: Input validation error: Invalid arguments for tool {tool}: {issues}"), probes)
        }),
        (prop::collection::vec(("[a-z_]{1,12}", planted_text()), 1..4), "[a-z_]{1,12}").prop_map(|(errors, tool)| {
            let mut probes = Vec::new();
            let mut text = format!("Error executing tool {tool}: {} validation errors for {tool}Arguments", errors.len());
            for (field, (message, p)) in errors {
                probes.extend(p);
                let message = message.replace(['\n', '['], " ");
                text.push_str(&format!("\n{field}\n  Value error, {message} [type=value_error, input_value='x', input_type=str]"));
            }
            (text, probes)
        }),
    ]
}

/// The text of a failure: free text, or an SDK validation message.
fn failure_text() -> impl Strategy<Value = Planted<String>> {
    prop_oneof![4 => planted_text(), 1 => sdk_validation_text()]
}

/// Binary-looking data that must never be copied.
fn base64ish() -> impl Strategy<Value = String> {
    "[A-Za-z0-9+/]{40,120}"
}

/// A random marker that must never be copied (for `_meta` and omitted payloads).
fn marker() -> impl Strategy<Value = String> {
    "MARK[A-Za-z0-9]{24}"
}

const KINDS: &[&str] = &[
    "not_found",
    "rate_limited",
    "auth_failed",
    "forbidden",
    "confirmation_required",
    "network_error",
    "upstream_error",
    "server_error",
    "internal_error",
    "decode_error",
    "timeout",
    "QUOTA_HIT",
    "weird kind",
    "missing_param",
    "invalid_param",
    "budget_exceeded",
];

const SECRET_KEYS: &[&str] =
    &["password", "apiKey", "client_secret", "accessToken", "Authorization", "privateKey", "DB_PASSWORD", "sessionId"];

/// An object key: a plain name, any printable text, or a planted token.
fn member_key() -> impl Strategy<Value = Planted<String>> {
    prop_oneof![6 => "[a-zA-Z_]{1,10}|\\PC{1,6}".prop_map(|k| (k, vec![])), 1 => secret()]
}

/// A JSON value with planted strings and members named like secrets.
fn json_value() -> impl Strategy<Value = Planted<Value>> {
    let leaf = prop_oneof![
        Just((Value::Null, vec![])),
        any::<bool>().prop_map(|b| (Value::Bool(b), vec![])),
        (-1.0e12f64..1.0e12).prop_map(|n| (json!(n), vec![])),
        any::<i32>().prop_map(|n| (json!(n), vec![])),
        planted_text().prop_map(|(t, p)| (Value::String(t), p)),
        (select(SECRET_KEYS), "[A-Za-z0-9]{24}").prop_map(|(k, v)| (json!({ k: v.clone() }), vec![v])),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(|items| {
                let mut probes = Vec::new();
                let values = items
                    .into_iter()
                    .map(|(v, p)| {
                        probes.extend(p);
                        v
                    })
                    .collect();
                (Value::Array(values), probes)
            }),
            prop::collection::vec((member_key(), inner), 0..6).prop_map(|members| {
                let mut probes = Vec::new();
                let mut map = Map::new();
                for ((k, pk), (v, p)) in members {
                    probes.extend(pk);
                    probes.extend(p);
                    map.insert(k, v);
                }
                (Value::Object(map), probes)
            }),
        ]
    })
}

fn structured_error() -> impl Strategy<Value = Planted<Value>> {
    (
        prop_oneof![4 => select(KINDS).prop_map(|k| (k.to_owned(), vec![])), 1 => secret()],
        planted_text(),
        prop::option::of(prop_oneof![Just(json!(0)), Just(json!(1500)), Just(json!(1.0e300)), Just(json!(-5))]),
        any::<bool>(),
    )
        .prop_map(|((kind, mut probes), (message, p), retry, wrapped)| {
            probes.extend(p);
            let mut e = json!({"kind": kind, "message": message});
            if let Some(r) = retry {
                e["retry_after_ms"] = r;
            }
            (if wrapped { json!({"error": e, "requestId": "req_1"}) } else { e }, probes)
        })
}

fn block() -> impl Strategy<Value = Planted<Value>> {
    prop_oneof![
        5 => (failure_text(), prop::option::of(marker())).prop_map(|((text, probes), meta)| {
            let mut b = json!({"type": "text", "text": text});
            let mut probes = probes;
            if let Some(m) = meta {
                b["_meta"] = json!({"trace": m.clone()});
                b["annotations"] = json!({"audience": ["user"], "priority": 0.5});
                probes.push(m);
            }
            (b, probes)
        }),
        1 => (select(&["image", "audio"][..]), base64ish(), prop::option::of(select(&["image/png", "audio/wav", "image/svg+xml"][..])))
            .prop_map(|(ty, data, mime)| {
                let mut b = json!({"type": ty, "data": data.clone()});
                if let Some(m) = mime { b["mimeType"] = json!(m); }
                (b, vec![data])
            }),
        1 => (planted_text(), planted_text(), prop::option::of(base64ish())).prop_map(|((uri, mut p1), (text, p2), blob)| {
            p1.extend(p2);
            let resource = match blob {
                Some(blob) => { p1.push(blob.clone()); json!({"uri": format!("file:///x/{uri}"), "mimeType": "application/octet-stream", "blob": blob}) }
                None => json!({"uri": format!("file:///x/{uri}"), "mimeType": "text/plain", "text": text}),
            };
            (json!({"type": "resource", "resource": resource}), p1)
        }),
        1 => (planted_text(), planted_text(), marker()).prop_map(|((uri, mut p1), (name, p2), m)| {
            p1.extend(p2);
            p1.push(m.clone());
            (json!({"type": "resource_link", "uri": format!("https://x.example/{uri}"), "name": name, "mimeType": "text/html", "description": m}), p1)
        }),
        1 => ("[a-z_]{1,12}", marker()).prop_map(|(ty, m)| {
            let ty = if ["text", "image", "audio", "resource", "resource_link"].contains(&ty.as_str()) { format!("x_{ty}") } else { ty };
            (json!({"type": ty, "payload": m.clone()}), vec![m])
        }),
    ]
}

fn tool_result() -> impl Strategy<Value = Planted<Value>> {
    (
        prop_oneof![6 => prop::collection::vec(block(), 0..6), 1 => prop::collection::vec(block(), 14..40)],
        prop_oneof![8 => Just(Some(json!(true))), 1 => Just(Some(json!(false))), 1 => Just(None)],
        prop_oneof![3 => Just(None), 2 => json_value().prop_map(Some), 2 => structured_error().prop_map(Some)],
        prop_oneof![6 => Just(None), 1 => Just(Some("complete")), 1 => Just(Some("input_required"))],
        marker(),
    )
        .prop_map(|(blocks, is_error, structured, result_type, meta)| {
            let mut probes = vec![meta.clone()];
            let content: Vec<Value> = blocks
                .into_iter()
                .map(|(b, p)| {
                    probes.extend(p);
                    b
                })
                .collect();
            let mut r = Map::new();
            if let Some(t) = result_type {
                r.insert("resultType".into(), json!(t));
            }
            r.insert("content".into(), Value::Array(content));
            if let Some((sc, p)) = structured {
                probes.extend(p);
                r.insert("structuredContent".into(), sc);
            }
            if let Some(e) = is_error {
                r.insert("isError".into(), e);
            }
            r.insert("_meta".into(), json!({"progressToken": meta}));
            (Value::Object(r), probes)
        })
}

fn jsonrpc_error() -> impl Strategy<Value = Planted<Value>> {
    (
        prop_oneof![select(&[-32602i64, -32601, -32002, -32603, -32700, -32600, -32001, -32000][..]), any::<i32>().prop_map(i64::from)],
        failure_text(),
        prop_oneof![Just(None), json_value().prop_map(Some), structured_error().prop_map(Some)],
    )
        .prop_map(|(code, (message, mut probes), data)| {
            let mut e = json!({"code": code, "message": message});
            if let Some((d, p)) = data {
                probes.extend(p);
                e["data"] = d;
            }
            (e, probes)
        })
}

const TRANSPORT_KINDS: &[&str] =
    &["timeout", "connection_closed", "connection_refused", "dns", "tls", "response_too_large", "malformed_response", "cancelled", "other"];

fn transport() -> impl Strategy<Value = Planted<Value>> {
    (select(TRANSPORT_KINDS), prop::option::of(planted_text())).prop_map(|(kind, message)| match message {
        Some((m, p)) => (json!({"kind": kind, "message": m}), p),
        None => (json!({"kind": kind}), vec![]),
    })
}

/// Argument names; integer-like ones are ordered first by JavaScript objects.
const ARG_NAMES: &[&str] = &["owner", "repo", "title", "labels", "count", "1", "10", "2"];

fn validation() -> impl Strategy<Value = Planted<Value>> {
    let schema = json!({"type": "object", "properties": {
        "owner": {"type": "string", "minLength": 1}, "repo": {"type": "string"}, "title": {"type": "string"},
        "labels": {"type": "array", "items": {"type": "string"}}, "count": {"type": "integer", "minimum": 1, "maximum": 10},
        "1": {"type": "string"}, "10": {"type": "boolean"}},
        "required": ["owner", "repo", "title"], "additionalProperties": false});
    let arg_value = prop_oneof![
        Just(json!("x")),
        Just(json!(7)),
        Just(json!(0.5)),
        Just(json!(["a", 2])),
        Just(json!(true)),
        Just(json!(null)),
        "[A-Za-z0-9]{24}".prop_map(Value::String),
    ];
    let key = prop_oneof![select(ARG_NAMES).prop_map(str::to_owned), "[a-z]{1,8}", secret().prop_map(|(s, _)| s.trim().to_owned())];
    prop_oneof![
        prop::collection::vec((key, arg_value), 0..8).prop_map(move |members| {
            let mut args = Map::new();
            let mut probes = Vec::new();
            for (k, v) in members {
                // A key that is a planted secret must not be echoed even as a path.
                if let Some(s) = k.strip_prefix("ghp_") {
                    probes.push(s.to_owned());
                }
                args.insert(k, v);
            }
            (json!({"arguments": args, "input_schema": schema.clone()}), probes)
        }),
        prop::collection::vec((planted_text(), planted_text()), 1..6).prop_map(|problems| {
            let mut probes = Vec::new();
            let list: Vec<Value> = problems
                .into_iter()
                .map(|((path, p1), (problem, p2))| {
                    probes.extend(p1);
                    probes.extend(p2);
                    json!({"path": path, "problem": problem})
                })
                .collect();
            (json!({"problems": list}), probes)
        }),
        planted_text().prop_map(|(m, p)| (json!({"message": format!("invalid: {m}")}), p)),
    ]
}

const HOST_KINDS: &[&str] = &[
    "forbidden",
    "route_scope_denied",
    "confirmation_required",
    "budget_exceeded",
    "quota_exceeded",
    "rate_limited",
    "artifact_too_large",
    "unknown_tool",
    "invalid_code_mode_id",
    "runtime_unavailable",
    "internal_error",
    "timeout",
    "output_limit_exceeded",
    "custom_host_kind_2",
];

fn blocked() -> impl Strategy<Value = Planted<(&'static str, Value)>> {
    (select(&["policy", "budget", "code_mode"][..]), select(HOST_KINDS), planted_text(), prop::option::of(0u64..=86_400_000)).prop_map(
        |(tag, kind, (message, probes), retry)| {
            let message = if message.is_empty() { "blocked".to_owned() } else { message };
            let mut b = json!({"kind": kind, "message": message});
            if let Some(r) = retry {
                b["retry_after_ms"] = json!(r);
            }
            ((tag, b), probes)
        },
    )
}

fn failure() -> impl Strategy<Value = Planted<(&'static str, Value)>> {
    prop_oneof![
        6 => tool_result().prop_map(|(v, p)| (("tool_result", v), p)),
        2 => jsonrpc_error().prop_map(|(v, p)| (("jsonrpc_error", v), p)),
        1 => transport().prop_map(|(v, p)| (("transport", v), p)),
        2 => validation().prop_map(|(v, p)| (("validation", v), p)),
        2 => blocked(),
    ]
}

fn annotations() -> impl Strategy<Value = Option<Value>> {
    let hint = prop_oneof![3 => Just(None), 2 => any::<bool>().prop_map(|b| Some(json!(b))), 1 => Just(Some(json!("true")))];
    prop::option::of((hint.clone(), hint.clone(), hint.clone(), hint).prop_map(|(r, d, i, o)| {
        let mut a = Map::new();
        a.insert("title".into(), json!("A tool"));
        for (k, v) in [("readOnlyHint", r), ("destructiveHint", d), ("idempotentHint", i), ("openWorldHint", o)] {
            if let Some(v) = v {
                a.insert(k.into(), v);
            }
        }
        Value::Object(a)
    }))
}

/// A full report with the strings that must not survive.
fn report() -> impl Strategy<Value = Planted<Value>> {
    (
        prop::option::of(select(&["github::create_issue", "filesystem::read_text_file", "a::b", "slack::post_message", "ns::outil_é"][..])),
        annotations(),
        prop_oneof![Just(None), Just(Some(Value::Null)), Just(Some(json!(true))), Just(Some(json!(false)))],
        failure(),
    )
        .prop_map(|(tool, annotations, dispatched, ((tag, failure), probes))| {
            let mut r = Map::new();
            if let Some(t) = tool {
                r.insert("tool".into(), json!(t));
            }
            if let Some(a) = annotations {
                r.insert("annotations".into(), a);
            }
            if let Some(d) = dispatched {
                r.insert("dispatched".into(), d);
            }
            r.insert(tag.into(), failure);
            (Value::Object(r), probes)
        })
}

/// A random policy: each cap either its default or a value within its range.
fn policy() -> impl Strategy<Value = Policy> {
    (
        prop::option::of(1u32..=20),
        prop::option::of(prop_oneof![64u32..=300, 8192u32..=8192]),
        prop::option::of(256u32..=3000),
        prop::option::of(256u32..=3000),
        prop::option::of(prop_oneof![4096u32..=6000, 6000u32..=40000]),
        prop::option::of(1u32..=10),
        prop::option::of(1u32..=40),
        prop::option::of(16u32..=200),
        prop::option::of(prop_oneof![0u32..=0, 10u32..=300, 65536u32..=65536]),
    )
        .prop_map(|(blocks, text, structured, parsed, error, depth, items, strings, parse)| {
            let mut p = Policy::default();
            for (name, v) in [
                ("max_content_blocks", blocks),
                ("max_text_chars", text),
                ("max_structured_bytes", structured),
                ("max_parsed_error_bytes", parsed),
                ("max_error_bytes", error),
                ("max_json_depth", depth),
                ("max_json_items", items),
                ("max_json_string_chars", strings),
                ("max_parse_chars", parse),
            ] {
                if let Some(v) = v {
                    p = p.with(name, f64::from(v)).expect("generated policy values are in range");
                }
            }
            p
        })
}

/// A policy of random caps that also adds to the redaction rules: key names the reports
/// use (so whole members and `key: value` texts are masked), a token format, and an
/// allowlist of values and key names the reports hold.
fn policy_with_rules() -> impl Strategy<Value = Policy> {
    let secret = prop::sample::subsequence(vec!["message", "text", "acme_session", "user_name", "detail"], 0..=3);
    let allowed = prop::sample::subsequence(vec!["hunter2", "ann", "not found", "ok"], 0..=2);
    let plain = prop::sample::subsequence(vec!["token_budget", "password", "api_key", "code"], 0..=2);
    (policy(), secret, any::<bool>(), allowed, plain).prop_map(|(mut p, secret, format, allowed, plain)| {
        for name in secret {
            p = p.with_secret_key(name).expect("a well-formed key name");
        }
        if format {
            let acme =
                TokenFormat { family: "acme_token".into(), prefix: "sk-".into(), alphabet: TokenAlphabet::Alnum, min_body_length: 8 };
            p = p.with_token_format(acme).expect("a well-formed format");
        }
        for value in allowed {
            p = p.with_allowed(value).expect("a well-formed value");
        }
        for name in plain {
            p = p.with_allowed_key(name).expect("a well-formed key name");
        }
        p
    })
}

// ---------------------------------------------------------------------------------------
// Checks

struct Schemas {
    reference: jsonschema::Validator,
    ours: jsonschema::Validator,
}

fn schemas() -> &'static Schemas {
    static S: OnceLock<Schemas> = OnceLock::new();
    S.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |p: std::path::PathBuf| -> Value {
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))).expect("schema is JSON")
        };
        Schemas {
            reference: jsonschema::validator_for(&read(root.join("schema/reference/reference-code-mode-call-error-v1.schema.json")))
                .expect("reference schema compiles"),
            ours: jsonschema::validator_for(&read(root.join("schema/code-mode-call-error.v1.schema.json"))).expect("our schema compiles"),
        }
    })
}

fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

fn normalize(report: &Value, policy: &Policy) -> Result<String, TestCaseError> {
    let text = serde_json::to_string(report).expect("report serializes");
    Normalizer::new(policy.clone())
        .normalize_json(&text)
        .map(|o| o.to_json())
        .map_err(|e| TestCaseError::fail(format!("a generated report was refused: {e}\nreport: {text}")))
}

/// Schema conformance, the size cap and the contract invariants of one outcome.
fn check_outcome(report: &Value, policy: &Policy, outcome: &str) -> Result<(), TestCaseError> {
    let out: Value = serde_json::from_str(outcome).map_err(|e| TestCaseError::fail(format!("output is not JSON: {e}")))?;
    let breaker = out["breaker"].as_str().unwrap_or("");
    prop_assert!(["success", "failure", "none"].contains(&breaker), "breaker {breaker:?}");
    let error = &out["error"];
    if error.is_null() {
        // Only a tool result that is not an error may have no error object.
        let r = report.get("tool_result").expect("only tool results succeed");
        let is_error = r.get("isError").and_then(Value::as_bool).unwrap_or(false);
        let input_required = r.get("resultType").and_then(Value::as_str) == Some("input_required");
        prop_assert!(!is_error || input_required, "an isError result produced no error: {outcome}");
        prop_assert_eq!(breaker, "success");
        return Ok(());
    }
    let json = serde_json::to_string(error).expect("error serializes");
    for (name, v) in [("reference", &schemas().reference), ("ours", &schemas().ours)] {
        let problems: Vec<String> = v.iter_errors(error).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        prop_assert!(problems.is_empty(), "{name} schema: {problems:?}\noutput: {outcome}");
    }
    let raw_error_len = outcome.len() - "{\"error\":".len() - ",\"breaker\":\"\"}".len() - breaker.len();
    prop_assert!(raw_error_len <= policy.max_error_bytes(), "error is {raw_error_len} bytes > {}", policy.max_error_bytes());

    let origin = error["origin"].as_str().unwrap_or("");
    let kind = error["kind"].as_str().unwrap_or("");
    let side = error["side_effects"].as_str().unwrap_or("");
    let same = error["recovery"]["same_arguments"].as_str().unwrap_or("");
    let dispatched = report.get("dispatched").and_then(Value::as_bool);
    let read_only = report.get("annotations").and_then(|a| a.get("readOnlyHint")).and_then(Value::as_bool) == Some(true);
    if let Some(tool) = report.get("tool").and_then(Value::as_str) {
        prop_assert_eq!(error["tool"].as_str(), Some(tool));
        prop_assert!(error["message"].as_str().unwrap_or("").contains(tool), "message does not name the tool");
    }
    // Rule 3/4: a completed isError result is a tool execution failure that never trips the breaker.
    if origin == "tool_execution" {
        prop_assert!(breaker == "success", "tool_execution with breaker {breaker}");
        for infra in ["upstream_error", "network_error", "server_error", "internal_error", "decode_error"] {
            if report.get("tool_result").is_some() {
                prop_assert!(kind != infra, "infrastructure kind {kind} inside a completed tool result");
            }
        }
    }
    if report.get("transport").is_some() {
        prop_assert_eq!(origin, "upstream_transport");
    }
    for tag in ["policy", "budget", "code_mode", "validation"] {
        if report.get(tag).is_some() {
            prop_assert_eq!(origin, tag);
            prop_assert_eq!(breaker, "none");
        }
    }
    // Rules 11-13: only a call that never left the gateway may be safe to repeat, and
    // hints never lower side effects below what the facts allow.
    if same == "safe" {
        prop_assert_eq!(dispatched, Some(false), "same_arguments safe without dispatched: false");
    }
    if dispatched == Some(false) {
        prop_assert_eq!(side, "none_expected");
    }
    if (origin == "tool_execution" || origin == "upstream_transport") && dispatched != Some(false) && !read_only {
        prop_assert_ne!(side, "none_expected", "side effects lowered without a fact or hint");
    }
    // Rules 7-10: blocks capped in number and size; no binary or metadata member.
    if let Some(content) = error["evidence"]["content"].as_array() {
        prop_assert!(content.len() <= policy.max_content_blocks());
        for block in content {
            for banned in ["data", "blob", "_meta", "annotations", "payload", "description"] {
                prop_assert!(block.get(banned).is_none(), "descriptor has {banned}: {block}");
            }
            if let Some(t) = block.get("text").and_then(Value::as_str) {
                prop_assert!(utf16_len(t) <= policy.max_text_chars(), "text of {} units", utf16_len(t));
            }
        }
    }
    // An argument is named by a path that reads as something.
    for argument in error["invalid_arguments"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let path = argument["path"].as_str().unwrap_or("");
        prop_assert!(!path.trim().is_empty(), "an invalid_arguments entry with a blank path: {outcome}");
    }
    // The message stands alone and the whole object reads back.
    prop_assert!(!error["message"].as_str().unwrap_or("").is_empty());
    prop_assert!(parse_call_error(&json).is_ok(), "parse_call_error refused {json}");
    Ok(())
}

/// Shuffle every object's members (arrays keep their order), deterministically from `seed`.
fn shuffle_keys(value: &Value, seed: &mut u64) -> Value {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    match value {
        Value::Array(items) => {
            let mut s = *seed;
            let out = items.iter().map(|v| shuffle_keys(v, &mut s)).collect();
            *seed = s;
            Value::Array(out)
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            for i in (1..members.len()).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                members.swap(i, j);
            }
            let mut s = next() | 1;
            let mut out = Map::new();
            for (k, v) in members {
                out.insert(k.clone(), shuffle_keys(v, &mut s));
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(config(256))]

    /// Every output conforms to both schemas and the contract invariants, within the cap.
    #[test]
    fn outputs_conform_and_fit((report, _) in report(), policy in policy()) {
        let out = normalize(&report, &policy)?;
        check_outcome(&report, &policy, &out)?;
    }

    /// No planted secret, binary payload or metadata marker survives anywhere.
    #[test]
    fn planted_secrets_never_survive((report, probes) in report(), policy in policy()) {
        let out = normalize(&report, &policy)?;
        for probe in &probes {
            prop_assert!(!out.contains(probe.as_str()), "{probe:?} survived in {out}\nreport: {report}");
        }
    }

    /// The same report twice, and with every object's keys shuffled, gives the same bytes.
    #[test]
    fn normalization_is_deterministic((report, _) in report(), policy in policy(), seed in 1u64..) {
        let first = normalize(&report, &policy)?;
        prop_assert_eq!(&first, &normalize(&report, &policy)?);
        let mut s = seed;
        let shuffled = shuffle_keys(&report, &mut s);
        let again = normalize(&shuffled, &policy)?;
        prop_assert_eq!(&first, &again, "shuffled report: {}", shuffled);
    }

    /// The consumer reads every output back to an equal struct.
    #[test]
    fn outputs_round_trip_through_parse_call_error((report, _) in report(), policy in policy()) {
        let text = serde_json::to_string(&report).expect("report serializes");
        let outcome = Normalizer::new(policy).normalize_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(error) = outcome.error {
            let back = parse_call_error(&error.to_json()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let (a, b) = (error.to_json(), back.to_json());
            let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
            prop_assert_eq!(&back, &error, "DIFF at {}: {:?} vs {:?}", at, &a[at.saturating_sub(80)..(at + 80).min(a.len())], &b[at.saturating_sub(80)..(at + 80).min(b.len())]);
        }
    }

    /// Under a policy that adds to the redaction rules, every output still conforms, the
    /// policy's JSON reads back as the same policy, and the normalizer's own reader reads
    /// every output back to an equal struct (rule 6), whatever its allowlist lets pass.
    #[test]
    fn policy_rules_keep_outputs_conforming_and_round_tripping((report, _) in report(), policy in policy_with_rules()) {
        prop_assert_eq!(&Policy::from_json(&policy.to_json()).map_err(|e| TestCaseError::fail(e.to_string()))?, &policy);
        let text = serde_json::to_string(&report).expect("report serializes");
        let normalizer = Normalizer::new(policy.clone());
        let outcome = normalizer.normalize_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_outcome(&report, &policy, &outcome.to_json())?;
        if let Some(error) = outcome.error {
            let back = normalizer.parse_call_error(&error.to_json()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&back.to_json(), &error.to_json());
            let twice = normalizer.redact_text(&error.message);
            prop_assert_eq!(&twice, error.message.as_str(), "the message is not a fixed point of the policy's redaction");
        }
    }

    /// `redact_text_if_changed` is `redact_text` that may say "unchanged" instead of
    /// copying: `None` only where the text comes out as it went in, and otherwise the same
    /// text `redact_text` gives, with or without secrets, invisible characters or markers.
    #[test]
    fn redact_text_if_changed_is_redact_text(
        (planted, _) in planted_text(),
        plain in "[ a-z0-9=:/?&._-]{0,120}|\\PC{0,80}",
    ) {
        let normalizer = Normalizer::default();
        for text in [planted.as_str(), plain.as_str()] {
            let whole = normalizer.redact_text(text);
            match normalizer.redact_text_if_changed(text) {
                None => prop_assert_eq!(whole.as_str(), text),
                Some(changed) => prop_assert_eq!(changed, whole),
            }
        }
    }

    /// Arbitrary text never panics the reader or the normalizer: a typed error or an outcome.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}|[\\[\\]{}\",:0-9a-z\\\\ -]{0,200}") {
        let _ = Normalizer::default().normalize_json(&text);
        let _ = parse_call_error(&text);
        let _ = classify_run_json(&text);
    }

    /// A run error keeps no planted secret from guest text, is replay-safe exactly when
    /// the request declared it restart-safe (whatever was dispatched), and nests an
    /// uncaught tool error byte for byte (rule 6).
    #[test]
    fn run_errors_redact_guest_text_and_nest_the_same_object(
        (text, probes) in planted_text(),
        (report, _) in report(),
        started in any::<bool>(),
        restart_safe in any::<bool>(),
    ) {
        let guest = json!({"bridge_dispatch_started": started, "restart_safe": restart_safe, "guest_exception": {"name": "Error", "message": text}});
        let end = classify_run_json(&guest.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let out = end.to_json();
        for probe in &probes {
            prop_assert!(!out.contains(probe.as_str()), "{probe:?} survived in {out}");
        }
        prop_assert_eq!(end.replay_safe, restart_safe);
        prop_assert_eq!(end.bridge_dispatch_started, started);
        let outcome = Normalizer::default().normalize_json(&report.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some(error) = outcome.error {
            let run = json!({"bridge_dispatch_started": started, "uncaught_tool_error": error.to_json()});
            let end = classify_run_json(&run.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?.to_json();
            let json = error.to_json();
            let got = end.find(",\"toolError\":").map_or("", |at| &end[at + 13..end.len() - 1]);
            let at = json.bytes().zip(got.bytes()).position(|(a, b)| a != b).unwrap_or(json.len().min(got.len()));
            let around = |s: &str| s.get(at.saturating_sub(100)..(at + 60).min(s.len())).unwrap_or(s).to_owned();
            prop_assert!(got == json, "nested differs at {at}:\n  want …{}\n  got  …{}", around(&json), around(got));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hostile inputs

fn outcome_of(report: &str, policy: &Policy) -> Result<String, codemode_errors::ReportError> {
    Normalizer::new(policy.clone()).normalize_json(report).map(|o| o.to_json())
}

fn error_code(report: &str) -> ErrorCode {
    outcome_of(report, &Policy::default()).expect_err("a typed error").code()
}

#[test]
fn hostile_deep_nesting_is_a_typed_error() {
    let n = 100_000;
    let arrays = format!(
        "{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[],\"structuredContent\":{}{},\"isError\":true}}}}",
        "[".repeat(n),
        "]".repeat(n)
    );
    assert_eq!(error_code(&arrays), ErrorCode::TooDeep);
    let objects = format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
    assert_eq!(error_code(&objects), ErrorCode::TooDeep);
    assert_eq!(error_code(&"[".repeat(n)), ErrorCode::TooDeep);
    // Deep but within the reader's limit: capped, not refused.
    let ok = format!(
        "{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[],\"structuredContent\":{}{},\"isError\":true}}}}",
        "[".repeat(100),
        "]".repeat(100)
    );
    assert!(outcome_of(&ok, &Policy::default()).unwrap().contains("nested too deep"));
}

#[test]
fn hostile_50_mb_text_block_is_capped() {
    let big = "x".repeat(50 * 1024 * 1024);
    let secret = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let report = format!(
        "{{\"tool\":\"logs::dump\",\"tool_result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{secret} {big}\"}},{{\"type\":\"text\",\"text\":\"{big} {secret}\"}}],\"isError\":true}}}}"
    );
    drop(big);
    let out = outcome_of(&report, &Policy::default()).expect("an outcome");
    let v: Value = serde_json::from_str(&out).unwrap();
    let error = &v["error"];
    let size = serde_json::to_string(error).unwrap().len();
    assert!(size <= Policy::default().max_error_bytes(), "{size} bytes");
    assert!(!out.contains("ABCDEFGHIJKLMNOP"), "the token survived");
    let blocks = error["evidence"]["content"].as_array().expect("evidence blocks");
    for b in blocks {
        assert!(utf16_len(b["text"].as_str().unwrap_or("")) <= 8192);
        assert_eq!(b["original_length"], json!(50 * 1024 * 1024 + secret.len() + 1));
        assert_eq!(b["truncated"], json!(true));
    }
}

#[test]
fn hostile_10_000_content_blocks_are_counted() {
    let blocks: Vec<String> = (0..10_000).map(|i| format!("{{\"type\":\"text\",\"text\":\"failure {i}\"}}")).collect();
    let report = format!("{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[{}],\"isError\":true}}}}", blocks.join(","));
    let out: Value = serde_json::from_str(&outcome_of(&report, &Policy::default()).unwrap()).unwrap();
    let evidence = &out["error"]["evidence"];
    assert_eq!(evidence["content"].as_array().map(Vec::len), Some(16));
    assert_eq!(evidence["omitted_content_blocks"], json!(10_000 - 16));
    // Also 10 000 image blocks: no data survives and the cap still holds.
    let images: Vec<String> =
        (0..10_000).map(|_| "{\"type\":\"image\",\"data\":\"QUJDRA==\",\"mimeType\":\"image/png\"}".to_owned()).collect();
    let report = format!("{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[{}],\"isError\":true}}}}", images.join(","));
    let out = outcome_of(&report, &Policy::default()).unwrap();
    assert!(!out.contains("QUJDRA=="));
}

#[test]
fn hostile_lone_surrogates_are_typed_errors() {
    for bad in ["\\ud800", "\\udc00", "\\ud800\\u0041", "x\\udbff", "\\ud83d\\u0000"] {
        let text =
            format!("{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{bad}\"}}],\"isError\":true}}}}");
        assert_eq!(error_code(&text), ErrorCode::InvalidJson, "{bad}");
        let key =
            format!("{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[],\"structuredContent\":{{\"{bad}\":1}},\"isError\":true}}}}");
        assert_eq!(error_code(&key), ErrorCode::InvalidJson, "key {bad}");
    }
    // A valid pair is fine.
    let ok = "{\"tool\":\"a::b\",\"tool_result\":{\"content\":[{\"type\":\"text\",\"text\":\"\\ud83d\\ude00\"}],\"isError\":true}}";
    assert!(outcome_of(ok, &Policy::default()).unwrap().contains('😀'));
    assert_eq!(parse_call_error("{\"kind\":\"\\ud800\",\"message\":\"m\"}").unwrap_err().code(), ErrorCode::InvalidCallError);
}

#[test]
fn hostile_huge_numbers_are_typed_errors_or_ignored() {
    for n in ["1e400", "-1e400", "1e309"] {
        let text = format!("{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[],\"structuredContent\":{{\"n\":{n}}},\"isError\":true}}}}");
        assert_eq!(error_code(&text), ErrorCode::InvalidJson, "{n}");
    }
    // Large but finite numbers are values: kept or ignored, never a panic.
    let big = "{\"tool\":\"a::b\",\"tool_result\":{\"content\":[],\"structuredContent\":{\"error\":{\"kind\":\"rate_limited\",\"message\":\"m\",\"retry_after_ms\":1e300},\"n\":123456789012345678901234567890},\"isError\":true}}";
    let out: Value = serde_json::from_str(&outcome_of(big, &Policy::default()).unwrap()).unwrap();
    assert!(out["error"]["recovery"].get("retry_after_ms").is_none());
    let code = "{\"tool\":\"a::b\",\"jsonrpc_error\":{\"code\":1e300,\"message\":\"m\"}}";
    assert_eq!(error_code(code), ErrorCode::InvalidReport);
    let retry = "{\"tool\":\"a::b\",\"budget\":{\"kind\":\"budget_exceeded\",\"message\":\"m\",\"retry_after_ms\":1e20}}";
    assert_eq!(error_code(retry), ErrorCode::InvalidReport);
}

#[test]
fn hostile_wide_objects_and_arrays_are_bounded() {
    let members: Vec<String> = (0..100_000).map(|i| format!("\"k{i}\":\"ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ01234567{:02}\"", i % 100)).collect();
    let report = format!(
        "{{\"tool\":\"a::b\",\"tool_result\":{{\"content\":[],\"structuredContent\":{{{}}},\"isError\":true}}}}",
        members.join(",")
    );
    let out = outcome_of(&report, &Policy::default()).unwrap();
    assert!(out.len() <= Policy::default().max_error_bytes() + 64);
    assert!(!out.contains("ABCDEFGHIJKLMNOP"));
}

/// Redaction must see every character that is kept: controls stripped after the text is
/// windowed shrink the margin, so a token straddling the window end must still not leak.
#[test]
fn token_after_a_run_of_stripped_characters_does_not_leak() {
    let token_body = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut leaks = Vec::new();
    for (name, filler) in [("NUL", "\u{0}"), ("ZWSP", "\u{200b}"), ("RLO", "\u{202e}")] {
        for (policy, range) in [(Policy::from_json(r#"{"max_text_chars":64}"#).unwrap(), 1040..1100), (Policy::default(), 9170..9230)] {
            for n in range {
                let text = format!("{}ghp_{token_body}", filler.repeat(n));
                let report = json!({"tool": "a::b", "tool_result": {"content": [{"type": "text", "text": "x"}, {"type": "text", "text": text}], "isError": true}});
                let out = outcome_of(&report.to_string(), &policy).unwrap();
                if out.contains(&token_body[..10]) {
                    leaks.push(format!("{n} x {name} (max_text_chars {})", policy.max_text_chars()));
                }
            }
        }
    }
    assert!(leaks.is_empty(), "a partial token leaked after {} runs, e.g. {:?}", leaks.len(), &leaks[..leaks.len().min(4)]);
}

/// A span the scan across a block junction takes may end at the end of the junction's
/// window (a key block without its end runs there), which can fall inside a secret of the
/// next block. Wherever it falls, in the secret's name, its value or between them, no
/// piece of the value may survive (fuzz finding F12).
#[test]
fn span_across_a_junction_leaves_no_piece_of_a_secret() {
    let value = "snmMT55ZmE7ms3bnykEvvTkOAtPXHyG3";
    let heads = [
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAADivision by zero",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA",
    ];
    let secrets = [format!("\"client_secret\": \"{value}\""), format!("password={value}"), format!("Authorization: Bearer {value}")];
    let mut leaks = Vec::new();
    for head in heads {
        for secret in &secrets {
            // The window takes 512 UTF-16 units of the second block: put its end at every
            // character of the secret and a few either side.
            for filler in 512 - secret.len() - 4..=512 + 4 {
                let text = format!("{} {secret} and then the log goes on", "a".repeat(filler - 1));
                let report = json!({"tool": "a::b", "tool_result": {"content": [
                    {"type": "text", "text": head}, {"type": "text", "text": text}], "isError": true}});
                let out = outcome_of(&report.to_string(), &Policy::default()).unwrap();
                if (0..value.len() - 6).any(|i| out.contains(&value[i..i + 6])) {
                    leaks.push(format!("{secret:?} after {filler} filler characters"));
                }
            }
        }
    }
    assert!(leaks.is_empty(), "a piece of the value survived in {} reports, e.g. {:?}", leaks.len(), &leaks[..leaks.len().min(4)]);
}

/// A tool whose first part ends in a secret's name: cleaned a part at a time, the parts
/// meet again in the message, which must read back unchanged (fuzz finding, F4).
#[test]
fn a_message_naming_a_secret_looking_tool_reads_back_unchanged() {
    for tool in [
        r#"github: \"svc\", \"refreshToken\": ::create_issue"#,
        "db password=::query",
        "plain_ns::name-1.2",
        "ns::--api-key",
        "ns::-----a-e_key---",
    ] {
        let report = format!(r#"{{"tool":"{tool}","tool_result":{{"content":[{{"type":"text","text":"boom"}}],"isError":true}}}}"#);
        let out = outcome_of(&report, &Policy::default()).unwrap();
        let error = serde_json::from_str::<Value>(&out).unwrap()["error"].to_string();
        let read = parse_call_error(&error).unwrap().to_json();
        assert_eq!(read, error, "{tool}");
    }
}

/// A block of an unknown type that cleans to a known one (`te\u0000xt`) is written
/// `content_omitted` and read back as such, not as an empty text (fuzz finding, F4).
#[test]
fn an_unknown_block_named_like_a_known_one_reads_back_unchanged() {
    for block_type in [r"te\u0000xt", r"image\u200b", "text", "hologram"] {
        let report = format!(r#"{{"tool_result":{{"content":[{{"type":"{block_type}","x":1}}],"isError":true}}}}"#);
        let out = outcome_of(&report, &Policy::default()).unwrap();
        let error = serde_json::from_str::<Value>(&out).unwrap()["error"].to_string();
        let read = parse_call_error(&error).unwrap().to_json();
        assert_eq!(read, error, "{block_type}");
    }
}
