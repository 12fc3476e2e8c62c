//! Inputs and results of ledger operations: explicit types, never stored records.
//!
//! Inputs carry NAMES (vault, accounts) as the caller wrote them; the ledger
//! resolves them. Results carry ids and [`Money`]; the tools layer renders them
//! (money with `to_string()`, ids with `to_string()`, dates with `to_string()`).

use dochiya_domain::{
    AccountId, AccountKind, Currency, Decimal, Every, LocalDate, Money, ParseError, TransactionId, VaultId,
    VaultZone, YearMonth,
};

/// A vault as results name it: `{ vaultId, name }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultRef {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
}

/// One vault in `list_vaults`.
#[derive(Debug, Clone, PartialEq)]
pub struct VaultInfo {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
    /// Its currency.
    pub currency: Currency,
    /// Its IANA time zone.
    pub time_zone: String,
    /// Today's date in its time zone.
    pub today: LocalDate,
    /// Live (not archived) accounts.
    pub account_count: u32,
    /// The caller's role in it.
    pub role: Role,
    /// How many people keep it (1 until it is shared).
    pub member_count: u32,
    /// Who keeps it, oldest first, the caller marked.
    pub members: Vec<MemberInfo>,
}

/// Result of `list_vaults`.
#[derive(Debug, Clone, PartialEq)]
pub struct VaultList {
    /// The caller's vaults, by name.
    pub vaults: Vec<VaultInfo>,
}

/// Arguments of `create_vault`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewVault {
    /// The name (unique among the caller's vaults).
    pub name: String,
    /// Default KRW.
    pub currency: Option<Currency>,
    /// Default Asia/Seoul.
    pub time_zone: Option<VaultZone>,
}

/// Result of `create_vault`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatedVault {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
    /// Its currency.
    pub currency: Currency,
    /// Its IANA time zone.
    pub time_zone: String,
    /// Today in its zone.
    pub today: LocalDate,
    /// `false` when a vault with that name and the same settings already existed.
    pub created: bool,
}

/// Result of `rename_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedVault {
    /// Its id.
    pub vault_id: VaultId,
    /// The new display name.
    pub name: String,
    /// False when it already had exactly that name (nothing written).
    pub changed: bool,
}

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

/// One posting of a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    /// The account.
    pub account_id: AccountId,
    /// The account's current display name.
    pub account: String,
    /// Signed: positive debits, negative credits; a transaction's postings sum to zero.
    pub amount: Money,
}

/// A transaction as results show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    /// Its id.
    pub transaction_id: TransactionId,
    /// Its date in the vault's zone.
    pub date: LocalDate,
    /// Its memo (may be empty).
    pub memo: String,
    /// Whether it was voided (its effect reversed, the record kept).
    pub voided: bool,
    /// Who recorded it (their display name then); `None` for entries from before sharing.
    pub recorded_by: Option<String>,
    /// Its postings, `to` lines (debits) first in the order given, then `from` lines.
    pub postings: Vec<Posting>,
    /// 1 when recorded, one more with each edit.
    pub version: u32,
    /// Its earlier versions, oldest first (only where a result shows one
    /// transaction: get_transaction and edits; empty in listings).
    pub history: Vec<TransactionVersion>,
    /// Why it was voided, when it was (may be empty).
    pub void_reason: Option<String>,
    /// When it was voided.
    pub voided_at: Option<jiff::Timestamp>,
    /// Who voided it (their display name then); `None` for entries voided before this was kept.
    pub voided_by: Option<String>,
    /// The recurring schedule that posted it, by name (`None`: entered by hand).
    pub recurring: Option<String>,
    /// An installment purchase's count of monthly parts (`None`: one-time).
    pub installments: Option<u8>,
    /// Not stored: a dry run's preview. A preview of a new entry has a placeholder
    /// id that was never stored (results must not show it); an edit's keeps its real id.
    pub preview: bool,
    /// Its tags as written (empty: none).
    pub tags: Vec<String>,
    /// The operation whose change it shows now (`None`: entries from before operations).
    pub operation_id: Option<OperationId>,
    /// When it was recorded (`None`: entries from before this was kept).
    pub recorded_at: Option<jiff::Timestamp>,
    /// Whose spending it was when not its categories': a member's name, or `"shared"`.
    pub for_whom: Option<String>,
}

