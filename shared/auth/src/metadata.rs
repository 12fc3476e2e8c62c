//! What clients see before they have a token: the RFC 9728 Protected Resource Metadata
//! document, its URL, and the exact `WWW-Authenticate` challenges (RFC 6750 §3, MCP auth).

use dochiya_domain::scopes::SCOPES_SUPPORTED;
use dochiya_protocol::Challenge;
use serde_json::{Value, json};
use url::Url;

/// The PRM `resource_name`.
pub const RESOURCE_NAME: &str = "dochiya";
/// The RFC 9728 well-known path prefix.
pub const WELL_KNOWN_PREFIX: &str = "/.well-known/oauth-protected-resource";

/// The RFC 9728 §3.1 metadata URL for a resource: the well-known prefix inserted between the
/// host and the path, e.g. `https://host/mcp` → `https://host/.well-known/oauth-protected-resource/mcp`.
/// Without a scheme, `https` is meant. The host is written as a URL parser writes it (lower
/// case, no default port), as clients compare it.
pub fn metadata_url_for(resource_url: &str) -> String {
    let with_scheme = if resource_url.contains("://") {
        resource_url.to_owned()
    } else {
        format!("https://{resource_url}")
    };
    let Ok(mut url) = Url::parse(&with_scheme) else {
        // The configuration refuses a resource URL that does not parse before it gets here;
        // the challenge still names the prefix after what was given rather than nothing.
        return format!("{with_scheme}{WELL_KNOWN_PREFIX}");
    };
    // A lone "/" is no path: the terminating slash after the host is dropped (RFC 9728 §3.1).
    let path = match url.path() {
        "/" => String::new(),
        path => path.to_owned(),
    };
    url.set_path(&format!("{WELL_KNOWN_PREFIX}{path}"));
    url.into()
}

/// The fixed facts about this protected resource, computed once at startup.
#[derive(Debug, Clone)]
pub struct ProtectedResource {
    resource_url: String,
    metadata_url: String,
    document: Value,
}

impl ProtectedResource {
    /// Describe the resource at `resource_url`, served by `authorization_servers`.
    pub fn new(resource_url: &str, authorization_servers: &[String]) -> Self {
        let document = json!({
            "resource": resource_url,
            "authorization_servers": authorization_servers,
            "scopes_supported": SCOPES_SUPPORTED,
            "bearer_methods_supported": ["header"],
            "resource_name": RESOURCE_NAME,
        });
        ProtectedResource {
            resource_url: resource_url.to_owned(),
            metadata_url: metadata_url_for(resource_url),
            document,
        }
    }

    /// The resource URL (PRM `resource`, token audience).
    pub fn resource_url(&self) -> &str {
        &self.resource_url
    }

    /// The URL of the metadata document, as named in challenges.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The PRM JSON document.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The exact `WWW-Authenticate` value for a challenge.
    pub fn challenge(&self, challenge: &Challenge<'_>) -> String {
        let metadata = quote(&self.metadata_url);
        match challenge {
            Challenge::Unauthorized { invalid_token: false } => {
                format!(
                    "Bearer resource_metadata={metadata}, scope={}",
                    quote(&SCOPES_SUPPORTED.join(" "))
                )
            }
            Challenge::Unauthorized { invalid_token: true } => format!(
                "Bearer resource_metadata={metadata}, scope={}, error=\"invalid_token\"",
                quote(&SCOPES_SUPPORTED.join(" "))
            ),
            Challenge::InsufficientScope { scope } => {
                format!(
                    "Bearer error=\"insufficient_scope\", scope={}, resource_metadata={metadata}",
                    quote(scope)
                )
            }
        }
    }
}

/// An RFC 7230 quoted-string: backslash-escape `"` and `\` so a value cannot break the header.
fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        // Control characters cannot appear in a header value at all.
        if !c.is_control() {
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_url_inserts_the_well_known_prefix_before_the_path() {
        assert_eq!(
            metadata_url_for("https://mcp.example.com/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url_for("https://example.com/public/mcp"),
            "https://example.com/.well-known/oauth-protected-resource/public/mcp"
        );
        assert_eq!(
            metadata_url_for("http://127.0.0.1:8080/mcp"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url_for("https://example.com/"),
            "https://example.com/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            metadata_url_for("https://example.com"),
            "https://example.com/.well-known/oauth-protected-resource"
        );
    }

    /// Read as a URL, not split as text: the host as a parser writes it, the default port
    /// dropped, a query after the path (RFC 9728 §3.1), and `https` when no scheme is given.
    /// What no parser reads (the configuration refuses it first) still gets the prefix.
    #[test]
    fn metadata_url_is_built_from_the_parsed_url() {
        assert_eq!(
            metadata_url_for("https://MCP.Example.com:443/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url_for("https://example.com?tenant=a"),
            "https://example.com/.well-known/oauth-protected-resource?tenant=a"
        );
        assert_eq!(
            metadata_url_for("mcp.example.com/mcp"),
            "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url_for("https://"),
            "https:///.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn challenges_have_the_exact_syntax_clients_parse() {
        let r = ProtectedResource::new(
            "https://mcp.example.com/mcp",
            &["https://as.example.com".to_owned()],
        );
        assert_eq!(
            r.challenge(&Challenge::Unauthorized { invalid_token: false }),
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", \
             scope=\"ledger:read ledger:write\""
        );
        assert_eq!(
            r.challenge(&Challenge::Unauthorized { invalid_token: true }),
            "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\", \
             scope=\"ledger:read ledger:write\", error=\"invalid_token\""
        );
        assert_eq!(
            r.challenge(&Challenge::InsufficientScope {
                scope: "ledger:write"
            }),
            "Bearer error=\"insufficient_scope\", scope=\"ledger:write\", \
             resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\""
        );
    }

    #[test]
    fn a_scope_with_quotes_cannot_break_out_of_the_header_parameter() {
        let r = ProtectedResource::new("https://h/mcp", &[]);
        assert_eq!(
            r.challenge(&Challenge::InsufficientScope { scope: "a\"b\\c\r\n" }),
            "Bearer error=\"insufficient_scope\", scope=\"a\\\"b\\\\c\", \
             resource_metadata=\"https://h/.well-known/oauth-protected-resource/mcp\""
        );
    }

    #[test]
    fn the_metadata_document_has_exactly_the_rfc_9728_fields_we_promise() {
        let r = ProtectedResource::new(
            "https://mcp.example.com/mcp",
            &["https://as.example.com/".to_owned()],
        );
        assert_eq!(
            r.document(),
            &json!({
                "resource": "https://mcp.example.com/mcp",
                "authorization_servers": ["https://as.example.com/"],
                "scopes_supported": ["ledger:read", "ledger:write"],
                "bearer_methods_supported": ["header"],
                "resource_name": "dochiya",
            })
        );
        assert!(!r.document().to_string().contains("offline_access"));
    }
}
