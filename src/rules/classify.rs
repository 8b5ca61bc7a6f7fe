//! Classification tables: what each failure source means for origin, kind and breaker.

use crate::rules::kinds::Kind;
use crate::wire::TransportKind;
use crate::wire::{Breaker, Origin};

/// How one JSON-RPC error code is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CodeReading {
    /// The canonical kind it means.
    pub(crate) kind: Kind,
    /// Where the failure came from.
    pub(crate) origin: Origin,
    /// What it means for the upstream's health.
    pub(crate) breaker: Breaker,
}

const fn reading(kind: Kind, origin: Origin, breaker: Breaker) -> CodeReading {
    CodeReading { kind, origin, breaker }
}

/// The reading of a JSON-RPC error code; `None` for a code the table does not hold, which
/// means an error the upstream answered with (`tool_error`, `tool_execution`, breaker
/// success).
///
/// Under MCP 2026-07-28, -32000 to -32019 are implementation-defined: only the SDKs' own
/// local codes are read (-32001 a request timeout, -32000 a closed connection: the
/// upstream never answered, so they count against its health). -32020 to -32099 are the
/// specification's: a header that does not match the body (-32020), a client capability
/// the request needs and the client did not declare (-32021), a protocol version the
/// server does not support (-32022), and the codes it may add. Each is the gateway's
/// exchange with the server going wrong, which the model cannot fix: `internal_error`
/// from `code_mode`, to report; the server answered, so its health is fine.
pub(crate) fn jsonrpc_code(code: i64) -> Option<CodeReading> {
    use Breaker::{Failure, Success};
    Some(match code {
        // Header mismatch, missing client capability, unsupported protocol version, and
        // the rest of the specification's range.
        -32099..=-32020 => reading(Kind::InternalError, Origin::CodeMode, Success),
        // Invalid params.
        -32602 => reading(Kind::InvalidParam, Origin::Validation, Success),
        // Method (or tool) not found.
        -32601 => reading(Kind::UnknownTool, Origin::CodeMode, Success),
        // Resource not found, as servers before 2026-07-28 send it (later ones send -32602
        // with the URI in `data`).
        -32002 => reading(Kind::NotFound, Origin::ToolExecution, Success),
        // Internal error.
        -32603 => reading(Kind::ServerError, Origin::ToolExecution, Success),
        // Parse error; invalid request.
        -32700 | -32600 => reading(Kind::InternalError, Origin::ToolExecution, Success),
        // The SDKs' request timeout.
        -32001 => reading(Kind::Timeout, Origin::UpstreamTransport, Failure),
        // The SDKs' connection closed.
        -32000 => reading(Kind::NetworkError, Origin::UpstreamTransport, Failure),
        _ => return None,
    })
}

/// How a transport failure is read: its kind and what it means for the upstream's health.
///
/// A cancelled call is the caller's decision and says nothing about upstream health; a
/// response over the gateway's size limit proves the upstream answered.
pub(crate) fn transport_kind(kind: TransportKind) -> (Kind, Breaker) {
    use TransportKind as T;
    match kind {
        T::Timeout => (Kind::Timeout, Breaker::Failure),
        T::ConnectionClosed | T::ConnectionRefused | T::Dns | T::Tls | T::Other => (Kind::NetworkError, Breaker::Failure),
        T::MalformedResponse => (Kind::DecodeError, Breaker::Failure),
        T::ResponseTooLarge => (Kind::ArtifactTooLarge, Breaker::Success),
        T::Cancelled => (Kind::Cancelled, Breaker::None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_local_codes_are_transport_failures() {
        assert_eq!(jsonrpc_code(-32001), Some(reading(Kind::Timeout, Origin::UpstreamTransport, Breaker::Failure)));
        assert_eq!(jsonrpc_code(-32000), Some(reading(Kind::NetworkError, Origin::UpstreamTransport, Breaker::Failure)));
        assert_eq!(jsonrpc_code(-32602).map(|r| r.origin), Some(Origin::Validation));
        assert_eq!(jsonrpc_code(-32601).map(|r| r.origin), Some(Origin::CodeMode));
        assert_eq!(jsonrpc_code(42), None);
    }

    #[test]
    fn the_specifications_codes_are_the_gateways_to_report_the_implementations_are_not_read() {
        for code in [-32020, -32021, -32022, -32099] {
            assert_eq!(jsonrpc_code(code), Some(reading(Kind::InternalError, Origin::CodeMode, Breaker::Success)), "{code}");
        }
        for code in [-32019, -32010, -32003] {
            assert_eq!(jsonrpc_code(code), None, "{code}: implementation-defined, not read");
        }
    }

    #[test]
    fn only_a_transport_failure_the_upstream_caused_counts_against_it() {
        for kind in TransportKind::ALL {
            let (_, breaker) = transport_kind(*kind);
            let expected = match kind {
                TransportKind::Cancelled => Breaker::None,
                TransportKind::ResponseTooLarge => Breaker::Success,
                _ => Breaker::Failure,
            };
            assert_eq!(breaker, expected, "{kind}");
        }
    }
}
