//! Every setting of one process, read once from the environment through a lookup
//! function (main passes `std::env::var`, tests a map): [`AppConfig`] holds what the app
//! needs before it listens, and [`Config`] the whole typed value, with the settings of the
//! crates it wires (authorization, ledger), completed once the port clients reach is
//! known (the local resource URL names it). Where the process runs is detected here,
//! once ([`RuntimeEnvironment::detect`]), and handed to the crates that care.

use std::path::PathBuf;
use std::time::Duration;

use dochiya_auth::{AuthConfig, AuthMode, RuntimeEnvironment};
use dochiya_authserver::{AuthServerConfig, Deployment};
use dochiya_ledger::LedgerConfig;

use crate::StartupError;
use crate::local::ConnectionLimits;

/// Which store backs the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreChoice {
    /// DynamoDB table `DOCHIYA_TABLE`.
    Dynamo {
        /// The table name.
        table: String,
    },
    /// The embedded store in the data directory.
    Embedded,
}

/// The settings the app itself reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppConfig {
    /// Local, `cargo lambda watch`, or a real Lambda.
    pub runtime: RuntimeEnvironment,
    /// `DOCHIYA_PORT` (or `--port`) when set; 0 picks a free port. See [`AppConfig::listen_port`].
    pub port: Option<u16>,
    /// Embedded store and dev secret directory (`DOCHIYA_DATA_DIR`, default `.dochiya`).
    pub data_dir: PathBuf,
    /// DynamoDB or embedded.
    pub store: StoreChoice,
    /// Allowed `Origin`s (`DOCHIYA_ALLOWED_ORIGINS`, comma list).
    pub allowed_origins: Vec<String>,
    /// `DOCHIYA_STRICT_VERSION_HEADER=true`.
    pub strict_version_header: bool,
    /// tracing filter (`DOCHIYA_LOG`, default `info`).
    pub log_filter: String,
    /// Local server deadlines and connection cap (`DOCHIYA_HTTP_TIMEOUT_MS` sets the
    /// header, idle and body deadlines; `DOCHIYA_MAX_CONNECTIONS` the cap).
    pub connection_limits: ConnectionLimits,
    /// How often the local server posts due recurring entries
    /// (`DOCHIYA_POST_DUE_EVERY_SECS`, default 900; 0 turns the timer off).
    pub post_due_every: Option<Duration>,
    /// Most vaults one scheduled run visits (`DOCHIYA_POST_DUE_MAX_VAULTS`, default 1,000).
    pub post_due_max_vaults: usize,
    /// This Lambda function is the scheduled run (`_HANDLER` is `post-due`: the
    /// function's configured handler), not the MCP endpoint.
    pub post_due_handler: bool,
    /// Whom people write to about their data (`DOCHIYA_SUPPORT_CONTACT`: an e-mail
    /// address or a URL, at most 200 characters), shown on the privacy page.
    pub support_contact: Option<String>,
}

/// A configuration value that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var}: {message}")]
pub struct ConfigError {
    /// The variable.
    pub var: &'static str,
    /// What is wrong with it.
    pub message: String,
}

/// Default local port.
pub const DEFAULT_PORT: u16 = 8080;
/// Port `cargo lambda watch` listens on unless told otherwise.
pub const EMULATOR_PORT: u16 = 9000;