/// An earlier version of an edited transaction: its content until an edit replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionVersion {
    /// Which version this was.
    pub version: u32,
    /// Its date then.
    pub date: LocalDate,
    /// Its memo then.
    pub memo: String,
    /// Its postings then.
    pub postings: Vec<Posting>,
    /// When the edit replaced it.
    pub replaced_at: jiff::Timestamp,
}

/// An account's balance after a write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountBalance {
    /// The account.
    pub account_id: AccountId,
    /// Its display name.
    pub account: String,
    /// Balance at the end of today in the vault's zone (when the write happened), natural sign.
    pub balance: Money,
    /// Net of entries dated after that day (not in `balance`), natural sign; `None` when there are none.
    pub scheduled: Option<Money>,
}

/// Arguments of `record_transaction`: money leaves `from` and arrives at `to`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTransaction {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Account the money leaves (credited).
    pub from: String,
    /// Account the money arrives at (debited).
    pub to: String,
    /// Positive amount in the vault currency's major unit.
    pub amount: Decimal,
    /// Default today in the vault's zone.
    pub date: Option<LocalDate>,
    /// Optional memo.
    pub memo: Option<String>,
    /// Made up by the caller per entry and reused unchanged on retries of that entry.
    pub idempotency_key: String,
    /// Record even if an identical transaction was recorded minutes ago.
    pub allow_duplicate: bool,
    /// A date more than a year after today was meant (otherwise refused as a likely typo).
    pub future_date: bool,
    /// Validate and show the result without writing.
    pub dry_run: bool,
    /// The statement line's own id (card approval number, bank transaction id):
    /// unique per vault, so a line already recorded is refused.
    pub external_ref: Option<String>,
    /// Its tags (at most 5; see `domain::parse_tags`).
    pub tags: Vec<String>,
    /// Whose spending it was: a member's name, or `"shared"`.
    pub for_whom: Option<String>,
}

/// One line of a split.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitLine {
    /// Account name.
    pub account: String,
    /// Positive amount.
    pub amount: Decimal,
}

/// Arguments of `record_split_transaction`: the `from` and `to` sums must match.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSplit {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Lines the money leaves (credited).
    pub from: Vec<SplitLine>,
    /// Lines the money arrives at (debited).
    pub to: Vec<SplitLine>,
    /// Default today in the vault's zone.
    pub date: Option<LocalDate>,
    /// Optional memo.
    pub memo: Option<String>,
    /// See [`NewTransaction::idempotency_key`].
    pub idempotency_key: String,
    /// See [`NewTransaction::allow_duplicate`].
    pub allow_duplicate: bool,
    /// A date more than a year after today was meant (otherwise refused as a likely typo).
    pub future_date: bool,
    /// See [`NewTransaction::dry_run`].
    pub dry_run: bool,
    /// See [`NewTransaction::external_ref`].
    pub external_ref: Option<String>,
    /// Its tags (at most 5; see `domain::parse_tags`).
    pub tags: Vec<String>,
    /// A card purchase paid in this many monthly parts (one `from` line: a card with billing).
    pub installments: Option<dochiya_domain::Installments>,
    /// Whose spending it was: a member's name, or `"shared"` (see [`Transaction::for_whom`]).
    pub for_whom: Option<String>,
}

