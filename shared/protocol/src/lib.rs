//! MCP over HTTP for both protocol generations (DESIGN.md §2, PROTOCOL.md).
//!
//! The request path, one direction: gate → auth hook → negotiation → dispatch →
//! tool → response encoding. Nothing here knows about AWS, storage or the ledger.

pub mod auth;
pub mod principal;
pub mod tool;

pub use auth::{AuthFailure, Authenticator, Challenge, Credentials};
pub use principal::Principal;
pub use tool::{Tool, ToolAnnotations, ToolError, ToolSpec};
