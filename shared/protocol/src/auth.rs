//! The hook the gate calls to authenticate a request; implemented by `dochiya-auth`.
//!
//! The protocol layer decides *when* a request needs a token (the allowlist,
//! docs/design.md §2) and which scope an operation needs; the authenticator decides
//! *whether* the presented credentials are good and how challenges are worded.

use async_trait::async_trait;

/// The parts of a request that may carry credentials; nothing else is shown to the authenticator.
#[derive(Debug, Clone, Copy, Default)]
pub struct Credentials<'a> {
    /// The raw `Authorization` header value, if any.
    pub authorization: Option<&'a str>,
    /// The raw URL query string, if any (a token there is refused, RFC 6750 §2.3 / MCP).
    pub query: Option<&'a str>,
}

/// Why a request could not be authenticated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthFailure {
    /// No credentials were presented.
    #[error("no bearer token")]
    Missing,
    /// Credentials were presented but are not acceptable (bad signature, expired, wrong audience, token in the query …).
    /// The reason is for logs only; it never reaches the client beyond `error="invalid_token"`.
    #[error("invalid token: {reason}")]
    InvalidToken {
        /// Log-only detail.
        reason: String,
    },
    /// The credentials cannot be checked right now (the issuer's keys are unreachable).
    /// Nothing is known to be wrong with the token, so the client is told to retry
    /// (503 with `Retry-After`), not sent back through sign-in (401).
    #[error("authorization temporarily unavailable: {reason}")]
    Unavailable {
        /// Log-only detail.
        reason: String,
        /// Seconds the client should wait before retrying.
        retry_after_secs: u64,
    },
}

/// The challenge to put in `WWW-Authenticate`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Challenge<'a> {
    /// 401: no token, or a bad one (`invalid_token` is true when one was presented).
    Unauthorized {
        /// A token was presented and rejected.
        invalid_token: bool,
    },
    /// 403: a valid token that lacks `scope`.
    InsufficientScope {
        /// The scope(s) the operation needs, space-separated.
        scope: &'a str,
    },
}

/// Verifies credentials and words the challenges; one instance lives for the process.
#[async_trait]
pub trait Authenticator: Send + Sync + 'static {
    /// Verify the request's credentials and return the caller.
    async fn authenticate(&self, credentials: Credentials<'_>) -> Result<crate::Principal, AuthFailure>;

    /// The exact `WWW-Authenticate` header value for a challenge.
    fn challenge(&self, challenge: &Challenge<'_>) -> String;

    /// The RFC 9728 Protected Resource Metadata document, served as JSON at
    /// `/.well-known/oauth-protected-resource` and its `/mcp`-suffixed form.
    fn resource_metadata(&self) -> &serde_json::Value;
}
