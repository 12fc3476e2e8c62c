//! Reading the bearer token out of the request's credentials (RFC 6750 §2.1 header form only).

use dochiya_protocol::{AuthFailure, Credentials};

/// Tokens longer than this are refused before any parsing (real access tokens are a few KiB).
pub const MAX_TOKEN_LEN: usize = 16 * 1024;

/// The token from `Authorization: Bearer <token>`, or why there is none we can accept.
pub fn bearer_token<'a>(credentials: &Credentials<'a>) -> Result<&'a str, AuthFailure> {
    // A token in the URL leaks into logs and histories; MCP forbids it, so it is refused even
    // when a header token is present too.
    if let Some(query) = credentials.query
        && query_has_access_token(query)
    {
        return Err(invalid("access token in the URL query string"));
    }
    let Some(header) = credentials.authorization else {
        return Err(AuthFailure::Missing);
    };
    let header = header.trim();
    let (scheme, token) = match header.split_once([' ', '\t']) {
        Some((scheme, rest)) => (scheme, rest.trim()),
        None => (header, ""),
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        // Another scheme (Basic, …) is "no bearer credentials" (RFC 6750 §3.1: no error code).
        return Err(AuthFailure::Missing);
    }
    if token.is_empty() {
        return Err(invalid("empty bearer token"));
    }
    if token.len() > MAX_TOKEN_LEN {
        return Err(invalid("bearer token too long"));
    }
    // RFC 6750 b64token, narrowed to what a compact JWS can contain.
    if !token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
    {
        return Err(invalid("bearer token has characters a JWT cannot contain"));
    }
    Ok(token)
}

/// Whether any query parameter is named `access_token` (RFC 6750 §2.3), however its name
/// is percent-encoded: the name is compared decoded, as a server reading the form would.
fn query_has_access_token(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes()).any(|(name, _)| name.eq_ignore_ascii_case("access_token"))
}

/// An `InvalidToken` failure with a log-only reason.
pub(crate) fn invalid(reason: impl Into<String>) -> AuthFailure {
    AuthFailure::InvalidToken {
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds<'a>(authorization: Option<&'a str>, query: Option<&'a str>) -> Credentials<'a> {
        Credentials { authorization, query }
    }

    #[test]
    fn a_bearer_header_yields_its_token() {
        assert_eq!(
            bearer_token(&creds(Some("Bearer abc.def.ghi"), None)),
            Ok("abc.def.ghi")
        );
        assert_eq!(
            bearer_token(&creds(Some("bearer  abc.def-_.x "), None)),
            Ok("abc.def-_.x")
        );
        assert_eq!(
            bearer_token(&creds(Some("Bearer a.b.c"), Some("x=1&y=2"))),
            Ok("a.b.c")
        );
    }

    #[test]
    fn no_header_or_another_scheme_is_missing() {
        assert_eq!(bearer_token(&creds(None, None)), Err(AuthFailure::Missing));
        assert_eq!(
            bearer_token(&creds(Some("Basic dXNlcjpwYXNz"), None)),
            Err(AuthFailure::Missing)
        );
    }

    #[test]
    fn a_token_in_the_query_is_refused_even_beside_a_header() {
        let expected = Err(invalid("access token in the URL query string"));
        assert_eq!(bearer_token(&creds(None, Some("access_token=a.b.c"))), expected);
        assert_eq!(
            bearer_token(&creds(Some("Bearer a.b.c"), Some("x=1&access_token=a.b.c"))),
            expected
        );
        assert_eq!(bearer_token(&creds(None, Some("ACCESS_TOKEN"))), expected);
        // Any percent-encoding of the name is the same name, not only `%5F` for the `_`.
        assert_eq!(bearer_token(&creds(None, Some("access%5Ftoken=a.b.c"))), expected);
        assert_eq!(
            bearer_token(&creds(None, Some("x=1&%61ccess_token=a.b.c"))),
            expected
        );
        assert_eq!(
            bearer_token(&creds(Some("Bearer a.b.c"), Some("%41CCESS%5f%54OKEN=a.b.c"))),
            expected
        );
        assert_eq!(
            bearer_token(&creds(None, Some("access+token=1"))),
            Err(AuthFailure::Missing)
        );
        assert_eq!(
            bearer_token(&creds(None, Some("my_access_token=1"))),
            Err(AuthFailure::Missing)
        );
    }

    #[test]
    fn malformed_bearer_values_are_invalid_tokens() {
        assert_eq!(
            bearer_token(&creds(Some("Bearer"), None)),
            Err(invalid("empty bearer token"))
        );
        assert_eq!(
            bearer_token(&creds(Some("Bearer   "), None)),
            Err(invalid("empty bearer token"))
        );
        assert_eq!(
            bearer_token(&creds(Some("Bearer a.b c"), None)),
            Err(invalid("bearer token has characters a JWT cannot contain"))
        );
        let long = format!("Bearer {}", "a".repeat(MAX_TOKEN_LEN + 1));
        assert_eq!(
            bearer_token(&creds(Some(&long), None)),
            Err(invalid("bearer token too long"))
        );
    }
}
