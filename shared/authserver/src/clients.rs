//! Who a `client_id` is: a Client ID Metadata Document (an https URL, fetched by [`cimd`])
//! or a dynamically registered public client (RFC 7591, stored, rate-limited), and the
//! one rule for matching a redirect URI (exact, except a loopback port, RFC 8252 §7.3).

use bytes::Bytes;
use dochiya_store::{Condition, Guard, Item, StoreError, TTL_ATTRIBUTE, Value, WriteOp};
use http::{Request, Response, StatusCode};
use reqwest::Url;
use serde::Deserialize;
use serde_json::json;

use crate::cimd::{CimdError, Fetcher};
use crate::config::AuthServerConfig;
use crate::state::{self, attrs, text};
use crate::{AuthServer, web};

pub use crate::client_meta::{
    MAX_CLIENT_NAME_CHARS, MAX_REDIRECT_URI_LEN, MAX_REDIRECT_URIS, check_redirect_uri, display_name,
    redirect_matches,
};
/// How long an unused registration is kept (it moves on with every sign-in).
pub const REGISTRATION_LIFETIME: i64 = 180 * 24 * 3600;
/// The prefix of the client ids we hand out (never an URL, so never confused with CIMD).
pub const DCR_PREFIX: &str = "dcr_";

/// A known client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// Its id.
    pub id: String,
    /// Display name (self-asserted by the client: the page also shows the redirect host).
    pub name: String,
    /// Registered redirect URIs.
    pub redirect_uris: Vec<String>,
}

impl Client {
    /// Whether `requested` is one of the registered redirect URIs: exactly, or differing
    /// only in the port of a loopback `http` URI (native apps pick a free port, RFC 8252 §7.3).
    pub fn allows_redirect(&self, requested: &str) -> bool {
        self.redirect_uris.iter().any(|r| redirect_matches(r, requested))
    }
}

