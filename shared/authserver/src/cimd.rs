//! Fetching a Client ID Metadata Document: the `client_id` is an https URL whose JSON
//! names the client and its redirect URIs. The fetch is an SSRF surface, so it is bounded
//! on every side: the one outbound address policy (`dochiya-outbound`: public https
//! only, in every mode, literal hosts and every resolved address checked before any
//! connection; locally also `http://127.0.0.1`), no redirects followed, no proxy, a
//! short timeout, a few KB at most. A failure is remembered for [`FAILURE_TTL`], and
//! what the remote answered is never repeated to the browser.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dochiya_outbound::{Policy, Refusal};
use reqwest::Url;
use serde::Deserialize;

use crate::config::CimdLimits;

/// Why a client document was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CimdError {
    /// The client_id is not an acceptable document URL.
    #[error("client_id is not an https URL with a path: {0}")]
    BadUrl(&'static str),
    /// The host is, or resolves to, an address we must not reach.
    #[error("the client document's address is not public; a client_id must be a public https URL")]
    NonPublicAddress,
    /// The server answered with a redirect.
    #[error("the client document URL redirects; redirects are not followed")]
    Redirected,
    /// Not 200.
    #[error("fetching the client document answered HTTP {0}")]
    Status(u16),
    /// Larger than the limit.
    #[error("the client document is larger than {0} bytes")]
    TooLarge(usize),
    /// The fetch took too long or failed on the network.
    #[error("the client document could not be fetched in time")]
    Unreachable,
    /// Not the JSON we need (our own words: the remote's text is never repeated).
    #[error("the client document is not valid: {0}")]
    Invalid(&'static str),
}

/// What we keep of a client document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientDocument {
    /// `client_name`, else the URL's host.
    pub name: String,
    /// `redirect_uris`.
    pub redirect_uris: Vec<String>,
}

