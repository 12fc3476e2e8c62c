//! Balances, reports, net worth and reconciliation.

use super::*;
use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, YearMonth};

/// One account's balance in `get_balances`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceRow {
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Balance at the end of the day `as_of`, natural sign.
    pub balance: Money,
    /// When `as_of` is today or later: net of entries dated after it, natural sign; `None` when there are none.
    pub scheduled: Option<Money>,
}

/// Totals of `get_balances`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Sum of asset balances.
    pub assets: Money,
    /// Sum of liability balances (owed, positive).
    pub liabilities: Money,
    /// Assets minus liabilities.
    pub net_worth: Money,
}

/// Result of `get_balances`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balances {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The date the balances are for (end of that day).
    pub as_of: LocalDate,
    /// Live accounts.
    pub accounts: Vec<BalanceRow>,
    /// Archived accounts that still hold money (on the day or in later entries), apart;
    /// they still count in `totals` (money left in a closed account is still there).
    pub archived: Vec<BalanceRow>,
    /// Assets, liabilities, net worth (archived accounts included).
    pub totals: Totals,
}

/// Which accounts a report sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowKind {
    /// Expense accounts (default).
    Expense,
    /// Income accounts.
    Income,
}

impl FlowKind {
    /// The account kind it sums.
    pub fn account_kind(self) -> AccountKind {
        match self {
            FlowKind::Expense => AccountKind::Expense,
            FlowKind::Income => AccountKind::Income,
        }
    }

    /// `expense` or `income`.
    pub fn as_str(self) -> &'static str {
        self.account_kind().as_str()
    }
}

/// How a report groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportBy {
    /// One row per account (default).
    Account,
    /// One row per month.
    Month,
    /// One row per top-level account, a child's amount counted in its parent.
    Group,
    /// One row per tag.
    Tag,
    /// One row per member: what was theirs alone plus their share of the household's.
    Member,
}

/// Arguments of `spending_report`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportRequest {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// First day, inclusive.
    pub from: LocalDate,
    /// Last day, inclusive.
    pub to: LocalDate,
    /// Grouping.
    pub by: ReportBy,
    /// Expense or income.
    pub kind: FlowKind,
    /// Only entries carrying this tag.
    pub tag: Option<String>,
}

/// One row of a report: an account (by account) or a month (by month).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// The account (by account).
    pub account_id: Option<AccountId>,
    /// Its display name (by account).
    pub account: Option<String>,
    /// The month (by month).
    pub month: Option<YearMonth>,
    /// Total in the kind's natural sign (spent, or earned).
    pub amount: Money,
    /// The account's parent (by account, for a child category).
    pub parent: Option<String>,
    /// The tag (by tag).
    pub tag: Option<String>,
    /// The member (by member).
    pub member: Option<String>,
}

/// Result of `spending_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendingReport {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// First day.
    pub from: LocalDate,
    /// Last day.
    pub to: LocalDate,
    /// Expense or income.
    pub kind: FlowKind,
    /// Grouping used.
    pub by: ReportBy,
    /// Sum of the rows.
    pub total: Money,
    /// By account: non-zero accounts, largest first. By month: every month of the range, in order.
    /// Entries dated after today are not in them.
    pub rows: Vec<ReportRow>,
    /// Entries in the period dated after today (not counted as spent or received yet).
    pub scheduled: Option<Scheduled>,
}

/// What a period holds in entries dated after today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheduled {
    /// Their total on the report's accounts, natural sign.
    pub amount: Money,
    /// How many entries.
    pub count: u32,
}

/// One month-end point of `net_worth_history`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetWorthPoint {
    /// The month (values at its last day).
    pub month: YearMonth,
    /// Assets.
    pub assets: Money,
    /// Liabilities (owed, positive).
    pub liabilities: Money,
    /// Assets minus liabilities.
    pub net_worth: Money,
}

/// Result of `net_worth_history`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetWorthHistory {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// One point per month of the range, in order.
    pub points: Vec<NetWorthPoint>,
}

/// Whether a snapshot agrees with the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReconcileStatus {
    /// Equal.
    Matched,
    /// Different.
    Mismatch,
}

impl ReconcileStatus {
    /// `matched` or `mismatch`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReconcileStatus::Matched => "matched",
            ReconcileStatus::Mismatch => "mismatch",
        }
    }
}

/// One account's latest snapshot against the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconcileRow {
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// The latest snapshot's date.
    pub snapshot_date: LocalDate,
    /// The balance the person saw.
    pub snapshot_balance: Money,
    /// The ledger's balance at the end of that date (natural sign).
    pub ledger_balance: Money,
    /// `snapshot_balance - ledger_balance`.
    pub difference: Money,
    /// Matched or mismatch.
    pub status: ReconcileStatus,
}

/// Result of `reconcile`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reconciliation {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// Accounts that have a snapshot, by name.
    pub accounts: Vec<ReconcileRow>,
    /// When the `account` filter's name is also archived accounts': which one was used.
    pub account_choice: Option<AccountChoice>,
}
