//! What the protocol layer is told at start-up; built once by the app from its own config.

use crate::prompt::PromptSpec;
use crate::view::ViewSpec;

/// Which `Host` headers the gate accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostPolicy {
    /// Any host (behind API Gateway, which routes by host itself).
    Any,
    /// Only loopback names (`localhost`, `127.0.0.1`, `[::1]`): DNS-rebinding protection for the local server.
    Loopback,
}

/// Start-up configuration of the protocol layer.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// `serverInfo.name`.
    pub server_name: String,
    /// `serverInfo.version`.
    pub server_version: String,
    /// The `instructions` text of `initialize` and `server/discover`.
    pub instructions: String,
    /// Largest accepted request body (413 above it).
    pub max_body_bytes: usize,
    /// Allowed `Origin` values (exact, ASCII case-insensitive); an absent `Origin` is always allowed.
    pub allowed_origins: Vec<String>,
    /// Which `Host` headers are accepted.
    pub host_policy: HostPolicy,
    /// Reject a `MCP-Protocol-Version` header that names a different *supported* version
    /// than `_meta` (-32020), instead of tolerating it (docs/design.md §2).
    pub strict_version_header: bool,
    /// `ttlMs` on `server/discover` and `tools/list`: how long a client may reuse them.
    pub cache_ttl_ms: u64,
    /// `serverInfo.icons`: how clients show the server.
    pub icons: Vec<Icon>,
    /// The prompts of `prompts/list` and `prompts/get`; none means no `prompts` capability.
    pub prompts: Vec<PromptSpec>,
    /// The MCP Apps views `resources/read` serves; none means no `resources/read` and no
    /// tool's view linked.
    pub views: Vec<ViewSpec>,
}

/// One of `serverInfo.icons` (MCP `Icon`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `https:` URL or a `data:` URI.
    pub src: String,
    /// Its media type, e.g. `image/svg+xml`.
    pub mime_type: String,
    /// Sizes it fits, e.g. `["any"]` for a vector image or `["32x32"]`.
    pub sizes: Vec<String>,
}

/// Default request body cap: MCP requests are small; this leaves room for large splits.
pub const DEFAULT_MAX_BODY_BYTES: usize = 1024 * 1024;

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            server_name: "dochiya".to_owned(),
            server_version: env!("CARGO_PKG_VERSION").to_owned(),
            // The words a model reads belong to the tools crate (its INSTRUCTIONS), not here.
            instructions: String::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            allowed_origins: Vec::new(),
            host_policy: HostPolicy::Any,
            strict_version_header: false,
            cache_ttl_ms: 600_000,
            icons: Vec::new(),
            prompts: Vec::new(),
            views: Vec::new(),
        }
    }
}
