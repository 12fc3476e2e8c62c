//! The rules a client's metadata meets, registered (RFC 7591) or fetched as a Client ID
//! Metadata Document: which redirect URIs may be named, the one redirect-URI comparison,
//! and the name the consent page shows.

use reqwest::Url;

/// The most redirect URIs one client may have.
pub const MAX_REDIRECT_URIS: usize = 10;
/// The longest redirect URI.
pub const MAX_REDIRECT_URI_LEN: usize = 512;
/// The longest client name we show.
pub const MAX_CLIENT_NAME_CHARS: usize = 80;

/// The one redirect-URI comparison.
pub fn redirect_matches(registered: &str, requested: &str) -> bool {
    if registered == requested {
        return true;
    }
    let (Ok(a), Ok(b)) = (Url::parse(registered), Url::parse(requested)) else {
        return false;
    };
    a.scheme() == "http"
        && b.scheme() == "http"
        && dochiya_outbound::is_loopback(&a)
        && a.host() == b.host()
        && a.path() == b.path()
        && a.query() == b.query()
        && a.username().is_empty()
        && b.username().is_empty()
        && a.password().is_none()
        && b.password().is_none()
        && b.fragment().is_none()
}

/// Whether a redirect URI may be registered at all: https; http only to loopback;
/// a private-use scheme for native apps; never a fragment or a scheme a browser runs.
pub fn check_redirect_uri(uri: &str) -> Result<(), &'static str> {
    if uri.len() > MAX_REDIRECT_URI_LEN {
        return Err("a redirect URI is longer than 512 characters");
    }
    let url = Url::parse(uri).map_err(|_| "a redirect URI does not parse")?;
    if url.fragment().is_some() {
        return Err("a redirect URI has a fragment");
    }
    match url.scheme() {
        "https" if url.host().is_some() => Ok(()),
        "http" if dochiya_outbound::is_loopback(&url) => Ok(()),
        "http" => Err("a plain http redirect URI must be a loopback address"),
        "javascript" | "data" | "file" | "vbscript" | "about" | "blob" | "ftp" | "ws" | "wss" | "https" => {
            Err("a redirect URI has a scheme that is not allowed")
        }
        // Private-use schemes (RFC 8252 §7.1) name an app by reverse domain: require a dot.
        scheme if scheme.contains('.') => Ok(()),
        _ => Err("a custom redirect URI scheme must be a reverse domain name (RFC 8252 §7.1)"),
    }
}

/// A name fit to show: trimmed, no control characters, bounded; else `fallback`.
pub fn display_name(name: Option<&str>, fallback: &str) -> Result<String, &'static str> {
    // The consent page shows this name: an invisible or bidi character could make it
    // read as another client's (the same rule as names in the ledger, decision 016).
    if name.is_some_and(|n| dochiya_domain::invisible_in(n).is_some()) {
        return Err("client_name may not contain invisible or text-direction characters");
    }
    let cleaned: String = name
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_CLIENT_NAME_CHARS)
        .collect();
    let cleaned = cleaned.trim();
    Ok(if cleaned.is_empty() {
        fallback.chars().take(MAX_CLIENT_NAME_CHARS).collect()
    } else {
        cleaned.to_owned()
    })
}
