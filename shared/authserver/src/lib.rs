//! dochiya's own OAuth 2.1 authorization server, at the MCP server's origin.
//!
//! MCP clients connect only to an authorization server with RFC 8414 metadata, PKCE S256,
//! RFC 8707 resource indicators and client registration by Client ID Metadata Documents or
//! RFC 7591 dynamic registration; this crate is that server, so a household needs no
//! third-party identity service. The app routes [`AuthServer::owns`] paths here, beside
//! (not through) the MCP protocol path.
//!
//! The request path: [`web`] parses and bounds the HTTP request, [`authorize`] runs the
//! browser steps (sign-in, consent, code), [`token`] the back-channel grants and
//! revocation, [`clients`] decides who a `client_id` is, [`state`] keeps every record in
//! the ledger's [`Store`](dochiya_store::Store) (`AS#` partitions, docs/keys.md),
//! and [`keys`] signs access tokens.

pub mod account;
pub mod authorize;
pub mod cimd;
pub mod client_meta;
pub mod clients;
pub mod clock;
pub mod config;
pub mod forget;
pub mod keys;
pub mod pages;
pub mod sign_in;
pub mod signin_code;
pub mod state;
pub mod token;
pub mod upstream;
pub mod web;

use std::sync::Arc;

use bytes::Bytes;
use dochiya_store::Store;
use http::{Method, Request, Response, StatusCode};

pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{AuthServerConfig, ConfigError, Deployment, Lifetimes, SignIn, UpstreamConfig};
pub use keys::{KeyError, PublicKey, SigningKey};

/// Every scope this server grants, in the order they are advertised.
pub const SCOPES: [&str; 2] = dochiya_domain::scopes::SCOPES_SUPPORTED;

/// RFC 8414 metadata path (the issuer has no path, so no suffix).
pub const METADATA_PATH: &str = "/.well-known/oauth-authorization-server";
/// The signing keys.
pub const JWKS_PATH: &str = "/oauth/jwks";
/// The authorization endpoint.
pub const AUTHORIZE_PATH: &str = "/oauth/authorize";
/// The token endpoint.
pub const TOKEN_PATH: &str = "/oauth/token";
/// RFC 7009 revocation.
pub const REVOKE_PATH: &str = "/oauth/revoke";
/// RFC 7591 dynamic registration.
pub const REGISTER_PATH: &str = "/oauth/register";
/// The local sign-in page (local mode only).
pub const SIGNIN_PATH: &str = "/oauth/signin";
/// Where the upstream OpenID provider sends the person back.
pub const CALLBACK_PATH: &str = "/oauth/callback";
/// The consent page.
pub const CONSENT_PATH: &str = "/oauth/consent";
/// The pages' style sheet (served, so the CSP needs no inline style).
pub const STYLE_PATH: &str = "/oauth/style.css";
/// The privacy page (served by the app in every mode; every page links it).
pub const PRIVACY_PATH: &str = "/privacy";

/// The authorization server: configuration, state, key; one instance per process.
pub struct AuthServer {
    config: AuthServerConfig,
    store: Arc<dyn Store>,
    key: SigningKey,
    clock: Arc<dyn Clock>,
    clients: clients::Clients,
    upstream: Option<upstream::Upstream>,
    /// The local sign-in's code (local sign-in only).
    signin_code: Option<signin_code::SignInCode>,
    /// Where an access token's roster hint comes from (none: tokens carry none).
    hints: Option<Arc<dyn TokenHints>>,
    /// What the account page shows and deletes (none: no account page).
    account: Option<Arc<dyn account::AccountData>>,
}

/// The roster hint an access token carries (its `rh` claim, decision 044): the ledger's
/// business, read when a token is minted, so the crate stays apart from the ledger.
#[async_trait::async_trait]
pub trait TokenHints: Send + Sync {
    /// The claim's value for `sub`, or `None` for no claim (a failed read included:
    /// a token without a hint costs the resource one query, never a refused grant).
    async fn roster_hint(&self, sub: &str) -> Option<serde_json::Value>;

    /// When `sub` deleted their data, if they did (epoch seconds): a refresh of a grant
    /// from before is refused. An error refuses the refresh for now.
    async fn closed_at(&self, _sub: &str) -> Result<Option<i64>, String> {
        Ok(None)
    }
}

impl std::fmt::Debug for AuthServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthServer")
            .field("issuer", &self.config.issuer)
            .field("kid", &self.key.public().kid)
            .finish_non_exhaustive()
    }
}

/// Why the authorization server could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The CIMD HTTP client could not be built.
    #[error("cannot build the client-metadata HTTP client: {0}")]
    HttpClient(String),
    /// No randomness for the local sign-in code.
    #[error("cannot make the local sign-in code")]
    SignInCode,
    /// The upstream OpenID provider could not be set up.
    #[error("upstream OpenID provider")]
    Upstream(#[source] upstream::UpstreamError),
}

