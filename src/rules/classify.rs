//! Classification tables: what each failure source means for origin, kind and breaker.

use crate::input::failure_report::TransportKind;
use crate::wire::{Breaker, Origin};

/// How a JSON-RPC error code is read: (code, kind, origin, breaker, meaning).
///
/// -32001 and -32000 are the MCP SDKs' own local codes for a request timeout and a closed
/// connection: the upstream never answered, so they count against its health.
pub const JSONRPC_CODES: &[(i64, &str, Origin, Breaker, &str)] = &[
    (-32602, "invalid_param", Origin::Validation, Breaker::Success, "invalid params"),
    (-32601, "unknown_tool", Origin::CodeMode, Breaker::Success, "method or tool not found"),
    (-32002, "not_found", Origin::ToolExecution, Breaker::Success, "resource not found"),
    (-32603, "server_error", Origin::ToolExecution, Breaker::Success, "internal error"),
    (-32700, "internal_error", Origin::ToolExecution, Breaker::Success, "parse error"),
    (-32600, "internal_error", Origin::ToolExecution, Breaker::Success, "invalid request"),
    (-32001, "timeout", Origin::UpstreamTransport, Breaker::Failure, "request timed out (SDK)"),
    (-32000, "network_error", Origin::UpstreamTransport, Breaker::Failure, "connection closed (SDK)"),
];

/// The reading of a JSON-RPC code: `None` for codes not in [`JSONRPC_CODES`], which mean
/// an error the upstream answered with (`tool_error`, `tool_execution`, breaker success).
pub fn jsonrpc_code(code: i64) -> Option<(&'static str, Origin, Breaker)> {
    JSONRPC_CODES.iter().find(|row| row.0 == code).map(|row| (row.1, row.2, row.3))
}

/// How a transport failure is read: (kind, canonical kind, breaker).
///
/// A cancelled call is the caller's decision and says nothing about upstream health; a
/// response over the gateway's size limit proves the upstream answered.
pub const TRANSPORT_KINDS: &[(TransportKind, &str, Breaker)] = &[
    (TransportKind::Timeout, "timeout", Breaker::Failure),
    (TransportKind::ConnectionClosed, "network_error", Breaker::Failure),
    (TransportKind::ConnectionRefused, "network_error", Breaker::Failure),
    (TransportKind::Dns, "network_error", Breaker::Failure),
    (TransportKind::Tls, "network_error", Breaker::Failure),
    (TransportKind::Other, "network_error", Breaker::Failure),
    (TransportKind::MalformedResponse, "decode_error", Breaker::Failure),
    (TransportKind::ResponseTooLarge, "artifact_too_large", Breaker::Success),
    (TransportKind::Cancelled, "cancelled", Breaker::None),
];

/// The reading of a transport failure kind.
pub fn transport_kind(kind: TransportKind) -> (&'static str, Breaker) {
    TRANSPORT_KINDS.iter().find(|row| row.0 == kind).map_or(("network_error", Breaker::Failure), |row| (row.1, row.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_transport_kind_has_a_row() {
        for kind in TransportKind::ALL {
            assert!(TRANSPORT_KINDS.iter().any(|row| row.0 == *kind), "{kind:?}");
        }
    }

    #[test]
    fn sdk_local_codes_are_transport_failures() {
        assert_eq!(jsonrpc_code(-32001), Some(("timeout", Origin::UpstreamTransport, Breaker::Failure)));
        assert_eq!(jsonrpc_code(-32000), Some(("network_error", Origin::UpstreamTransport, Breaker::Failure)));
        assert_eq!(jsonrpc_code(-32602).map(|r| r.1), Some(Origin::Validation));
        assert_eq!(jsonrpc_code(-32601).map(|r| r.1), Some(Origin::CodeMode));
        assert_eq!(jsonrpc_code(42), None);
    }
}
