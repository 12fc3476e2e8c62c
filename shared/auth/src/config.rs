//! Typed authorization configuration, parsed from a lookup function (only the app reads
//! `std::env`), and the startup errors that stop a misconfigured server before it serves.

use std::time::Duration;

use url::Url;

/// `DOCHIYA_AUTH`: which kind of tokens the server accepts.
pub const ENV_AUTH: &str = "DOCHIYA_AUTH";
/// `DOCHIYA_RESOURCE_URL`: the public MCP URL, which is also the token audience.
pub const ENV_RESOURCE_URL: &str = "DOCHIYA_RESOURCE_URL";
/// `DOCHIYA_ISSUER`: the pinned `iss` of accepted tokens (jwt mode).
pub const ENV_ISSUER: &str = "DOCHIYA_ISSUER";
/// `DOCHIYA_JWKS_URL`: where the issuer publishes its signing keys (jwt mode).
pub const ENV_JWKS_URL: &str = "DOCHIYA_JWKS_URL";
/// `DOCHIYA_AUTHORIZATION_SERVERS`: comma list for the metadata document (default: the issuer).
pub const ENV_AUTHORIZATION_SERVERS: &str = "DOCHIYA_AUTHORIZATION_SERVERS";
/// `DOCHIYA_DEV_SECRET`: the dev-mode HS256 secret (else generated into the data dir).
pub const ENV_DEV_SECRET: &str = "DOCHIYA_DEV_SECRET";

/// The shortest dev secret accepted: shorter HMAC keys are guessable.
pub const MIN_DEV_SECRET_LEN: usize = 32;

/// Where the process runs, as far as authorization cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuntimeEnvironment {
    /// A plain local process (the local server, a CLI subcommand).
    Local,
    /// `cargo lambda watch`: it sets the runtime API variables but is a developer's machine.
    LambdaEmulator,
    /// A real AWS Lambda execution environment.
    Lambda,
}

impl RuntimeEnvironment {
    /// Tell a real Lambda from the `cargo lambda watch` emulator and from a local run.
    ///
    /// `AWS_EXECUTION_ENV` alone is not enough: AWS documents that it is *not* defined for
    /// OS-only runtimes (the `provided` family, which a Rust function uses). `LAMBDA_TASK_ROOT`
    /// and `AWS_LAMBDA_INITIALIZATION_TYPE` are reserved variables that Lambda sets for every
    /// runtime, custom ones included, and the emulator sets none of the three (it sets
    /// `AWS_LAMBDA_RUNTIME_API`, `AWS_LAMBDA_FUNCTION_NAME`, `_VERSION`, `_MEMORY_SIZE`).
    /// See docs/decisions for the environments compared.
    pub fn detect(lookup: &impl Fn(&str) -> Option<String>) -> Self {
        let set = |k: &str| lookup(k).is_some_and(|v| !v.trim().is_empty());
        if set("AWS_EXECUTION_ENV") || set("LAMBDA_TASK_ROOT") || set("AWS_LAMBDA_INITIALIZATION_TYPE") {
            RuntimeEnvironment::Lambda
        } else if set("AWS_LAMBDA_RUNTIME_API") {
            RuntimeEnvironment::LambdaEmulator
        } else {
            RuntimeEnvironment::Local
        }
    }

    /// Whether this is a real Lambda (where dev mode is refused).
    pub fn is_real_lambda(self) -> bool {
        self == RuntimeEnvironment::Lambda
    }
}

/// A secret that never shows up in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct DevSecret(String);

impl DevSecret {
    /// Wrap a secret, refusing one too short to resist guessing.
    pub fn new(secret: impl Into<String>) -> Result<Self, AuthConfigError> {
        let secret = secret.into();
        if secret.len() < MIN_DEV_SECRET_LEN {
            return Err(AuthConfigError::DevSecretTooShort {
                min: MIN_DEV_SECRET_LEN,
                len: secret.len(),
            });
        }
        Ok(DevSecret(secret))
    }

    /// The HMAC key bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl std::fmt::Debug for DevSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DevSecret([redacted])")
    }
}

