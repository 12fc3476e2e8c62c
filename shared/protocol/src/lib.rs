//! MCP over HTTP for both protocol generations (docs/design.md §2, docs/protocol.md).
//!
//! The request path, one direction, one module per step: [`gate`] (HTTP rules) →
//! `jsonrpc` (envelope) → `negotiation` (era and version) → [`server`] (method and tool
//! exist → authentication via [`Authenticator`] → scope → [`Tool`]) → `encode` (per-era
//! result shaping and the HTTP answer). Nothing here knows about AWS, storage or the ledger.

pub mod auth;
pub mod config;
mod encode;
mod error;
pub mod gate;
mod jsonrpc;
pub mod negotiation;
pub mod principal;
pub mod prompt;
mod registry;
pub mod server;
pub mod tool;
pub mod version;
pub mod view;

#[cfg(test)]
mod server_tests;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod view_tests;

pub use auth::{AuthFailure, Authenticator, Challenge, Credentials};
pub use config::{HostPolicy, Icon, ServerConfig};
pub use error::{
    HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR,
    UNSUPPORTED_VERSION, cause_chain,
};
pub use principal::Principal;
pub use prompt::{PromptArgument, PromptArguments, PromptSpec};
pub use registry::RegistryError;
pub use server::{Server, ServerError, TOKENLESS_METHODS};
pub use tool::{Tool, ToolAnnotations, ToolError, ToolSpec};
pub use version::Version;
pub use view::{UI_EXTENSION, VIEW_MIME_TYPE, ViewSpec};
