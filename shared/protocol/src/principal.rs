//! Who is calling: the verified identity handed from the auth layer to tools.

/// A verified caller: the token's subject and the scopes it grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The token's `sub`: identifies the person across every vault they reach.
    pub person: String,
    /// Granted scopes, e.g. `ledger:read`, `ledger:write`.
    pub scopes: Vec<String>,
    /// The name other people see when a vault is shared: the token's `name`,
    /// `preferred_username` or `email` claim, first one present.
    pub name: Option<String>,
    /// The caller's vaults as our own authorization server signed them into the token
    /// (its `rh` claim, decision 044), for the ledger to spare a new instance the roster
    /// query; `None` from any other issuer.
    pub roster_hint: Option<serde_json::Value>,
    /// The token's `iat` (epoch seconds), if it has one: a person who deleted their
    /// data since is refused on it.
    pub issued_at: Option<i64>,
}

impl Principal {
    /// Whether the principal was granted `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }
}
