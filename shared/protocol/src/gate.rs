//! The gate: every HTTP-level rule, in one fixed order, before any JSON-RPC is read.
//!
//! Order: route (404) → HTTP method (405 + `Allow`) → `Host` (403, when configured) →
//! `Origin` (403) → body size (413) → UTF-8 (400/-32700) → `Content-Type` (415) →
//! one `Authorization` header at most (400, `WWW-Authenticate: Bearer error="invalid_request"`).
//! `Accept` is never a reason to refuse (we always answer JSON). API Gateway's
//! base64 bodies are decoded by the Lambda adapter's request conversion (lambda_http),
//! so the bytes here are the client's bytes whichever adapter carried them.
//! Each forgiveness is logged at debug with what was forgiven.

use bytes::Bytes;
use http::{Method, Request, StatusCode, header};

use crate::config::{HostPolicy, ServerConfig};
use crate::error::RpcError;

/// The MCP endpoint; `/mcp/` is served identically (no redirect).
pub const MCP_PATHS: [&str; 2] = ["/mcp", "/mcp/"];
/// RFC 9728 metadata: the root form and the path-suffixed form for `/mcp`.
pub const RESOURCE_METADATA_PATHS: [&str; 2] = [
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
];

/// A request the gate let through.
#[derive(Debug)]
pub(crate) enum Admitted<'a> {
    /// A POST to the MCP endpoint: its UTF-8 body and its `Authorization` header's text.
    Mcp {
        /// The body.
        body: &'a str,
        /// The one `Authorization` header (`None`: absent, or not visible ASCII).
        authorization: Option<&'a str>,
    },
    /// A GET of the protected resource metadata.
    ResourceMetadata,
}

/// Why the gate refused a request: the error body, `Allow` for a 405, and
/// `WWW-Authenticate` for an ambiguous `Authorization`.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub error: RpcError,
    pub allow: Option<&'static str>,
    pub challenge: Option<&'static str>,
}

impl From<RpcError> for Refusal {
    fn from(error: RpcError) -> Self {
        Refusal {
            error,
            allow: None,
            challenge: None,
        }
    }
}

/// Run the gate.
pub(crate) fn admit<'a>(cfg: &ServerConfig, req: &'a Request<Bytes>) -> Result<Admitted<'a>, Refusal> {
    let path = req.uri().path();
    if MCP_PATHS.contains(&path) {
        if req.method() != Method::POST {
            return Err(Refusal {
                error: RpcError::http(
                    StatusCode::METHOD_NOT_ALLOWED,
                    format!("Method Not Allowed: {} is not served; use POST", req.method()),
                ),
                allow: Some("POST"),
                challenge: None,
            });
        }
        check_host(cfg, req)?;
        check_origin(cfg, req)?;
        let body = check_body(cfg, req)?;
        check_content_type(req)?;
        note_accept(req);
        let authorization = authorization(req)?;
        Ok(Admitted::Mcp { body, authorization })
    } else if RESOURCE_METADATA_PATHS.contains(&path) {
        if req.method() != Method::GET {
            return Err(Refusal {
                error: RpcError::http(
                    StatusCode::METHOD_NOT_ALLOWED,
                    format!("Method Not Allowed: {} is not served; use GET", req.method()),
                ),
                allow: Some("GET"),
                challenge: None,
            });
        }
        check_host(cfg, req)?;
        Ok(Admitted::ResourceMetadata)
    } else {
        Err(RpcError::http(StatusCode::NOT_FOUND, "Not Found: the MCP endpoint is /mcp").into())
    }
}

fn check_host(cfg: &ServerConfig, req: &Request<Bytes>) -> Result<(), RpcError> {
    if cfg.host_policy == HostPolicy::Any {
        return Ok(());
    }
    match request_host(req) {
        Some(h) if is_loopback_host(h) => Ok(()),
        other => {
            tracing::debug!(host = ?other, "refused a non-loopback Host");
            Err(RpcError::http(
                StatusCode::FORBIDDEN,
                "Forbidden: Host is not a loopback name",
            ))
        }
    }
}

/// The request's `Host` header, else its URI's authority.
fn request_host(req: &Request<Bytes>) -> Option<&str> {
    req.headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()))
}

