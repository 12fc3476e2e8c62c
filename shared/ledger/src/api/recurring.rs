//! Recurring entries: a schedule, its view, what is due.

use super::*;
use dochiya_domain::{Currency, Decimal, Every, LocalDate, Money, YearMonth};

/// Arguments of `set_recurring`: create, change or remove a schedule by name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecurringInput {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The schedule's name, unique in the vault (e.g. 월세).
    pub name: String,
    /// Account the money leaves (required to create).
    pub from: Option<String>,
    /// Account the money arrives at (required to create).
    pub to: Option<String>,
    /// Amount each time (required to create).
    pub amount: Option<Decimal>,
    /// Day of the month, 1–31 (`None`: the month's last day).
    pub day: Option<i64>,
    /// How often (default every month).
    pub every: Option<Every>,
    /// First date it may fall on (default today in the vault's zone).
    pub start: Option<LocalDate>,
    /// Last date it may fall on.
    pub end: Option<LocalDate>,
    /// Memo of every posting (default the schedule's name).
    pub memo: Option<String>,
    /// Tags every posting carries (at most 5; on a change `Some([])` clears them).
    pub tags: Option<Vec<String>>,
    /// Change the schedule of this name from its next date on (otherwise other settings are refused).
    pub change: bool,
    /// Stop it; what it posted stays.
    pub remove: bool,
}

/// A recurring schedule as results show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringView {
    /// Its name.
    pub name: String,
    /// Account the money leaves.
    pub from: String,
    /// Account the money arrives at.
    pub to: String,
    /// Amount each time.
    pub amount: Money,
    /// Day of the month (31: the last day).
    pub day: i8,
    /// How often.
    pub every: Every,
    /// First possible date.
    pub start: LocalDate,
    /// Last possible date.
    pub end: Option<LocalDate>,
    /// Its memo.
    pub memo: String,
    /// The tags its postings carry.
    pub tags: Vec<String>,
    /// The next date it will post (`None`: it has ended).
    pub next: Option<LocalDate>,
    /// The latest date it posted.
    pub last_posted: Option<LocalDate>,
    /// Set when it stopped posting: why, and the occurrence it stopped at.
    pub stuck: Option<Stuck>,
}

use crate::api::StuckReason;

/// A recurring entry that stopped posting: why, and the first occurrence it could not post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stuck {
    /// Why.
    pub reason: StuckReason,
    /// The occurrence it stopped at (nothing from that date on is posted until it is changed).
    pub since: LocalDate,
}

/// Result of `set_recurring`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringSet {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The schedule as it now is (as it was, when removed).
    pub recurring: RecurringView,
    /// Whether this call created it.
    pub created: bool,
    /// Whether this call changed it.
    pub changed: bool,
    /// Whether this call removed it.
    pub removed: bool,
}

/// One occurrence still to come in `list_recurring`'s month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upcoming {
    /// The schedule's name.
    pub name: String,
    /// The date it falls due.
    pub date: LocalDate,
    /// Its amount.
    pub amount: Money,
}

/// Result of `list_recurring`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringList {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The month shown.
    pub month: YearMonth,
    /// Every schedule, by name.
    pub recurring: Vec<RecurringView>,
    /// What is still to come in the month (after today), by date.
    pub upcoming: Vec<Upcoming>,
    /// Their total.
    pub upcoming_total: Money,
    /// Charges seen in three or more months in a row that no schedule covers.
    pub detected: Vec<super::DetectedCharge>,
}
