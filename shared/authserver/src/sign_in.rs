//! How a browser is sent to sign in, for an app's authorization and for the account page
//! alike: the binding cookie that ties the steps to one browser, and the sign-in's address
//! (the upstream provider, or our own local page).

use bytes::Bytes;
use http::Response;
use http::header::{self, HeaderValue};

use crate::config::SignIn;
use crate::state::PendingRequest;
use crate::{AuthServer, web};

/// The browser-binding cookie.
pub const BINDING_COOKIE: &str = "dochiya_as";
/// Tie the sign-in to this browser (the cookie's hash is on the pending request).
pub(crate) fn set_binding_cookie(response: &mut Response<Bytes>, value: &str, secure: bool) {
    let cookie = format!(
        "{BINDING_COOKIE}={value}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=86400{}",
        if secure { "; Secure" } else { "" }
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}

/// Where the person signs in: the upstream provider (its state, nonce and PKCE verifier
/// kept on the pending request) or, with no upstream, our own loopback sign-in page.
/// The error is an OAuth error code and description for the client.
pub(crate) async fn sign_in_target(
    server: &AuthServer,
    pending: &mut PendingRequest,
) -> Result<String, (&'static str, &'static str)> {
    let (SignIn::Upstream(_), Some(upstream)) = (&server.config.sign_in, &server.upstream) else {
        return Ok(format!(
            "{}{}?request={}",
            server.issuer(),
            crate::SIGNIN_PATH,
            pending.id
        ));
    };
    let (Ok(secret), Ok(nonce)) = (web::random_token(32), web::random_token(32)) else {
        return Err(("server_error", "no randomness"));
    };
    let started = upstream
        .start(&format!("{}.{secret}", pending.id), &nonce, &callback_url(server))
        .await
        .map_err(|e| {
            tracing::warn!(error = ?e.to_string(), "upstream OpenID provider unavailable");
            (
                "temporarily_unavailable",
                "the sign-in provider is unavailable; try again",
            )
        })?;
    pending.upstream_state = Some(web::hash(&secret));
    pending.nonce = Some(nonce);
    pending.upstream_verifier = Some(started.verifier);
    Ok(started.url)
}

/// Our callback URL at the upstream provider.
pub fn callback_url(server: &AuthServer) -> String {
    format!("{}{}", server.issuer(), crate::CALLBACK_PATH)
}

/// The browser's binding value: the one its cookie carries, else a new one.
pub(crate) fn binding_value(req: &http::Request<Bytes>) -> Result<String, aws_lc_rs::error::Unspecified> {
    match web::cookie(req, BINDING_COOKIE).filter(|c| web::looks_like_token(c)) {
        Some(c) => Ok(c.to_owned()),
        None => web::random_token(32),
    }
}

/// Why a sign-in could not be started.
pub(crate) enum NotStarted {
    /// No sign-in target (an OAuth error code and description).
    Target(&'static str, &'static str),
    /// The request could not be stored.
    Store(dochiya_store::StoreError),
}

/// Store a new request `pending` (bound to `binding`) and send the browser to its
/// sign-in, with the binding cookie: for an app's authorization and the account page.
pub(crate) async fn start(
    server: &AuthServer,
    mut pending: PendingRequest,
    binding: &str,
) -> Result<Response<Bytes>, NotStarted> {
    let next = sign_in_target(server, &mut pending)
        .await
        .map_err(|(error, description)| NotStarted::Target(error, description))?;
    server
        .store
        .write(vec![dochiya_store::WriteOp::Put {
            item: pending.item(),
            guard: Some(dochiya_store::Guard::new(
                "request-new",
                dochiya_store::Condition::NotExists,
            )),
        }])
        .await
        .map_err(NotStarted::Store)?;
    let mut response = web::redirect(&next);
    *response.status_mut() = http::StatusCode::FOUND;
    set_binding_cookie(&mut response, binding, server.issuer().starts_with("https://"));
    Ok(response)
}
