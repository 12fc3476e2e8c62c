//! The OAuth scopes of the ledger, named once: the verifier checks them, the
//! authorization server grants them, each tool requires one. And the one claim of our
//! own that our access tokens carry.

/// Read access to a person's ledgers.
pub const SCOPE_READ: &str = "ledger:read";
/// Write access to a person's ledgers.
pub const SCOPE_WRITE: &str = "ledger:write";
/// Every scope, in the order they are advertised. Never `offline_access`
/// (MCP 2026-07-28: refresh tokens are the client's and the AS's business).
pub const SCOPES_SUPPORTED: [&str; 2] = [SCOPE_READ, SCOPE_WRITE];

/// The access-token claim carrying the caller's roster hint (decision 044): signed in by
/// our authorization server, read back by the verifier, decoded by the ledger.
pub const ROSTER_HINT_CLAIM: &str = "rh";