impl AppConfig {
    /// Read the app's variables through `lookup` (`|k| std::env::var(k).ok()` in main).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let set = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        let runtime = RuntimeEnvironment::detect(&lookup);
        let port = set("DOCHIYA_PORT")
            .map(|raw| {
                parse_port(&raw).map_err(|message| ConfigError {
                    var: "DOCHIYA_PORT",
                    message,
                })
            })
            .transpose()?;
        let strict_version_header = match set("DOCHIYA_STRICT_VERSION_HEADER").as_deref().map(str::trim) {
            None => false,
            Some(v) if v.eq_ignore_ascii_case("true") || v == "1" => true,
            Some(v) if v.eq_ignore_ascii_case("false") || v == "0" => false,
            Some(v) => {
                return Err(ConfigError {
                    var: "DOCHIYA_STRICT_VERSION_HEADER",
                    message: format!("{v:?} is not true or false"),
                });
            }
        };
        let number = |var: &'static str, max: u64| -> Result<Option<u64>, ConfigError> {
            set(var)
                .map(|raw| match raw.trim().parse::<u64>() {
                    Ok(n) if (1..=max).contains(&n) => Ok(n),
                    _ => Err(ConfigError {
                        var,
                        message: format!("{raw:?} is not a whole number from 1 to {max}"),
                    }),
                })
                .transpose()
        };
        let mut connection_limits = ConnectionLimits::default();
        if let Some(ms) = number("DOCHIYA_HTTP_TIMEOUT_MS", 3_600_000)? {
            connection_limits.header_read = Duration::from_millis(ms);
            connection_limits.body_read = Duration::from_millis(ms);
        }
        if let Some(n) = number("DOCHIYA_MAX_CONNECTIONS", 65_536)? {
            connection_limits.max_connections = usize::try_from(n).unwrap_or(usize::MAX);
        }
        let post_due_every = match set("DOCHIYA_POST_DUE_EVERY_SECS") {
            None => Some(crate::scheduled::DEFAULT_EVERY),
            Some(raw) => match raw.trim().parse::<u64>() {
                Ok(0) => None,
                Ok(n) if n <= 86_400 => Some(Duration::from_secs(n)),
                _ => {
                    return Err(ConfigError {
                        var: "DOCHIYA_POST_DUE_EVERY_SECS",
                        message: format!("{raw:?} is not a number of seconds from 1 to 86400, or 0 for off"),
                    });
                }
            },
        };
        let support_contact = match set("DOCHIYA_SUPPORT_CONTACT").map(|c| c.trim().to_owned()) {
            None => None,
            Some(c) if c.is_empty() => None,
            Some(c) if c.chars().count() <= 200 && !c.chars().any(char::is_control) => Some(c),
            Some(c) => {
                return Err(ConfigError {
                    var: "DOCHIYA_SUPPORT_CONTACT",
                    message: format!(
                        "{} characters or a control character: give an e-mail address or a URL of at most 200 characters",
                        c.chars().count()
                    ),
                });
            }
        };
        let post_due_max_vaults = number("DOCHIYA_POST_DUE_MAX_VAULTS", 100_000)?
            .map_or(crate::scheduled::DEFAULT_MAX_VAULTS, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            });
        Ok(AppConfig {
            runtime,
            port,
            data_dir: set("DOCHIYA_DATA_DIR").map_or_else(|| PathBuf::from(".dochiya"), PathBuf::from),
            store: match set("DOCHIYA_TABLE") {
                Some(table) => StoreChoice::Dynamo {
                    table: table.trim().to_owned(),
                },
                None => StoreChoice::Embedded,
            },
            allowed_origins: set("DOCHIYA_ALLOWED_ORIGINS")
                .map(|v| {
                    v.split(',')
                        .map(str::trim)
                        .filter(|o| !o.is_empty())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            strict_version_header,
            log_filter: set("DOCHIYA_LOG").unwrap_or_else(|| "info".to_owned()),
            connection_limits,
            post_due_every,
            post_due_max_vaults,
            post_due_handler: set("_HANDLER").is_some_and(|h| h.trim() == crate::scheduled::HANDLER),
            support_contact,
        })
    }

    /// The port the local server binds: `DOCHIYA_PORT`/`--port`, else 8080.
    pub fn listen_port(&self) -> u16 {
        self.port.unwrap_or(DEFAULT_PORT)
    }

    /// The port clients reach when the process does not bind one itself: under
    /// `cargo lambda watch`, the emulator's (9000 unless `DOCHIYA_PORT` says which).
    pub fn emulator_port(&self) -> u16 {
        self.port.unwrap_or(EMULATOR_PORT)
    }

    /// Whether this process runs under a Lambda runtime API (real or emulated).
    pub fn under_lambda(&self) -> bool {
        self.runtime != RuntimeEnvironment::Local
    }
}

/// The one typed configuration of the process: the app's own settings and those of
/// the crates it assembles, each variable read once.
#[derive(Debug, Clone)]
pub struct Config {
    /// The app's settings.
    pub app: AppConfig,
    /// Authorization: mode, the resource URL (token audience), issuers.
    pub auth: AuthConfig,
    /// Ledger tolerances (idempotency lifetime, …).
    pub ledger: LedgerConfig,
    /// The built-in authorization server's settings (builtin auth mode only).
    pub authserver: Option<AuthServerConfig>,
}

