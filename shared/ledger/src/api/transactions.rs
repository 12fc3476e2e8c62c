//! Entries: what is sent to record, split or edit one or many, what a write answers, and reading them back.

use super::*;
use dochiya_domain::{AccountId, Currency, Decimal, LocalDate, Money, TransactionId};

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
    /// What is wrong with it, in the caller's words.
    pub message: String,
    /// The text sent, when the input is an amount (judged against the vault's currency).
    pub sent: Option<String>,
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
