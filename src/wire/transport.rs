//! The kinds of transport failure a report can name.

wire_enum! {
    /// Transport failure kinds.
    ///
    /// ```
    /// use codemode_errors::{normalize, Failure, FailureReport, TransportKind};
    /// let kind = TransportKind::from_wire("response_too_large").unwrap();
    /// let error = normalize(&FailureReport::new(Failure::transport(kind, "body over 10 MB")), &Default::default()).error.unwrap();
    /// assert_eq!(error.origin.as_str(), "upstream_transport");
    /// assert_eq!(TransportKind::from_wire("carrier_pigeon"), None);
    /// ```
    pub TransportKind {
        /// No answer in time.
        Timeout = "timeout",
        /// The connection closed before the result arrived.
        ConnectionClosed = "connection_closed",
        /// The upstream refused the connection.
        ConnectionRefused = "connection_refused",
        /// The upstream's name did not resolve.
        Dns = "dns",
        /// The TLS handshake or certificate check failed.
        Tls = "tls",
        /// The response exceeded the gateway's size limit.
        ResponseTooLarge = "response_too_large",
        /// The response could not be decoded.
        MalformedResponse = "malformed_response",
        /// The call was cancelled by the caller.
        Cancelled = "cancelled",
        /// Anything else.
        Other = "other",
    }
}
