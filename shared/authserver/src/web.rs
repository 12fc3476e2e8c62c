//! HTTP plumbing shared by the endpoints: bounded form and query parsing (no repeated
//! parameters, RFC 6749 §3.1), JSON and HTML answers with the headers every one needs,
//! OAuth error bodies, cookies, hashing and random values.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Request, Response, StatusCode};
use serde_json::{Value, json};

/// The largest form or JSON body any endpoint reads.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// The most parameters one request may carry.
pub const MAX_PARAMS: usize = 32;
/// The longest single parameter value.
pub const MAX_PARAM_BYTES: usize = 2048;

/// Parameters of a query or form, each name at most once.
#[derive(Debug, Default, Clone)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// The value of `name`, if present and not empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    }
}

/// Why parameters were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A name appears twice.
    #[error("parameter `{0}` is repeated")]
    Repeated(String),
    /// Too many, or one too long.
    #[error("too many or too long parameters")]
    TooLarge,
    /// The body is not a form.
    #[error("the body must be application/x-www-form-urlencoded")]
    NotAForm,
}

/// Parse `a=b&c=d` text.
pub fn parse_params(text: &[u8]) -> Result<Params, ParamError> {
    if text.len() > MAX_BODY_BYTES {
        return Err(ParamError::TooLarge);
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in form_urlencoded::parse(text) {
        if out.len() >= MAX_PARAMS || v.len() > MAX_PARAM_BYTES || k.len() > 64 {
            return Err(ParamError::TooLarge);
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(ParamError::Repeated(k.into_owned()));
        }
        out.push((k.into_owned(), v.into_owned()));
    }
    Ok(Params(out))
}

/// The query string's parameters.
pub fn query(req: &Request<Bytes>) -> Result<Params, ParamError> {
    parse_params(req.uri().query().unwrap_or("").as_bytes())
}

/// Whether the request's media type (parameters aside) is `media`.
fn has_media_type(req: &Request<Bytes>, media: &str) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case(media))
        })
}

/// Whether the body is declared `application/json` (parameters allowed).
pub fn is_json(req: &Request<Bytes>) -> bool {
    has_media_type(req, "application/json")
}

/// A form body's parameters (the content type must say so).
pub fn form(req: &Request<Bytes>) -> Result<Params, ParamError> {
    if !has_media_type(req, "application/x-www-form-urlencoded") {
        return Err(ParamError::NotAForm);
    }
    parse_params(req.body())
}

/// The parameters of a GET query or a POST form, whichever the method uses.
pub fn params(req: &Request<Bytes>) -> Result<Params, ParamError> {
    if req.method() == http::Method::POST {
        form(req)
    } else {
        query(req)
    }
}

fn base(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<Bytes> {
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = status;
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// A JSON answer; `cors` lets browser-based clients (MCP Inspector) read it cross-origin.
/// Safe with `*`: these endpoints use no cookies and no ambient credentials.
pub fn json(status: StatusCode, value: &Value, cors: bool) -> Response<Bytes> {
    let mut response = base(status, "application/json", value.to_string().into_bytes());
    if cors {
        response
            .headers_mut()
            .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    }
    response
}

/// An OAuth error body (RFC 6749 §5.2), status 400 unless the error says otherwise.
pub fn oauth_error(error: &str, description: &str) -> Response<Bytes> {
    let status = match error {
        "invalid_client" => StatusCode::UNAUTHORIZED,
        "temporarily_unavailable" => StatusCode::SERVICE_UNAVAILABLE,
        "server_error" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    };
    json(
        status,
        &json!({ "error": error, "error_description": description }),
        true,
    )
}

/// CORS preflight for the JSON endpoints.
pub fn preflight() -> Response<Bytes> {
    let mut response = base(StatusCode::NO_CONTENT, "text/plain", Vec::new());
    let h = response.headers_mut();
    h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("content-type, authorization, mcp-protocol-version"),
    );
    h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    response
}

/// The content security policy of every page: no script at all, styles from us only, no
/// framing, forms post to us (and, after the consent post or a sign-in post a remembered
/// consent answers, redirect to `redirect_source`: browsers apply form-action to redirects).
pub fn csp(redirect_source: Option<&str>) -> String {
    let mut form_action = "'self'".to_owned();
    if let Some(source) = redirect_source {
        form_action.push(' ');
        form_action.push_str(source);
    }
    format!(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action {form_action}; \
         frame-ancestors 'none'; base-uri 'none'"
    )
}

/// An HTML page with the page headers (CSP, no framing).
pub fn html(status: StatusCode, body: String, redirect_source: Option<&str>) -> Response<Bytes> {
    let mut response = base(status, "text/html; charset=utf-8", body.into_bytes());
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&csp(redirect_source)) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our
    // own form posts, and the Origin check would refuse them. Other sites still get none.
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}

/// A redirect (303 after a form post, so the browser follows with GET).
pub fn redirect(location: &str) -> Response<Bytes> {
    let mut response = base(StatusCode::SEE_OTHER, "text/plain", Vec::new());
    match HeaderValue::from_str(location) {
        Ok(v) => {
            response.headers_mut().insert(header::LOCATION, v);
            response
        }
        Err(_) => html(StatusCode::BAD_REQUEST, "bad redirect".to_owned(), None),
    }
}

/// 404.
pub fn not_found() -> Response<Bytes> {
    json(StatusCode::NOT_FOUND, &json!({ "error": "not_found" }), false)
}

/// 405.
pub fn method_not_allowed() -> Response<Bytes> {
    json(
        StatusCode::METHOD_NOT_ALLOWED,
        &json!({ "error": "method_not_allowed" }),
        false,
    )
}

/// The value of cookie `name`.
pub fn cookie<'a>(req: &'a Request<Bytes>, name: &str) -> Option<&'a str> {
    req.headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// SHA-256.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_ref());
    out
}

/// base64url(SHA-256(text)): how secrets are stored and how long values become keys.
pub fn hash(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(sha256(text.as_bytes()))
}

/// `n` random bytes from the OS, base64url.
pub fn random_token(n: usize) -> Result<String, aws_lc_rs::error::Unspecified> {
    let mut bytes = vec![0u8; n];
    aws_lc_rs::rand::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// Equal, in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    aws_lc_rs::constant_time::verify_slices_are_equal(a.as_bytes(), b.as_bytes()).is_ok()
}

/// Whether a value is a random token we issued (base64url, bounded).
pub fn looks_like_token(value: &str) -> bool {
    (16..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_and_oversized_parameters_are_refused() {
        assert_eq!(
            parse_params(b"a=1&a=2").unwrap_err(),
            ParamError::Repeated("a".into())
        );
        assert_eq!(
            parse_params(format!("a={}", "x".repeat(MAX_PARAM_BYTES + 1)).as_bytes()).unwrap_err(),
            ParamError::TooLarge
        );
        let p = parse_params(b"a=1&b=&c=%20x").unwrap();
        assert_eq!(
            (p.get("a"), p.get("b"), p.get("c")),
            (Some("1"), None, Some(" x"))
        );
    }

    #[test]
    fn pages_forbid_framing_and_script() {
        assert_eq!(
            csp(Some("https://client.example")),
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' https://client.example; \
             frame-ancestors 'none'; base-uri 'none'"
        );
    }
}
