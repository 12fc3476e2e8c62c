//! Balance snapshots: what a person saw on a statement, listed and deleted.

use super::*;
use dochiya_domain::{AccountId, Currency, Decimal, LocalDate, Money};

/// Arguments of `upsert_snapshot`.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotInput {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Account name.
    pub account: String,
    /// The date the balance was seen.
    pub date: LocalDate,
    /// The balance seen, natural sign (may be negative).
    pub balance: Decimal,
}

/// Arguments of `list_snapshots`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SnapshotQuery {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Only this account's snapshots.
    pub account: Option<String>,
    /// Only snapshots on or after this date.
    pub from: Option<LocalDate>,
    /// Only snapshots on or before this date.
    pub to: Option<LocalDate>,
}

/// One stored snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRow {
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub account: String,
    /// The date the balance was seen.
    pub date: LocalDate,
    /// The balance seen, natural sign.
    pub balance: Money,
}

/// Result of `list_snapshots`: by account name, then date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotList {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The snapshots.
    pub snapshots: Vec<SnapshotRow>,
    /// When the `account` filter's name is also archived accounts': which one was used.
    pub account_choice: Option<AccountChoice>,
}

/// Result of `delete_snapshot`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotDeleted {
    /// The vault.
    pub vault: VaultRef,
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub account: String,
    /// The date.
    pub date: LocalDate,
    /// `false` when there was no snapshot on that date (nothing changed).
    pub deleted: bool,
}

/// Result of `upsert_snapshot`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotOutcome {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub account: String,
    /// The snapshot's date.
    pub date: LocalDate,
    /// The balance seen.
    pub balance: Money,
    /// The ledger's balance at the end of that date.
    pub ledger_balance: Money,
    /// `balance - ledger_balance`.
    pub difference: Money,
}
