//! `edit_transaction`: correct an entry in place; the id stays, the previous version is kept.

use std::borrow::Cow;

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::{EditLines, Edited, TransactionEdit};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DateArg, KeyArg, MemoArg, NameArg, PositiveAmountArg, TagArg, TransactionIdArg};
use crate::lines::{Lines, split_argument};
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{OperationIdOut, TransactionOut, VaultOut};

/// Arguments of `edit_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// The id string, exactly as returned (never a number).
    transaction_id: TransactionIdArg,
    /// Made up once for this correction; on a retry reuse it unchanged.
    idempotency_key: KeyArg,
    /// Refuse unless the entry is still at this version.
    expected_version: Option<std::num::NonZeroU32>,
    /// New positive amount (simple entry), e.g. "9000".
    amount: Option<PositiveAmountArg>,
    /// New date, YYYY-MM-DD.
    date: Option<DateArg>,
    /// New memo ("" clears it).
    memo: Option<MemoArg>,
    /// New account money leaves (simple entry).
    from: Option<AccountArg>,
    /// New account money arrives at (simple entry).
    to: Option<AccountArg>,
    /// All lines anew (any entry); not with amount/from/to.
    lines: Option<Lines>,
    /// True if a date over a year ahead is meant.
    future_date: Option<bool>,
    /// True to preview; nothing written.
    dry_run: Option<bool>,
    /// Tags anew ([] removes them).
    tags: Option<Vec<TagArg>>,
    /// A member, "shared", or "" (by its categories again); see record_transaction.
    #[serde(rename = "for")]
    for_whom: Option<NameArg>,
}

/// Result of `edit_transaction`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The entry after the edit (same transactionId), with its version and earlier versions.
    transaction: TransactionOut,
    /// Balances of the accounts the entry touched before or after, after the edit, as of today (entries dated later are apart, as scheduled).
    balances: Vec<BalanceOut>,
    /// False when the arguments matched the entry already: nothing was written.
    changed: bool,
    /// True when this is the stored result of an earlier call with this idempotencyKey.
    replayed: bool,
    /// True when dryRun was set: nothing was written.
    dry_run: bool,
    /// On a replay, the entry as it is now, when it changed since (edited again or voided).
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<TransactionOut>,
    /// The write's operation: pass it to undo to take the whole write back.
    #[serde(skip_serializing_if = "Option::is_none")]
    operation_id: Option<OperationIdOut>,
}

impl From<Edited> for Output {
    fn from(e: Edited) -> Self {
        Self {
            vault: e.vault.into(),
            currency: e.currency.code().to_owned(),
            transaction: e.transaction.into(),
            balances: e.balances.into_iter().map(BalanceOut::from).collect(),
            changed: e.changed,
            replayed: e.replayed,
            dry_run: e.dry_run,
            current: e.current.map(Into::into),
            operation_id: e.operation_id.map(Into::into),
        }
    }
}

/// The `edit_transaction` tool.
pub(crate) struct EditTransaction;

#[async_trait]
impl Operation for EditTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "edit_transaction";
    const TITLE: &'static str = "Edit a transaction";
    const DESCRIPTION: &'static str = "Fixes a wrong entry in place (수정: amount, date, memo, accounts): send its transactionId and only what changes; the id stays and the old version is kept in its history. Prefer this to void + record again.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "amount": "9000", "date": "2026-03-02"}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "expectedVersion": 2, "lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "45000"}]}, "dryRun": true}"#,
            ],
            &[
                r#"{"transactionId": 4818349038087529260, "idempotencyKey": "k", "memo": "x"}"#,
                r#"{"transactionId": "4818349038087529260", "memo": "x"}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "expectedVersion": 0}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "lines": [{"account": "식비", "amount": "1"}]}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
            let edited = ledger
            .edit_transaction(
                who,
                TransactionEdit {
                    vault: args.vault.map(String::from),
                    transaction_id: args.transaction_id.0,
                    idempotency_key: args.idempotency_key.into(),
                    expected_version: args.expected_version.map(std::num::NonZeroU32::get),
                    amount: args.amount.map(|a| a.0),
                    date: args.date.map(|d| d.0),
                    memo: args.memo.map(String::from),
                    from: args.from.map(String::from),
                    to: args.to.map(String::from),
                    lines: args.lines.map(EditLines::from),
                    future_date: args.future_date.unwrap_or(false),
                    dry_run: args.dry_run.unwrap_or(false),
                    tags: args.tags.map(|t| t.into_iter().map(String::from).collect()),
                    for_whom: args.for_whom.map(String::from),
                },
            )
            .await?;
        Ok(edited.into())
    }

    fn argument(field: Field) -> Cow<'static, str> {
        split_argument(field)
    }
}
