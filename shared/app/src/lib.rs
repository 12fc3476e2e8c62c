//! Assembles dochiya from configuration and adapts one handler to Lambda and to a local HTTP server.
//!
//! [`config`] reads the environment (through a lookup), [`App`] is the assembled server,
//! [`local`] and [`lambda`] are the two adapters over [`dochiya_protocol::Server::handle`];
//! neither contains protocol logic.

pub mod config;
pub mod lambda;
pub mod local;
pub mod logging;

use std::sync::Arc;

use dochiya_protocol::{Authenticator, HostPolicy, Server, ServerConfig, ServerError, Tool};

pub use config::{AppConfig, ConfigError, Runtime, StoreChoice};

/// Why the process could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// A configuration variable is unusable.
    #[error("configuration")]
    Config(#[from] ConfigError),
    /// The local port could not be bound.
    #[error("cannot listen on 127.0.0.1:{port}")]
    Bind {
        /// The port asked for.
        port: u16,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The protocol server refused its tools or documents.
    #[error("assembling the MCP server")]
    Server(#[from] ServerError),
    /// The local server failed while serving.
    #[error("local server")]
    Serve(#[source] std::io::Error),
    /// The Lambda runtime failed.
    #[error("lambda runtime: {0}")]
    Lambda(String),
}

/// The protocol layer's configuration for this deployment.
pub fn server_config(config: &AppConfig, instructions: &str) -> ServerConfig {
    ServerConfig {
        instructions: instructions.to_owned(),
        allowed_origins: config.allowed_origins.clone(),
        // Locally we are reachable from a browser on this machine: refuse rebinding hosts.
        // Behind API Gateway the gateway routes by host already.
        host_policy: match config.runtime {
            Runtime::Local => HostPolicy::Loopback,
            Runtime::Lambda { .. } => HostPolicy::Any,
        },
        strict_version_header: config.strict_version_header,
        ..ServerConfig::default()
    }
}

/// The assembled server, ready for either adapter.
#[derive(Debug, Clone)]
pub struct App {
    /// The one handler.
    pub server: Arc<Server>,
    /// Largest request body the gate accepts (the local adapter buffers one byte more).
    pub body_limit: usize,
}

impl App {
    /// Assemble from already-built parts (tools over a ledger, an authenticator).
    pub fn from_parts(
        server_config: ServerConfig,
        tools: Vec<Arc<dyn Tool>>,
        auth: Arc<dyn Authenticator>,
    ) -> Result<Self, StartupError> {
        let body_limit = server_config.max_body_bytes;
        let server = Server::new(server_config, tools, auth)?;
        Ok(App {
            server: Arc::new(server),
            body_limit,
        })
    }

    /// Serve on `listener` until Ctrl-C/SIGTERM.
    pub async fn serve_local(&self, listener: tokio::net::TcpListener) -> Result<(), StartupError> {
        local::serve(
            listener,
            Arc::clone(&self.server),
            self.body_limit,
            local::stop_signal(),
        )
        .await
        .map_err(StartupError::Serve)
    }

    /// Serve Lambda invocations.
    pub async fn serve_lambda(&self) -> Result<(), StartupError> {
        lambda::run(Arc::clone(&self.server))
            .await
            .map_err(|e| StartupError::Lambda(e.to_string()))
    }
}

/// Bind the local server's socket on 127.0.0.1 (never another interface).
pub async fn bind_local(port: u16) -> Result<tokio::net::TcpListener, StartupError> {
    tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, port))
        .await
        .map_err(|source| StartupError::Bind { port, source })
}