/// Whether the request names a loopback host: the one check of the MCP gate and of the
/// app's router in front of the authorization server (DNS rebinding).
pub fn has_loopback_host(req: &Request<Bytes>) -> bool {
    request_host(req).is_some_and(is_loopback_host)
}

/// `localhost`, `127.0.0.1` or `[::1]`, with or without a port (digits only: a
/// "port" such as `:x.evil.example` is not one).
// Not the URL rule (`dochiya_outbound::is_loopback`, all of 127/8): a `Host` header is
// the client's own text, so only these three spellings pass, checked without parsing a URL.
pub fn is_loopback_host(host: &str) -> bool {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, "")) => (inside, None),
            Some((inside, port)) => match port.strip_prefix(':') {
                Some(port) => (inside, Some(port)),
                None => return false,
            },
            None => return false,
        }
    } else {
        match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && (name.eq_ignore_ascii_case("localhost") || name == "127.0.0.1" || name == "::1")
}

fn check_origin(cfg: &ServerConfig, req: &Request<Bytes>) -> Result<(), RpcError> {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    let allowed = origin
        .to_str()
        .map(|o| {
            cfg.allowed_origins
                .iter()
                .any(|a| a.eq_ignore_ascii_case(o.trim()))
        })
        .unwrap_or(false);
    if allowed {
        Ok(())
    } else {
        tracing::debug!(origin = ?origin, "refused an Origin outside the allowlist");
        Err(RpcError::http(
            StatusCode::FORBIDDEN,
            "Forbidden: Origin is not allowed",
        ))
    }
}

fn check_body<'a>(cfg: &ServerConfig, req: &'a Request<Bytes>) -> Result<&'a str, RpcError> {
    let too_large = || {
        RpcError::http(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "Payload Too Large: the body limit is {} bytes",
                cfg.max_body_bytes
            ),
        )
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let cap = u64::try_from(cfg.max_body_bytes).unwrap_or(u64::MAX);
    if declared.is_some_and(|n| n > cap) || req.body().len() > cfg.max_body_bytes {
        return Err(too_large());
    }
    std::str::from_utf8(req.body()).map_err(|e| RpcError::parse_error(format!("body is not UTF-8 ({e})")))
}

fn check_content_type(req: &Request<Bytes>) -> Result<(), RpcError> {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        tracing::debug!("forgave a missing Content-Type: read the body as JSON");
        return Ok(());
    };
    let text = value.to_str().unwrap_or("");
    let (essence, parameters) = text.split_once(';').unwrap_or((text, ""));
    if essence.trim().eq_ignore_ascii_case("application/json") {
        if !parameters.trim().is_empty() {
            tracing::debug!(content_type = text, "accepted Content-Type parameters");
        }
        Ok(())
    } else {
        Err(RpcError::http(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("Unsupported Media Type: {text:?}; send application/json"),
        ))
    }
}

/// The request's one `Authorization` header as text; a value that is not visible ASCII
/// is no credentials (`None`). Two headers are ambiguous (which person?): refused, never
/// one picked. The Bearer scheme and the token's bounds are the authenticator's
/// (`dochiya-auth`), checked only when a method needs a token.
fn authorization(req: &Request<Bytes>) -> Result<Option<&str>, Refusal> {
    let mut values = req.headers().get_all(header::AUTHORIZATION).iter();
    let first = values.next();
    if values.next().is_some() {
        return Err(Refusal {
            error: RpcError::invalid_request("send exactly one Authorization header"),
            allow: None,
            challenge: Some("Bearer error=\"invalid_request\""),
        });
    }
    Ok(first.and_then(|v| v.to_str().ok()))
}

