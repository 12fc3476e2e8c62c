//! The one mapping from everything that can go wrong to a JSON-RPC error and its HTTP status.
//!
//! Each constructor fixes code, message, `data` and status together, so a rule such as
//! "a modern unknown method is 404/-32601" lives in exactly one line. Unexpected
//! failures are logged here, once, with their cause chain and a reference id.

use std::borrow::Cow;
use std::error::Error as StdError;

use dochiya_quote::{cut, quote};
use http::StatusCode;
use serde_json::{Value, json};

use crate::version::Version;

/// JSON-RPC: the body is not JSON.
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC: not a valid request object (also used for HTTP-level refusals with a JSON-RPC body).
pub const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC: unknown, removed or unadvertised method.
pub const METHOD_NOT_FOUND: i32 = -32601;
/// JSON-RPC: bad params, unknown tool, missing required `_meta` key.
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC: unexpected server failure; `data.reference` names the log line.
pub const INTERNAL_ERROR: i32 = -32603;
/// MCP 2026-07-28: a transport header is missing, malformed or disagrees with the body.
pub const HEADER_MISMATCH: i32 = -32020;
/// MCP 2026-07-28: the requested protocol version is not supported.
pub const UNSUPPORTED_VERSION: i32 = -32022;

/// A JSON-RPC error together with the HTTP status it travels under (when it is the whole answer).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RpcError {
    pub code: i32,
    pub message: Cow<'static, str>,
    pub data: Option<Value>,
    pub status: StatusCode,
}

impl RpcError {
    fn new(status: StatusCode, code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
            status,
        }
    }

    fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// 400/-32700: unparseable JSON or a body that is not UTF-8.
    pub fn parse_error(detail: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            PARSE_ERROR,
            format!("Parse error: {detail}"),
        )
    }

    /// 400/-32600: the message is not a valid JSON-RPC request.
    pub fn invalid_request(detail: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            INVALID_REQUEST,
            format!("Invalid request: {detail}"),
        )
    }

    /// An HTTP-level refusal (404 path, 405 method, 403 origin/host, 413, 415) with a JSON-RPC body.
    pub fn http(status: StatusCode, detail: impl Into<Cow<'static, str>>) -> Self {
        Self::new(status, INVALID_REQUEST, detail)
    }

    /// -32601: 404 on the modern leg (MUST), in-band 200 on legacy so older clients read the error.
    pub fn method_not_found(version: Version, method: &str) -> Self {
        let status = if version.is_modern() {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        Self::new(
            status,
            METHOD_NOT_FOUND,
            format!("Method not found: {}", cut(method)),
        )
    }

    /// In-band 200/-32602: unknown tool, bad cursor, malformed params.
    pub fn invalid_params(detail: impl Into<Cow<'static, str>>) -> Self {
        Self::new(StatusCode::OK, INVALID_PARAMS, detail)
    }

    /// In-band 200: `resources/read` of a URI the server does not serve, `data.uri` naming
    /// it; -32602 on the modern leg (SEP-2164), -32002 on the legacy one.
    pub fn resource_not_found(version: Version, uri: &str) -> Self {
        let code = if version.is_modern() {
            INVALID_PARAMS
        } else {
            -32002
        };
        // `data.uri` names it as the message does: at most 64 characters of it.
        let shown = cut(uri).to_string();
        Self::new(StatusCode::OK, code, format!("Resource not found: {shown}"))
            .with_data(json!({ "uri": shown }))
    }

    /// 400/-32602: a modern request without a required `_meta` key (or with a malformed one).
    pub fn invalid_meta(detail: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            INVALID_PARAMS,
            format!("Invalid _meta: {detail}"),
        )
    }

    /// 400/-32020: a transport header is missing, malformed or disagrees with the body.
    pub fn header_mismatch(detail: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            HEADER_MISMATCH,
            format!("Header mismatch: {detail}"),
        )
    }

    /// 400/-32022 with `{supported, requested}`.
    pub fn unsupported_version(requested: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            UNSUPPORTED_VERSION,
            format!("Unsupported protocol version: {}", cut(requested)),
        )
        .with_data(json!({ "supported": Version::MODERN, "requested": cut(requested).to_string() }))
    }

    /// 400/-32600: a legacy `MCP-Protocol-Version` header naming a revision we do not serve.
    pub fn unsupported_legacy_header(value: &str) -> Self {
        let supported: Vec<&str> = Version::ALL.iter().map(|v| v.as_str()).collect();
        Self::invalid_request(format!(
            "unsupported MCP-Protocol-Version header {}",
            quote(value)
        ))
        .with_data(json!({ "supported": supported, "requested": cut(value).to_string() }))
    }

    /// 401 body beside the `WWW-Authenticate` challenge.
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            INVALID_REQUEST,
            "Unauthorized: a valid Bearer token is required",
        )
    }

    /// 403 body beside the `insufficient_scope` challenge.
    pub fn insufficient_scope(scope: &str) -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            INVALID_REQUEST,
            format!("Forbidden: this call needs scope {scope}"),
        )
        .with_data(json!({ "requiredScope": scope }))
    }

    /// 503/-32603: the credentials could not be checked now; retry after a pause.
    pub fn auth_unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            INTERNAL_ERROR,
            "Temporarily unavailable: the token could not be checked now (the authorization server's keys are unreachable); retry shortly with the same token",
        )
    }

    /// 500/-32603 for a failure already logged under `reference`.
    pub fn internal(reference: &str) -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            INTERNAL_ERROR,
            format!("Internal error (reference {reference})"),
        )
        .with_data(json!({ "reference": reference }))
    }

    /// Log an unexpected failure once, with its whole cause chain, and return the client's -32603.
    pub fn unexpected(context: &str, err: &(dyn StdError + 'static)) -> Self {
        let reference = uuid::Uuid::new_v4().to_string();
        tracing::error!(%reference, context, error = ?cause_chain(err), "unexpected failure");
        Self::internal(&reference)
    }
}

/// `outer: inner: innermost`, the way an operator wants to read it in one log field
/// (the one such helper: logs, start-up errors and fetch failures all use it).
pub fn cause_chain(err: &(dyn StdError + 'static)) -> String {
    let mut out = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        source = cause.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] Inner);
    #[derive(Debug, thiserror::Error)]
    #[error("inner")]
    struct Inner;

    #[test]
    fn cause_chain_joins_every_source() {
        assert_eq!(cause_chain(&Outer(Inner)), "outer: inner");
    }

    #[test]
    fn unexpected_gives_500_with_a_uuid_reference_in_message_and_data() {
        let e = RpcError::unexpected("test", &Outer(Inner));
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(e.code, -32603);
        let reference = e
            .data
            .as_ref()
            .and_then(|d| d["reference"].as_str())
            .map(str::to_owned);
        let reference = reference.unwrap_or_default();
        assert!(
            uuid::Uuid::parse_str(&reference).is_ok(),
            "reference {reference:?} is a uuid"
        );
        assert_eq!(e.message, format!("Internal error (reference {reference})"));
    }

    #[test]
    fn method_not_found_is_404_modern_and_200_legacy() {
        assert_eq!(
            RpcError::method_not_found(Version::V2026_07_28, "x").status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            RpcError::method_not_found(Version::V2025_06_18, "x").status,
            StatusCode::OK
        );
    }
}
