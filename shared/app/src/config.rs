//! The app's own configuration, read from the environment through a lookup function
//! (TEAM.md "Config parsing"); other crates' settings are parsed by their own `from_lookup`.

use std::path::PathBuf;
use std::time::Duration;

use crate::local::ConnectionLimits;

/// Where the process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// Under a Lambda runtime API (real Lambda, or `cargo lambda watch`'s emulator).
    Lambda {
        /// A real Lambda, not `cargo lambda watch`'s emulator: dev auth is refused there.
        /// Told by variables only the real service sets (`AWS_EXECUTION_ENV` on managed
        /// runtimes; `LAMBDA_TASK_ROOT`, `AWS_LAMBDA_INITIALIZATION_TYPE` on every runtime,
        /// including the `provided` family, which has no `AWS_EXECUTION_ENV`; decision 007).
        real: bool,
    },
    /// The local HTTP server on 127.0.0.1.
    Local,
}

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
    /// Lambda or local.
    pub runtime: Runtime,
    /// Local server port (`DOCHIYA_PORT`, default 8080; 0 picks a free port).
    pub port: u16,
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
    /// `DOCHIYA_RESOURCE_URL`, when set explicitly.
    pub resource_url: Option<String>,
    /// Local server deadlines and connection cap (`DOCHIYA_HTTP_TIMEOUT_MS` sets the
    /// header, idle and body deadlines; `DOCHIYA_MAX_CONNECTIONS` the cap).
    pub connection_limits: ConnectionLimits,
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

/// Variables a real Lambda sets and `cargo lambda watch` does not.
pub const REAL_LAMBDA_MARKERS: [&str; 3] = [
    "AWS_EXECUTION_ENV",
    "LAMBDA_TASK_ROOT",
    "AWS_LAMBDA_INITIALIZATION_TYPE",
];

/// Default local port.
pub const DEFAULT_PORT: u16 = 8080;

impl AppConfig {
    /// Read the app's variables through `lookup` (`|k| std::env::var(k).ok()` in main).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let set = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
        let runtime = if set("AWS_LAMBDA_RUNTIME_API").is_some() {
            let real = REAL_LAMBDA_MARKERS.iter().any(|k| set(k).is_some());
            Runtime::Lambda { real }
        } else {
            Runtime::Local
        };
        let port = match set("DOCHIYA_PORT") {
            None => DEFAULT_PORT,
            Some(raw) => parse_port(&raw).map_err(|message| ConfigError {
                var: "DOCHIYA_PORT",
                message,
            })?,
        };
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
            resource_url: set("DOCHIYA_RESOURCE_URL").map(|v| v.trim().to_owned()),
            connection_limits,
        })
    }

    /// The public MCP URL for a local server bound to `port` (the token audience).
    pub fn local_resource_url(&self, port: u16) -> String {
        self.resource_url
            .clone()
            .unwrap_or_else(|| format!("http://127.0.0.1:{port}/mcp"))
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
        assert_eq!(c.runtime, Runtime::Local);
        assert_eq!(c.port, 8080);
        assert_eq!(c.data_dir, PathBuf::from(".dochiya"));
        assert_eq!(c.store, StoreChoice::Embedded);
        assert!(c.allowed_origins.is_empty());
        assert!(!c.strict_version_header);
        assert_eq!(c.log_filter, "info");
        assert_eq!(c.local_resource_url(8123), "http://127.0.0.1:8123/mcp");
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
    fn every_variable_is_read() {
        let c = parse(&[
            ("DOCHIYA_PORT", "9001"),
            ("DOCHIYA_DATA_DIR", "/tmp/d"),
            ("DOCHIYA_TABLE", "ledger"),
            ("DOCHIYA_ALLOWED_ORIGINS", "https://a.example, https://b.example,"),
            ("DOCHIYA_STRICT_VERSION_HEADER", "TRUE"),
            ("DOCHIYA_LOG", "debug"),
            ("DOCHIYA_RESOURCE_URL", "https://mcp.example/mcp"),
        ])
        .unwrap();
        assert_eq!(c.port, 9001);
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
        assert_eq!(c.local_resource_url(1), "https://mcp.example/mcp");
    }

    #[test]
    fn lambda_is_detected_and_the_emulator_told_from_the_real_one() {
        assert_eq!(
            parse(&[("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9000")])
                .unwrap()
                .runtime,
            Runtime::Lambda { real: false }
        );
        let real = parse(&[
            ("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"),
            ("AWS_EXECUTION_ENV", "AWS_Lambda_provided.al2023"),
        ]);
        assert_eq!(real.unwrap().runtime, Runtime::Lambda { real: true });
        // provided.al2023 has no AWS_EXECUTION_ENV, but every real runtime has these.
        for marker in ["LAMBDA_TASK_ROOT", "AWS_LAMBDA_INITIALIZATION_TYPE"] {
            let real = parse(&[("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"), (marker, "x")]);
            assert_eq!(real.unwrap().runtime, Runtime::Lambda { real: true }, "{marker}");
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
}