/// Why a client_id is not usable.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// Unknown registered client.
    #[error("unknown client_id")]
    Unknown,
    /// The document was refused.
    #[error(transparent)]
    Document(#[from] CimdError),
    /// The store failed.
    #[error("store")]
    Store(#[from] StoreError),
}

/// Client resolution: the CIMD fetcher and the registration store.
pub struct Clients {
    fetcher: Fetcher,
}

impl Clients {
    /// For this configuration.
    pub fn new(config: &AuthServerConfig, policy: dochiya_outbound::Policy) -> Result<Self, String> {
        Ok(Clients {
            fetcher: Fetcher::new(policy, config.cimd)?,
        })
    }

    /// The CIMD fetcher.
    pub fn fetcher(&self) -> &Fetcher {
        &self.fetcher
    }
}

/// Who `client_id` is.
pub async fn resolve(server: &AuthServer, client_id: &str) -> Result<Client, ClientError> {
    if Fetcher::is_document_url(client_id) {
        let doc = server.clients.fetcher.get(client_id).await?;
        return Ok(Client {
            id: client_id.to_owned(),
            name: doc.name,
            redirect_uris: doc.redirect_uris,
        });
    }
    if !client_id.starts_with(DCR_PREFIX) || !web::looks_like_token(&client_id[DCR_PREFIX.len()..]) {
        return Err(ClientError::Unknown);
    }
    let Some(item) = server.store.get(&state::client_key(client_id)).await? else {
        return Err(ClientError::Unknown);
    };
    let a = &item.attrs;
    if state::n(a, TTL_ATTRIBUTE).is_some_and(|t| t <= server.now()) {
        return Err(ClientError::Unknown);
    }
    let redirect_uris = match a.get("redirectUris") {
        Some(Value::L(list)) => list
            .iter()
            .filter_map(|v| match v {
                Value::S(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Client {
        id: client_id.to_owned(),
        name: state::s(a, "clientName").unwrap_or_else(|| client_id.to_owned()),
        redirect_uris,
    })
}

#[derive(Deserialize)]
struct Registration {
    #[serde(default)]
    redirect_uris: Vec<String>,
    #[serde(default)]
    client_name: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
    #[serde(default)]
    grant_types: Option<Vec<String>>,
    #[serde(default)]
    response_types: Option<Vec<String>>,
}

fn registration_error(error: &str, description: &str) -> Response<Bytes> {
    web::json(
        StatusCode::BAD_REQUEST,
        &json!({ "error": error, "error_description": description }),
        true,
    )
}

/// A registration body refused before it is read: too large, or not declared JSON.
fn refuse_body(req: &Request<Bytes>) -> Option<Response<Bytes>> {
    if req.body().len() > web::MAX_BODY_BYTES {
        return Some(registration_error(
            "invalid_client_metadata",
            "the registration is larger than 16 KB",
        ));
    }
    // JSON only: a page can send text/plain or a form cross-site without a preflight
    // (a CORS "simple request") and spend the deployment's hourly registrations.
    if !web::is_json(req) {
        let mut response = registration_error(
            "invalid_client_metadata",
            "send the registration as Content-Type: application/json",
        );
        *response.status_mut() = StatusCode::UNSUPPORTED_MEDIA_TYPE;
        return Some(response);
    }
    None
}

/// `POST /oauth/register` (RFC 7591): public clients only, counted against the hourly limit.
pub async fn register(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    if let Some(refused) = refuse_body(req) {
        return refused;
    }
    let reg: Registration = match serde_json::from_slice(req.body()) {
        Ok(r) => r,
        Err(_) => {
            return registration_error("invalid_client_metadata", "the body is not a JSON registration");
        }
    };
    if reg.redirect_uris.is_empty() || reg.redirect_uris.len() > MAX_REDIRECT_URIS {
        return registration_error("invalid_redirect_uri", "redirect_uris must list 1 to 10 URIs");
    }
    for uri in &reg.redirect_uris {
        if let Err(why) = check_redirect_uri(uri) {
            return registration_error("invalid_redirect_uri", why);
        }
    }
    if reg
        .token_endpoint_auth_method
        .as_deref()
        .is_some_and(|m| m != "none")
    {
        return registration_error(
            "invalid_client_metadata",
            "only public clients are registered: token_endpoint_auth_method must be none",
        );
    }
    let grants = reg
        .grant_types
        .unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if grants.is_empty()
        || grants
            .iter()
            .any(|g| g != "authorization_code" && g != "refresh_token")
    {
        return registration_error(
            "invalid_client_metadata",
            "grant_types may only be authorization_code and refresh_token",
        );
    }
    if reg
        .response_types
        .as_ref()
        .is_some_and(|r| r.iter().any(|t| t != "code"))
    {
        return registration_error("invalid_client_metadata", "response_types may only be code");
    }
    match take_registration_slot(server).await {
        Ok(true) => {}
        Ok(false) => {
            return web::json(
                StatusCode::TOO_MANY_REQUESTS,
                &json!({ "error": "temporarily_unavailable", "error_description": "too many registrations this hour; try again later" }),
                true,
            );
        }
        Err(e) => return store_failure(&e),
    }
    let Ok(random) = web::random_token(16) else {
        return web::oauth_error("server_error", "no randomness");
    };
    let client_id = format!("{DCR_PREFIX}{random}");
    let host = reg
        .redirect_uris
        .first()
        .and_then(|u| Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default();
    let name = match display_name(reg.client_name.as_deref(), &host) {
        Ok(name) => name,
        Err(why) => return registration_error("invalid_client_metadata", why),
    };
    let now = server.now();
    let item = Item {
        key: state::client_key(&client_id),
        attrs: attrs(&[
            ("clientName", text(&name)),
            (
                "redirectUris",
                Some(Value::L(
                    reg.redirect_uris.iter().map(|u| Value::S(u.clone())).collect(),
                )),
            ),
            ("createdAt", Some(Value::N(now))),
            (TTL_ATTRIBUTE, Some(Value::N(now + REGISTRATION_LIFETIME))),
        ]),
    };
    if let Err(e) = server
        .store
        .write(vec![WriteOp::Put {
            item,
            guard: Some(Guard::new("client-new", Condition::NotExists)),
        }])
        .await
    {
        return store_failure(&e);
    }
    tracing::info!(%client_id, "registered a client");
    web::json(
        StatusCode::CREATED,
        &json!({
            "client_id": client_id,
            "client_id_issued_at": now,
            "client_name": name,
            "redirect_uris": reg.redirect_uris,
            "token_endpoint_auth_method": "none",
            "grant_types": grants,
            "response_types": ["code"],
        }),
        true,
    )
}

/// Count one registration in this clock hour, refusing past the limit (an optimistic
/// counter: read, then add only if nobody else moved it meanwhile).
async fn take_registration_slot(server: &AuthServer) -> Result<bool, StoreError> {
    let now = server.now();
    let hour = now.div_euclid(3600);
    let key = state::registration_rate_key(hour);
    for _ in 0..5 {
        let current = server.store.get(&key).await?;
        let count = current
            .as_ref()
            .and_then(|i| state::n(&i.attrs, "count"))
            .unwrap_or(0);
        if count >= server.config.dcr_per_hour {
            return Ok(false);
        }
        let condition = match current {
            None => Condition::NotExists,
            Some(_) => Condition::AttrEquals("count".into(), Value::N(count)),
        };
        let op = WriteOp::Update {
            key: key.clone(),
            set: attrs(&[(TTL_ATTRIBUTE, Some(Value::N((hour + 2) * 3600)))]),
            add: [("count".to_owned(), 1)].into_iter().collect(),
            remove: Vec::new(),
            guard: Some(Guard::new("registration-count", condition)),
        };
        match server.store.write(vec![op]).await {
            Ok(()) => return Ok(true),
            Err(StoreError::ConditionFailed { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// The answer when the store failed: retryable for the client, logged for us.
pub fn store_failure(e: &StoreError) -> Response<Bytes> {
    tracing::error!(error = %e, "authorization server store failure");
    web::oauth_error("temporarily_unavailable", "storage is unavailable; try again")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_uris_match_exactly_except_a_loopback_port() {
        assert!(redirect_matches(
            "https://app.example/cb",
            "https://app.example/cb"
        ));
        assert!(!redirect_matches(
            "https://app.example/cb",
            "https://app.example/cb/"
        ));
        assert!(!redirect_matches(
            "https://app.example/cb",
            "https://app.example:444/cb"
        ));
        assert!(!redirect_matches(
            "https://app.example/cb",
            "https://evil.example/cb"
        ));
        assert!(redirect_matches(
            "http://127.0.0.1/callback",
            "http://127.0.0.1:53117/callback"
        ));
        assert!(redirect_matches(
            "http://localhost:3000/callback",
            "http://localhost:9999/callback"
        ));
        assert!(!redirect_matches(
            "http://127.0.0.1/callback",
            "http://127.0.0.1:5/other"
        ));
        assert!(!redirect_matches(
            "http://127.0.0.1/callback",
            "http://localhost:5/callback"
        ));
        assert!(!redirect_matches(
            "http://127.0.0.1/cb",
            "http://127.0.0.1:5/cb?x=1"
        ));
    }

    #[test]
    fn only_safe_redirect_uris_can_be_registered() {
        assert_eq!(
            check_redirect_uri("https://claude.ai/api/mcp/auth_callback"),
            Ok(())
        );
        assert_eq!(check_redirect_uri("http://127.0.0.1:6274/oauth/callback"), Ok(()));
        assert_eq!(check_redirect_uri("com.example.app:/cb"), Ok(()));
        assert_eq!(
            check_redirect_uri("http://evil.example/cb"),
            Err("a plain http redirect URI must be a loopback address")
        );
        assert_eq!(
            check_redirect_uri("javascript:alert(1)"),
            Err("a redirect URI has a scheme that is not allowed")
        );
        assert_eq!(
            check_redirect_uri("https://a.example/cb#x"),
            Err("a redirect URI has a fragment")
        );
    }

    #[test]
    fn client_names_are_cleaned_and_bounded() {
        assert_eq!(
            display_name(Some("  Claude\u{7}  "), "h"),
            Ok("Claude".to_owned())
        );
        assert_eq!(
            display_name(Some(""), "host.example"),
            Ok("host.example".to_owned())
        );
        for bad in [
            "Claude\u{202E}tfosorciM",
            "Cla\u{200B}ude",
            "\u{2066}Claude\u{2069}",
        ] {
            assert_eq!(
                display_name(Some(bad), "h"),
                Err("client_name may not contain invisible or text-direction characters"),
                "{bad:?}"
            );
        }
        assert_eq!(
            display_name(Some(&"x".repeat(200)), "h").map(|n| n.chars().count()),
            Ok(MAX_CLIENT_NAME_CHARS)
        );
    }
}
