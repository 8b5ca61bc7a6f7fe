//! The outer MCP response for an uncaught code-mode failure (rule 6): the same contract
//! object the sandbox rejected with, nested under `error`, and again under `error` in the
//! execution trace.

use crate::json::{write_json, write_string, Json};
use crate::wire::CodeModeCallError;

/// The `CallToolResult` a gateway returns when model code let a failure go uncaught.
///
/// Shape: `{"content":[{"type":"text","text":<contract JSON>}],"isError":true,
/// "structuredContent":{"error":<contract>,"trace":{...trace members, "error":<contract>}}}`.
/// Trace members named `error` are replaced by the contract object.
///
/// ```
/// let e = codemode_errors::parse_call_error(r#"{"kind":"timeout","message":"m"}"#).unwrap();
/// let env = codemode_errors::mcp_error_envelope(&e, None);
/// assert!(env.starts_with(r#"{"content":[{"type":"text","text":"{\"contract_version\":1"#));
/// ```
pub fn mcp_error_envelope(error: &CodeModeCallError, trace: Option<&Json>) -> String {
    let contract = error.to_json();
    let mut out = String::with_capacity(contract.len() * 3 + 128);
    out.push_str("{\"content\":[{\"type\":\"text\",\"text\":");
    write_string(&mut out, &contract);
    out.push_str("}],\"isError\":true,\"structuredContent\":{\"error\":");
    out.push_str(&contract);
    out.push_str(",\"trace\":{");
    let mut members: Vec<&(String, Json)> =
        trace.and_then(Json::as_object).map(|o| o.items().iter().filter(|(k, _)| k != "error").collect()).unwrap_or_default();
    crate::order::sort_by(&mut members, |a, b| a.0 < b.0);
    for (k, v) in members {
        write_string(&mut out, k);
        out.push(':');
        write_json(&mut out, v);
        out.push(',');
    }
    out.push_str("\"error\":");
    out.push_str(&contract);
    out.push_str("}}}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_json;
    use crate::{parse_call_error, Normalizer};

    #[test]
    fn caught_and_uncaught_expose_the_same_object() {
        let e = Normalizer::default()
            .normalize_json(r#"{"tool":"a::b","transport":{"kind":"timeout","message":"slow"}}"#)
            .unwrap()
            .error
            .unwrap();
        let env = parse_json(&mcp_error_envelope(&e, Some(&parse_json(r#"{"run_id":"r1","error":"stale"}"#).unwrap()))).unwrap();
        let text = env.get("content").unwrap().as_array().unwrap().items()[0].get("text").unwrap().as_str().unwrap().to_owned();
        assert_eq!(parse_call_error(&text).unwrap(), e);
        let sc = env.get("structuredContent").unwrap();
        assert_eq!(sc.get("error").unwrap().to_string(), parse_json(&e.to_json()).unwrap().to_string());
        assert_eq!(sc.get("trace").unwrap().get("error"), sc.get("error"));
        assert_eq!(sc.get("trace").unwrap().get("run_id").unwrap().as_str(), Some("r1"));
    }
}
