//! Fetching a Client ID Metadata Document: the `client_id` is an https URL whose JSON
//! names the client and its redirect URIs. The fetch is an SSRF surface, so it is bounded
//! on every side: https only (plain http to loopback only in local mode), no redirects
//! followed, no proxy, in AWS no address in a private, loopback, link-local or otherwise
//! non-public range (checked on the literal host and on every resolved address, by our
//! own resolver, so DNS cannot point us inward), a short timeout, a few KB at most.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use serde::Deserialize;

use crate::config::{CimdLimits, Deployment};

/// Why a client document was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CimdError {
    /// The client_id is not an acceptable document URL.
    #[error("client_id is not an https URL with a path: {0}")]
    BadUrl(&'static str),
    /// The host is, or resolves to, an address we must not reach.
    #[error("the client document's host is not a public address")]
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
    /// Not the JSON we need.
    #[error("the client document is not valid: {0}")]
    Invalid(String),
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

/// Whether the URL's host is loopback (`localhost`, 127/8, ::1).
pub fn is_loopback_host(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether an address is on the public internet (not private, loopback, link-local,
/// shared, documentation, multicast, unspecified or reserved; IPv4-mapped forms too).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_unspecified()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT)
                || (a == 192 && b == 0)
                || (a == 198 && (18..20).contains(&b))
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || first == 0x2001 && v6.segments()[1] == 0x0db8 // documentation
                || first == 0x0064 && v6.segments()[1] == 0xff9b) // NAT64 can reach private v4
        }
    }
}

/// A resolver that refuses a name with any non-public address (so a name with one public
/// and one private address cannot be raced).
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if addrs.is_empty() || addrs.iter().any(|a| !is_public(a.ip())) {
                return Err(Box::new(NonPublic) as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[derive(Debug, thiserror::Error)]
#[error("resolved to a non-public address")]
struct NonPublic;

/// Fetches and caches client documents.
pub struct Fetcher {
    http: reqwest::Client,
    deployment: Deployment,
    limits: CimdLimits,
    cache: Mutex<HashMap<String, (Instant, ClientDocument)>>,
}

impl Fetcher {
    /// A fetcher for `deployment` with `limits`.
    pub fn new(deployment: Deployment, limits: CimdLimits) -> Result<Self, String> {
        let mut builder = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            // One request per document fetch: keeping idle connections only risks
            // reusing one the client's server has closed.
            .pool_max_idle_per_host(0)
            .no_proxy()
            .timeout(limits.timeout)
            .connect_timeout(limits.timeout)
            .user_agent("dochiya-authorization-server");
        if deployment == Deployment::Aws {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        Ok(Fetcher {
            http: builder.build().map_err(|e| e.to_string())?,
            deployment,
            limits,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Whether a client_id is meant to be a document URL.
    pub fn is_document_url(client_id: &str) -> bool {
        client_id.starts_with("https://") || client_id.starts_with("http://")
    }

    /// The document at `client_id`, from the cache or fetched.
    pub async fn get(&self, client_id: &str) -> Result<ClientDocument, CimdError> {
        let url = self.check_url(client_id)?;
        if let Some(doc) = self.cached(client_id) {
            return Ok(doc);
        }
        let doc = tokio::time::timeout(self.limits.timeout, self.fetch(url, client_id))
            .await
            .map_err(|_| CimdError::Unreachable)??;
        self.remember(client_id, &doc);
        Ok(doc)
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
        let local = self.deployment == Deployment::Local;
        match url.scheme() {
            "https" => {}
            "http" if local && is_loopback_host(&url) => {}
            _ => return Err(CimdError::BadUrl("it is not https")),
        }
        if !local {
            let literal = match url.host() {
                Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
                Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
                _ => None,
            };
            if literal.is_some_and(|ip| !is_public(ip)) || is_loopback_host(&url) {
                return Err(CimdError::NonPublicAddress);
            }
        }
        Ok(url)
    }

    async fn fetch(&self, url: Url, client_id: &str) -> Result<ClientDocument, CimdError> {
        let mut response = self
            .http
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| {
                if is_non_public(&e) {
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
            .map_err(|e| CimdError::Invalid(format!("not the expected JSON ({e})")))?;
        if raw.client_id != client_id {
            return Err(CimdError::Invalid("its client_id is not its own URL".into()));
        }
        if raw
            .token_endpoint_auth_method
            .as_deref()
            .is_some_and(|m| m != "none")
        {
            return Err(CimdError::Invalid(
                "only public clients (token_endpoint_auth_method none) are supported".into(),
            ));
        }
        if raw.redirect_uris.is_empty() || raw.redirect_uris.len() > crate::clients::MAX_REDIRECT_URIS {
            return Err(CimdError::Invalid("redirect_uris must list 1 to 10 URIs".into()));
        }
        for uri in &raw.redirect_uris {
            crate::clients::check_redirect_uri(uri).map_err(|e| CimdError::Invalid(e.to_owned()))?;
        }
        let name = crate::clients::display_name(raw.client_name.as_deref(), url.host_str().unwrap_or("?"));
        Ok(ClientDocument {
            name,
            redirect_uris: raw.redirect_uris,
        })
    }

    fn cached(&self, client_id: &str) -> Option<ClientDocument> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .get(client_id)
            .filter(|(at, _)| at.elapsed() < self.limits.cache_ttl)
            .map(|(_, doc)| doc.clone())
    }

    fn remember(&self, client_id: &str, doc: &ClientDocument) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= self.limits.cache_entries && !cache.contains_key(client_id) {
            // Full: drop the expired ones, else the oldest.
            let ttl = self.limits.cache_ttl;
            cache.retain(|_, (at, _)| at.elapsed() < ttl);
            if cache.len() >= self.limits.cache_entries
                && let Some(oldest) = cache
                    .iter()
                    .min_by_key(|(_, (at, _))| *at)
                    .map(|(k, _)| k.clone())
            {
                cache.remove(&oldest);
            }
        }
        cache.insert(client_id.to_owned(), (Instant::now(), doc.clone()));
    }

    /// Documents in the cache (tests).
    pub fn cached_count(&self) -> usize {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

fn is_non_public(e: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if err.is::<NonPublic>() {
            return true;
        }
        source = err.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_not_public() {
        for ip in [
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "127.0.0.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a00:1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.215.14", "2606:4700::1111", "1.1.1.1"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }
}
