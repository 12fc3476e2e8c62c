//! A tool as the protocol layer sees it: a declaration and an async call.
//!
//! Tools are declared once (name, description, schemas, annotations, scope) and
//! registered at start-up; `tools/list` and `tools/call` read the same
//! declarations. Per-era shaping of results (structuredContent as an object,
//! text only for 2025-03-26) is the protocol layer's job, not the tool's.

use async_trait::async_trait;
use serde_json::value::RawValue;

/// Behaviour hints published with a tool (MCP `ToolAnnotations`); they must be truthful.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// Does not modify its environment.
    pub read_only: bool,
    /// May destroy or irreversibly change data (meaningful only when not read-only).
    pub destructive: bool,
    /// Repeating the same call has no further effect (meaningful only when not read-only).
    pub idempotent: bool,
    /// Talks to an open world of external entities (never true for dochiya).
    pub open_world: bool,
}

/// Everything published about a tool in `tools/list`, built once at start-up.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    /// `snake_case`, at most 64 characters.
    pub name: &'static str,
    /// Human-readable display name.
    pub title: &'static str,
    /// Written for a model: units, retry rules, what to call next.
    pub description: &'static str,
    /// JSON Schema of the arguments: an object, flat (no `$ref`/`$defs`).
    pub input_schema: serde_json::Value,
    /// JSON Schema of `structuredContent`: an object.
    pub output_schema: serde_json::Value,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// The OAuth scope a caller needs (`ledger:read` or `ledger:write`).
    pub scope: &'static str,
    /// The `ui://` view that shows this tool's result, linked only for a client that
    /// declares the MCP Apps extension ([`crate::view`]).
    pub view: Option<&'static str>,
}

/// A failed tool call, by kind. Every kind but [`ToolError::Internal`] is sent
/// as a result with `isError: true` and its message, written for the model; the
/// kind is kept for logs and for callers that react differently.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The arguments are wrong; the message says how to fix them.
    #[error("{0}")]
    Invalid(String),
    /// Something the arguments name does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The arguments conflict with stored state (a name taken, a key reused, a likely duplicate).
    #[error("{0}")]
    Conflict(String),
    /// Nothing was done and calling again unchanged may succeed.
    #[error("{0}")]
    Unavailable(String),
    /// An unexpected failure: logged once with its cause chain and a reference id;
    /// the client gets a generic error carrying that reference.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl ToolError {
    /// The message for the model, for every kind but [`ToolError::Internal`].
    pub fn model_message(&self) -> Option<&str> {
        match self {
            ToolError::Invalid(m)
            | ToolError::NotFound(m)
            | ToolError::Conflict(m)
            | ToolError::Unavailable(m) => Some(m),
            ToolError::Internal(_) => None,
        }
    }

    /// The kind, for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            ToolError::Invalid(_) => "invalid",
            ToolError::NotFound(_) => "not_found",
            ToolError::Conflict(_) => "conflict",
            ToolError::Unavailable(_) => "unavailable",
            ToolError::Internal(_) => "internal",
        }
    }
}

/// One callable tool.
#[async_trait]
pub trait Tool: Send + Sync + 'static {
    /// The declaration published in `tools/list`.
    fn spec(&self) -> &ToolSpec;

    /// Run the tool for `principal`. `arguments` is the exact JSON text the client
    /// sent (`params.arguments`), so numbers are read from their text, never via `f64`.
    /// On success returns the `structuredContent` object as compact JSON text, serialized
    /// once from the tool's response type (sent as it is, and escaped as the text block).
    async fn call(
        &self,
        principal: &crate::Principal,
        arguments: Option<&RawValue>,
    ) -> Result<Box<RawValue>, ToolError>;
}
