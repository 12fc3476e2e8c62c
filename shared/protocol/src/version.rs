//! The protocol revisions this server speaks and what each one calls itself on the wire.

/// `_meta` key carrying a modern request's protocol version.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key carrying a modern request's client capabilities.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key under which modern results name the server.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// A protocol revision served on the one endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Version {
    /// Legacy: batches, no structured content, no titles.
    V2025_03_26,
    /// Legacy: structured content (object), output schemas, titles.
    V2025_06_18,
    /// Legacy: the latest handshake revision; what `initialize` counter-offers.
    V2025_11_25,
    /// Modern: stateless, per-request `_meta`, `server/discover`.
    V2026_07_28,
}

impl Version {
    /// Every revision served, oldest first.
    pub const ALL: [Version; 4] = [
        Version::V2025_03_26,
        Version::V2025_06_18,
        Version::V2025_11_25,
        Version::V2026_07_28,
    ];
    /// What a legacy `initialize` offers when the requested revision is not a legacy one.
    pub const LATEST_LEGACY: Version = Version::V2025_11_25;
    /// The revisions a modern client may claim; `server/discover` and `-32022` list exactly these.
    pub const MODERN: [&'static str; 1] = ["2026-07-28"];

    /// Parse a wire name; `None` for anything not served.
    pub fn parse(s: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The wire name, e.g. `2025-06-18`.
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2025_03_26 => "2025-03-26",
            Version::V2025_06_18 => "2025-06-18",
            Version::V2025_11_25 => "2025-11-25",
            Version::V2026_07_28 => "2026-07-28",
        }
    }

    /// Stateless 2026-07-28 semantics (resultType, `_meta` serverInfo, cache hints).
    pub fn is_modern(self) -> bool {
        self == Version::V2026_07_28
    }

    /// Tool results may carry `structuredContent` and tools publish `outputSchema`/`title`.
    pub fn has_structured_content(self) -> bool {
        self >= Version::V2025_06_18
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_served_revision_and_nothing_else() {
        for v in Version::ALL {
            assert_eq!(Version::parse(v.as_str()), Some(v));
        }
        assert_eq!(Version::parse("2024-11-05"), None);
        assert_eq!(Version::parse(" 2025-06-18"), None);
    }

    #[test]
    fn only_2026_is_modern_and_2025_03_26_has_no_structured_content() {
        assert!(Version::V2026_07_28.is_modern());
        assert!(!Version::V2025_11_25.is_modern());
        assert!(!Version::V2025_03_26.has_structured_content());
        assert!(Version::V2025_06_18.has_structured_content());
    }
}
