//! Sign-in delegated to an upstream OpenID provider (by default the stack's Cognito user
//! pool): the standard code flow with PKCE and a nonce, through the `openidconnect` crate
//! (discovery, ID token signature, `iss`, `aud`, `exp` and nonce checks). Our HTTP client
//! is the workspace's reqwest (one TLS stack), with no redirects and a short timeout.
//!
//! The person's `sub` in our tokens is derived from the upstream issuer and subject
//! ([`derive_subject`]): stable across sign-ins, distinct across providers, and never the
//! upstream's own identifier, so an upstream token can never pass for ours.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreJwsSigningAlgorithm, CoreProviderMetadata,
};
use openidconnect::{
    AuthorizationCode, ClientId, ClientSecret, CsrfToken, HttpRequest, HttpResponse, IssuerUrl, Nonce,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse as _,
};
use tokio::sync::OnceCell;

use crate::config::UpstreamConfig;

/// How long one request to the upstream provider may take.
pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest upstream answer read (discovery, JWKS, token response).
pub const MAX_UPSTREAM_BYTES: usize = 256 * 1024;

/// Why the upstream step failed.
#[derive(Debug, thiserror::Error)]
pub enum UpstreamError {
    /// Building the HTTP client.
    #[error("HTTP client: {0}")]
    Client(String),
    /// Discovery failed.
    #[error("discovery: {0}")]
    Discovery(String),
    /// The code exchange failed.
    #[error("code exchange: {0}")]
    Exchange(String),
    /// The ID token was missing or did not verify (signature, issuer, audience, expiry, nonce).
    #[error("ID token: {0}")]
    IdToken(String),
    /// A configured URL is not usable.
    #[error("URL: {0}")]
    Url(String),
}

/// Who signed in upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Our `sub` for them.
    pub sub: String,
    /// A display name from the ID token's claims.
    pub name: String,
}

/// The authorization URL to send the browser to, and the PKCE verifier to keep.
#[derive(Debug)]
pub struct Started {
    /// The upstream authorization URL.
    pub url: String,
    /// The PKCE verifier (kept server-side with the request).
    pub verifier: String,
}

/// Our `sub` for an upstream person: `u_` + base64url(SHA-256(issuer, newline, subject)).
pub fn derive_subject(issuer: &str, subject: &str) -> String {
    format!("u_{}", crate::web::hash(&format!("{issuer}\n{subject}")))
}

/// The reqwest client, adapted to `openidconnect`'s HTTP interface (bounded answers).
#[derive(Clone)]
struct Http(reqwest::Client, dochiya_outbound::Policy);

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct HttpError(String);

type HttpFuture = Pin<Box<dyn Future<Output = Result<HttpResponse, HttpError>> + Send>>;

impl<'c> openidconnect::AsyncHttpClient<'c> for Http {
    type Error = HttpError;
    type Future = HttpFuture;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        self.send(request)
    }
}

impl Http {
    fn send(&self, request: HttpRequest) -> HttpFuture {
        let client = self.0.clone();
        let policy = self.1.clone();
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            // Every URL, the discovered endpoints too (the provider's document names them).
            let url = policy
                .check(&parts.uri.to_string())
                .map_err(|refusal| HttpError(refusal.to_string()))?;
            let mut builder = client.request(parts.method, url).body(body);
            for (name, value) in &parts.headers {
                builder = builder.header(name, value);
            }
            let mut response = builder.send().await.map_err(|e| HttpError(e.to_string()))?;
            let status = response.status();
            let headers = response.headers().clone();
            let mut bytes = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(|e| HttpError(e.to_string()))? {
                if bytes.len() + chunk.len() > MAX_UPSTREAM_BYTES {
                    return Err(HttpError("upstream answer too large".into()));
                }
                bytes.extend_from_slice(&chunk);
            }
            let mut out = http::Response::new(bytes);
            *out.status_mut() = status;
            *out.headers_mut() = headers;
            Ok(out)
        })
    }
}

/// The upstream provider: settings, HTTP client, discovered metadata (read once).
pub struct Upstream {
    config: UpstreamConfig,
    http: Http,
    metadata: OnceCell<CoreProviderMetadata>,
}

impl Upstream {
    /// For these settings; nothing is fetched yet.
    pub fn new(config: UpstreamConfig, policy: dochiya_outbound::Policy) -> Result<Self, UpstreamError> {
        let http = policy
            .client_builder()
            // No idle connections kept: a sign-in makes a request or two minutes apart,
            // and a connection the provider closed meanwhile (Node closes idle ones
            // after 5 s) failed the code exchange when reused. One handshake per sign-in.
            .pool_max_idle_per_host(0)
            .timeout(UPSTREAM_TIMEOUT)
            .connect_timeout(UPSTREAM_TIMEOUT)
            .build()
            .map_err(|e| UpstreamError::Client(e.to_string()))?;
        Ok(Upstream {
            config,
            http: Http(http, policy),
            metadata: OnceCell::new(),
        })
    }