impl Config {
    /// Complete `app` with the other crates' settings. `port` is the port clients reach
    /// (the bound one locally): the resource URL defaults to `http://127.0.0.1:<port>/mcp`.
    pub fn complete(
        app: AppConfig,
        lookup: &impl Fn(&str) -> Option<String>,
        port: u16,
    ) -> Result<Config, StartupError> {
        let local_resource_url = format!("http://127.0.0.1:{port}/mcp");
        let auth =
            AuthConfig::from_lookup(lookup, app.runtime, &local_resource_url).map_err(StartupError::Auth)?;
        let ledger = LedgerConfig::from_lookup(lookup).map_err(StartupError::Ledger)?;
        let authserver = match auth.mode {
            AuthMode::Builtin(_) => {
                let deployment = if app.runtime.is_real_lambda() {
                    Deployment::Aws
                } else {
                    Deployment::Local
                };
                let config = AuthServerConfig::from_lookup(lookup, &auth.resource_url, deployment)
                    .map_err(|e| StartupError::AuthServer(Box::new(e)))?;
                Some(config)
            }
            AuthMode::Jwt(_) | AuthMode::Dev(_) => None,
        };
        Ok(Config {
            app,
            auth,
            ledger,
            authserver,
        })
    }
}

/// A port number from text (`--port` and `DOCHIYA_PORT`).
pub fn parse_port(raw: &str) -> Result<u16, String> {
    raw.trim()
        .parse::<u16>()
        .map_err(|_| format!("{raw:?} is not a port number (0-65535)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&str, &str)]) -> Result<AppConfig, ConfigError> {
        let env: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        AppConfig::from_lookup(|k| env.get(k).cloned())
    }

    #[test]
    fn defaults_are_a_local_embedded_server_on_8080() {
        let c = parse(&[]).unwrap();
        assert_eq!(c.runtime, RuntimeEnvironment::Local);
        assert_eq!((c.port, c.listen_port(), c.emulator_port()), (None, 8080, 9000));
        assert_eq!(c.data_dir, PathBuf::from(".dochiya"));
        assert_eq!(c.store, StoreChoice::Embedded);
        assert!(c.allowed_origins.is_empty());
        assert!(!c.strict_version_header);
        assert_eq!(c.log_filter, "info");
        assert_eq!(c.connection_limits, ConnectionLimits::default());
    }

    #[test]
    fn connection_limits_are_read_and_bounded() {
        let c = parse(&[
            ("DOCHIYA_HTTP_TIMEOUT_MS", "250"),
            ("DOCHIYA_MAX_CONNECTIONS", "8"),
        ])
        .unwrap();
        assert_eq!(
            c.connection_limits,
            ConnectionLimits {
                header_read: Duration::from_millis(250),
                body_read: Duration::from_millis(250),
                max_connections: 8,
            }
        );
        assert_eq!(
            parse(&[("DOCHIYA_MAX_CONNECTIONS", "0")])
                .unwrap_err()
                .to_string(),
            "DOCHIYA_MAX_CONNECTIONS: \"0\" is not a whole number from 1 to 65536"
        );
        assert_eq!(
            parse(&[("DOCHIYA_HTTP_TIMEOUT_MS", "soon")])
                .unwrap_err()
                .to_string(),
            "DOCHIYA_HTTP_TIMEOUT_MS: \"soon\" is not a whole number from 1 to 3600000"
        );
    }

    #[test]
    fn the_posting_timer_and_cap_are_read_and_bounded() {
        let c = parse(&[]).unwrap();
        assert_eq!(
            (c.post_due_every, c.post_due_max_vaults, c.post_due_handler),
            (Some(Duration::from_secs(900)), 1_000, false)
        );
        let c = parse(&[
            ("DOCHIYA_POST_DUE_EVERY_SECS", "0"),
            ("DOCHIYA_POST_DUE_MAX_VAULTS", "25"),
            ("_HANDLER", "post-due"),
        ])
        .unwrap();
        assert_eq!(
            (c.post_due_every, c.post_due_max_vaults, c.post_due_handler),
            (None, 25, true)
        );
        assert_eq!(
            parse(&[("DOCHIYA_POST_DUE_EVERY_SECS", "86401")])
                .unwrap_err()
                .to_string(),
            "DOCHIYA_POST_DUE_EVERY_SECS: \"86401\" is not a number of seconds from 1 to 86400, or 0 for off"
        );
        assert_eq!(
            parse(&[("DOCHIYA_POST_DUE_MAX_VAULTS", "0")])
                .unwrap_err()
                .to_string(),
            "DOCHIYA_POST_DUE_MAX_VAULTS: \"0\" is not a whole number from 1 to 100000"
        );
        assert!(!parse(&[("_HANDLER", "bootstrap")]).unwrap().post_due_handler);
    }

    #[test]
    fn every_variable_is_read() {
        let c = parse(&[
            ("DOCHIYA_PORT", "9001"),
            ("DOCHIYA_DATA_DIR", "/tmp/d"),
            ("DOCHIYA_TABLE", "ledger"),
            ("DOCHIYA_ALLOWED_ORIGINS", "https://a.example, https://b.example,"),
            ("DOCHIYA_STRICT_VERSION_HEADER", "TRUE"),
            ("DOCHIYA_LOG", "debug"),
        ])
        .unwrap();
        assert_eq!(
            (c.port, c.listen_port(), c.emulator_port()),
            (Some(9001), 9001, 9001)
        );
        assert_eq!(c.data_dir, PathBuf::from("/tmp/d"));
        assert_eq!(
            c.store,
            StoreChoice::Dynamo {
                table: "ledger".into()
            }
        );
        assert_eq!(c.allowed_origins, ["https://a.example", "https://b.example"]);
        assert!(c.strict_version_header);
        assert_eq!(c.log_filter, "debug");
    }

    #[test]
    fn the_whole_configuration_is_completed_once_with_the_port_clients_reach() {
        let env: HashMap<&str, &str> =
            [("DOCHIYA_AUTH", "dev"), ("DOCHIYA_IDEMPOTENCY_TTL_DAYS", "3")].into();
        let lookup = |k: &str| env.get(k).map(|v| (*v).to_owned());
        let config = Config::complete(AppConfig::from_lookup(lookup).unwrap(), &lookup, 8123).unwrap();
        assert_eq!(config.auth.resource_url, "http://127.0.0.1:8123/mcp");
        assert_eq!(config.auth.runtime, RuntimeEnvironment::Local);
        assert_eq!(config.ledger.idempotency_ttl, Duration::from_secs(3 * 24 * 3600));
        // An explicit resource URL wins over the local default.
        let env: HashMap<&str, &str> = [
            ("DOCHIYA_AUTH", "dev"),
            ("DOCHIYA_RESOURCE_URL", "https://mcp.example/mcp"),
        ]
        .into();
        let lookup = |k: &str| env.get(k).map(|v| (*v).to_owned());
        let config = Config::complete(AppConfig::from_lookup(lookup).unwrap(), &lookup, 1).unwrap();
        assert_eq!(config.auth.resource_url, "https://mcp.example/mcp");
    }

    #[test]
    fn lambda_is_detected_and_the_emulator_told_from_the_real_one() {
        assert_eq!(
            parse(&[("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9000")])
                .unwrap()
                .runtime,
            RuntimeEnvironment::LambdaEmulator
        );
        let real = parse(&[
            ("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"),
            ("AWS_EXECUTION_ENV", "AWS_Lambda_provided.al2023"),
        ]);
        assert_eq!(real.unwrap().runtime, RuntimeEnvironment::Lambda);
        // provided.al2023 has no AWS_EXECUTION_ENV, but every real runtime has these.
        for marker in ["LAMBDA_TASK_ROOT", "AWS_LAMBDA_INITIALIZATION_TYPE"] {
            let real = parse(&[("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"), (marker, "x")]);
            assert_eq!(real.unwrap().runtime, RuntimeEnvironment::Lambda, "{marker}");
        }
    }

    #[test]
    fn bad_values_name_the_variable() {
        assert_eq!(
            parse(&[("DOCHIYA_PORT", "80000")]).err().map(|e| e.to_string()),
            Some("DOCHIYA_PORT: \"80000\" is not a port number (0-65535)".into())
        );
        assert_eq!(
            parse(&[("DOCHIYA_STRICT_VERSION_HEADER", "yes")])
                .err()
                .map(|e| e.to_string()),
            Some("DOCHIYA_STRICT_VERSION_HEADER: \"yes\" is not true or false".into())
        );
    }

    #[test]
    fn the_support_contact_is_a_short_line_or_refused() {
        assert_eq!(parse(&[]).unwrap().support_contact, None);
        assert_eq!(
            parse(&[("DOCHIYA_SUPPORT_CONTACT", "  ")])
                .unwrap()
                .support_contact,
            None
        );
        assert_eq!(
            parse(&[("DOCHIYA_SUPPORT_CONTACT", " help@ledger.example ")])
                .unwrap()
                .support_contact
                .as_deref(),
            Some("help@ledger.example")
        );
        let long = "a".repeat(201);
        assert_eq!(
            parse(&[("DOCHIYA_SUPPORT_CONTACT", &long)])
                .unwrap_err()
                .to_string(),
            "DOCHIYA_SUPPORT_CONTACT: 201 characters or a control character: give an e-mail address or a URL of at most 200 characters"
        );
        assert!(parse(&[("DOCHIYA_SUPPORT_CONTACT", "a\nb")]).is_err());
    }
}
