//! The ledger service: one method per tool of docs/tools.md, written once over [`Store`].
//!
//! Every method takes the caller ([`PersonId`], the token's `sub`) and resolves
//! vault and account NAMES through the caller's own memberships, so ids from
//! another person's data can never reach that data. Writes are one atomic store
//! write carrying a check on the caller's membership.

mod accounts;
mod backup;
mod batch;
mod budgets;
mod cards;
mod deletion;
mod duplicates;
mod edit;
mod entry;
mod export;
mod forget;
mod groups;
mod idempotency;
mod installments;
mod nets;
mod operations;
mod posting;
mod read;
mod record;
mod recurring;
mod reports;
mod resolve;
mod restore;
mod roster;
mod sharing;
mod snapshots;
mod statement;
mod system_names;
mod tagged;
mod today;
mod undo;
mod vaults;
mod view;
mod writer;

// The stored shape and shared helpers that the operations below reach as `super::codec`
// and so on, until they name their rooms.
use crate::core::{cursor, minted};
use crate::portability::backup::{Backup, BackupError};
use crate::portability::export::{ExportPage, ExportRequest};
use crate::stored::{attrs as codec, guards};

use std::sync::Arc;
use std::time::Duration;

use dochiya_domain::{Clock, Entropy, LocalDate, OsEntropy, PersonId, TransactionId, YearMonth};
use dochiya_store::Store;

