//! The authorization server's typed settings, parsed from a lookup function like every
//! other crate's (`from_lookup`); only the app reads the process environment.

use std::time::Duration;

use reqwest::Url;

/// `DOCHIYA_OIDC_ISSUER`: the upstream OpenID provider (its issuer identifier).
pub const ENV_OIDC_ISSUER: &str = "DOCHIYA_OIDC_ISSUER";
/// `DOCHIYA_OIDC_CLIENT_ID`: our client at the upstream provider.
pub const ENV_OIDC_CLIENT_ID: &str = "DOCHIYA_OIDC_CLIENT_ID";
/// `DOCHIYA_OIDC_CLIENT_SECRET`: its secret, when the provider gave one (else a public client).
pub const ENV_OIDC_CLIENT_SECRET: &str = "DOCHIYA_OIDC_CLIENT_SECRET";
/// `DOCHIYA_OIDC_SCOPES`: scopes asked of the upstream provider (default `openid email profile`).
pub const ENV_OIDC_SCOPES: &str = "DOCHIYA_OIDC_SCOPES";
/// `DOCHIYA_SIGNING_KEY_ID`: the KMS key (id, ARN or alias) that signs access tokens.
pub const ENV_SIGNING_KEY_ID: &str = "DOCHIYA_SIGNING_KEY_ID";
/// `DOCHIYA_DCR_PER_HOUR`: dynamic registrations accepted per hour, across the deployment.
pub const ENV_DCR_PER_HOUR: &str = "DOCHIYA_DCR_PER_HOUR";

/// Where the server runs, as far as the authorization server cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deployment {
    /// The local server on 127.0.0.1: loopback client documents and local sign-in allowed.
    Local,
    /// Lambda behind API Gateway: client documents only from public addresses, upstream sign-in.
    Aws,
}

impl Deployment {
    /// What outbound fetches may reach beyond public https: locally `http://127.0.0.1`.
    pub fn outbound_allowance(self) -> dochiya_outbound::Allowance {
        match self {
            Deployment::Local => dochiya_outbound::Allowance::LocalLoopbackHttp,
            Deployment::Aws => dochiya_outbound::Allowance::PublicOnly,
        }
    }
}

/// How a person signs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignIn {
    /// A loopback-only page where the person types a name (local mode).
    Local,
    /// Delegated to an upstream OpenID provider.
    Upstream(UpstreamConfig),
}

/// The upstream OpenID provider.
#[derive(Clone, PartialEq, Eq)]
pub struct UpstreamConfig {
    /// Its issuer identifier (discovery at `<issuer>/.well-known/openid-configuration`).
    pub issuer: String,
    /// Our client id there.
    pub client_id: String,
    /// Our client secret there, if it is a confidential client.
    pub client_secret: Option<String>,
    /// Scopes to ask for (always includes `openid`).
    pub scopes: Vec<String>,
    /// Allow plain http for a loopback issuer (local tests with a stand-in provider).
    pub allow_loopback_http: bool,
}

impl std::fmt::Debug for UpstreamConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpstreamConfig")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("scopes", &self.scopes)
            .finish()
    }
}

/// How long each thing lives (docs/decisions/020).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    /// Authorization code.
    pub code: i64,
    /// Access token.
    pub access: i64,
    /// Refresh token family, sliding: every use moves it on.
    pub refresh: i64,
    /// A pending authorization request (sign-in and consent pages).
    pub request: i64,
    /// A remembered consent.
    pub consent: i64,
}

impl Default for Lifetimes {
    fn default() -> Self {
        Lifetimes {
            code: 60,
            access: 3600,
            refresh: 30 * 24 * 3600,
            request: 600,
            consent: 90 * 24 * 3600,
        }
    }
}

/// Limits on fetching a Client ID Metadata Document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CimdLimits {
    /// The largest document read.
    pub max_bytes: usize,
    /// The whole fetch (connect, headers, body).
    pub timeout: Duration,
    /// Documents kept in memory.
    pub cache_entries: usize,
    /// How long a fetched document is trusted.
    pub cache_ttl: Duration,
}

impl Default for CimdLimits {
    fn default() -> Self {
        CimdLimits {
            max_bytes: 5 * 1024,
            timeout: Duration::from_secs(3),
            cache_entries: 256,
            cache_ttl: Duration::from_secs(300),
        }
    }
}