/// Settings for verifying real authorization-server tokens against a JWKS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtConfig {
    /// The exact `iss` every token must carry.
    pub issuer: String,
    /// The issuer's JWKS document URL (https, or http on a loopback host).
    pub jwks_url: String,
    /// Clock-skew allowance for `exp` and `nbf`.
    pub leeway: Duration,
    /// Minimum time between two JWKS refetches caused by an unknown `kid`.
    pub refetch_interval: Duration,
    /// Age after which cached keys are refetched on the next request (revoked keys go away).
    pub max_key_age: Duration,
    /// Timeout for one JWKS fetch.
    pub fetch_timeout: Duration,
    /// What the JWKS fetch may reach beyond public https (the one outbound policy):
    /// `http://127.0.0.1` outside a real Lambda.
    pub outbound: dochiya_outbound::Allowance,
}

impl JwtConfig {
    /// Default clock-skew allowance (docs/decisions: auth choices).
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);
    /// Default minimum interval between unknown-`kid` refetches.
    pub const DEFAULT_REFETCH_INTERVAL: Duration = Duration::from_secs(30);
    /// Default cache lifetime of a fetched key set.
    pub const DEFAULT_MAX_KEY_AGE: Duration = Duration::from_secs(3600);
    /// Default timeout for one JWKS fetch.
    pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(5);

    /// Settings with the default leeway, refetch interval, key age and timeout.
    pub fn new(issuer: impl Into<String>, jwks_url: impl Into<String>) -> Self {
        JwtConfig {
            issuer: issuer.into(),
            jwks_url: jwks_url.into(),
            leeway: Self::DEFAULT_LEEWAY,
            refetch_interval: Self::DEFAULT_REFETCH_INTERVAL,
            max_key_age: Self::DEFAULT_MAX_KEY_AGE,
            fetch_timeout: Self::DEFAULT_FETCH_TIMEOUT,
            outbound: dochiya_outbound::Allowance::PublicOnly,
        }
    }

    /// The same settings with the local allowance (`http://127.0.0.1`) for the JWKS fetch.
    pub fn allowing_local_http(self) -> Self {
        JwtConfig {
            outbound: dochiya_outbound::Allowance::LocalLoopbackHttp,
            ..self
        }
    }
}

/// Settings for the local development mode (HS256 with a shared secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevConfig {
    /// The secret from `DOCHIYA_DEV_SECRET`; `None` means "generate once into the data dir".
    pub secret: Option<DevSecret>,
    /// Clock-skew allowance for `exp` and `nbf`.
    pub leeway: Duration,
}

/// Settings for the built-in authorization server's tokens (ES256, key held in process).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinConfig {
    /// The issuer: the origin of the resource URL.
    pub issuer: String,
    /// Clock-skew allowance for `exp` and `nbf`.
    pub leeway: Duration,
    /// Dev tokens accepted beside (local runs only, so curl keeps working).
    pub dev: Option<DevConfig>,
}

/// Which tokens are accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthMode {
    /// Tokens of dochiya's own authorization server (the default).
    Builtin(BuiltinConfig),
    /// Tokens from a real authorization server, verified against its JWKS.
    Jwt(JwtConfig),
    /// Locally minted HS256 tokens; refused in a real Lambda.
    Dev(DevConfig),
}

/// The whole authorization configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthConfig {
    /// Which tokens are accepted.
    pub mode: AuthMode,
    /// The public MCP URL: the PRM `resource` and the audience every token must name.
    pub resource_url: String,
    /// The PRM `authorization_servers`.
    pub authorization_servers: Vec<String>,
    /// Where we run (decides the default mode and refuses dev mode in a real Lambda).
    pub runtime: RuntimeEnvironment,
}

