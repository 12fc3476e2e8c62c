//! The book plans and learns (issue 54): savings goals, a card's 실적, and recurring
//! charges detected, as the ledger takes and returns them.

use dochiya_domain::{Decimal, LocalDate, Money};

use super::VaultRef;

/// Arguments of `set_goal`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalInput {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The goal's name ("여행 자금").
    pub name: String,
    /// The asset account where the money is kept.
    pub account: String,
    /// What to reach, in the vault currency's major unit.
    pub target: Option<Decimal>,
    /// The day to reach it by.
    pub by: Option<LocalDate>,
    /// Stop the goal instead.
    pub remove: bool,
}

/// A goal and how far it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalView {
    /// Its name.
    pub name: String,
    /// The account it is kept in.
    pub account: String,
    /// What to reach.
    pub target: Money,
    /// The day to reach it by.
    pub by: Option<LocalDate>,
    /// The account's balance today.
    pub saved: Money,
    /// `max(target − saved, 0)`.
    pub left: Money,
    /// With `by`: what is still needed each month, this month through `by`'s, rounded up.
    pub monthly_needed: Option<Money>,
    /// With `by`: whether `saved` is at least the straight line from when the goal was
    /// set (at 0 progress) to `target` on `by`.
    pub on_track: Option<bool>,
}

/// Result of `set_goal`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalSet {
    /// The vault.
    pub vault: VaultRef,
    /// The goal as it is now (as it was, when removed).
    pub goal: GoalView,
    /// True when the goal is new.
    pub created: bool,
    /// True when this call stopped it.
    pub removed: bool,
}

/// A card's 실적 setting as given: the monthly spending that unlocks its benefits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerformanceInput {
    /// The amount to reach in a usage period.
    pub threshold: Decimal,
    /// Categories whose spending does not count (관리비, 세금, 상품권…), by name.
    pub exclude: Vec<String>,
}

/// A card's 실적 over one bill's usage period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerformanceView {
    /// What counted: charges less refunds, outside the excluded categories; a 할부
    /// purchase in full in the period it was made.
    pub counted: Money,
    /// The amount to reach.
    pub threshold: Money,
    /// `max(threshold − counted, 0)`.
    pub left: Money,
    /// What the excluded categories took (not counted).
    pub excluded: Money,
}

/// A charge seen month after month that no schedule covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectedCharge {
    /// Its memo, as in the latest entry.
    pub memo: String,
    /// The account it is paid from.
    pub from: String,
    /// Its category.
    pub to: String,
    /// The latest amount.
    pub amount: Money,
    /// The day of the month it usually comes (the latest entry's).
    pub day: u8,
    /// How many months in a row it came, through the latest.
    pub months: u32,
}

/// One word of an account's (`list_accounts` `match`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordOf {
    /// The word.
    pub word: String,
    /// Learned from the entries (else set with `update_account`).
    pub learned: bool,
}

/// Result of `update_account` with `match`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordsSet {
    /// The vault.
    pub vault: VaultRef,
    /// The account's id.
    pub account_id: dochiya_domain::AccountId,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: dochiya_domain::AccountKind,
    /// Its words now, set ones first.
    pub words: Vec<WordOf>,
    /// False when nothing differed.
    pub changed: bool,
}

/// How an entry sent without `to` was categorized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategorizedBy {
    /// The word that matched (a set word the memo contains, or its learned first word).
    pub word: String,
    /// The category chosen.
    pub account: String,
    /// The word was learned (else set).
    pub learned: bool,
}
