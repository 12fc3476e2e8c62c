//! The one address policy for every fetch the server makes: client ID metadata
//! documents (the authorization server), the issuer's JWKS (token verification) and
//! the upstream OpenID provider (discovery, token exchange), in every mode.
//!
//! A URL is refused before any connection when its scheme is not https or its host is
//! a literal address that is not public (private, loopback, link-local, CGNAT,
//! unique-local, IPv4-mapped, documentation, multicast, reserved; the decimal, hex and
//! octal spellings of IPv4 are parsed into the same literal by the URL parser, so they
//! meet the same check) or a `localhost` name. A host name is resolved by our own
//! resolver, which refuses the name when any of its addresses is not public (so one
//! public and one private answer cannot be raced). The one exception is local: with
//! [`Allowance::LocalLoopbackHttp`], `http://127.0.0.1` and `https://127.0.0.1`
//! (literally, any port) are allowed, for the local server's own sign-in and its browser
//! tests (a client that insists on an https document URL, like the MCP Inspector)
//! (docs/decisions/033-one-address-policy-for-outbound-fetches.md).
//!
//! The resolver is injectable, and every connector call is counted, so a test can
//! prove that a refused address was never dialled.
//!
//! [`is_loopback`] is the one rule for where plain `http` is allowed in a configured or
//! registered URL (auth's settings, the authorization server's issuer and redirect URIs).
//! [`private_file`] writes the owner-only files both of those crates keep.

pub mod private_file;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolving};

/// What the policy allows beyond public https addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    /// Public https addresses only (AWS, and every fetch a web page can trigger remotely).
    PublicOnly,
    /// Also `http://127.0.0.1` and `https://127.0.0.1` (literally; any port): the local
    /// server's test path.
    LocalLoopbackHttp,
}

/// Why a URL is not fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not a URL we can use at all.
    #[error("the URL does not parse")]
    Unparsable,
    /// Not https (and not the local allowance).
    #[error("the URL is not https")]
    NotHttps,
    /// The host is, or resolves to, an address that is not on the public internet.
    #[error("the address of {0} is not public; only public https addresses are fetched")]
    NotPublic(String),
}

/// Resolves host names to addresses (the system's resolver, or a test's).
pub trait Resolve: Send + Sync + 'static {
    /// Every address of `host`.
    fn resolve(&self, host: &str) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send>>;
}

/// The operating system's resolver (through tokio).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve(&self, host: &str) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send>> {
        let host = host.to_owned();
        Box::pin(async move {
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|a| a.ip()).collect())
        })
    }
}

/// The policy every outbound client is built with.
#[derive(Clone)]
pub struct Policy {
    allowance: Allowance,
    resolver: Arc<dyn Resolve>,
    attempts: Arc<AtomicUsize>,
}

impl std::fmt::Debug for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Policy")
            .field("allowance", &self.allowance)
            .finish_non_exhaustive()
    }
}

impl Policy {
    /// The policy with the system resolver.
    pub fn new(allowance: Allowance) -> Self {
        Self::with_resolver(allowance, Arc::new(SystemResolver))
    }