    async fn metadata(&self) -> Result<&CoreProviderMetadata, UpstreamError> {
        self.metadata
            .get_or_try_init(|| async {
                let issuer = IssuerUrl::new(self.config.issuer.clone())
                    .map_err(|e| UpstreamError::Url(e.to_string()))?;
                CoreProviderMetadata::discover_async(issuer, &self.http)
                    .await
                    .map_err(|e| UpstreamError::Discovery(dochiya_protocol::cause_chain(&e)))
            })
            .await
    }

    async fn client(
        &self,
        redirect_uri: &str,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
        UpstreamError,
    > {
        let metadata = self.metadata().await?.clone();
        let redirect =
            RedirectUrl::new(redirect_uri.to_owned()).map_err(|e| UpstreamError::Url(e.to_string()))?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.config.client_id.clone()),
            self.config.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }

    /// The upstream authorization URL for our `state` and `nonce`, with a fresh PKCE pair.
    // Boxed here, where the library's futures are concrete: proving them `Send` through
    // the app's generic handler trips a compiler limitation with their lifetimes.
    pub fn start<'a>(
        &'a self,
        state: &'a str,
        nonce: &'a str,
        redirect_uri: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Started, UpstreamError>> + Send + 'a>> {
        Box::pin(self.start_inner(state, nonce, redirect_uri))
    }

    async fn start_inner(
        &self,
        state: &str,
        nonce: &str,
        redirect_uri: &str,
    ) -> Result<Started, UpstreamError> {
        let client = self.client(redirect_uri).await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (state, nonce) = (state.to_owned(), nonce.to_owned());
        let mut request = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                move || CsrfToken::new(state),
                move || Nonce::new(nonce),
            )
            .set_pkce_challenge(challenge);
        for scope in self.config.scopes.iter().filter(|s| *s != "openid") {
            request = request.add_scope(Scope::new(scope.clone()));
        }
        let (url, _, _) = request.url();
        Ok(Started {
            url: url.to_string(),
            verifier: verifier.secret().clone(),
        })
    }

    /// Exchange the code, verify the ID token (with our nonce), and say who it is.
    pub fn finish<'a>(
        &'a self,
        code: &'a str,
        verifier: &'a str,
        nonce: &'a str,
        redirect_uri: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Identity, UpstreamError>> + Send + 'a>> {
        Box::pin(self.finish_inner(code, verifier, nonce, redirect_uri))
    }

    async fn finish_inner(
        &self,
        code: &str,
        verifier: &str,
        nonce: &str,
        redirect_uri: &str,
    ) -> Result<Identity, UpstreamError> {
        let client = self.client(redirect_uri).await?;
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|e| UpstreamError::Exchange(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(verifier.to_owned()))
            .request_async(&self.http)
            .await
            .map_err(|e| UpstreamError::Exchange(dochiya_protocol::cause_chain(&e)))?;
        let id_token = response
            .id_token()
            .ok_or_else(|| UpstreamError::IdToken("the token response has no ID token".into()))?;
        // Asymmetric signatures only (the library's default is RS256 alone; Cognito signs
        // RS256, others ES256): never HMAC with the client secret, never `none`.
        let verifier = client.id_token_verifier().set_allowed_algs([
            CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
            CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha384,
            CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha512,
            CoreJwsSigningAlgorithm::RsaSsaPssSha256,
            CoreJwsSigningAlgorithm::RsaSsaPssSha384,
            CoreJwsSigningAlgorithm::RsaSsaPssSha512,
            CoreJwsSigningAlgorithm::EcdsaP256Sha256,
            CoreJwsSigningAlgorithm::EcdsaP384Sha384,
            CoreJwsSigningAlgorithm::EdDsa,
        ]);
        let claims = id_token
            .claims(&verifier, &Nonce::new(nonce.to_owned()))
            .map_err(|e| UpstreamError::IdToken(dochiya_protocol::cause_chain(&e)))?;
        let subject = claims.subject().as_str();
        let name = claims
            .name()
            .and_then(|n| n.get(None))
            .map(|n| n.as_str().to_owned())
            .or_else(|| claims.preferred_username().map(|u| u.as_str().to_owned()))
            .or_else(|| claims.email().map(|e| e.as_str().to_owned()))
            .unwrap_or_else(|| subject.to_owned());
        Ok(Identity {
            sub: derive_subject(claims.issuer().as_str(), subject),
            // A name we would refuse is dropped (the member shows by a handle), not a failed sign-in.
            name: crate::clients::display_name(Some(&name), subject).unwrap_or_else(|_| subject.to_owned()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_is_stable_and_depends_on_issuer_and_subject() {
        let a = derive_subject("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x", "1234");
        assert_eq!(
            a,
            derive_subject("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x", "1234")
        );
        assert_ne!(a, derive_subject("https://accounts.google.com", "1234"));
        assert_ne!(
            a,
            derive_subject("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x", "12345")
        );
        assert!(a.starts_with("u_") && a.len() == 45, "{a}");
    }
}