/// One simple entry of a batch (`record_transactions`).
#[derive(Debug, Clone, PartialEq)]
pub struct BatchEntry {
    /// Account the money leaves.
    pub from: String,
    /// Account the money arrives at.
    pub to: String,
    /// Positive amount in the vault currency's major unit.
    pub amount: Decimal,
    /// Default today in the vault's zone.
    pub date: Option<LocalDate>,
    /// Optional memo.
    pub memo: Option<String>,
    /// The statement line's own id; see [`NewTransaction::external_ref`].
    pub external_ref: Option<String>,
    /// A split entry's lines; when set, `from`, `to` and `amount` are not used.
    pub lines: Option<EditLines>,
    /// Its tags (at most 5; see `domain::parse_tags`).
    pub tags: Vec<String>,
    /// See [`NewSplit::installments`].
    pub installments: Option<dochiya_domain::Installments>,
    /// See [`NewSplit::for_whom`].
    pub for_whom: Option<String>,
}

/// A batch entry the caller's layer could not read (e.g. an amount that is no
/// number): it keeps its place and is reported as that entry's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// Which input of the entry.
    pub field: crate::api::Field,
    /// What is wrong with it.
    pub message: String,
}

/// Arguments of `record_transactions`: 1–100 entries, each recorded exactly once.
#[derive(Debug, Clone, PartialEq)]
pub struct NewBatch {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The entries in input order, or why one could not be read.
    pub entries: Vec<Result<BatchEntry, Unreadable>>,
    /// One key per batch, reused unchanged with the same entries on retries.
    pub idempotency_key: String,
    /// Record entries identical to one recorded minutes ago.
    pub allow_duplicate: bool,
    /// Check everything and write nothing.
    pub dry_run: bool,
}

/// What a duplicate entry matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    /// Its externalRef was recorded before (in this batch or earlier).
    ExternalRef,
    /// A live entry with the same accounts and amount, dated the same day.
    SameDate,
    /// A live entry with the same accounts and amount, dated a day before or after.
    DayApart,
    /// A live split entry whose posting on the line's card (or bank) account has the
    /// line's amount, dated within a day.
    Split,
    /// A live simple entry on the line's card (or bank) account with the line's
    /// amount and another category, dated within a day.
    OtherCategory,
    /// The installment part the book already derives for the line's card and bill
    /// (the line says `할부 n/m` or `n/m회차` and has that part's amount).
    Installment,
}

/// An entry already in the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duplicate {
    /// The existing transaction (for an installment part: the purchase).
    pub transaction_id: TransactionId,
    /// How it was found.
    pub matched_by: MatchedBy,
    /// Another live entry the line matches just as well that no other line took:
    /// the line is reported against the first, and the book may hold it twice.
    pub also: Option<TransactionId>,
}

/// What happened to one entry of a batch.
#[derive(Debug)]
pub enum EntryResult {
    /// Recorded: by this call, or (`replayed`) by an earlier call with the same key.
    /// No id on a dry run (it would be recorded).
    Recorded {
        /// The transaction.
        transaction_id: Option<TransactionId>,
        /// Recorded by an earlier call with this key; nothing written now.
        replayed: bool,
        /// On a replay: the transaction as it is now, when it changed since (edited, voided).
        current: Option<Box<Transaction>>,
        /// How the entry reads, when its direction is unusual.
        note: Option<DirectionNote>,
    },
    /// Already in the ledger; not recorded again.
    Duplicate(Duplicate),
    /// Not recorded: the error `record_transaction` would give for it.
    Failed(crate::api::LedgerError),
}

/// Result of `record_transactions`.
#[derive(Debug)]
pub struct BatchRecorded {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// One result per entry, in input order.
    pub results: Vec<EntryResult>,
    /// Balances after the batch of the accounts its recorded entries touch, in first-touch order.
    pub balances: Vec<AccountBalance>,
    /// `true` when nothing was written because `dry_run` was asked.
    pub dry_run: bool,
    /// The batch's operation (`undo` takes back every entry it recorded); `None` on a dry run.
    pub operation_id: Option<OperationId>,
    /// Per entry, in input order: how it was categorized when its `to` was left out.
    pub categorized: Vec<Option<super::CategorizedBy>>,
}

