//! Test-only tools and authenticator (never shipped): exercise every dispatch and auth rule.

use async_trait::async_trait;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::auth::{AuthFailure, Authenticator, Challenge, Credentials};
use crate::principal::Principal;
use crate::tool::{Tool, ToolAnnotations, ToolError, ToolSpec};

/// A read-scoped spec named `name`, titled `"{name} title"`.
pub(crate) fn spec(name: &'static str) -> ToolSpec {
    ToolSpec {
        name,
        title: Box::leak(format!("{name} title").into_boxed_str()),
        description: "A test tool.",
        input_schema: json!({"type": "object"}),
        output_schema: json!({"type": "object"}),
        annotations: ToolAnnotations {
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
        scope: "ledger:read",
        view: None,
    }
}

/// What a test tool does when called.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Behaviour {
    /// `{person, arguments: <exact argument text or null>}`.
    Echo,
    /// `ToolError::Invalid("amount must be positive")`.
    Invalid,
    /// `ToolError::Internal` with a two-level cause chain.
    Internal,
    /// Panics.
    Panic,
    /// Returns a bare string (not an object).
    Scalar,
}

pub(crate) struct TestTool {
    spec: ToolSpec,
    behaviour: Behaviour,
}

impl TestTool {
    pub fn echo(spec: ToolSpec) -> Self {
        TestTool {
            spec,
            behaviour: Behaviour::Echo,
        }
    }

    pub fn new(spec: ToolSpec, behaviour: Behaviour) -> Self {
        TestTool { spec, behaviour }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("store unavailable")]
struct StoreDown(#[source] std::io::Error);

#[async_trait]
impl Tool for TestTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn call(
        &self,
        principal: &Principal,
        arguments: Option<&RawValue>,
    ) -> Result<Box<RawValue>, ToolError> {
        let raw =
            |v: Value| serde_json::value::to_raw_value(&v).map_err(|e| ToolError::Internal(Box::new(e)));
        match self.behaviour {
            Behaviour::Echo => {
                raw(json!({"person": principal.person, "arguments": arguments.map(RawValue::get)}))
            }
            Behaviour::Invalid => Err(ToolError::Invalid("amount must be positive".into())),
            Behaviour::Internal => Err(ToolError::Internal(Box::new(StoreDown(std::io::Error::other(
                "connection reset",
            ))))),
            Behaviour::Panic => panic!("test tool panicked"),
            Behaviour::Scalar => raw(json!("just text")),
        }
    }
}

/// Tokens: `read` → ledger:read, `write` → ledger:read + ledger:write, anything else invalid.
pub(crate) struct TestAuth {
    metadata: Value,
}

pub(crate) const METADATA_URL: &str = "https://mcp.example/.well-known/oauth-protected-resource/mcp";

impl TestAuth {
    pub fn new() -> Self {
        TestAuth {
            metadata: json!({
                "resource": "https://mcp.example/mcp",
                "authorization_servers": ["https://issuer.example"],
                "scopes_supported": ["ledger:read", "ledger:write"],
                "bearer_methods_supported": ["header"],
            }),
        }
    }
}

#[async_trait]
impl Authenticator for TestAuth {
    async fn authenticate(&self, credentials: Credentials<'_>) -> Result<Principal, AuthFailure> {
        let scopes: &[&str] = match credentials.authorization {
            None => return Err(AuthFailure::Missing),
            Some("Bearer read") => &["ledger:read"],
            Some("Bearer write") => &["ledger:read", "ledger:write"],
            Some("Bearer unverifiable") => {
                return Err(AuthFailure::Unavailable {
                    reason: "test issuer down".into(),
                    retry_after_secs: 7,
                });
            }
            Some(_) => {
                return Err(AuthFailure::InvalidToken {
                    reason: "unknown test token".into(),
                });
            }
        };
        Ok(Principal {
            person: "tester".into(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            name: None,
            roster_hint: None,
            issued_at: None,
        })
    }

    fn challenge(&self, challenge: &Challenge<'_>) -> String {
        match challenge {
            Challenge::Unauthorized { invalid_token: false } => {
                format!("Bearer resource_metadata=\"{METADATA_URL}\", scope=\"ledger:read ledger:write\"")
            }
            Challenge::Unauthorized { invalid_token: true } => {
                format!("Bearer error=\"invalid_token\", resource_metadata=\"{METADATA_URL}\"")
            }
            Challenge::InsufficientScope { scope } => {
                format!(
                    "Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{METADATA_URL}\""
                )
            }
        }
    }

    fn resource_metadata(&self) -> &Value {
        &self.metadata
    }
}
