//! Builds every long-lived part once, at start-up: authenticator, store, ledger, tools, server.

use std::sync::Arc;
use std::time::Duration;

use dochiya_auth::{AuthConfig, AuthMode, SCOPE_READ, SCOPE_WRITE};
use dochiya_ledger::Ledger;
use dochiya_ledger::domain::SystemClock;
use dochiya_ledger::store::Store;

use crate::config::{AppConfig, Config, StoreChoice};
use crate::{App, StartupError, server_config};

/// How long the token printed at start-up stays valid.
pub const STARTUP_TOKEN_LIFETIME: Duration = Duration::from_secs(7 * 24 * 3600);
/// Whom the token printed at start-up names (its `sub`): the person of a local, single-user run.
pub const STARTUP_TOKEN_SUBJECT: &str = "local";

/// The assembled app and, in dev auth mode, a ready token for its resource URL.
#[derive(Debug)]
pub struct Assembled {
    /// The server, ready for an adapter.
    pub app: App,
    /// The authorization configuration in force.
    pub auth: AuthConfig,
    /// A dev token with both scopes (dev mode only).
    pub dev_token: Option<String>,
}

/// Assemble from the one configuration value.
pub async fn build(config: &Config) -> Result<Assembled, StartupError> {
    let auth_config = &config.auth;
    let authenticator = dochiya_auth::build(auth_config, &config.app.data_dir).map_err(StartupError::Auth)?;
    let dev_token = match auth_config.mode {
        AuthMode::Dev(_) => Some(mint(
            auth_config,
            &config.app,
            STARTUP_TOKEN_SUBJECT,
            &[SCOPE_READ, SCOPE_WRITE],
        )?),
        AuthMode::Jwt(_) => None,
    };
    let store = open_store(&config.app).await?;
    let ledger = Arc::new(Ledger::new(store, Arc::new(SystemClock), config.ledger.clone()));
    let tools = dochiya_tools::all(ledger);
    let app = App::from_parts(
        server_config(config, dochiya_tools::INSTRUCTIONS),
        tools,
        authenticator,
    )?;
    Ok(Assembled {
        app,
        auth: auth_config.clone(),
        dev_token,
    })
}

/// A dev token for `subject` with `scopes`, valid for [`STARTUP_TOKEN_LIFETIME`].
pub fn mint(
    auth: &AuthConfig,
    config: &AppConfig,
    subject: &str,
    scopes: &[&str],
) -> Result<String, StartupError> {
    let issuer = dochiya_auth::dev_token_issuer(auth, &config.data_dir).map_err(StartupError::Auth)?;
    issuer
        .mint(subject, scopes, STARTUP_TOKEN_LIFETIME)
        .map_err(|e| StartupError::Token(e.to_string()))
}

/// How often the embedded store purges a step of expired records.
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

async fn open_store(config: &AppConfig) -> Result<Arc<dyn Store>, StartupError> {
    match &config.store {
        StoreChoice::Embedded => {
            let store = dochiya_store_embedded::EmbeddedStore::open_in_dir(&config.data_dir)
                .map_err(|e| StartupError::Store(Box::new(e)))?;
            tracing::info!(location = store.location(), "embedded store open");
            // Expired idempotency and duplicate-guard records would otherwise stay forever
            // (DynamoDB's TTL does this by itself); bounded steps, first one now.
            let purger = store.clone();
            tokio::spawn(async move { purger.purge_periodically(PURGE_EVERY).await });
            Ok(Arc::new(store))
        }
        StoreChoice::Dynamo { table } => {
            let client = dochiya_store_dynamodb::load_client().await;
            let store = dochiya_store_dynamodb::DynamoStore::new(client, table.clone());
            // A clear error at start-up instead of at the first request.
            store
                .check_table()
                .await
                .map_err(|e| StartupError::Store(Box::new(e)))?;
            tracing::info!(table = %table, "DynamoDB store ready");
            Ok(Arc::new(store))
        }
    }
}
