//! Loopback hosts: the one rule the issuer and the redirect URIs share
//! (plain `http` is allowed only to the caller's own machine).

use url::Url;

/// Whether the URL's host is loopback (`localhost`, 127/8, ::1).
pub fn is_loopback_host(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}
