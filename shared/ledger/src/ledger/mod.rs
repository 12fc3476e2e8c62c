//! The ledger service: one method per tool of docs/tools.md, written once over [`Store`].
//!
//! Every method takes the caller ([`PersonId`], the token's `sub`) and resolves
//! vault and account NAMES through the caller's own memberships, so ids from
//! another person's data can never reach that data. Writes are one atomic store
//! write carrying a check on the caller's membership.

mod bills;
mod budget_settings;
mod closing;
mod duplicates;
mod entry;
mod flows;
mod goals;
mod groups;
mod household;
mod idempotency;
mod installments;
mod members;
mod nets;
mod operations;
mod ops;
mod posting;
mod resolve;
mod roster;
mod statement;
mod system_names;
mod tagged;
mod today;
mod view;
mod words;
mod writer;

// Shared helpers that the operations below reach as `super::guards` and so on, until
// they name their rooms.
use crate::core::{cursor, minted};
use crate::stored::guards;

use std::sync::Arc;
use std::time::Duration;

use dochiya_domain::{Clock, Entropy, LocalDate, OsEntropy, PersonId, TransactionId, YearMonth};
use dochiya_store::Store;

// What a tool sends and gets back, named by the operations below as `super::…`.
use crate::api::*;
pub use household::{FOR_EVERYONE, MAX_SHARE_CHANGES, MAX_WEIGHT};
pub use ops::accounts::MAX_ACCOUNTS;
pub use ops::backup::Restored;
pub use ops::recurring::MAX_SCHEDULES;
pub use ops::sharing::{INVITE_LIFETIME_SECS, MAX_MEMBERS};
pub use posting::{DueRun, MAX_FAILURES_KEPT, PostingRun, VaultFailure, backoff_secs};
pub use system_names::KOREAN_OPENING_EQUITY;
pub use words::{MAX_WORD_CHARS, MAX_WORDS_PER_ACCOUNT, MAX_WORDS_PER_VAULT};

/// Settings of the ledger service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerConfig {
    /// How long an idempotency record is kept (default 7 days).
    pub idempotency_ttl: Duration,
    /// Window of the duplicate guard for identical transactions (default 10 minutes).
    pub duplicate_window: Duration,
    /// Most lines (`from` + `to`) in one transaction (default 20).
    pub max_postings: usize,
    /// Name of the equity account that opening balances post against in vaults with
    /// English system names (a KRW vault in Asia/Seoul uses 기초잔액; see `system_names.rs`).
    pub opening_equity_name: String,
    /// Keep each caller's memberships in this instance between calls (default on).
    /// Saves a read round per call; correctness never depends on it (see `roster.rs`).
    pub cache_rosters: bool,
    /// Most accounts, live and archived, in one vault (default [`MAX_ACCOUNTS`]).
    pub max_accounts: usize,
    /// Most recurring entries in one vault (default [`MAX_SCHEDULES`]).
    pub max_schedules: usize,
}

impl Default for LedgerConfig {
    fn default() -> Self {
        Self {
            idempotency_ttl: Duration::from_secs(7 * 24 * 3600),
            duplicate_window: Duration::from_secs(10 * 60),
            max_postings: 20,
            opening_equity_name: "Opening Balances".into(),
            cache_rosters: true,
            max_accounts: MAX_ACCOUNTS,
            max_schedules: MAX_SCHEDULES,
        }
    }
}

/// A configuration value that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var}: {message}")]
pub struct ConfigError {
    /// The variable.
    pub var: &'static str,
    /// What is wrong.
    pub message: String,
}

impl LedgerConfig {
    /// Read `DOCHIYA_IDEMPOTENCY_TTL_DAYS` (1–365, default 7) through `lookup`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut config = LedgerConfig::default();
        const VAR: &str = "DOCHIYA_IDEMPOTENCY_TTL_DAYS";
        if let Some(raw) = lookup(VAR) {
            let days: u64 = raw.trim().parse().map_err(|_| ConfigError {
                var: VAR,
                message: format!("\"{raw}\" is not a whole number of days"),
            })?;
            if !(1..=365).contains(&days) {
                return Err(ConfigError {
                    var: VAR,
                    message: format!("{days} days is outside 1–365"),
                });
            }
            config.idempotency_ttl = Duration::from_secs(days * 24 * 3600);
        }
        Ok(config)
    }
}

/// The ledger service. Cheap to clone; share one per process.
#[derive(Clone)]
pub struct Ledger {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    entropy: Arc<dyn Entropy>,
    config: LedgerConfig,
    rosters: Arc<roster::RosterCache>,
    ids: Arc<minted::IdMinter>,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Ledger {
    /// A ledger over a store, with the system's randomness for new ids.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, config: LedgerConfig) -> Self {
        Self::with_entropy(store, clock, Arc::new(OsEntropy), config)
    }

    /// A ledger with injected randomness (reproducible ids in tests).
    pub fn with_entropy(
        store: Arc<dyn Store>,
        clock: Arc<dyn Clock>,
        entropy: Arc<dyn Entropy>,
        config: LedgerConfig,
    ) -> Self {
        Self {
            store,
            clock,
            entropy,
            rosters: Arc::new(roster::RosterCache::new(config.cache_rosters)),
            config,
            ids: Arc::default(),
        }
    }

    /// A new transaction id at `unix_ms`: never one this instance minted before.
    pub(crate) fn new_transaction_id(&self, unix_ms: i64) -> dochiya_domain::TransactionId {
        self.ids.mint(unix_ms, self.entropy.next_u64())
    }

    /// The configuration in use.
    pub fn config(&self) -> &LedgerConfig {
        &self.config
    }

    /// The ledger clock's now (the scheduled run's default time).
    pub fn now(&self) -> jiff::Timestamp {
        self.clock.now()
    }
}
