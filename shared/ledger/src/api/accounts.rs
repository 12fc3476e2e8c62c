//! Accounts: the list with budgets, bills and goals, creating, renaming, archiving, the category tree.

use super::*;
use dochiya_domain::{AccountId, AccountKind, Currency, Decimal, LocalDate, Money, TransactionId};

/// One account in `list_accounts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountInfo {
    /// Its id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Balance at the end of today in the vault's zone, in the kind's natural sign.
    pub balance: Money,
    /// Net of entries dated after today (already recorded, not in `balance`), natural sign; `None` when there are none.
    pub scheduled: Option<Money>,
    /// Whether it is archived.
    pub archived: bool,
    /// An archived account's handle: the name that means it in every tool.
    pub handle: Option<String>,
    /// This month's budget (live expense accounts with one set).
    pub budget: Option<Money>,
    /// Its parent's name (a child category; an archived parent by its handle).
    pub parent: Option<String>,
    /// A card's billing cycle, when set.
    pub billing: Option<dochiya_domain::Billing>,
    /// A live card's next bill (the next payment on or after today), when billing is set.
    pub next_bill: Option<NextBill>,
    /// The member whose account it is (`None`: the household's).
    pub owner: Option<String>,
    /// The savings goal kept in it, and how far it is.
    pub goal: Option<super::GoalView>,
    /// Words that categorize into it, set ones first, then learned ones.
    pub match_words: Vec<super::WordOf>,
}

/// A card's next bill in `list_accounts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextBill {
    /// The day it is paid.
    pub due_date: LocalDate,
    /// Its total (charges, refunds and installment parts of its period).
    pub amount: Money,
    /// What is left of it once the card's payments have settled its bills in order.
    pub remaining: Money,
    /// What the card's 할부 still owes after this bill.
    pub installments_left: InstallmentsLeft,
}

/// What a card's open installment purchases (할부) still owe after a bill: the sum of
/// their parts on later bills, and how many purchases have such parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallmentsLeft {
    /// The parts still to be billed.
    pub amount: Money,
    /// The purchases they belong to.
    pub count: u32,
}

/// Result of `list_accounts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountList {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// Accounts by kind, then name.
    pub accounts: Vec<AccountInfo>,
}

/// Arguments of `create_account`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAccount {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The account's name (unique among the vault's live accounts).
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Opening balance in the kind's natural sign, posted against the opening-balance equity account.
    pub opening_balance: Option<Decimal>,
    /// Date of the opening balance (default today in the vault's zone).
    pub opening_date: Option<LocalDate>,
    /// The parent (대분류) of a new income or expense account, by name.
    pub parent: Option<String>,
    /// A card's billing cycle (liabilities only).
    pub billing: Option<dochiya_domain::Billing>,
    /// The member whose account it is, by name (`None` or `""`: the household's).
    pub owner: Option<String>,
}

/// Result of `create_account`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedAccount {
    /// The vault.
    pub vault: VaultRef,
    /// Its id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Its balance at the end of today in the vault's zone (natural sign).
    pub balance: Money,
    /// Net of its entries dated after today (a later opening date), natural sign; `None` when there are none.
    pub scheduled: Option<Money>,
    /// `false` when a live account with that name and kind already existed (nothing written).
    pub created: bool,
    /// The opening-balance transaction, when one was recorded.
    pub opening_transaction_id: Option<TransactionId>,
}

/// Result of renaming an account (`update_account` with `newName`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedAccount {
    /// The vault.
    pub vault: VaultRef,
    /// Its id.
    pub account_id: AccountId,
    /// The new display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// False when it already had exactly that name (nothing written).
    pub changed: bool,
}

/// Result of changing an account's parent (`update_account` with `parent`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParentSet {
    /// The vault.
    pub vault: VaultRef,
    /// Its id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Its parent's name now (`None`: a top-level account).
    pub parent: Option<String>,
    /// False when it already had that parent (nothing written).
    pub changed: bool,
}

/// Result of bringing an archived account back (`update_account` with `archive: false`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoredAccount {
    /// The vault.
    pub vault: VaultRef,
    /// Its id.
    pub account_id: AccountId,
    /// Its display name now.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// False when it was live already: nothing was written.
    pub restored: bool,
}

/// Result of archiving an account (`update_account` with `archive: true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedAccount {
    /// The vault.
    pub vault: VaultRef,
    /// Its id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Its balance at the end of today when archived (natural sign); history stays.
    pub balance: Money,
    /// Net of its entries dated after today, natural sign; `None` when there are none.
    pub scheduled: Option<Money>,
}