/// Every setting of the authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthServerConfig {
    /// The issuer: the origin of the MCP URL (`scheme://host[:port]`, no path).
    pub issuer: String,
    /// The MCP URL: the only resource, and the access tokens' audience.
    pub resource_url: String,
    /// Local or AWS.
    pub deployment: Deployment,
    /// How people sign in.
    pub sign_in: SignIn,
    /// Lifetimes.
    pub lifetimes: Lifetimes,
    /// CIMD fetch limits.
    pub cimd: CimdLimits,
    /// Dynamic registrations accepted per clock hour.
    pub dcr_per_hour: i64,
    /// The KMS signing key; `None`: a key file in the data dir (local only).
    pub kms_key_id: Option<String>,
}

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The MCP URL has no usable origin.
    #[error("the MCP URL `{0}` has no usable origin")]
    ResourceUrl(String),
    /// In AWS the signing key must be in KMS (an instance's disk is neither shared nor kept).
    #[error(
        "DOCHIYA_AUTH=builtin in AWS needs DOCHIYA_SIGNING_KEY_ID (the KMS key that signs access tokens)"
    )]
    SigningKeyRequired,
    /// Outside local mode an upstream provider is required.
    #[error(
        "DOCHIYA_AUTH=builtin in AWS needs an upstream OpenID provider: set DOCHIYA_OIDC_ISSUER and DOCHIYA_OIDC_CLIENT_ID"
    )]
    UpstreamRequired,
    /// Half of the upstream settings.
    #[error("{0} is set but {1} is not: both name the upstream OpenID provider")]
    UpstreamIncomplete(&'static str, &'static str),
    /// A bad value.
    #[error("{var}: {message}")]
    Invalid {
        /// The variable.
        var: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl AuthServerConfig {
    /// Defaults for the MCP URL `resource_url`, signing in locally.
    pub fn local(resource_url: &str) -> Result<Self, ConfigError> {
        Ok(AuthServerConfig {
            issuer: origin_of(resource_url)?,
            resource_url: resource_url.to_owned(),
            deployment: Deployment::Local,
            sign_in: SignIn::Local,
            lifetimes: Lifetimes::default(),
            cimd: CimdLimits::default(),
            dcr_per_hour: 60,
            kms_key_id: None,
        })
    }

    /// Parse the settings. `resource_url` is the checked MCP URL; `deployment` says where we run.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        resource_url: &str,
        deployment: Deployment,
    ) -> Result<Self, ConfigError> {
        let get = |k: &str| lookup(k).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let mut config = Self::local(resource_url)?;
        config.deployment = deployment;
        config.sign_in = match (get(ENV_OIDC_ISSUER), get(ENV_OIDC_CLIENT_ID)) {
            (Some(issuer), Some(client_id)) => {
                let allow_loopback_http = deployment == Deployment::Local;
                check_issuer(&issuer, allow_loopback_http)?;
                let mut scopes: Vec<String> = get(ENV_OIDC_SCOPES)
                    .unwrap_or_else(|| "openid email profile".to_owned())
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
                if !scopes.iter().any(|s| s == "openid") {
                    scopes.insert(0, "openid".to_owned());
                }
                SignIn::Upstream(UpstreamConfig {
                    issuer,
                    client_id,
                    client_secret: get(ENV_OIDC_CLIENT_SECRET),
                    scopes,
                    allow_loopback_http,
                })
            }
            (Some(_), None) => {
                return Err(ConfigError::UpstreamIncomplete(
                    ENV_OIDC_ISSUER,
                    ENV_OIDC_CLIENT_ID,
                ));
            }
            (None, Some(_)) => {
                return Err(ConfigError::UpstreamIncomplete(
                    ENV_OIDC_CLIENT_ID,
                    ENV_OIDC_ISSUER,
                ));
            }
            (None, None) if deployment == Deployment::Aws => return Err(ConfigError::UpstreamRequired),
            (None, None) => SignIn::Local,
        };
        config.kms_key_id = get(ENV_SIGNING_KEY_ID);
        if deployment == Deployment::Aws && config.kms_key_id.is_none() {
            return Err(ConfigError::SigningKeyRequired);
        }
        if let Some(raw) = get(ENV_DCR_PER_HOUR) {
            config.dcr_per_hour = raw
                .parse::<i64>()
                .ok()
                .filter(|n| (0..=100_000).contains(n))
                .ok_or_else(|| ConfigError::Invalid {
                    var: ENV_DCR_PER_HOUR,
                    message: format!("{raw:?} is not a count from 0 to 100000"),
                })?;
        }
        Ok(config)
    }
}

/// `scheme://host[:port]` of a URL (the default port omitted, as browsers write origins).
pub fn origin_of(url: &str) -> Result<String, ConfigError> {
    let parsed = Url::parse(url).map_err(|_| ConfigError::ResourceUrl(url.to_owned()))?;
    let origin = parsed.origin();
    if !origin.is_tuple() {
        return Err(ConfigError::ResourceUrl(url.to_owned()));
    }
    Ok(origin.ascii_serialization())
}