/// Result of `record_transaction` and `record_split_transaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The transaction.
    pub transaction: Transaction,
    /// Balances of the accounts it touched, after it.
    pub balances: Vec<AccountBalance>,
    /// `true` when this is the stored result of an earlier call with the same key (nothing written now).
    pub replayed: bool,
    /// `true` when nothing was written because `dry_run` was asked.
    pub dry_run: bool,
    /// On a replay: the transaction as it is now, when it changed since (edited, voided).
    pub current: Option<Transaction>,
    /// How the entry reads, when its direction is unusual (it is recorded all the same).
    pub note: Option<DirectionNote>,
    /// The operation that recorded it; `None` on a dry run.
    pub operation_id: Option<OperationId>,
    /// How it was categorized, when `to` was left out.
    pub categorized_by: Option<super::CategorizedBy>,
}

/// An entry whose direction is unusual: how it reads, between which accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectionNote {
    /// How it reads.
    pub reading: dochiya_domain::Reading,
    /// The account the money left (its current name).
    pub from: String,
    /// The account the money arrived at (its current name).
    pub to: String,
}

/// A correction of a transaction (`edit_transaction`): only what is `Some` changes.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionEdit {
    /// Vault name; `None` when the caller has exactly one.
    pub vault: Option<String>,
    /// The transaction to correct; it keeps this id.
    pub transaction_id: TransactionId,
    /// The caller's key for this correction (a retry reuses it).
    pub idempotency_key: String,
    /// Refuse the edit unless the transaction is still at this version.
    pub expected_version: Option<u32>,
    /// New amount of a simple (one line each side) transaction.
    pub amount: Option<Decimal>,
    /// New date.
    pub date: Option<LocalDate>,
    /// New memo (empty clears it).
    pub memo: Option<String>,
    /// New account the money leaves (simple transaction).
    pub from: Option<String>,
    /// New account the money arrives at (simple transaction).
    pub to: Option<String>,
    /// Every line anew (any transaction); not together with `amount`, `from`, `to`.
    pub lines: Option<EditLines>,
    /// A new date more than a year after today was meant.
    pub future_date: bool,
    /// Check and show the result, write nothing.
    pub dry_run: bool,
    /// Its tags anew (`Some(vec![])` removes every tag; `None` keeps them).
    pub tags: Option<Vec<String>>,
    /// Whose spending it was anew: a member's name, `"shared"`, or `""` (by its categories again).
    pub for_whom: Option<String>,
}

/// The lines of a corrected transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct EditLines {
    /// Lines the money leaves.
    pub from: Vec<SplitLine>,
    /// Lines the money arrives at.
    pub to: Vec<SplitLine>,
}

/// Result of `edit_transaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The transaction after the edit (same id, new version, with its history).
    pub transaction: Transaction,
    /// Balances of every account the transaction touched before or after, after the edit.
    pub balances: Vec<AccountBalance>,
    /// `false` when the edit asked for what was already there (nothing written).
    pub changed: bool,
    /// `true` when this is the stored result of an earlier call with the same key.
    pub replayed: bool,
    /// `true` when nothing was written because `dry_run` was asked.
    pub dry_run: bool,
    /// On a replay: the transaction as it is now, when it changed since (edited again, voided).
    pub current: Option<Transaction>,
    /// The edit's operation; `None` when nothing was written.
    pub operation_id: Option<OperationId>,
}

/// Result of `void_transaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voided {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The transaction, now voided.
    pub transaction: Transaction,
    /// `true` when it had already been voided (nothing written now).
    pub already_voided: bool,
    /// Balances of the accounts it touched, after the void (as of today, later entries apart).
    pub balances: Vec<AccountBalance>,
    /// The operation that voided it (`None`: voided before operations were kept).
    pub operation_id: Option<OperationId>,
}

/// Result of `get_transaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionView {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The transaction.
    pub transaction: Transaction,
}