#[derive(Deserialize)]
struct RawDocument {
    client_id: String,
    #[serde(default)]
    client_name: Option<String>,
    redirect_uris: Vec<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// How long a failed fetch is remembered: a page cannot make us probe a host in a loop.
pub const FAILURE_TTL: Duration = Duration::from_secs(60);

/// Fetches and caches client documents.
pub struct Fetcher {
    http: reqwest::Client,
    policy: Policy,
    limits: CimdLimits,
    cache: Mutex<HashMap<String, (Instant, Outcome)>>,
}

/// A fetch's outcome, as cached.
type Outcome = Result<ClientDocument, CimdError>;

impl Fetcher {
    /// A fetcher under `policy` with `limits`.
    pub fn new(policy: Policy, limits: CimdLimits) -> Result<Self, String> {
        let http = policy
            .client_builder()
            // One request per document fetch: keeping idle connections only risks
            // reusing one the client's server has closed.
            .pool_max_idle_per_host(0)
            .timeout(limits.timeout)
            .connect_timeout(limits.timeout)
            .user_agent("dochiya-authorization-server")
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Fetcher {
            http,
            policy,
            limits,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The address policy (tests read its connection count).
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Whether a client_id is meant to be a document URL.
    pub fn is_document_url(client_id: &str) -> bool {
        client_id.starts_with("https://") || client_id.starts_with("http://")
    }

    /// The document at `client_id`, from the cache (a failure too, for a while) or fetched.
    pub async fn get(&self, client_id: &str) -> Result<ClientDocument, CimdError> {
        let url = self.check_url(client_id)?;
        if let Some(outcome) = self.cached(client_id) {
            return outcome;
        }
        let outcome = match tokio::time::timeout(self.limits.timeout, self.fetch(url, client_id)).await {
            Ok(outcome) => outcome,
            Err(_) => Err(CimdError::Unreachable),
        };
        self.remember(client_id, &outcome);
        outcome
    }

    fn check_url(&self, client_id: &str) -> Result<Url, CimdError> {
        if client_id.len() > 512 {
            return Err(CimdError::BadUrl("longer than 512 characters"));
        }
        let url = Url::parse(client_id).map_err(|_| CimdError::BadUrl("does not parse"))?;
        if url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
            return Err(CimdError::BadUrl("it has a fragment or credentials"));
        }
        if url.path().len() <= 1 {
            return Err(CimdError::BadUrl("it has no path"));
        }
        match self.policy.check(client_id) {
            Ok(url) => Ok(url),
            Err(Refusal::NotPublic(_)) => Err(CimdError::NonPublicAddress),
            Err(Refusal::NotHttps) => Err(CimdError::BadUrl("it is not https")),
            Err(Refusal::Unparsable) => Err(CimdError::BadUrl("does not parse")),
        }
    }

    async fn fetch(&self, url: Url, client_id: &str) -> Result<ClientDocument, CimdError> {
        let mut response = self
            .http
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| {
                if dochiya_outbound::is_refused(&e) {
                    CimdError::NonPublicAddress
                } else {
                    CimdError::Unreachable
                }
            })?;
        let status = response.status();
        if status.is_redirection() {
            return Err(CimdError::Redirected);
        }
        if status != reqwest::StatusCode::OK {
            return Err(CimdError::Status(status.as_u16()));
        }
        let max = self.limits.max_bytes;
        if response.content_length().is_some_and(|n| n > max as u64) {
            return Err(CimdError::TooLarge(max));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|_| CimdError::Unreachable)? {
            if body.len() + chunk.len() > max {
                return Err(CimdError::TooLarge(max));
            }
            body.extend_from_slice(&chunk);
        }
        let raw: RawDocument = serde_json::from_slice(&body)
            .map_err(|_| CimdError::Invalid("it is not the JSON of a client metadata document"))?;
        if raw.client_id != client_id {
            return Err(CimdError::Invalid("its client_id is not its own URL"));
        }
        if raw
            .token_endpoint_auth_method
            .as_deref()
            .is_some_and(|m| m != "none")
        {
            return Err(CimdError::Invalid(
                "only public clients (token_endpoint_auth_method none) are supported",
            ));
        }
        if raw.redirect_uris.is_empty() || raw.redirect_uris.len() > crate::client_meta::MAX_REDIRECT_URIS {
            return Err(CimdError::Invalid("redirect_uris must list 1 to 10 URIs"));
        }
        for uri in &raw.redirect_uris {
            crate::client_meta::check_redirect_uri(uri).map_err(CimdError::Invalid)?;
        }
        let name =
            crate::client_meta::display_name(raw.client_name.as_deref(), url.host_str().unwrap_or("?"))
                .map_err(CimdError::Invalid)?;
        Ok(ClientDocument {
            name,
            redirect_uris: raw.redirect_uris,
        })
    }

    fn cached(&self, client_id: &str) -> Option<Outcome> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(client_id)
            .filter(|(at, outcome)| at.elapsed() < self.ttl(outcome))
            .map(|(_, outcome)| outcome.clone())
    }

    fn ttl(&self, outcome: &Outcome) -> Duration {
        match outcome {
            Ok(_) => self.limits.cache_ttl,
            Err(_) => FAILURE_TTL.min(self.limits.cache_ttl),
        }
    }

    fn remember(&self, client_id: &str, outcome: &Outcome) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= self.limits.cache_entries && !cache.contains_key(client_id) {
            // Full: drop the expired ones, else the oldest.
            cache.retain(|_, (at, outcome)| at.elapsed() < self.ttl(outcome));
            if cache.len() >= self.limits.cache_entries
                && let Some(oldest) = cache
                    .iter()
                    .min_by_key(|(_, (at, _))| *at)
                    .map(|(k, _)| k.clone())
            {
                cache.remove(&oldest);
            }
        }
        cache.insert(client_id.to_owned(), (Instant::now(), outcome.clone()));
    }

    /// Documents in the cache (tests).
    pub fn cached_count(&self) -> usize {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}