impl AuthServer {
    /// Assemble from configuration, the shared store, the signing key and a clock.
    /// Nothing is fetched here: the upstream provider's discovery document is read on the
    /// first sign-in that needs it.
    pub fn new(
        config: AuthServerConfig,
        store: Arc<dyn Store>,
        key: SigningKey,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, BuildError> {
        let policy = dochiya_outbound::Policy::new(config.deployment.outbound_allowance());
        Self::with_policy(config, store, key, clock, policy)
    }

    /// [`AuthServer::new`] with the outbound address policy given (tests inject a resolver).
    pub fn with_policy(
        config: AuthServerConfig,
        store: Arc<dyn Store>,
        key: SigningKey,
        clock: Arc<dyn Clock>,
        policy: dochiya_outbound::Policy,
    ) -> Result<Self, BuildError> {
        let clients = clients::Clients::new(&config, policy.clone()).map_err(BuildError::HttpClient)?;
        let upstream = match &config.sign_in {
            SignIn::Local => None,
            SignIn::Upstream(up) => {
                Some(upstream::Upstream::new(up.clone(), policy).map_err(BuildError::Upstream)?)
            }
        };
        let signin_code = if config.deployment == Deployment::Local && config.sign_in == SignIn::Local {
            Some(signin_code::SignInCode::generate().map_err(|_| BuildError::SignInCode)?)
        } else {
            None
        };
        Ok(AuthServer {
            config,
            store,
            key,
            clock,
            clients,
            upstream,
            signin_code,
            hints: None,
            account: None,
        })
    }

    /// The same server, its access tokens carrying the roster hint `hints` gives.
    pub fn with_hints(mut self, hints: Arc<dyn TokenHints>) -> Self {
        self.hints = Some(hints);
        self
    }

    /// The same server with an account page over `data` (`/account`).
    pub fn with_account(mut self, data: Arc<dyn account::AccountData>) -> Self {
        self.account = Some(data);
        self
    }

    /// Connections the outbound clients have started (tests assert refusals dial nothing).
    pub fn outbound_connection_attempts(&self) -> usize {
        self.clients.fetcher().policy().connection_attempts()
    }

    /// The local sign-in code of this run (`XXXX-XXXX-XXXX`), when local sign-in is on.
    pub fn sign_in_code(&self) -> Option<String> {
        self.signin_code.as_ref().map(signin_code::SignInCode::display)
    }

    /// Write the local sign-in code to the data directory (0600); the file, when there is a code.
    pub fn write_sign_in_code(
        &self,
        data_dir: &std::path::Path,
    ) -> std::io::Result<Option<std::path::PathBuf>> {
        self.signin_code
            .as_ref()
            .map(|c| c.write_to(data_dir))
            .transpose()
    }

    /// The issuer (`iss` of every token; the origin of the MCP URL).
    pub fn issuer(&self) -> &str {
        &self.config.issuer
    }

    /// The public half of the signing key, for the in-process verifier.
    pub fn public_key(&self) -> PublicKey {
        self.key.public()
    }

    /// The configuration in force.
    pub fn config(&self) -> &AuthServerConfig {
        &self.config
    }

    /// Whether a request path belongs to the authorization server.
    pub fn owns(path: &str) -> bool {
        path == METADATA_PATH || path == account::SHORT_PATH || path.starts_with("/oauth/")
    }

    /// Answer one HTTP request on an [`AuthServer::owns`] path. Never panics on input.
    pub async fn handle(&self, req: Request<Bytes>) -> Response<Bytes> {
        let path = req.uri().path().to_owned();
        let method = req.method().clone();
        if method == Method::OPTIONS {
            return web::preflight();
        }
        let response = match (path.as_str(), &method) {
            (METADATA_PATH, &Method::GET | &Method::HEAD) => {
                web::json(StatusCode::OK, &self.metadata(), true)
            }
            (JWKS_PATH, &Method::GET | &Method::HEAD) => web::json(
                StatusCode::OK,
                &serde_json::json!({ "keys": [self.key.public().jwk()] }),
                true,
            ),
            (STYLE_PATH, &Method::GET | &Method::HEAD) => pages::style_response(),
            (AUTHORIZE_PATH, &Method::GET | &Method::POST) => authorize::authorize(self, &req).await,
            (SIGNIN_PATH, &Method::GET) => authorize::signin_page(self, &req).await,
            (SIGNIN_PATH, &Method::POST) => authorize::signin_submit(self, &req).await,
            (CALLBACK_PATH, &Method::GET) => authorize::upstream_callback(self, &req).await,
            (CONSENT_PATH, &Method::GET) => authorize::consent_page(self, &req).await,
            (CONSENT_PATH, &Method::POST) => authorize::consent_submit(self, &req).await,
            (TOKEN_PATH, &Method::POST) => token::token(self, &req).await,
            (REVOKE_PATH, &Method::POST) => token::revoke(self, &req).await,
            (REGISTER_PATH, &Method::POST) => clients::register(self, &req).await,
            (account::SHORT_PATH, &Method::GET) if self.account.is_some() => account::short(self),
            (account::ACCOUNT_PATH, &Method::GET) => account::page(self, &req).await,
            (account::ACCOUNT_PATH, &Method::POST) => account::submit(self, &req).await,
            (account::EXPORT_PATH, &Method::GET) => account::export(self, &req).await,
            (
                METADATA_PATH | JWKS_PATH | STYLE_PATH | AUTHORIZE_PATH | SIGNIN_PATH | CALLBACK_PATH
                | CONSENT_PATH | TOKEN_PATH | REVOKE_PATH | REGISTER_PATH,
                _,
            ) => web::method_not_allowed(),
            _ => web::not_found(),
        };
        tracing::info!(path = ?path, method = %method, status = response.status().as_u16(), "authorization server answered");
        response
    }

    /// The RFC 8414 document.
    pub fn metadata(&self) -> serde_json::Value {
        let at = |path: &str| format!("{}{path}", self.config.issuer);
        serde_json::json!({
            "issuer": self.config.issuer,
            "authorization_endpoint": at(AUTHORIZE_PATH),
            "token_endpoint": at(TOKEN_PATH),
            "jwks_uri": at(JWKS_PATH),
            "registration_endpoint": at(REGISTER_PATH),
            "revocation_endpoint": at(REVOKE_PATH),
            "scopes_supported": SCOPES,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "code_challenge_methods_supported": ["S256"],
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
        })
    }

    fn now(&self) -> i64 {
        self.clock.now()
    }
}