// Never 406: clients send `*/*`, one type or nothing, and JSON is always a legal answer.
fn note_accept(req: &Request<Bytes>) {
    let accept = req.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok());
    let lists_json = accept.is_some_and(|a| {
        a.split(',').any(|t| {
            let essence = t.split(';').next().unwrap_or("").trim();
            essence.eq_ignore_ascii_case("application/json") || essence == "*/*" || essence == "application/*"
        })
    });
    if !lists_json {
        tracing::debug!(accept = ?accept, "forgave an Accept without application/json: answering JSON");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ServerConfig {
        ServerConfig {
            max_body_bytes: 16,
            allowed_origins: vec!["https://ok.example".into()],
            ..Default::default()
        }
    }

    fn req(method: Method, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Request<Bytes> {
        let mut b = Request::builder().method(method).uri(path);
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        b.body(Bytes::copy_from_slice(body)).unwrap_or_default()
    }

    fn refusal(cfg: &ServerConfig, r: &Request<Bytes>) -> (u16, i32, Option<&'static str>, String) {
        match admit(cfg, r) {
            Err(Refusal { error, allow, .. }) => (
                error.status.as_u16(),
                error.code,
                allow,
                error.message.into_owned(),
            ),
            Ok(a) => panic!("admitted {a:?}"),
        }
    }

    #[test]
    fn both_mcp_paths_admit_a_post() {
        for path in MCP_PATHS {
            let r = req(Method::POST, path, &[("content-type", "application/json")], b"{}");
            assert!(matches!(
                admit(&cfg(), &r),
                Ok(Admitted::Mcp {
                    body: "{}",
                    authorization: None
                })
            ));
        }
    }

    #[test]
    fn get_delete_put_on_mcp_are_405_with_allow_post() {
        for m in [Method::GET, Method::DELETE, Method::PUT, Method::OPTIONS] {
            let (status, code, allow, _) = refusal(&cfg(), &req(m, "/mcp", &[], b""));
            assert_eq!((status, code, allow), (405, -32600, Some("POST")));
        }
    }

    #[test]
    fn unknown_path_is_404() {
        let (status, code, allow, msg) = refusal(&cfg(), &req(Method::POST, "/mcpx", &[], b"{}"));
        assert_eq!((status, code, allow), (404, -32600, None));
        assert_eq!(msg, "Not Found: the MCP endpoint is /mcp");
    }

    #[test]
    fn resource_metadata_is_get_only() {
        for path in RESOURCE_METADATA_PATHS {
            assert!(matches!(
                admit(&cfg(), &req(Method::GET, path, &[], b"")),
                Ok(Admitted::ResourceMetadata)
            ));
            let (status, _, allow, _) = refusal(&cfg(), &req(Method::POST, path, &[], b""));
            assert_eq!((status, allow), (405, Some("GET")));
        }
    }

    #[test]
    fn body_over_the_cap_is_413_by_length_or_by_header() {
        let (status, code, _, msg) = refusal(&cfg(), &req(Method::POST, "/mcp", &[], &[b' '; 17]));
        assert_eq!((status, code), (413, -32600));
        assert_eq!(msg, "Payload Too Large: the body limit is 16 bytes");
        let (status, ..) = refusal(
            &cfg(),
            &req(Method::POST, "/mcp", &[("content-length", "99")], b"{}"),
        );
        assert_eq!(status, 413);
        let exact = req(Method::POST, "/mcp", &[], &[b' '; 16]);
        assert!(admit(&cfg(), &exact).is_ok(), "16 bytes is within a 16-byte cap");
    }

    #[test]
    fn invalid_utf8_is_400_parse_error() {
        let (status, code, ..) = refusal(&cfg(), &req(Method::POST, "/mcp", &[], b"{\"a\":\"\xff\"}"));
        assert_eq!((status, code), (400, -32700));
    }

    #[test]
    fn content_type_rules() {
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON ;charset=UTF-8",
        ] {
            assert!(
                admit(&cfg(), &req(Method::POST, "/mcp", &[("content-type", ok)], b"{}")).is_ok(),
                "{ok}"
            );
        }
        assert!(
            admit(&cfg(), &req(Method::POST, "/mcp", &[], b"{}")).is_ok(),
            "missing is read as JSON"
        );
        let (status, code, _, msg) = refusal(
            &cfg(),
            &req(Method::POST, "/mcp", &[("content-type", "text/plain")], b"{}"),
        );
        assert_eq!((status, code), (415, -32600));
        assert_eq!(
            msg,
            "Unsupported Media Type: \"text/plain\"; send application/json"
        );
    }

    #[test]
    fn accept_never_refuses() {
        for accept in [
            "text/event-stream",
            "*/*",
            "text/html",
            "application/json, text/event-stream",
        ] {
            assert!(
                admit(&cfg(), &req(Method::POST, "/mcp", &[("accept", accept)], b"{}")).is_ok(),
                "{accept}"
            );
        }
    }

    #[test]
    fn origin_allowlist() {
        let ok = req(Method::POST, "/mcp", &[("origin", "https://OK.example")], b"{}");
        assert!(admit(&cfg(), &ok).is_ok());
        let (status, code, ..) = refusal(
            &cfg(),
            &req(Method::POST, "/mcp", &[("origin", "https://evil.example")], b"{}"),
        );
        assert_eq!((status, code), (403, -32600));
        let (status, ..) = refusal(&cfg(), &req(Method::POST, "/mcp", &[("origin", "null")], b"{}"));
        assert_eq!(status, 403);
    }

    #[test]
    fn loopback_host_policy() {
        let local = ServerConfig {
            host_policy: HostPolicy::Loopback,
            ..cfg()
        };
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(
                admit(&local, &req(Method::POST, "/mcp", &[("host", host)], b"{}")).is_ok(),
                "{host}"
            );
        }
        for host in [
            "evil.example",
            "127.0.0.1.evil.example",
            "[::2]:80",
            "localhost.evil:80",
            "127.0.0.1:x.evil.example",
            "localhost:80.evil.example",
            "[::1]:x.evil",
            "[::1]evil",
            "127.0.0.1:",
            "::1",
        ] {
            let (status, code, _, msg) =
                refusal(&local, &req(Method::POST, "/mcp", &[("host", host)], b"{}"));
            assert_eq!(
                (status, code, msg.as_str()),
                (403, -32600, "Forbidden: Host is not a loopback name"),
                "{host}"
            );
        }
        assert!(
            admit(
                &cfg(),
                &req(Method::POST, "/mcp", &[("host", "evil.example")], b"{}")
            )
            .is_ok()
        );
    }
    #[test]
    fn the_one_authorization_header_is_passed_on_as_text() {
        let admitted =
            |headers: &[(&str, &str)]| match admit(&cfg(), &req(Method::POST, "/mcp", headers, b"{}")) {
                Ok(Admitted::Mcp { body, authorization }) => {
                    (body.to_owned(), authorization.map(str::to_owned))
                }
                other => panic!("{other:?}"),
            };
        assert_eq!(admitted(&[]), ("{}".to_owned(), None));
        assert_eq!(
            admitted(&[("authorization", "Bearer a.b.c")]),
            ("{}".to_owned(), Some("Bearer a.b.c".to_owned()))
        );
        // Any scheme, any text: what it means is the authenticator's to say.
        assert_eq!(
            admitted(&[("authorization", "Basic dXNlcjpwYXNz")]),
            ("{}".to_owned(), Some("Basic dXNlcjpwYXNz".to_owned()))
        );
        let mut opaque = req(Method::POST, "/mcp", &[], b"{}");
        opaque.headers_mut().insert(
            header::AUTHORIZATION,
            http::HeaderValue::from_bytes(b"Bearer \xff").unwrap(),
        );
        assert!(matches!(
            admit(&cfg(), &opaque),
            Ok(Admitted::Mcp {
                body: "{}",
                authorization: None
            })
        ));
    }

    #[test]
    fn two_authorization_headers_are_400_with_an_invalid_request_challenge() {
        let r = req(
            Method::POST,
            "/mcp",
            &[
                ("authorization", "Bearer a.b.c"),
                ("authorization", "Bearer d.e.f"),
            ],
            b"{}",
        );
        match admit(&cfg(), &r) {
            Err(Refusal {
                error,
                allow,
                challenge,
            }) => assert_eq!(
                (
                    error.status.as_u16(),
                    error.code,
                    error.message.as_ref(),
                    allow,
                    challenge
                ),
                (
                    400,
                    -32600,
                    "Invalid request: send exactly one Authorization header",
                    None,
                    Some("Bearer error=\"invalid_request\"")
                )
            ),
            Ok(a) => panic!("admitted {a:?}"),
        }
        // Checked last: an earlier refusal is the answer.
        let (status, ..) = refusal(
            &cfg(),
            &req(
                Method::POST,
                "/mcp",
                &[
                    ("content-type", "text/plain"),
                    ("authorization", "a"),
                    ("authorization", "b"),
                ],
                b"{}",
            ),
        );
        assert_eq!(status, 415);
    }
}
