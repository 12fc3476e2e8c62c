//! Builds every long-lived part once, at start-up: authenticator, store, ledger, tools, server.

use std::sync::Arc;
use std::time::Duration;

use dochiya_auth::{AuthConfig, AuthMode, BuiltinConfig};
use dochiya_authserver::{AuthServer, AuthServerConfig, SigningKey, SystemClock as AsClock};
use dochiya_domain::SystemClock;
use dochiya_domain::scopes::{SCOPE_READ, SCOPE_WRITE};
use dochiya_ledger::Ledger;
use dochiya_protocol::Authenticator;
use dochiya_store::Store;

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
    /// The local sign-in code of this run and the file it is kept in (local sign-in only).
    pub sign_in_code: Option<(String, std::path::PathBuf)>,
    /// The ledger the tools call (the local server's posting timer runs over it too).
    pub ledger: Arc<Ledger>,
}

/// Assemble from the one configuration value.
pub async fn build(config: &Config) -> Result<Assembled, StartupError> {
    let auth_config = &config.auth;
    // Every authorization setting and the key are checked before the store is opened, so a
    // misconfigured start changes nothing.
    let prepared = prepare_authentication(config).await?;
    let store = open_store(&config.app).await?;
    let ledger = Arc::new(Ledger::new(
        Arc::clone(&store),
        Arc::new(SystemClock),
        config.ledger.clone(),
    ));
    let (authenticator, authserver) = prepared.finish(&store, &ledger)?;
    let sign_in_code = match authserver.as_deref().and_then(AuthServer::sign_in_code) {
        Some(code) => {
            std::fs::create_dir_all(&config.app.data_dir).map_err(StartupError::SignInCode)?;
            let server = authserver
                .as_deref()
                .map(|s| s.write_sign_in_code(&config.app.data_dir));
            match server {
                Some(Ok(Some(path))) => Some((code, path)),
                Some(Err(e)) => return Err(StartupError::SignInCode(e)),
                _ => None,
            }
        }
        None => None,
    };
    let dev_token = match auth_config.mode {
        AuthMode::Dev(_) | AuthMode::Builtin(BuiltinConfig { dev: Some(_), .. }) => Some(mint(
            auth_config,
            &config.app,
            STARTUP_TOKEN_SUBJECT,
            &[SCOPE_READ, SCOPE_WRITE],
        )?),
        AuthMode::Jwt(_) | AuthMode::Builtin(_) => None,
    };
    let tools = dochiya_tools::all(Arc::clone(&ledger));
    let app = App::from_parts(
        server_config(config, dochiya_tools::INSTRUCTIONS),
        tools,
        authenticator,
    )?
    .with_authserver(authserver)
    .with_support_contact(config.app.support_contact.as_deref());
    Ok(Assembled {
        app,
        auth: auth_config.clone(),
        dev_token,
        sign_in_code,
        ledger,
    })
}

/// The resource's verifier and, in builtin mode, our authorization server.
type Authentication = (Arc<dyn Authenticator>, Option<Arc<AuthServer>>);

/// Authorization, checked and ready except for the store.
enum Prepared {
    /// jwt or dev mode: the verifier is complete.
    External(Arc<dyn Authenticator>),
    /// builtin mode: our authorization server still needs the store.
    Builtin {
        config: Box<AuthServerConfig>,
        key: Box<SigningKey>,
        verifier: Arc<dyn Authenticator>,
    },
}

/// Parse and check every authorization setting and load the key; in builtin mode the
/// verifier gets the authorization server's public key in process.
async fn prepare_authentication(whole: &Config) -> Result<Prepared, StartupError> {
    let (config, auth_config) = (&whole.app, &whole.auth);
    let Some(as_config) = whole.authserver.clone() else {
        let authenticator = dochiya_auth::build(auth_config, &config.data_dir).map_err(StartupError::Auth)?;
        return Ok(Prepared::External(authenticator));
    };
    // In AWS the key is in KMS (required there); locally a key file in the data dir,
    // unless a KMS key is named (the DynamoDB + KMS end-to-end run on moto).
    let key = match &as_config.kms_key_id {
        Some(key_id) => SigningKey::kms_default(key_id).await,
        None => SigningKey::load_or_create(&config.data_dir),
    }
    .map_err(|e| StartupError::AuthServer(Box::new(e)))?;
    let public = key.public();
    let builtin_key = dochiya_auth::BuiltinKey {
        kid: public.kid,
        x: public.x,
        y: public.y,
    };
    let verifier = dochiya_auth::build_builtin(auth_config, &config.data_dir, &builtin_key)
        .map_err(StartupError::Auth)?;
    Ok(Prepared::Builtin {
        config: Box::new(as_config),
        key: Box::new(key),
        verifier,
    })
}

