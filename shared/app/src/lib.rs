//! Assembles dochiya from configuration and adapts one handler to Lambda and to a local HTTP server.
//!
//! [`config`] reads the environment (through a lookup), [`App`] is the assembled server,
//! [`local`] and [`lambda`] are the two adapters over [`dochiya_protocol::Server::handle`];
//! neither contains protocol logic.

pub mod account;
pub mod assemble;
pub mod backup;
pub mod cli;
pub mod config;
pub mod favicon;
pub mod lambda;
pub mod local;
pub mod logging;
pub mod scheduled;

use std::sync::Arc;

use bytes::Bytes;
use dochiya_authserver::AuthServer;
use dochiya_protocol::{Authenticator, HostPolicy, Server, ServerConfig, ServerError, Tool};
use url::Url;

pub use assemble::{Assembled, build};
pub use cli::Command;
pub use config::{AppConfig, Config, ConfigError, StoreChoice};

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
    /// The authorization configuration is unusable.
    #[error("authorization")]
    Auth(#[source] dochiya_auth::AuthConfigError),
    /// The ledger configuration is unusable.
    #[error("ledger configuration")]
    Ledger(#[source] dochiya_ledger::ConfigError),
    /// The built-in authorization server could not be set up.
    #[error("authorization server")]
    AuthServer(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The store could not be opened or checked.
    #[error("store")]
    Store(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A dev token could not be minted.
    #[error("minting a dev token: {0}")]
    Token(String),
    /// The local sign-in code could not be written to the data directory.
    #[error("writing the local sign-in code to the data directory")]
    SignInCode(#[source] std::io::Error),
    /// `create-table` without `DOCHIYA_TABLE`.
    #[error(
        "DOCHIYA_TABLE is not set: create-table needs the table name (and AWS_ENDPOINT_URL_DYNAMODB for a local server)"
    )]
    NoTable,
    /// A backup could not be written, read or restored.
    #[error("backup")]
    Backup(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Deleting a person stopped part-way (running it again finishes it).
    #[error("delete-person (run it again to finish)")]
    DeletePerson(#[source] account::DeletionError),
    /// The protocol server refused its tools or documents.
    #[error("assembling the MCP server")]
    Server(#[from] ServerError),
    /// The local server failed while serving.
    #[error("local server")]
    Serve(#[source] std::io::Error),
    /// The Lambda runtime failed.
    #[error("lambda runtime: {0}")]
    Lambda(String),
    /// The scheduled run of recurring entries failed (what it posted stays posted).
    #[error("scheduled run")]
    PostDue(#[source] scheduled::RunError),
}

/// The protocol layer's configuration for this deployment.
pub fn server_config(config: &Config, instructions: &str) -> ServerConfig {
    let app = &config.app;
    let mut allowed_origins = app.allowed_origins.clone();
    // A page served from our own origin is not DNS rebinding: always allow it.
    for own in own_origins(app, &config.auth.resource_url) {
        if !allowed_origins.iter().any(|o| o.eq_ignore_ascii_case(&own)) {
            allowed_origins.push(own);
        }
    }
    ServerConfig {
        instructions: instructions.to_owned(),
        allowed_origins,
        // Locally we are reachable from a browser on this machine: refuse rebinding hosts.
        // Behind API Gateway the gateway routes by host already.
        host_policy: if app.under_lambda() {
            HostPolicy::Any
        } else {
            HostPolicy::Loopback
        },
        strict_version_header: app.strict_version_header,
        icons: icons(&config.auth.resource_url),
        prompts: dochiya_tools::prompts(),
        views: dochiya_tools::views::all(),
        ..ServerConfig::default()
    }
}

/// `serverInfo.icons`: the SVG inline, and the ICO at the origin when it is served over
/// HTTPS (clients fetch icons only from `https:` or `data:`).
fn icons(resource_url: &str) -> Vec<dochiya_protocol::Icon> {
    let mut icons = vec![dochiya_protocol::Icon {
        src: favicon::svg_data_uri(),
        mime_type: "image/svg+xml".into(),
        sizes: vec!["any".into()],
    }];
    if let Ok(url) = Url::parse(resource_url)
        && url.scheme() == "https"
    {
        icons.push(dochiya_protocol::Icon {
            src: format!("{}/favicon.ico", url.origin().ascii_serialization()),
            mime_type: "image/x-icon".into(),
            sizes: vec!["32x32".into()],
        });
    }
    icons
}

/// The resource URL's origin, plus, for a local server, the same port under every
/// loopback name it answers to. Written as a browser writes `Origin`: lower-case host, no
/// default port.
fn own_origins(config: &AppConfig, resource_url: &str) -> Vec<String> {
    let Ok(url) = Url::parse(resource_url) else {
        return Vec::new();
    };
    let mut origins = vec![url.origin().ascii_serialization()];
    // The local server speaks plain http: on the URL's own port, or on 80 when an http URL
    // names none (an https URL without a port is a proxy in front, not this listener).
    let port = url.port().or((url.scheme() == "http").then_some(80));
    if !config.under_lambda()
        && let Some(port) = port
    {
        for host in ["127.0.0.1", "localhost", "[::1]"] {
            let Ok(loopback) = Url::parse(&format!("http://{host}:{port}")) else {
                continue;
            };
            let origin = loopback.origin().ascii_serialization();
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
    }
    origins
}

/// What an adapter hands each request to.
pub trait Handle: Send + Sync + 'static {
    /// Answer one request.
    fn handle(&self, req: http::Request<Bytes>) -> impl Future<Output = http::Response<Bytes>> + Send;
}

impl Handle for Server {
    fn handle(&self, req: http::Request<Bytes>) -> impl Future<Output = http::Response<Bytes>> + Send {
        Server::handle(self, req)
    }
}

impl<T: Handle> Handle for Arc<T> {
    fn handle(&self, req: http::Request<Bytes>) -> impl Future<Output = http::Response<Bytes>> + Send {
        T::handle(self, req)
    }
}

/// The MCP server and, beside it (not through it), the built-in authorization server.
#[derive(Debug, Clone)]
pub struct Router {
    /// The MCP handler (protocol path, protected-resource metadata, everything else).
    pub server: Arc<Server>,
    /// Our authorization server, in builtin mode: it answers its own paths.
    pub authserver: Option<Arc<AuthServer>>,
    /// Only loopback `Host`s reach the authorization server (the local server: a page on
    /// another site must not reach it by DNS rebinding).
    pub loopback_only: bool,
    /// Whom people write to about their data, on the privacy page.
    pub support_contact: Option<Arc<str>>,
}

impl Handle for Router {
    async fn handle(&self, req: http::Request<Bytes>) -> http::Response<Bytes> {
        // The origin's icon (clients show it beside the connector): public, the same for all.
        if req.uri().path() == "/favicon.ico" && req.method() == http::Method::GET {
            return favicon::response();
        }
        // The same drawing as SVG (the registry entry's icon, from this origin): public too.
        if req.uri().path() == "/icon.svg" && req.method() == http::Method::GET {
            return favicon::svg_response();
        }
        // What is stored and whom to write to: public, in every mode (issue 55).
        if req.uri().path() == dochiya_authserver::PRIVACY_PATH && req.method() == http::Method::GET {
            let lang = dochiya_authserver::pages::Lang::negotiate(&req);
            return dochiya_authserver::pages::privacy(lang, self.support_contact.as_deref());
        }
        if let Some(authserver) = &self.authserver
            && AuthServer::owns(req.uri().path())
        {
            if self.loopback_only && !dochiya_protocol::gate::has_loopback_host(&req) {
                let mut refused =
                    http::Response::new(Bytes::from_static(b"{\"error\":\"host not allowed\"}"));
                *refused.status_mut() = http::StatusCode::FORBIDDEN;
                return refused;
            }
            return authserver.handle(req).await;
        }
        self.server.handle(req).await
    }
}

/// The assembled server, ready for either adapter.
#[derive(Debug, Clone)]
pub struct App {
    /// The one handler.
    pub server: Arc<Server>,
    /// The built-in authorization server, when builtin mode is on.
    pub authserver: Option<Arc<AuthServer>>,
    /// Largest request body the gate accepts (the local adapter buffers one byte more).
    pub body_limit: usize,
    /// Whom people write to about their data (`DOCHIYA_SUPPORT_CONTACT`).
    pub support_contact: Option<Arc<str>>,
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
            authserver: None,
            body_limit,
            support_contact: None,
        })
    }

    /// The same app with our authorization server mounted beside the MCP path.
    pub fn with_authserver(mut self, authserver: Option<Arc<AuthServer>>) -> Self {
        self.authserver = authserver;
        self
    }

    /// The same app naming `contact` on its privacy page.
    pub fn with_support_contact(mut self, contact: Option<&str>) -> Self {
        self.support_contact = contact.map(Arc::from);
        self
    }

    /// The handler the local server serves: the authorization server only to loopback `Host`s.
    pub fn local_router(&self) -> Router {
        self.router(true)
    }

    /// The handler the Lambda function serves (behind API Gateway the `Host` is its domain).
    pub fn lambda_router(&self) -> Router {
        self.router(false)
    }

    /// MCP and, in builtin mode, the authorization server beside it.
    fn router(&self, loopback_only: bool) -> Router {
        Router {
            server: Arc::clone(&self.server),
            authserver: self.authserver.clone(),
            loopback_only,
            support_contact: self.support_contact.clone(),
        }
    }

    /// Serve on `listener` until Ctrl-C/SIGTERM.
    pub async fn serve_local(
        &self,
        listener: tokio::net::TcpListener,
        limits: local::ConnectionLimits,
    ) -> Result<(), StartupError> {
        local::serve(
            listener,
            Arc::new(self.local_router()),
            self.body_limit,
            limits,
            local::stop_signal(),
        )
        .await
        .map_err(StartupError::Serve)
    }

    /// Serve Lambda invocations.
    pub async fn serve_lambda(&self) -> Result<(), StartupError> {
        lambda::run(Arc::new(self.lambda_router()))
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

/// Run a parsed command with configuration from `lookup` (`|k| std::env::var(k).ok()`).
pub async fn run(command: Command, lookup: impl Fn(&str) -> Option<String>) -> Result<(), StartupError> {
    let mut app = AppConfig::from_lookup(&lookup)?;
    match command {
        Command::Help => {
            println!("{}", cli::USAGE);
            Ok(())
        }
        Command::Serve { port } => {
            if port.is_some() {
                app.port = port;
            }
            if app.under_lambda() && app.post_due_handler {
                // The scheduled function: the store and the ledger, no MCP server or auth.
                logging::init(&app.log_filter, true);
                let ledger = scheduled_ledger(&app).await?;
                return scheduled::serve_lambda(ledger, app.post_due_max_vaults)
                    .await
                    .map_err(|e| StartupError::Lambda(e.to_string()));
            }
            if app.under_lambda() {
                logging::init(&app.log_filter, true);
                // Under `cargo lambda watch` the public URL is the emulator's.
                let port = app.emulator_port();
                let assembled = build(&Config::complete(app, &lookup, port)?).await?;
                return assembled.app.serve_lambda().await;
            }
            logging::init(&app.log_filter, false);
            let listener = bind_local(app.listen_port()).await?;
            let port = listener
                .local_addr()
                .map_err(|source| StartupError::Bind {
                    port: app.listen_port(),
                    source,
                })?
                .port();
            let limits = app.connection_limits;
            let (every, max_vaults) = (app.post_due_every, app.post_due_max_vaults);
            let assembled = build(&Config::complete(app, &lookup, port)?).await?;
            announce(&assembled, port);
            // What falls due in vaults nobody opens gets posted anyway (decision 036).
            if let Some(every) = every {
                let ledger = Arc::clone(&assembled.ledger);
                tokio::spawn(scheduled::post_periodically(ledger, every, max_vaults));
            }
            assembled.app.serve_local(listener, limits).await
        }
        Command::Token {
            sub,
            name,
            scopes,
            port,
        } => {
            let port = port.unwrap_or(app.listen_port());
            let config = Config::complete(app, &lookup, port)?;
            let scopes: Vec<&str> = scopes.split_whitespace().collect();
            let name = name.as_deref().unwrap_or(&sub);
            println!(
                "{}",
                assemble::mint_named(&config.auth, &config.app, &sub, name, &scopes)?
            );
            Ok(())
        }
        Command::CreateTable => {
            let StoreChoice::Dynamo { table } = &app.store else {
                return Err(StartupError::NoTable);
            };
            logging::init(&app.log_filter, false);
            let client = dochiya_store_dynamodb::load_client().await;
            let created = dochiya_store_dynamodb::create_table(&client, table)
                .await
                .map_err(|e| StartupError::Store(Box::new(e)))?;
            println!("table {table}: {created:?}");
            Ok(())
        }
        Command::Export { vault, sub } => backup::export(&app, vault.as_deref(), &sub).await,
        Command::Import { persons, check } => backup::import(&app, &persons, check).await,
        Command::DeletePerson { sub } => {
            logging::init(&app.log_filter, false);
            let store = assemble::open_store(&app).await?;
            let ledger = dochiya_ledger::Ledger::new(
                store.clone(),
                Arc::new(dochiya_domain::SystemClock),
                dochiya_ledger::LedgerConfig::default(),
            );
            let done = account::delete_person(&ledger, store.as_ref(), &sub)
                .await
                .map_err(StartupError::DeletePerson)?;
            println!("{}", account::summary(&sub, &done));
            Ok(())
        }
        Command::PostDue { at, max_vaults } => {
            logging::init(&app.log_filter, false);
            let ledger = scheduled_ledger(&app).await?;
            let max = max_vaults.unwrap_or(app.post_due_max_vaults);
            let summary = scheduled::run_once(&ledger, at, max)
                .await
                .map_err(StartupError::PostDue)?;
            println!("{summary}");
            Ok(())
        }
    }
}

/// The ledger of a scheduled run: the configured store, the system clock.
async fn scheduled_ledger(app: &AppConfig) -> Result<Arc<dochiya_ledger::Ledger>, StartupError> {
    let store = assemble::open_store(app).await?;
    Ok(Arc::new(dochiya_ledger::Ledger::new(
        store,
        Arc::new(dochiya_domain::SystemClock),
        dochiya_ledger::LedgerConfig::default(),
    )))
}

/// What a person starting the local server needs: where it listens, and a token.
fn announce(assembled: &Assembled, port: u16) {
    println!("dochiya: listening on http://127.0.0.1:{port}/mcp");
    println!("dochiya: resource {}", assembled.auth.resource_url);
    if let Some(token) = &assembled.dev_token {
        println!(
            "dochiya: dev token (sub {}, scopes \"ledger:read ledger:write\", valid 7 days): {token}",
            assemble::STARTUP_TOKEN_SUBJECT
        );
    }
    if let Some((code, path)) = &assembled.sign_in_code {
        println!(
            "dochiya: sign-in code (the browser sign-in page asks for it; also in {}): {code}",
            path.display()
        );
    }
    use std::io::Write as _;
    // Tests and scripts read these lines from a pipe: make them visible now.
    let _ = std::io::stdout().flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry entry (server.json at the repository's root) is a remote over
    /// streamable HTTP at `/mcp`, with this crate's version.
    #[test]
    fn server_json_describes_this_server() {
        let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../server.json"));
        let entry: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(entry["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(entry["remotes"][0]["type"], "streamable-http");
        assert_eq!(entry["remotes"][0]["url"], "https://{host}/mcp");
        assert!(
            entry["description"]
                .as_str()
                .is_some_and(|d| d.chars().count() <= 100)
        );
        assert_eq!(entry.get("packages"), None);
    }

    /// server.json passes our restatement of the registry's rules
    /// (tests/listing/server.schema.json), names the repository and serves its icon over
    /// https; the same schema refuses an `http:` icon and a 101-character description,
    /// so it can fail.
    #[test]
    fn server_json_passes_the_listing_schema() {
        let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../server.json"));
        let schema = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/listing/server.schema.json"
        ));
        let entry: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let schema: serde_json::Value = serde_json::from_str(schema).unwrap_or_else(|e| panic!("{e}"));
        let listing = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("the listing schema does not compile: {e}"));
        let errors: Vec<String> = listing.iter_errors(&entry).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");

        assert_eq!(entry["websiteUrl"], "https://github.com/dochiya/dochiya");
        assert_eq!(entry["repository"]["url"], "https://github.com/dochiya/dochiya");
        assert_eq!(entry["repository"]["source"], "github");
        // The project's support channel (each deployment's own contact is on its pages).
        assert_eq!(
            entry["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["support"],
            "https://github.com/dochiya/dochiya/issues"
        );
        let icons = entry["icons"].as_array().map(Vec::as_slice).unwrap_or_default();
        assert!(!icons.is_empty());
        for icon in icons {
            assert!(
                icon["src"].as_str().is_some_and(|s| s.starts_with("https://")),
                "{icon}"
            );
        }

        let mut plain = entry.clone();
        plain["icons"][0]["src"] =
            "http://raw.githubusercontent.com/dochiya/dochiya/main/docs/icon.svg".into();
        assert!(!listing.is_valid(&plain));
        let mut long = entry.clone();
        long["description"] = "가".repeat(101).into();
        assert!(!listing.is_valid(&long));
        long["description"] = "가".repeat(100).into();
        assert!(listing.is_valid(&long));
    }

    /// Refuses every token: the routes under test answer before any token is asked for.
    struct NoTokens(serde_json::Value);

    #[async_trait::async_trait]
    impl Authenticator for NoTokens {
        async fn authenticate(
            &self,
            _: dochiya_protocol::Credentials<'_>,
        ) -> Result<dochiya_protocol::Principal, dochiya_protocol::AuthFailure> {
            Err(dochiya_protocol::AuthFailure::Missing)
        }
        fn challenge(&self, _: &dochiya_protocol::Challenge<'_>) -> String {
            "Bearer".to_owned()
        }
        fn resource_metadata(&self) -> &serde_json::Value {
            &self.0
        }
    }

    /// Every deployment serves the registry entry's icon at `GET /icon.svg` (the router
    /// answers it: the MCP server alone would say 404), and docs/icon.svg, the copy
    /// server.json names, is the same drawing.
    #[tokio::test]
    async fn the_icon_svg_is_served_and_matches_docs() {
        let app = App::from_parts(
            ServerConfig::default(),
            Vec::new(),
            Arc::new(NoTokens(serde_json::json!({}))),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for router in [app.local_router(), app.lambda_router()] {
            let req = http::Request::get("/icon.svg")
                .body(Bytes::new())
                .unwrap_or_else(|e| panic!("{e}"));
            let svg = router.handle(req).await;
            assert_eq!(svg.status(), http::StatusCode::OK);
            assert_eq!(svg.body().as_ref(), favicon::SVG.as_bytes());
            let headers = svg.headers();
            assert_eq!(headers[http::header::CONTENT_TYPE], "image/svg+xml");
            assert_eq!(headers[http::header::CACHE_CONTROL], "public, max-age=86400");
            assert_eq!(headers[http::header::X_CONTENT_TYPE_OPTIONS], "nosniff");
            let post = http::Request::post("/icon.svg")
                .body(Bytes::new())
                .unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(router.handle(post).await.body().as_ref(), favicon::SVG.as_bytes());
        }
        let docs = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/icon.svg"));
        assert_eq!(docs, format!("{}\n", favicon::SVG));
    }

    #[test]
    fn icons_inline_and_at_an_https_origin() {
        let local = icons("http://127.0.0.1:8080/mcp");
        assert_eq!(local.len(), 1);
        assert_eq!(local[0].mime_type, "image/svg+xml");
        let deployed = icons("https://ledger.example.com/mcp");
        assert_eq!(deployed[1].src, "https://ledger.example.com/favicon.ico");
        assert_eq!(deployed[1].sizes, ["32x32"]);
    }

    /// The icon's origin is the URL's origin as a parser writes it, not the text after
    /// `https://`: no user part, lower case, no default port.
    #[test]
    fn the_icon_is_at_the_parsed_origin() {
        let deployed = icons("https://me@Ledger.Example.com:443/mcp?x#y");
        assert_eq!(deployed[1].src, "https://ledger.example.com/favicon.ico");
        assert_eq!(icons("not a url").len(), 1);
    }

    /// The configuration of `env` with the clients' port 8123 (dev auth: no issuer needed).
    fn config(env: &[(&str, &str)]) -> Config {
        let lookup = |k: &str| {
            env.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
                .or_else(|| (k == "DOCHIYA_AUTH").then(|| "dev".to_owned()))
        };
        let app = AppConfig::from_lookup(lookup).unwrap_or_else(|e| panic!("{e}"));
        Config::complete(app, &lookup, 8123).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn own_origin_is_always_allowed_locally_under_every_loopback_name() {
        let c = server_config(&config(&[]), "i");
        assert_eq!(
            c.allowed_origins,
            [
                "http://127.0.0.1:8123",
                "http://localhost:8123",
                "http://[::1]:8123"
            ]
        );
        assert_eq!(c.host_policy, HostPolicy::Loopback);
    }

    /// A browser's `Origin` omits a default port: a local server named on port 80 is
    /// allowed as `http://localhost`, not `http://localhost:80`; an https URL with no port
    /// (a tunnel in front) adds no loopback names.
    #[test]
    fn own_origins_are_written_as_a_browser_writes_origin() {
        let port_80 = server_config(
            &config(&[("DOCHIYA_RESOURCE_URL", "http://127.0.0.1:80/mcp")]),
            "i",
        );
        assert_eq!(
            port_80.allowed_origins,
            ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        );
        let tunnel = server_config(
            &config(&[("DOCHIYA_RESOURCE_URL", "https://Ledger.Example.com/mcp")]),
            "i",
        );
        assert_eq!(tunnel.allowed_origins, ["https://ledger.example.com"]);
    }

    #[test]
    fn lambda_allows_the_resource_origin_and_the_configured_ones() {
        let c = server_config(
            &config(&[
                ("AWS_LAMBDA_RUNTIME_API", "127.0.0.1:9001"),
                ("DOCHIYA_ALLOWED_ORIGINS", "http://localhost:6274"),
                ("DOCHIYA_RESOURCE_URL", "https://ledger.example.com/mcp"),
            ]),
            "i",
        );
        assert_eq!(
            c.allowed_origins,
            ["http://localhost:6274", "https://ledger.example.com"]
        );
        assert_eq!(c.host_policy, HostPolicy::Any);
    }
}