    /// The policy with another resolver (tests).
    pub fn with_resolver(allowance: Allowance, resolver: Arc<dyn Resolve>) -> Self {
        Policy {
            allowance,
            resolver,
            attempts: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// What this policy allows beyond public https.
    pub fn allowance(&self) -> Allowance {
        self.allowance
    }

    /// The URL, when it may be fetched as far as its text tells (a host name is
    /// checked again, on its addresses, when it is resolved).
    pub fn check(&self, text: &str) -> Result<Url, Refusal> {
        let url = Url::parse(text).map_err(|_| Refusal::Unparsable)?;
        let host = url.host_str().unwrap_or_default().to_owned();
        if self.allowance == Allowance::LocalLoopbackHttp && is_local_allowance(text, &url) {
            return Ok(url);
        }
        if url.scheme() != "https" {
            return Err(Refusal::NotHttps);
        }
        let public = match url.host() {
            Some(url::Host::Ipv4(ip)) => is_public(IpAddr::V4(ip)),
            Some(url::Host::Ipv6(ip)) => is_public(IpAddr::V6(ip)),
            Some(url::Host::Domain(d)) => {
                let d = d.trim_end_matches('.').to_ascii_lowercase();
                !(d == "localhost" || d.ends_with(".localhost") || d.is_empty())
            }
            None => false,
        };
        if public {
            Ok(url)
        } else {
            Err(Refusal::NotPublic(host))
        }
    }

    /// A reqwest client builder with the policy in it: our resolver, no proxy, no
    /// redirects followed, every connector call counted.
    pub fn client_builder(&self) -> reqwest::ClientBuilder {
        reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .dns_resolver(Arc::new(PublicOnly {
                inner: Arc::clone(&self.resolver),
            }))
            .connector_layer(Counting(Arc::clone(&self.attempts)))
    }

    /// How many connections clients of this policy have started (tests assert 0).
    pub fn connection_attempts(&self) -> usize {
        self.attempts.load(Ordering::Relaxed)
    }
}

/// `http://127.0.0.1[:port]/…` or `https://127.0.0.1[:port]/…` spelled exactly so (not
/// `localhost`, not another loopback, not another spelling of the address).
fn is_local_allowance(text: &str, url: &Url) -> bool {
    let spelled = ["http://127.0.0.1", "https://127.0.0.1"].iter().any(|prefix| {
        text.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', '/', '?']))
    });
    spelled
        && matches!(url.scheme(), "http" | "https")
        && url.host() == Some(url::Host::Ipv4(std::net::Ipv4Addr::LOCALHOST))
}

/// Whether a reqwest error comes from the policy refusing a resolved address.
pub fn is_refused(e: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if err.is::<ResolvedNotPublic>() {
            return true;
        }
        source = err.source();
    }
    false
}

/// Whether the URL's host is loopback (`localhost`, 127/8, `::1`): where plain `http`
/// is allowed (the issuer, the resource and JWKS URLs, loopback redirect URIs).
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether an address is on the public internet (not private, loopback, link-local,
/// shared (CGNAT), documentation, benchmarking, multicast, unspecified or reserved;
/// IPv4-mapped, IPv4-compatible and NAT64 forms judged by the IPv4 inside).
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
            let s = v6.segments();
            let first = s[0];
            // ::a.b.c.d (deprecated IPv4-compatible) reaches the IPv4 inside on some stacks.
            let compatible = s[..6].iter().all(|&x| x == 0);
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || compatible
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || (first & 0xffc0) == 0xfec0 // site-local (deprecated)
                || first == 0x2001 && s[1] == 0x0db8 // documentation
                || first == 0x0064 && s[1] == 0xff9b // NAT64 can reach private v4
                || first == 0x2002) // 6to4 embeds an IPv4 address
        }
    }
}

/// The resolver reqwest uses: the policy's resolver, refusing any non-public answer.
struct PublicOnly {
    inner: Arc<dyn Resolve>,
}