impl Prepared {
    /// The verifier and, in builtin mode, the authorization server on `store` (the
    /// ledger's own store: its items live in `AS#` partitions).
    fn finish(self, store: &Arc<dyn Store>, ledger: &Arc<Ledger>) -> Result<Authentication, StartupError> {
        match self {
            Prepared::External(authenticator) => Ok((authenticator, None)),
            Prepared::Builtin {
                config,
                key,
                verifier,
            } => {
                let server = AuthServer::new(*config, Arc::clone(store), *key, Arc::new(AsClock))
                    .map_err(|e| StartupError::AuthServer(Box::new(e)))?
                    .with_hints(Arc::new(LedgerHints(Arc::clone(ledger))))
                    .with_account(Arc::new(LedgerAccount {
                        ledger: Arc::clone(ledger),
                        store: Arc::clone(store),
                    }));
                tracing::info!(issuer = server.issuer(), "built-in authorization server ready");
                Ok((verifier, Some(Arc::new(server))))
            }
        }
    }
}

/// What the account page shows, downloads and deletes: the ledger's reads and the one
/// deletion sequence (`crate::account`).
struct LedgerAccount {
    ledger: Arc<Ledger>,
    store: Arc<dyn Store>,
}

impl LedgerAccount {
    /// The person as of the account page's sign-in (a deletion since refuses them).
    fn person(sub: &str, signed_in_at: i64) -> Result<dochiya_domain::PersonId, String> {
        dochiya_domain::PersonId::new(sub)
            .map(|p| p.with_issued_at(Some(signed_in_at)))
            .map_err(|e| e.to_string())
    }
}

#[async_trait::async_trait]
impl dochiya_authserver::account::AccountData for LedgerAccount {
    async fn books(
        &self,
        sub: &str,
        signed_in_at: i64,
    ) -> Result<Vec<dochiya_authserver::account::Book>, String> {
        let who = Self::person(sub, signed_in_at)?;
        let list = self
            .ledger
            .list_vaults(&who)
            .await
            .map_err(|e| dochiya_tools::wording::describe(&e))?;
        Ok(list
            .vaults
            .into_iter()
            .map(|v| dochiya_authserver::account::Book {
                name: v.name,
                role: v.role.as_str().to_owned(),
                members: v.member_count,
                accounts: v.account_count,
            })
            .collect())
    }

    async fn export(&self, sub: &str, signed_in_at: i64, vault: &str) -> Result<(String, Vec<u8>), String> {
        let who = Self::person(sub, signed_in_at)?;
        let backup = self
            .ledger
            .backup(&who, Some(vault))
            .await
            .map_err(|e| dochiya_tools::wording::describe(&e))?;
        let mut bytes = Vec::new();
        backup.write_jsonl(&mut bytes).map_err(|e| e.to_string())?;
        Ok((format!("dochiya-{}.jsonl", backup.vault_id), bytes))
    }

    async fn delete(&self, sub: &str) -> Result<dochiya_authserver::account::Deletion, String> {
        let done = crate::account::delete_person(&self.ledger, self.store.as_ref(), sub)
            .await
            .map_err(|e| {
                tracing::error!(error = ?e, "deleting a person stopped part-way");
                "the deletion stopped part-way; try again to finish it".to_owned()
            })?;
        Ok(dochiya_authserver::account::Deletion {
            deleted: done.ledger.deleted,
            left: done
                .ledger
                .left
                .into_iter()
                .map(|l| (l.vault, l.new_owner))
                .collect(),
            grants: done.grants.grants,
            consents: done.grants.consents,
        })
    }
}

/// Roster hints for our tokens, from the ledger (one query per token minted).
struct LedgerHints(Arc<Ledger>);

#[async_trait::async_trait]
impl dochiya_authserver::TokenHints for LedgerHints {
    async fn roster_hint(&self, sub: &str) -> Option<serde_json::Value> {
        let who = dochiya_domain::PersonId::new(sub).ok()?;
        match self.0.roster_hint(&who).await {
            Ok(hint) => hint,
            Err(e) => {
                // The token is still minted: without a hint the resource reads the roster.
                tracing::warn!(error = %e, "cannot read the roster for a token's hint");
                None
            }
        }
    }

    async fn closed_at(&self, sub: &str) -> Result<Option<i64>, String> {
        let who = dochiya_domain::PersonId::new(sub).map_err(|e| e.to_string())?;
        self.0.closed_at(&who).await.map_err(|e| e.to_string())
    }
}

/// A dev token for `subject` (its display name the same) with `scopes`, valid for
/// [`STARTUP_TOKEN_LIFETIME`].
pub fn mint(
    auth: &AuthConfig,
    config: &AppConfig,
    subject: &str,
    scopes: &[&str],
) -> Result<String, StartupError> {
    mint_named(auth, config, subject, subject, scopes)
}

/// [`mint`] with a display name (the token's `name` claim, shown to other members).
pub fn mint_named(
    auth: &AuthConfig,
    config: &AppConfig,
    subject: &str,
    name: &str,
    scopes: &[&str],
) -> Result<String, StartupError> {
    let issuer = dochiya_auth::dev_token_issuer(auth, &config.data_dir).map_err(StartupError::Auth)?;
    issuer
        .mint_named(subject, name, scopes, STARTUP_TOKEN_LIFETIME)
        .map_err(|e| StartupError::Token(e.to_string()))
}

/// How often the embedded store purges a step of expired records.
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

pub(crate) async fn open_store(config: &AppConfig) -> Result<Arc<dyn Store>, StartupError> {
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