fn check_issuer(issuer: &str, allow_loopback_http: bool) -> Result<(), ConfigError> {
    let invalid = |message: &str| ConfigError::Invalid {
        var: ENV_OIDC_ISSUER,
        message: format!("`{issuer}` {message}"),
    };
    let url = Url::parse(issuer).map_err(|_| invalid("is not a URL"))?;
    match url.scheme() {
        "https" => Ok(()),
        "http" if allow_loopback_http && dochiya_outbound::is_loopback(&url) => Ok(()),
        _ => Err(invalid("must use https")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&str, &str)], deployment: Deployment) -> Result<AuthServerConfig, ConfigError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        AuthServerConfig::from_lookup(
            |k| env.get(k).cloned(),
            "https://ledger.example.com/mcp",
            deployment,
        )
    }

    #[test]
    fn the_issuer_is_the_origin_of_the_mcp_url() {
        assert_eq!(
            origin_of("https://ledger.example.com/mcp").unwrap(),
            "https://ledger.example.com"
        );
        assert_eq!(
            origin_of("http://127.0.0.1:8080/mcp").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            origin_of("https://h.example:443/mcp").unwrap(),
            "https://h.example"
        );
        assert_eq!(
            origin_of("mcp").unwrap_err().to_string(),
            "the MCP URL `mcp` has no usable origin"
        );
    }

    #[test]
    fn locally_people_sign_in_on_our_page_and_in_aws_upstream_is_required() {
        let local = parse(&[], Deployment::Local).unwrap();
        assert_eq!(local.sign_in, SignIn::Local);
        assert_eq!(local.issuer, "https://ledger.example.com");
        assert_eq!(local.lifetimes, Lifetimes::default());
        assert_eq!(
            parse(&[], Deployment::Aws).unwrap_err().to_string(),
            "DOCHIYA_AUTH=builtin in AWS needs an upstream OpenID provider: set DOCHIYA_OIDC_ISSUER and DOCHIYA_OIDC_CLIENT_ID"
        );
    }

    #[test]
    fn upstream_settings_are_read_whole_or_refused() {
        let c = parse(
            &[
                (
                    "DOCHIYA_OIDC_ISSUER",
                    "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_abc",
                ),
                ("DOCHIYA_OIDC_CLIENT_ID", "client123"),
                ("DOCHIYA_OIDC_SCOPES", "email profile"),
                ("DOCHIYA_SIGNING_KEY_ID", "alias/dochiya"),
            ],
            Deployment::Aws,
        )
        .unwrap();
        let SignIn::Upstream(up) = c.sign_in else {
            panic!("upstream expected")
        };
        assert_eq!(up.scopes, ["openid", "email", "profile"]);
        assert_eq!(up.client_secret, None);
        assert!(!up.allow_loopback_http);
        assert_eq!(
            parse(&[("DOCHIYA_OIDC_ISSUER", "https://a.example")], Deployment::Aws)
                .unwrap_err()
                .to_string(),
            "DOCHIYA_OIDC_ISSUER is set but DOCHIYA_OIDC_CLIENT_ID is not: both name the upstream OpenID provider"
        );
        assert_eq!(
            parse(
                &[
                    ("DOCHIYA_OIDC_ISSUER", "http://127.0.0.1:9/"),
                    ("DOCHIYA_OIDC_CLIENT_ID", "c")
                ],
                Deployment::Aws
            )
            .unwrap_err()
            .to_string(),
            "DOCHIYA_OIDC_ISSUER: `http://127.0.0.1:9/` must use https"
        );
        assert!(
            parse(
                &[
                    ("DOCHIYA_OIDC_ISSUER", "http://127.0.0.1:9/"),
                    ("DOCHIYA_OIDC_CLIENT_ID", "c")
                ],
                Deployment::Local
            )
            .is_ok()
        );
    }

    #[test]
    fn in_aws_the_signing_key_must_be_in_kms() {
        let err = parse(
            &[
                ("DOCHIYA_OIDC_ISSUER", "https://a.example"),
                ("DOCHIYA_OIDC_CLIENT_ID", "c"),
            ],
            Deployment::Aws,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_AUTH=builtin in AWS needs DOCHIYA_SIGNING_KEY_ID (the KMS key that signs access tokens)"
        );
    }

    #[test]
    fn the_registration_rate_is_bounded() {
        assert_eq!(
            parse(&[("DOCHIYA_DCR_PER_HOUR", "5")], Deployment::Local)
                .unwrap()
                .dcr_per_hour,
            5
        );
        assert_eq!(
            parse(&[("DOCHIYA_DCR_PER_HOUR", "-1")], Deployment::Local)
                .unwrap_err()
                .to_string(),
            "DOCHIYA_DCR_PER_HOUR: \"-1\" is not a count from 0 to 100000"
        );
    }

    #[test]
    fn the_client_secret_never_shows_in_debug_output() {
        let up = UpstreamConfig {
            issuer: "https://i".into(),
            client_id: "c".into(),
            client_secret: Some("hunter2".into()),
            scopes: vec![],
            allow_loopback_http: false,
        };
        assert!(!format!("{up:?}").contains("hunter2"));
    }
}