// What a tool sends and gets back, named by the operations below as `super::…`.
use crate::api::*;
pub use accounts::MAX_ACCOUNTS;
pub use backup::Restored;
pub use posting::{DueRun, MAX_FAILURES_KEPT, PostingRun, VaultFailure, backoff_secs};
pub use recurring::MAX_SCHEDULES;
pub use sharing::{INVITE_LIFETIME_SECS, MAX_MEMBERS};
pub use system_names::KOREAN_OPENING_EQUITY;

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

    /// The caller's roster as the hint their next access token carries (decision 044):
    /// read afresh, one query; `None` past [`crate::core::roster_hint::MAX_HINTED_VAULTS`].
    pub async fn roster_hint(&self, who: &PersonId) -> Result<Option<serde_json::Value>, LedgerError> {
        roster::hint(self, who).await
    }

    /// Take the roster hint of the caller's verified token, so a new instance spares the
    /// roster query; ignored when this instance has the caller's roster already, or the
    /// hint cannot be read. Whether it was taken.
    pub fn take_roster_hint(&self, who: &PersonId, hint: &serde_json::Value) -> bool {
        roster::take_hint(self, who, hint)
    }

    /// The caller's vaults with currency, time zone, today's date there, and live account count.
    pub async fn list_vaults(&self, who: &PersonId) -> Result<VaultList, LedgerError> {
        vaults::list_vaults(self, who).await
    }

    /// Create a vault; when the caller already has one with that name and the
    /// same settings, return it with `created: false` (a retry is harmless).
    /// Same name with different settings is [`LedgerError::NameTaken`].
    pub async fn create_vault(&self, who: &PersonId, input: NewVault) -> Result<CreatedVault, LedgerError> {
        vaults::create_vault(self, who, input).await
    }

    /// Rename one of the caller's vaults (found by its current name).
    pub async fn rename_vault(
        &self,
        who: &PersonId,
        vault: &str,
        new_name: &str,
    ) -> Result<RenamedVault, LedgerError> {
        vaults::rename_vault(self, who, vault, new_name).await
    }

    /// Accounts of a vault with kind and current balance; archived ones only when asked.
    pub async fn list_accounts(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        include_archived: bool,
    ) -> Result<AccountList, LedgerError> {
        accounts::list_accounts(self, who, vault, include_archived).await
    }

    /// Create an account, optionally with an opening balance posted against the
    /// opening-balance equity account (created when missing). An existing live
    /// account with that name and kind is returned with `created: false`.
    pub async fn create_account(
        &self,
        who: &PersonId,
        input: NewAccount,
    ) -> Result<CreatedAccount, LedgerError> {
        accounts::create_account(self, who, input).await
    }

    /// Rename a live account.
    pub async fn rename_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        new_name: &str,
    ) -> Result<RenamedAccount, LedgerError> {
        accounts::rename_account(self, who, vault, account, new_name).await
    }

    /// Archive a live account: frees its name, keeps its history; new transactions refuse it.
    /// An account holding money (today or in entries dated later) is refused unless `force`.
    pub async fn archive_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        force: bool,
    ) -> Result<ArchivedAccount, LedgerError> {
        accounts::archive_account(self, who, vault, account, force).await
    }

    /// Put a live income or expense account under `parent` (same kind, two levels),
    /// move it to another, or (`""`) make it top-level (decision 038).
    pub async fn set_account_parent(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        parent: &str,
    ) -> Result<ParentSet, LedgerError> {
        groups::set_parent(self, who, vault, account, parent).await
    }

    /// Bring an archived account back under its name or `new_name`; a live one is
    /// returned with `restored: false`.
    pub async fn restore_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        new_name: Option<&str>,
    ) -> Result<RestoredAccount, LedgerError> {
        restore::restore_account(self, who, vault, account, new_name).await
    }

    /// Set (`Some`) or clear (`None`) a card's billing cycle (liabilities only).
    pub async fn set_billing(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        billing: Option<dochiya_domain::Billing>,
    ) -> Result<BillingSet, LedgerError> {
        cards::set_billing(self, who, vault, account, billing).await
    }

    /// One bill of a card with billing: the bill paid in `month` (default: the next
    /// payment on or after today), its items, total, what was paid and what remains.
    pub async fn card_bill(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        month: Option<YearMonth>,
    ) -> Result<CardBill, LedgerError> {
        cards::card_bill(self, who, vault, account, month).await
    }

    /// Record money moving `from` one account `to` another (see [`NewTransaction`]).
    pub async fn record_transaction(
        &self,
        who: &PersonId,
        input: NewTransaction,
    ) -> Result<Recorded, LedgerError> {
        let split = NewSplit {
            vault: input.vault,
            from: vec![SplitLine {
                account: input.from,
                amount: input.amount,
            }],
            to: vec![SplitLine {
                account: input.to,
                amount: input.amount,
            }],
            date: input.date,
            memo: input.memo,
            idempotency_key: input.idempotency_key,
            allow_duplicate: input.allow_duplicate,
            future_date: input.future_date,
            dry_run: input.dry_run,
            external_ref: input.external_ref,
            tags: input.tags,
            installments: None,
        };
        record::record(self, who, split).await
    }

    /// Record a split transaction: several `from` and `to` lines whose sums must match.
    /// Idempotent per `idempotency_key`; guarded against identical entries minutes apart.
    pub async fn record_split(&self, who: &PersonId, input: NewSplit) -> Result<Recorded, LedgerError> {
        record::record(self, who, input).await
    }

    /// The currency of the vault a call means (to word a refused amount against it).
    pub async fn vault_currency(
        &self,
        who: &PersonId,
        vault: Option<&str>,
    ) -> Result<dochiya_domain::Currency, LedgerError> {
        roster::in_vault(self, who, vault, |v| async move { Ok(v.m.currency) }).await
    }

    /// Record up to [`MAX_BATCH_ENTRIES`](dochiya_domain::limits::MAX_BATCH_ENTRIES)
    /// simple entries, each exactly once (its own atomic write and idempotency record),
    /// with one result per entry: recorded, duplicate (by externalRef or by data, with
    /// the book) or that entry's error. See `batch.rs`.
    pub async fn record_transactions(
        &self,
        who: &PersonId,
        input: NewBatch,
    ) -> Result<BatchRecorded, LedgerError> {
        batch::record_batch(self, who, input).await
    }

    /// Void a transaction: keeps the record, reverses its effect; once.
    /// Voiding a voided transaction writes nothing and says `already_voided`.
    pub async fn void_transaction(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        id: TransactionId,
        reason: Option<&str>,
    ) -> Result<Voided, LedgerError> {
        record::void(self, who, vault, id, reason).await
    }

    /// Correct a transaction in place: same id, new version, the previous one kept
    /// (see [`TransactionEdit`]). Idempotent per `idempotency_key`, like recording.
    pub async fn edit_transaction(
        &self,
        who: &PersonId,
        input: TransactionEdit,
    ) -> Result<Edited, LedgerError> {
        edit::edit(self, who, input).await
    }

    /// Take back one operation (default: the caller's own latest in the vault): recorded
    /// entries voided, an edit restored, a void brought back; once, all or nothing refused.
    pub async fn undo(&self, who: &PersonId, input: UndoRequest) -> Result<Undone, LedgerError> {
        undo::undo(self, who, input).await
    }

    /// One transaction by id, in one of the caller's vaults.
    pub async fn get_transaction(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        id: TransactionId,
    ) -> Result<TransactionView, LedgerError> {
        read::get_transaction(self, who, vault, id).await
    }

    /// Transactions newest first, filtered, one page at a time.
    pub async fn list_transactions(
        &self,
        who: &PersonId,
        query: TransactionQuery,
    ) -> Result<TransactionPage, LedgerError> {
        read::list_transactions(self, who, query).await
    }

    /// The entries of a period as CSV, hledger or Beancount text, oldest first, a page at a time.
    pub async fn export_transactions(
        &self,
        who: &PersonId,
        request: ExportRequest,
    ) -> Result<ExportPage, LedgerError> {
        export::export_transactions(self, who, request).await
    }

    /// A full-fidelity backup of one of the caller's vaults (see `backup/mod.rs`).
    pub async fn backup(&self, who: &PersonId, vault: Option<&str>) -> Result<Backup, LedgerError> {
        backup::backup(self, who, vault).await
    }

    /// Restore a backup into this ledger's store: invisible until complete,
    /// resumable, and a no-op when the vault is already there as backed up.
    pub async fn restore(&self, backup: &Backup) -> Result<Restored, BackupError> {
        backup::restore::restore(self, backup).await
    }

    /// Every account's balance at the end of `as_of` (default today in the vault's zone).
    pub async fn get_balances(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        as_of: Option<LocalDate>,
    ) -> Result<Balances, LedgerError> {
        reports::get_balances(self, who, vault, as_of).await
    }

    /// Expense (or income) totals between two dates, by account or by month.
    pub async fn spending_report(
        &self,
        who: &PersonId,
        request: ReportRequest,
    ) -> Result<SpendingReport, LedgerError> {
        reports::spending_report(self, who, request).await
    }

    /// Month-end assets, liabilities and net worth for each month from `from` to `to`.
    pub async fn net_worth_history(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        from: YearMonth,
        to: YearMonth,
    ) -> Result<NetWorthHistory, LedgerError> {
        reports::net_worth_history(self, who, vault, from, to).await
    }

    /// Each account's latest snapshot against the ledger's balance on its date.
    pub async fn reconcile(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: Option<&str>,
    ) -> Result<Reconciliation, LedgerError> {
        snapshots::reconcile(self, who, vault, account).await
    }

    /// The stored snapshots, by account name then date, optionally of one account and a date range.
    pub async fn list_snapshots(
        &self,
        who: &PersonId,
        query: SnapshotQuery,
    ) -> Result<SnapshotList, LedgerError> {
        snapshots::list_snapshots(self, who, query).await
    }

    /// Delete an account's snapshot on a date; `deleted: false` when there was none.
    pub async fn delete_snapshot(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        date: LocalDate,
    ) -> Result<SnapshotDeleted, LedgerError> {
        snapshots::delete_snapshot(self, who, vault, account, date).await
    }

    /// Write (or replace) the balance seen for an account on a date.
    pub async fn upsert_snapshot(
        &self,
        who: &PersonId,
        input: SnapshotInput,
    ) -> Result<SnapshotOutcome, LedgerError> {
        snapshots::upsert_snapshot(self, who, input).await
    }

    /// Set an expense account's budget for a month (default this month), for later
    /// months too when `repeat`; an amount of 0 clears it. Setting again replaces it.
    pub async fn set_budget(&self, who: &PersonId, input: BudgetInput) -> Result<BudgetSet, LedgerError> {
        budgets::set_budget(self, who, input).await
    }

    /// Each budgeted expense account's budget, spending and what is left in a month
    /// (default this month), with totals and what was spent without a budget.
    pub async fn budget_report(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        month: Option<YearMonth>,
    ) -> Result<BudgetReport, LedgerError> {
        budgets::budget_report(self, who, vault, month).await
    }

    /// An invite code for the vault (owners only): single-use, 7 days, granting `role`.
    pub async fn share_vault(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        role: Role,
    ) -> Result<SharedInvite, LedgerError> {
        sharing::share_vault(self, who, vault, role).await
    }

    /// Join the vault an invite code opens, under the vault's name or `name`
    /// (the joiner's own name for it). Exactly one join succeeds per code.
    pub async fn join_vault(
        &self,
        who: &PersonId,
        code: &str,
        name: Option<&str>,
    ) -> Result<Joined, LedgerError> {
        sharing::join_vault(self, who, code, name, None).await
    }

    /// [`Ledger::join_vault`], also choosing the display name the others see
    /// (`member_name`; else the token's name, numbered when another member has it).
    pub async fn join_vault_as(
        &self,
        who: &PersonId,
        code: &str,
        name: Option<&str>,
        member_name: Option<&str>,
    ) -> Result<Joined, LedgerError> {
        sharing::join_vault(self, who, code, name, member_name).await
    }

    /// The people keeping a vault, oldest first.
    pub async fn list_members(&self, who: &PersonId, vault: Option<&str>) -> Result<MemberList, LedgerError> {
        sharing::list_members(self, who, vault).await
    }

    /// Take a member out of a vault (owners only); takes effect on every instance at once.
    pub async fn remove_member(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        member: &str,
    ) -> Result<RemovedMember, LedgerError> {
        sharing::remove_member(self, who, vault, member).await
    }

    /// Leave a shared vault (not as its last owner while others remain, nor as its only member).
    pub async fn leave_vault(&self, who: &PersonId, vault: Option<&str>) -> Result<LeftVault, LedgerError> {
        sharing::leave_vault(self, who, vault).await
    }

    /// Delete a vault and everything of it (owner only, `confirm` its name typed
    /// again); `dry_run` counts what would go. Finishes a deletion an earlier call left.
    pub async fn delete_vault(
        &self,
        who: &PersonId,
        vault: &str,
        confirm: &str,
        dry_run: bool,
    ) -> Result<DeletedVault, LedgerError> {
        deletion::delete_vault(self, who, vault, confirm, dry_run).await
    }

    /// Delete everything the ledger keeps of `who` (decision 059): vaults they alone keep
    /// go; shared vaults are left (the earliest member inherits a last owner's role); a
    /// token issued before is refused from then on. Safe to run again.
    pub async fn delete_person(&self, who: &PersonId) -> Result<DeletedPerson, LedgerError> {
        forget::delete_person(self, who).await
    }

    /// Create, change (`change: true`) or remove a recurring entry by name. What is
    /// due already (a start in the past) is posted before the answer.
    pub async fn set_recurring(
        &self,
        who: &PersonId,
        input: RecurringInput,
    ) -> Result<RecurringSet, LedgerError> {
        recurring::set_recurring(self, who, input).await
    }

    /// The vault's recurring entries and what is still to come in a month (default this month).
    pub async fn list_recurring(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        month: Option<YearMonth>,
    ) -> Result<RecurringList, LedgerError> {
        recurring::list_recurring(self, who, vault, month).await
    }

    /// Post what is due in a vault, by id: the scheduled run's entry point (the vault id
    /// comes from the due index, never from a client). Nothing due writes nothing.
    pub async fn post_due_vault(&self, vault: dochiya_domain::VaultId) -> Result<PostingRun, LedgerError> {
        posting::post_due_vault(self, vault, self.clock.now()).await
    }

    /// The ledger clock's now (the scheduled run's default time).
    pub fn now(&self) -> jiff::Timestamp {
        self.clock.now()
    }

    /// The scheduled run as of `at` (the scheduler's time; never later than the clock,
    /// so nothing posts early): the shards of the due index in order, posting what is
    /// due in each vault whose head falls on or before the day after `at` in UTC (a
    /// vault's own zone may be ahead; each vault is then checked against its own
    /// today), at most `max_vaults` vaults; `more` says due entries were left. A vault
    /// that fails is counted in `failed`, backed off (decision 048) and passed; only a
    /// failed read of the due index itself fails the run.
    pub async fn post_due_everywhere(
        &self,
        at: jiff::Timestamp,
        max_vaults: usize,
    ) -> Result<DueRun, LedgerError> {
        let at = at.min(self.clock.now());
        let through = dochiya_domain::VaultZone::utc().date_at(at).next_day();
        let mut run = DueRun::default();
        for shard in 0..crate::stored::keys::DUE_SHARDS {
            posting::post_due_shard(self, shard, through, at, max_vaults, &mut run).await?;
            if run.more {
                break;
            }
        }
        Ok(run)
    }
}