/// Arguments of `list_transactions`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactionQuery {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Only transactions touching this account.
    pub account: Option<String>,
    /// Earliest date, inclusive.
    pub from: Option<LocalDate>,
    /// Latest date, inclusive.
    pub to: Option<LocalDate>,
    /// Memo contains this text (normalized, case-insensitive).
    pub text: Option<String>,
    /// 1–200, default 50.
    pub limit: Option<u32>,
    /// `nextCursor` of the previous page, with the same filters.
    pub cursor: Option<String>,
    /// Also list voided entries (default: left out).
    pub include_voided: bool,
    /// Only transactions carrying this tag.
    pub tag: Option<String>,
    /// Newest recorded first (`order: "recorded"`) instead of newest date first.
    pub order_recorded: bool,
    /// Only entries this member recorded: a member's name, or `"me"` for the caller's own.
    pub recorded_by: Option<String>,
}

/// Result of `list_transactions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionPage {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// Newest first (by date, then by recording order).
    pub transactions: Vec<Transaction>,
    /// Present when more may follow; pass it back as `cursor` with the same filters.
    /// A page may hold fewer than `limit` transactions and still have a cursor.
    pub next_cursor: Option<String>,
    /// When the `account` filter's name is also archived accounts': which one was used.
    pub account_choice: Option<AccountChoice>,
}

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

/// Arguments of `set_budget`.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetInput {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The expense account's name.
    pub account: String,
    /// The month's amount; zero clears the budget.
    pub amount: Decimal,
    /// The month it is set for (default this month in the vault's zone).
    pub month: Option<YearMonth>,
    /// Whether later months keep it until a later setting (`None`: that month's own
    /// setting's, else true).
    pub repeat: Option<bool>,
    /// What is left of the month, or overspent, carries into the next (`None`: as the
    /// setting in force that month says, else false).
    pub rollover: Option<bool>,
}

/// Result of `set_budget`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetSet {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The account's id.
    pub account_id: AccountId,
    /// The account's name.
    pub account: String,
    /// The month set.
    pub month: YearMonth,
    /// The amount set (zero: cleared).
    pub amount: Money,
    /// Whether later months keep it.
    pub repeat: bool,
    /// Whether what is left carries into the next month.
    pub rollover: bool,
}

/// One budgeted account in `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetRow {
    /// The account's id.
    pub account_id: AccountId,
    /// The account's name.
    pub account: String,
    /// The month's budget.
    pub budget: Money,
    /// Spent in the month, refunds subtracted.
    pub spent: Money,
    /// `budget + carried - spent` (negative when over).
    pub remaining: Money,
    /// `spent * 100 / (budget + carried)`, rounded down while within it and up once
    /// over it; `None` when nothing is available (carried overspending ate the budget).
    pub percent_used: Option<i64>,
    /// `spent > budget + carried`; then `percent_used`, when present, is above 100.
    pub over: bool,
    /// Carried from the months before (rollover on in the month before; `None` when off).
    pub carried: Option<Money>,
}

/// Sums over the budgeted accounts of a `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetTotals {
    /// Sum of the budgets.
    pub budget: Money,
    /// Sum of their spending.
    pub spent: Money,
    /// `budget + carried - spent`, over the rows.
    pub remaining: Money,
    /// Whole percent of budget + carried used, rounded as the rows' are; `None` when
    /// nothing is available (no budget set, or carried overspending ate it).
    pub percent_used: Option<i64>,
    /// `remaining < 0`; then `percent_used`, when present, is above 100.
    pub over: bool,
}

/// Result of `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetReport {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The month reported.
    pub month: YearMonth,
    /// Budgeted live expense accounts, by name.
    pub rows: Vec<BudgetRow>,
    /// Sums over the rows.
    pub totals: BudgetTotals,
    /// Spent in expense accounts with no budget in force (or archived).
    pub unbudgeted_spent: Money,
    /// Current month only: days left, today included.
    pub days_left: Option<u32>,
    /// Current month only: `max(totals.remaining, 0) / days_left`, rounded down to the minor unit.
    pub daily_allowance: Option<Money>,
    /// Expense entries of the month dated after today: not in `spent` yet.
    pub scheduled: Option<Scheduled>,
    /// Every savings goal of the vault, by name, as of today.
    pub goals: Vec<super::GoalView>,
}