impl reqwest::dns::Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        let lookup = self.inner.resolve(&host);
        Box::pin(async move {
            let addrs = lookup.await?;
            if addrs.is_empty() || addrs.iter().any(|ip| !is_public(*ip)) {
                return Err(Box::new(ResolvedNotPublic) as Box<dyn std::error::Error + Send + Sync>);
            }
            let addrs: Vec<SocketAddr> = addrs.into_iter().map(|ip| SocketAddr::new(ip, 0)).collect();
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

#[derive(Debug, thiserror::Error)]
#[error("the host resolved to an address that is not public")]
struct ResolvedNotPublic;

/// A connector layer that counts connector calls.
#[derive(Clone)]
struct Counting(Arc<AtomicUsize>);

impl<S> tower_layer::Layer<S> for Counting {
    type Service = CountingService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        CountingService {
            inner,
            count: Arc::clone(&self.0),
        }
    }
}

#[derive(Clone)]
struct CountingService<S> {
    inner: S,
    count: Arc<AtomicUsize>,
}

impl<S, R> tower_service::Service<R> for CountingService<S>
where
    S: tower_service::Service<R>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: R) -> Self::Future {
        self.count.fetch_add(1, Ordering::Relaxed);
        self.inner.call(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_urls_are_localhost_127_slash_8_and_ip6_loopback() {
        let loopback = |text: &str| is_loopback(&Url::parse(text).unwrap());
        // The cases of the two rules this one replaced (auth's and the authorization server's).
        for text in [
            "http://127.0.0.1:9999/jwks.json",
            "http://localhost/jwks",
            "http://LOCALHOST:8080/",
            "http://[::1]:1/j",
            "http://[0:0::1]/",
            "http://127.0.0.2/",
            "http://2130706433/",
            "http://127.0.0.1:6274/oauth/callback",
            "https://localhost/cb",
        ] {
            assert!(loopback(text), "{text}");
        }
        for text in [
            "http://as.example.com/jwks.json",
            "http://evil.example/cb",
            "http://localhost.evil.example/",
            "http://127.0.0.1.nip.io/",
            "http://[::2]/",
            "http://10.0.0.1/",
            "file:///tmp/x",
        ] {
            assert!(!loopback(text), "{text}");
        }
    }

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
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "fec0::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::10.0.0.1",
            "64:ff9b::a00:1",
            "2002:a00:1::",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.215.14", "2606:4700::1111", "1.1.1.1"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn literal_private_hosts_in_every_spelling_are_refused_by_their_text() {
        let policy = Policy::new(Allowance::LocalLoopbackHttp);
        for (url, host) in [
            ("https://169.254.169.254/latest/meta-data/", "169.254.169.254"),
            ("https://10.0.0.1/client.json", "10.0.0.1"),
            ("https://[fd00::1]/c", "[fd00::1]"),
            ("https://[::ffff:10.0.0.1]/c", "[::ffff:a00:1]"),
            // Decimal, hex and octal IPv4 are parsed into the literal they mean.
            ("https://2852039166/c", "169.254.169.254"),
            ("https://0xa9fea9fe/c", "169.254.169.254"),
            ("https://0251.0376.0251.0376/c", "169.254.169.254"),
            ("https://0x7f.1/c", "127.0.0.1"),
            ("https://100.64.1.1/c", "100.64.1.1"),
            ("https://127.0.0.2:8443/c", "127.0.0.2"),
            ("https://localhost/c", "localhost"),
            ("https://app.localhost./c", "app.localhost."),
        ] {
            assert_eq!(
                policy.check(url),
                Err(Refusal::NotPublic(host.to_owned())),
                "{url}"
            );
        }
        assert_eq!(
            Refusal::NotPublic("10.0.0.1".into()).to_string(),
            "the address of 10.0.0.1 is not public; only public https addresses are fetched"
        );
    }

    #[test]
    fn the_local_allowance_is_127_0_0_1_spelled_so_and_nothing_else() {
        let local = Policy::new(Allowance::LocalLoopbackHttp);
        let public = Policy::new(Allowance::PublicOnly);
        assert!(local.check("http://127.0.0.1:9000/client.json").is_ok());
        assert!(local.check("http://127.0.0.1/x").is_ok());
        assert!(local.check("https://127.0.0.1:9443/client.json").is_ok());
        assert_eq!(public.check("http://127.0.0.1:9000/x"), Err(Refusal::NotHttps));
        assert_eq!(
            public.check("https://127.0.0.1:9443/x"),
            Err(Refusal::NotPublic("127.0.0.1".into()))
        );
        for url in [
            "https://localhost:9443/x",
            "https://0x7f.1:9443/x",
            "https://2130706433/x",
        ] {
            assert!(local.check(url).is_err(), "{url}");
        }
        for url in [
            "http://localhost:9000/x",
            "http://127.0.0.2:9000/x",
            "http://2130706433:9000/x",
            "http://[::1]:9000/x",
            "http://127.0.0.1.nip.io/x",
            "http://10.0.0.1/x",
        ] {
            assert_eq!(local.check(url), Err(Refusal::NotHttps), "{url}");
        }
        assert!(public.check("https://client.example.com/doc").is_ok());
        assert_eq!(public.check("not a url"), Err(Refusal::Unparsable));
    }

    /// Resolves every name to the given addresses and records the names asked.
    struct Fixed(Vec<IpAddr>, Arc<std::sync::Mutex<Vec<String>>>);

    impl Resolve for Fixed {
        fn resolve(&self, host: &str) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send>> {
            self.1.lock().unwrap().push(host.to_owned());
            let addrs = self.0.clone();
            Box::pin(async move { Ok(addrs) })
        }
    }

    #[tokio::test]
    async fn a_name_with_any_private_address_is_refused_before_connecting() {
        // A listener on loopback: had the client dialled the resolved address, it would see it.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        for addrs in [
            vec!["127.0.0.1".parse().unwrap()],
            vec!["93.184.215.14".parse().unwrap(), "10.0.0.1".parse().unwrap()],
            vec!["::ffff:192.168.0.1".parse().unwrap()],
        ] {
            let policy = Policy::with_resolver(Allowance::PublicOnly, Arc::new(Fixed(addrs, asked.clone())));
            let client = policy.client_builder().build().unwrap();
            let url = policy
                .check(&format!("https://inward.example:{port}/doc"))
                .unwrap();
            let err = client.get(url).send().await.unwrap_err();
            assert!(is_refused(&err), "{err:?}");
        }
        assert_eq!(asked.lock().unwrap().len(), 3);
        let accepted = tokio::time::timeout(std::time::Duration::from_millis(50), listener.accept()).await;
        assert!(accepted.is_err(), "a connection reached the listener");
    }
}