/// A configuration that must not start.
#[derive(Debug, thiserror::Error)]
pub enum AuthConfigError {
    /// `DOCHIYA_AUTH` is none of `builtin`, `jwt`, `dev`.
    #[error("DOCHIYA_AUTH must be `builtin`, `jwt` or `dev`, got `{value}`")]
    InvalidMode {
        /// What was set.
        value: String,
    },
    /// Dev mode was asked for inside a real Lambda.
    #[error(
        "DOCHIYA_AUTH=dev is refused in a real AWS Lambda: dev tokens are signed with a shared secret; \
         set DOCHIYA_AUTH=jwt with DOCHIYA_ISSUER and DOCHIYA_JWKS_URL"
    )]
    DevModeInLambda,
    /// A variable jwt mode needs is not set.
    #[error("DOCHIYA_AUTH=jwt needs {var} (the authorization server's {what})")]
    MissingJwtSetting {
        /// The variable.
        var: &'static str,
        /// What it means.
        what: &'static str,
    },
    /// In a real Lambda the public URL cannot be guessed.
    #[error(
        "DOCHIYA_RESOURCE_URL must be set in AWS Lambda: it is the public MCP URL clients use and the token audience"
    )]
    ResourceUrlRequired,
    /// A URL setting does not parse or has parts it must not have.
    #[error("{var} is not a usable URL (`{value}`): {reason}")]
    InvalidUrl {
        /// The variable.
        var: &'static str,
        /// What was set.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// A URL that must be https is plain http to a non-loopback host.
    #[error(
        "{var} must use https (plain http is allowed only for 127.0.0.1, ::1 or localhost), got `{value}`"
    )]
    InsecureUrl {
        /// The variable.
        var: &'static str,
        /// What was set.
        value: String,
    },
    /// The dev secret is too short.
    #[error("the dev secret must be at least {min} characters long, got {len}")]
    DevSecretTooShort {
        /// Minimum length.
        min: usize,
        /// Actual length.
        len: usize,
    },
    /// The dev secret file could not be read or created.
    #[error("dev secret file {path}: {source}")]
    DevSecretFile {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The operation needs dev mode.
    #[error("dev tokens can only be minted when DOCHIYA_AUTH=dev")]
    NotDevMode,
    /// Builtin mode was asked to build without the authorization server's key.
    #[error("DOCHIYA_AUTH=builtin needs the authorization server's public key (use build_builtin)")]
    BuiltinNeedsKey,
    /// The built-in authorization server's public key is not a P-256 point.
    #[error("the authorization server's public key is unusable: {0}")]
    BuiltinKey(String),
    /// The HTTP client for JWKS fetches could not be built.
    #[error("cannot build the JWKS HTTP client: {0}")]
    HttpClient(String),
}

impl AuthConfig {
    /// Parse the configuration. `runtime` is where the process runs (detected once, by the
    /// app); `default_resource_url` is the app's local default (`http://127.0.0.1:<port>/mcp`),
    /// used when `DOCHIYA_RESOURCE_URL` is unset outside Lambda.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        runtime: RuntimeEnvironment,
        default_resource_url: &str,
    ) -> Result<Self, AuthConfigError> {
        let get = |k: &str| lookup(k).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());

        let resource_url = match get(ENV_RESOURCE_URL) {
            Some(url) => url,
            None if runtime.is_real_lambda() => return Err(AuthConfigError::ResourceUrlRequired),
            None => default_resource_url.to_owned(),
        };
        check_resource_url(&resource_url)?;

        #[derive(PartialEq)]
        enum Kind {
            Builtin,
            Jwt,
            Dev,
        }
        let kind = match get(ENV_AUTH).map(|m| m.to_ascii_lowercase()).as_deref() {
            Some("dev") => Kind::Dev,
            Some("jwt") => Kind::Jwt,
            Some("builtin") | None => Kind::Builtin,
            Some(_) => {
                return Err(AuthConfigError::InvalidMode {
                    value: get(ENV_AUTH).unwrap_or_default(),
                });
            }
        };

        let configured_servers: Option<Vec<String>> = get(ENV_AUTHORIZATION_SERVERS).map(|list| {
            list.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        });
        if let Some(servers) = &configured_servers {
            for server in servers {
                check_url(ENV_AUTHORIZATION_SERVERS, server)?;
            }
        }

        let dev_config = |secret: Option<DevSecret>| DevConfig {
            secret,
            leeway: JwtConfig::DEFAULT_LEEWAY,
        };
        let (mode, authorization_servers) = if kind == Kind::Builtin {
            let issuer = origin_of(&resource_url)?;
            // Dev tokens stay accepted beside ours on a developer's machine (curl, scripts);
            // never in a real Lambda.
            let dev = if runtime.is_real_lambda() {
                None
            } else {
                Some(dev_config(get(ENV_DEV_SECRET).map(DevSecret::new).transpose()?))
            };
            let servers = configured_servers.unwrap_or_else(|| vec![issuer.clone()]);
            (
                AuthMode::Builtin(BuiltinConfig {
                    issuer,
                    leeway: JwtConfig::DEFAULT_LEEWAY,
                    dev,
                }),
                servers,
            )
        } else if kind == Kind::Dev {
            if runtime.is_real_lambda() {
                return Err(AuthConfigError::DevModeInLambda);
            }
            let secret = get(ENV_DEV_SECRET).map(DevSecret::new).transpose()?;
            // Dev mode has no authorization server; an empty list is honest (clients use the
            // printed token directly) unless one is configured.
            (
                AuthMode::Dev(dev_config(secret)),
                configured_servers.unwrap_or_default(),
            )
        } else {
            let issuer = get(ENV_ISSUER).ok_or(AuthConfigError::MissingJwtSetting {
                var: ENV_ISSUER,
                what: "issuer identifier, pinned as the tokens' `iss`",
            })?;
            check_url(ENV_ISSUER, &issuer)?;
            let jwks_url = get(ENV_JWKS_URL).ok_or(AuthConfigError::MissingJwtSetting {
                var: ENV_JWKS_URL,
                what: "JWKS URL with the token signing keys",
            })?;
            check_url(ENV_JWKS_URL, &jwks_url)?;
            let servers = configured_servers.unwrap_or_else(|| vec![issuer.clone()]);
            let jwt = JwtConfig::new(issuer, jwks_url);
            // The local test path may serve its JWKS on http://127.0.0.1; a real Lambda never.
            let jwt = if runtime.is_real_lambda() {
                jwt
            } else {
                jwt.allowing_local_http()
            };
            (AuthMode::Jwt(jwt), servers)
        };

        Ok(AuthConfig {
            mode,
            resource_url,
            authorization_servers,
            runtime,
        })
    }
}