/// A person's role in a vault: members record, edit, void, snapshot and read;
/// owners also rename and archive accounts, rename the vault, invite and remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Everything a member does, and managing the vault and its people.
    Owner,
    /// Keeps the book: records, edits, voids, snapshots, reads.
    Member,
}

impl Role {
    /// Lowercase word, as stored and as tools spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Member => "member",
        }
    }

    /// The role a word names.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "owner" => Some(Role::Owner),
            "member" => Some(Role::Member),
            _ => None,
        }
    }
}

/// Result of `share_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedInvite {
    /// The vault shared.
    pub vault: VaultRef,
    /// The code in its written form (seven groups of four); shown once, stored only hashed.
    pub invite_code: String,
    /// When it stops working.
    pub expires_at: jiff::Timestamp,
    /// The role it grants.
    pub role: Role,
}

/// One person keeping a vault, as results show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberInfo {
    /// Their display name.
    pub name: String,
    /// Their role.
    pub role: Role,
    /// The date they joined, in the vault's zone.
    pub joined_on: LocalDate,
    /// Whether this is the caller.
    pub you: bool,
}

/// Result of `join_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// The vault, under the joiner's name for it.
    pub vault: VaultRef,
    /// The joiner's role.
    pub role: Role,
    /// Everyone keeping it now, oldest first.
    pub members: Vec<MemberInfo>,
}

/// Result of `list_members`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberList {
    /// The vault.
    pub vault: VaultRef,
    /// Everyone keeping it, oldest first.
    pub members: Vec<MemberInfo>,
}

/// Result of `remove_member`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedMember {
    /// The vault.
    pub vault: VaultRef,
    /// The removed member's display name.
    pub member: String,
    /// Always true (a refusal is an error).
    pub removed: bool,
}

/// Result of `leave_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftVault {
    /// The vault left.
    pub vault: VaultRef,
    /// Always true (a refusal is an error).
    pub left: bool,
}

/// What a vault's deletion removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedCounts {
    /// Transactions, live and voided.
    pub entries: u64,
    /// Accounts, live and archived.
    pub accounts: u64,
    /// Members who kept the vault (the caller included).
    pub members: u64,
    /// Recurring schedules.
    pub schedules: u64,
    /// Budget settings (one per account and month set).
    pub budgets: u64,
    /// Balance snapshots.
    pub snapshots: u64,
}

/// Result of `delete_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeletedVault {
    /// The vault deleted.
    pub vault: VaultRef,
    /// What went with it.
    pub deleted: DeletedCounts,
    /// True: nothing was deleted, `deleted` is what would go.
    pub dry_run: bool,
}

/// Result of deleting a person (`Ledger::delete_person`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeletedPerson {
    /// The vaults deleted (they kept them alone), by their name.
    pub deleted: Vec<String>,
    /// The shared vaults left to the household.
    pub left: Vec<LeftShared>,
    /// Other items of theirs removed (ended memberships, idempotency records).
    pub records: u64,
}

/// A shared vault a deleted person left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftShared {
    /// Its name, as they knew it.
    pub vault: String,
    /// The member who became owner because they were its last one.
    pub new_owner: Option<String>,
}

// ---------------------------------------------------------------- names (archived handles)

/// Which account a read filter used when its name is a live account's that archived
/// accounts also had: the live one; the archived ones are reached by their handles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountChoice {
    /// The live account used.
    pub account_id: AccountId,
    /// Its name.
    pub name: String,
    /// The handles of the archived accounts with that name (pass one to mean it).
    pub archived: Vec<String>,
}

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

/// An operation's id: a 64-bit, time-ordered integer above 2^53, made like a
/// transaction id; it travels as a decimal string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OperationId(TransactionId);

impl OperationId {
    /// A new id from the current time (Unix ms) and randomness.
    pub fn generate(unix_ms: i64, random: u64) -> OperationId {
        OperationId(TransactionId::generate(unix_ms, random))
    }

