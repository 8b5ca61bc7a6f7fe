//! Reading an exception thrown by an MCP client call (instead of a returned result) as a
//! failure report. Sandboxes catch whatever `callTool` threw and hand over its `name`,
//! `code` and `message`; the rules for what those mean live here, not in JavaScript.

use crate::error::ReportError;
use crate::input::failure_report::Failure;
use crate::json::{Json, JsonText};
use crate::wire::TransportKind;

/// Error `code` strings (Node's errno names and fetch/undici codes) and the transport
/// kind each means.
const THROWN_CODES: &[(&str, TransportKind)] = &[
    ("ETIMEDOUT", TransportKind::Timeout),
    ("UND_ERR_CONNECT_TIMEOUT", TransportKind::Timeout),
    ("UND_ERR_HEADERS_TIMEOUT", TransportKind::Timeout),
    ("UND_ERR_BODY_TIMEOUT", TransportKind::Timeout),
    ("ECONNREFUSED", TransportKind::ConnectionRefused),
    ("ECONNRESET", TransportKind::ConnectionClosed),
    ("EPIPE", TransportKind::ConnectionClosed),
    ("UND_ERR_SOCKET", TransportKind::ConnectionClosed),
    ("ENOTFOUND", TransportKind::Dns),
    ("EAI_AGAIN", TransportKind::Dns),
    ("CERT_HAS_EXPIRED", TransportKind::Tls),
    ("UNABLE_TO_VERIFY_LEAF_SIGNATURE", TransportKind::Tls),
    ("DEPTH_ZERO_SELF_SIGNED_CERT", TransportKind::Tls),
    ("ERR_TLS_CERT_ALTNAME_INVALID", TransportKind::Tls),
    ("UND_ERR_RESPONSE_EXCEEDED_MAX_SIZE", TransportKind::ResponseTooLarge),
    ("ABORT_ERR", TransportKind::Cancelled),
];

/// Error `name`s and the transport kind each means.
const THROWN_NAMES: &[(&str, TransportKind)] = &[
    ("AbortError", TransportKind::Cancelled),
    ("TimeoutError", TransportKind::Timeout),
    ("SyntaxError", TransportKind::MalformedResponse),
    ("ZodError", TransportKind::MalformedResponse),
];

impl Failure {
    /// The failure a thrown error stands for.
    ///
    /// A known `name` (`AbortError`, `TimeoutError`, ...) decides first. Otherwise an integer `code` is a
    /// JSON-RPC error (the MCP SDKs throw `McpError` with the JSON-RPC code, including their
    /// local -32001 timeout and -32000 connection-closed codes), and a string `code` maps
    /// through the table of errno and fetch codes (`ECONNREFUSED`, `ETIMEDOUT`, ...); anything else is a transport failure of kind `other`.
    ///
    /// ```
    /// use codemode_errors::{Failure, Json};
    /// let f = Failure::from_thrown("Error", Some(&Json::Number(-32001.0)), "Request timed out", None);
    /// assert!(matches!(f, codemode_errors::Failure::JsonRpcError { code: -32001, .. }));
    /// ```
    pub fn from_thrown(name: &str, code: Option<&Json>, message: &str, data: Option<&Json>) -> Failure {
        let message_text = JsonText::whole(message);
        let by_code = code.and_then(Json::as_str).and_then(|c| THROWN_CODES.iter().find(|(k, _)| *k == c)).map(|(_, kind)| *kind);
        let by_name = THROWN_NAMES.iter().find(|(n, _)| *n == name).map(|(_, kind)| *kind);
        // A known name wins over an integer code: a DOMException carries a legacy integer code
        // (AbortError is 20) that is not a JSON-RPC code.
        if let (None, Some(code)) = (by_name, code.and_then(Json::as_i64)) {
            return Failure::JsonRpcError { code, message: message_text, data: data.cloned() };
        }
        let kind = by_code.or(by_name).unwrap_or(TransportKind::Other);
        Failure::Transport { kind, message: message_text }
    }

    /// The failure for a tool result that arrived but cannot be read as JSON (nesting past the
    /// input limit, a lone surrogate, or a value JSON has no form for): the response is
    /// malformed, so it reads as a transport failure of kind `malformed_response`
    /// (`decode_error`), naming what was wrong.
    ///
    /// ```
    /// use codemode_errors::{ErrorCode, ReportError};
    /// let why = ReportError::new(ErrorCode::TooDeep, "tool_result.content[0]", "value nests deeper than 120 levels");
    /// let f = codemode_errors::Failure::unreadable_result(&why);
    /// assert!(matches!(f, codemode_errors::Failure::Transport { kind: codemode_errors::TransportKind::MalformedResponse, .. }));
    /// ```
    pub fn unreadable_result(problem: &ReportError) -> Failure {
        Failure::Transport {
            kind: TransportKind::MalformedResponse,
            message: JsonText::whole(format!("the tool result cannot be read as JSON: {problem}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(name: &str, code: Option<Json>) -> Option<TransportKind> {
        match Failure::from_thrown(name, code.as_ref(), "m", None) {
            Failure::Transport { kind, .. } => Some(kind),
            _ => None,
        }
    }

    #[test]
    fn codes_and_names_map_to_transport_kinds() {
        let s = |c: &str| Some(Json::String(JsonText::whole(c)));
        assert_eq!(kind_of("Error", s("ECONNREFUSED")), Some(TransportKind::ConnectionRefused));
        assert_eq!(kind_of("Error", s("ENOTFOUND")), Some(TransportKind::Dns));
        assert_eq!(kind_of("AbortError", None), Some(TransportKind::Cancelled));
        assert_eq!(kind_of("TimeoutError", None), Some(TransportKind::Timeout));
        assert_eq!(kind_of("TypeError", None), Some(TransportKind::Other));
    }

    #[test]
    fn integer_codes_are_jsonrpc_errors() {
        let f = Failure::from_thrown("McpError", Some(&Json::Number(-32602.0)), "Invalid params", None);
        assert!(matches!(f, Failure::JsonRpcError { code: -32602, .. }));
    }

    #[test]
    fn a_known_name_wins_over_a_legacy_integer_code() {
        assert_eq!(kind_of("AbortError", Some(Json::Number(20.0))), Some(TransportKind::Cancelled));
    }
}