/// `scheme://host[:port]` of the resource URL: the built-in authorization server's issuer.
fn origin_of(resource_url: &str) -> Result<String, AuthConfigError> {
    let url = Url::parse(resource_url).map_err(|e| AuthConfigError::InvalidUrl {
        var: ENV_RESOURCE_URL,
        value: resource_url.to_owned(),
        reason: e.to_string(),
    })?;
    Ok(url.origin().ascii_serialization())
}

/// The resource URL is an audience and the base of the metadata URL: absolute, no query or fragment.
fn check_resource_url(value: &str) -> Result<(), AuthConfigError> {
    let url = check_url(ENV_RESOURCE_URL, value)?;
    let invalid = |reason: &str| AuthConfigError::InvalidUrl {
        var: ENV_RESOURCE_URL,
        value: value.to_owned(),
        reason: reason.to_owned(),
    };
    if url.query().is_some() || value.contains('?') {
        return Err(invalid("a query component is not allowed"));
    }
    Ok(())
}

/// Parse a URL setting: http(s) with a host, no fragment, and https unless the host is loopback.
fn check_url(var: &'static str, value: &str) -> Result<Url, AuthConfigError> {
    let invalid = |reason: String| AuthConfigError::InvalidUrl {
        var,
        value: value.to_owned(),
        reason,
    };
    let url = Url::parse(value).map_err(|e| invalid(e.to_string()))?;
    if url.fragment().is_some() || value.contains('#') {
        return Err(invalid("a fragment is not allowed".to_owned()));
    }
    if url.host().is_none() {
        return Err(invalid("it has no host".to_owned()));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if dochiya_outbound::is_loopback(&url) => Ok(url),
        "http" => Err(AuthConfigError::InsecureUrl {
            var,
            value: value.to_owned(),
        }),
        other => Err(invalid(format!("scheme `{other}` is not http or https"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const LOCAL_DEFAULT: &str = "http://127.0.0.1:8080/mcp";

    /// An environment from a `KEY=VALUE` fixture (comments and blank lines skipped) plus extras.
    fn env(fixture: &str, extra: &[(&str, &str)]) -> HashMap<String, String> {
        let mut map: HashMap<String, String> = fixture
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        for (k, v) in extra {
            map.insert((*k).to_owned(), (*v).to_owned());
        }
        map
    }

    fn parse(env: &HashMap<String, String>) -> Result<AuthConfig, AuthConfigError> {
        let lookup = |k: &str| env.get(k).cloned();
        AuthConfig::from_lookup(lookup, RuntimeEnvironment::detect(&lookup), LOCAL_DEFAULT)
    }

    const PROVIDED: &str = include_str!("../tests/fixtures/env-lambda-provided-al2023.env");
    const MANAGED: &str = include_str!("../tests/fixtures/env-lambda-managed-runtime.env");
    const WATCH: &str = include_str!("../tests/fixtures/env-cargo-lambda-watch.env");

    const JWT_VARS: [(&str, &str); 3] = [
        ("DOCHIYA_RESOURCE_URL", "https://mcp.example.com/mcp"),
        ("DOCHIYA_ISSUER", "https://auth.example.com/"),
        (
            "DOCHIYA_JWKS_URL",
            "https://auth.example.com/.well-known/jwks.json",
        ),
    ];

    #[test]
    fn runtime_detection_tells_real_lambda_from_the_emulator() {
        let detect = |e: HashMap<String, String>| RuntimeEnvironment::detect(&|k: &str| e.get(k).cloned());
        // provided.al2023 has no AWS_EXECUTION_ENV, and must still count as a real Lambda.
        assert!(!env(PROVIDED, &[]).contains_key("AWS_EXECUTION_ENV"));
        assert_eq!(detect(env(PROVIDED, &[])), RuntimeEnvironment::Lambda);
        assert_eq!(detect(env(MANAGED, &[])), RuntimeEnvironment::Lambda);
        assert_eq!(detect(env(WATCH, &[])), RuntimeEnvironment::LambdaEmulator);
        assert_eq!(detect(env("", &[])), RuntimeEnvironment::Local);
        assert_eq!(
            detect(env("", &[("AWS_EXECUTION_ENV", "AWS_Lambda_rust")])),
            RuntimeEnvironment::Lambda
        );
        assert_eq!(
            detect(env("", &[("AWS_EXECUTION_ENV", " ")])),
            RuntimeEnvironment::Local
        );
    }

    #[test]
    fn locally_the_default_is_the_builtin_server_with_dev_tokens_beside() {
        let config = parse(&env("", &[])).unwrap();
        assert_eq!(
            config,
            AuthConfig {
                mode: AuthMode::Builtin(BuiltinConfig {
                    issuer: "http://127.0.0.1:8080".to_owned(),
                    leeway: Duration::from_secs(60),
                    dev: Some(DevConfig {
                        secret: None,
                        leeway: Duration::from_secs(60)
                    }),
                }),
                resource_url: LOCAL_DEFAULT.to_owned(),
                authorization_servers: vec!["http://127.0.0.1:8080".to_owned()],
                runtime: RuntimeEnvironment::Local,
            }
        );
    }

    #[test]
    fn explicit_dev_mode_lists_no_authorization_server() {
        let config = parse(&env("", &[("DOCHIYA_AUTH", "dev")])).unwrap();
        assert_eq!(
            config.mode,
            AuthMode::Dev(DevConfig {
                secret: None,
                leeway: Duration::from_secs(60)
            })
        );
        assert!(config.authorization_servers.is_empty());
    }

    #[test]
    fn in_a_real_lambda_the_default_is_builtin_without_dev_tokens() {
        let config = parse(&env(PROVIDED, &JWT_VARS[..1])).unwrap();
        assert_eq!(
            config.mode,
            AuthMode::Builtin(BuiltinConfig {
                issuer: "https://mcp.example.com".to_owned(),
                leeway: Duration::from_secs(60),
                dev: None,
            })
        );
        assert_eq!(
            config.authorization_servers,
            vec!["https://mcp.example.com".to_owned()]
        );
    }

    #[test]
    fn dev_mode_works_under_cargo_lambda_watch() {
        let config = parse(&env(
            WATCH,
            &[("DOCHIYA_AUTH", "dev"), ("DOCHIYA_DEV_SECRET", &"s".repeat(32))],
        ))
        .unwrap();
        assert_eq!(config.runtime, RuntimeEnvironment::LambdaEmulator);
        assert_eq!(
            config.mode,
            AuthMode::Dev(DevConfig {
                secret: Some(DevSecret::new("s".repeat(32)).unwrap()),
                leeway: Duration::from_secs(60)
            })
        );
        // And it is the default there too.
        assert!(matches!(
            parse(&env(WATCH, &[])).unwrap().mode,
            AuthMode::Builtin(BuiltinConfig { dev: Some(_), .. })
        ));
    }

    #[test]
    fn in_a_real_lambda_jwt_mode_uses_the_external_issuer() {
        let mut vars = JWT_VARS.to_vec();
        vars.push(("DOCHIYA_AUTH", "jwt"));
        let config = parse(&env(PROVIDED, &vars)).unwrap();
        assert_eq!(config.runtime, RuntimeEnvironment::Lambda);
        assert_eq!(config.resource_url, "https://mcp.example.com/mcp");
        assert_eq!(
            config.authorization_servers,
            vec!["https://auth.example.com/".to_owned()]
        );
        assert_eq!(
            config.mode,
            AuthMode::Jwt(JwtConfig::new(
                "https://auth.example.com/",
                "https://auth.example.com/.well-known/jwks.json"
            ))
        );
    }

    #[test]
    fn dev_mode_is_refused_in_a_real_lambda_of_either_runtime_family() {
        for fixture in [PROVIDED, MANAGED] {
            let mut vars = JWT_VARS.to_vec();
            vars.push(("DOCHIYA_AUTH", "dev"));
            let err = parse(&env(fixture, &vars)).unwrap_err();
            assert!(matches!(err, AuthConfigError::DevModeInLambda), "{err}");
            assert!(
                err.to_string()
                    .starts_with("DOCHIYA_AUTH=dev is refused in a real AWS Lambda")
            );
        }
    }

    #[test]
    fn a_real_lambda_needs_an_explicit_resource_url() {
        let err = parse(&env(PROVIDED, &[("DOCHIYA_AUTH", "jwt")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_RESOURCE_URL must be set in AWS Lambda: it is the public MCP URL clients use and the token audience"
        );
    }

    #[test]
    fn jwt_mode_names_the_missing_setting() {
        let err = parse(&env("", &[("DOCHIYA_AUTH", "jwt")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_AUTH=jwt needs DOCHIYA_ISSUER (the authorization server's issuer identifier, pinned as the tokens' `iss`)"
        );
        let err = parse(&env(
            "",
            &[
                ("DOCHIYA_AUTH", "JWT"),
                ("DOCHIYA_ISSUER", "https://as.example.com"),
            ],
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_AUTH=jwt needs DOCHIYA_JWKS_URL (the authorization server's JWKS URL with the token signing keys)"
        );
    }

    #[test]
    fn plain_http_is_allowed_only_for_loopback_hosts() {
        let base = [
            ("DOCHIYA_AUTH", "jwt"),
            ("DOCHIYA_ISSUER", "https://as.example.com"),
        ];
        let with_jwks = |url: &'static str| {
            let mut vars = base.to_vec();
            vars.push(("DOCHIYA_JWKS_URL", url));
            parse(&env("", &vars))
        };
        let err = with_jwks("http://as.example.com/jwks.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_JWKS_URL must use https (plain http is allowed only for 127.0.0.1, ::1 or localhost), \
             got `http://as.example.com/jwks.json`"
        );
        for ok in [
            "http://127.0.0.1:9999/jwks.json",
            "http://localhost/jwks",
            "http://[::1]:1/j",
            "https://as.example.com/j",
        ] {
            assert!(with_jwks(ok).is_ok(), "{ok}");
        }
        let err = with_jwks("ftp://as.example.com/jwks").unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_JWKS_URL is not a usable URL (`ftp://as.example.com/jwks`): scheme `ftp` is not http or https"
        );
    }

    #[test]
    fn the_resource_url_has_no_query_or_fragment() {
        let err = parse(&env("", &[("DOCHIYA_RESOURCE_URL", "https://h.example/mcp?x=1")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_RESOURCE_URL is not a usable URL (`https://h.example/mcp?x=1`): a query component is not allowed"
        );
        let err = parse(&env("", &[("DOCHIYA_RESOURCE_URL", "https://h.example/mcp#top")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_RESOURCE_URL is not a usable URL (`https://h.example/mcp#top`): a fragment is not allowed"
        );
        let err = parse(&env("", &[("DOCHIYA_RESOURCE_URL", "mcp")])).unwrap_err();
        assert!(
            matches!(
                err,
                AuthConfigError::InvalidUrl {
                    var: "DOCHIYA_RESOURCE_URL",
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_mode_is_an_error() {
        let err = parse(&env("", &[("DOCHIYA_AUTH", "none")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "DOCHIYA_AUTH must be `builtin`, `jwt` or `dev`, got `none`"
        );
    }

    #[test]
    fn authorization_servers_is_a_comma_list() {
        let mut vars = JWT_VARS.to_vec();
        vars.push((
            "DOCHIYA_AUTHORIZATION_SERVERS",
            " https://a.example.com , https://b.example.com/t,",
        ));
        let config = parse(&env(PROVIDED, &vars)).unwrap();
        assert_eq!(
            config.authorization_servers,
            vec!["https://a.example.com", "https://b.example.com/t"]
        );
    }

    #[test]
    fn a_short_dev_secret_is_refused_and_never_printed() {
        let err = parse(&env("", &[("DOCHIYA_DEV_SECRET", "hunter2")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the dev secret must be at least 32 characters long, got 7"
        );
        let secret = DevSecret::new("a-very-long-secret-that-must-not-leak").unwrap();
        assert_eq!(format!("{secret:?}"), "DevSecret([redacted])");
    }
}