    /// Parse the decimal text of an id (the content of a JSON string).
    pub fn parse(text: &str) -> Result<OperationId, ParseError> {
        TransactionId::parse(text).map(OperationId).map_err(|_| {
            ParseError::new(format!(
                "{} is not an operation id; ids are decimal strings of digits as a write returned them (operationId), e.g. \"4818349038087529260\"",
                dochiya_quote::quote(text.trim())
            ))
        })
    }

    /// Fixed-width (20-digit) form, for keys.
    pub fn to_key_string(self) -> String {
        self.0.to_key_string()
    }
}

impl std::fmt::Display for OperationId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Arguments of `undo`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UndoRequest {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The operation to take back; `None`: the caller's own latest in the vault.
    pub operation_id: Option<OperationId>,
    /// Check and show what would be undone, write nothing.
    pub dry_run: bool,
}

/// What an undo did (or would do) to one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoAction {
    /// A recorded entry, voided.
    Voided,
    /// An edited entry, back to the version before the edit (as a new version).
    Restored,
    /// A voided entry, counting again.
    Unvoided,
}

impl UndoAction {
    /// As results spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            UndoAction::Voided => "voided",
            UndoAction::Restored => "restored",
            UndoAction::Unvoided => "unvoided",
        }
    }
}

/// One entry an undo took back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoneEntry {
    /// The entry.
    pub transaction_id: TransactionId,
    /// What was done to it.
    pub action: UndoAction,
}

/// Result of `undo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The operation taken back.
    pub operation_id: OperationId,
    /// Every entry of the operation and what the undo did to it.
    pub undone: Vec<UndoneEntry>,
    /// Balances of the accounts those entries touch, after the undo.
    pub balances: Vec<AccountBalance>,
    /// `true` when the operation had been undone already (nothing written now).
    pub already_undone: bool,
    /// `true` when nothing was written because `dry_run` was asked.
    pub dry_run: bool,
}

/// One line of a card bill: a one-time charge or refund of its period, or one part of
/// an installment purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillItem {
    /// The transaction (for a part: the purchase).
    pub transaction_id: TransactionId,
    /// Its date (for a part: the purchase's).
    pub date: LocalDate,
    /// Its memo.
    pub memo: String,
    /// What it adds to the bill: a charge positive, a refund negative.
    pub amount: Money,
    /// For an installment part: which part (1-based) and of how many.
    pub part: Option<(u8, u8)>,
}

/// Result of `card_bill`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardBill {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The card's name.
    pub account: String,
    /// The usage period's first and last day.
    pub period: (LocalDate, LocalDate),
    /// The day the bill is paid.
    pub due_date: LocalDate,
    /// Its items: one-time entries by date, then installment parts by purchase date.
    pub items: Vec<BillItem>,
    /// The sum of the items.
    pub total: Money,
    /// What of `total` the card's payments settled, every payment paying the oldest
    /// unpaid bill first, whatever its date (decision 047).
    pub paid: Money,
    /// The part of `paid` that came from payments dated after the due date (`None`: none).
    pub paid_late: Option<Money>,
    /// `total` − `paid`.
    pub remaining: Money,
    /// What the card's 할부 still owes after this bill.
    pub installments_left: InstallmentsLeft,
    /// The card's 실적 over this bill's usage period, when the card has a setting.
    pub performance: Option<super::PerformanceView>,
}

/// Result of setting or clearing a card's billing (`update_account` with `billing`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingSet {
    /// The vault.
    pub vault: VaultRef,
    /// The card's id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind (always liability).
    pub kind: AccountKind,
    /// The cycle now (`None`: cleared).
    pub billing: Option<dochiya_domain::Billing>,
    /// False when it already was so (nothing written).
    pub changed: bool,
}

/// "an asset", "a liability", …
pub fn with_article(kind: AccountKind) -> String {
    match kind {
        AccountKind::Liability => "a liability".into(),
        other => format!("an {other}"),
    }
}
