//! The result shared by `record_transaction` and `record_split_transaction`.

use dochiya_domain::Reading;
use dochiya_ledger::api::{DirectionNote, Recorded};
use schemars::JsonSchema;
use serde::Serialize;

use crate::text;
use crate::wire::{AmountOut, OperationIdOut, RecordedId, TransactionOut, UuidOut, VaultOut};

/// Result of recording a transaction.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The transaction as recorded (or as it would be, on a dry run: marked preview, without a transactionId). Keep its transactionId to look it up or void it later.
    transaction: TransactionOut<RecordedId>,
    #[schemars(description = text::WRITE_BALANCES)]
    balances: Vec<BalanceOut>,
    /// True when this is the stored result of an earlier call with the same idempotencyKey: nothing new was written, the entry exists once.
    replayed: bool,
    /// True when dryRun was set: nothing was written, this is a preview.
    dry_run: bool,
    /// On a replay, when the entry changed since (voided or edited): the transaction as it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<TransactionOut>,
    /// Present when the direction is unusual: how the entry reads (it is recorded as sent). Check it against what the user meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// The write's operation: pass it to undo to take the whole write back.
    #[serde(skip_serializing_if = "Option::is_none")]
    operation_id: Option<OperationIdOut>,
    /// When `to` was left out: the word of the memo that chose the category. Tell the user which.
    #[serde(skip_serializing_if = "Option::is_none")]
    categorized_by: Option<crate::wire::CategorizedByOut>,
}

/// An account's balance after the write: as of today, later-dated entries apart.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BalanceOut {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    #[schemars(description = text::BALANCE)]
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
}

impl From<dochiya_ledger::api::AccountBalance> for BalanceOut {
    fn from(b: dochiya_ledger::api::AccountBalance) -> Self {
        Self {
            account_id: b.account_id.into(),
            account: b.account,
            balance: b.balance.into(),
            scheduled: b.scheduled.map(Into::into),
        }
    }
}

impl From<Recorded> for Output {
    fn from(r: Recorded) -> Self {
        Self {
            vault: r.vault.into(),
            currency: r.currency.code().to_owned(),
            transaction: r.transaction.into(),
            balances: r.balances.into_iter().map(BalanceOut::from).collect(),
            replayed: r.replayed,
            dry_run: r.dry_run,
            current: r.current.map(Into::into),
            note: r.note.as_ref().map(note),
            operation_id: r.operation_id.map(Into::into),
            categorized_by: r.categorized_by.map(Into::into),
        }
    }
}

/// How an entry with an unusual direction reads, in one sentence with the fix if it is backwards.
pub(crate) fn note(n: &DirectionNote) -> String {
    let (from, to) = (&n.from, &n.to);
    match n.reading {
        Reading::Refund => {
            format!("Reads as a refund of {from} into {to}; if this is spending, swap from and to.")
        }
        Reading::IncomeReturned => format!(
            "Reads as {to} income paid back out of {from}; if this is income received, swap from and to."
        ),
        Reading::RefundAsIncome => format!(
            "Reads as {from} spending moved into the income account {to}; a refund goes back to the account that paid."
        ),
        Reading::SpendingMoved => format!(
            "Reads as spending moved from {from} to {to}; a purchase comes from the account that paid."
        ),
        Reading::IncomeMoved => format!(
            "Reads as income moved from {from} to {to}; income received goes to the account it arrived in."
        ),
        Reading::ThroughEquity => format!(
            "Reads as an adjustment between {from} and {to} through equity, which is normally only for opening balances."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reading_is_worded_with_both_accounts() {
        let n = |reading, from: &str, to: &str| {
            note(&DirectionNote {
                reading,
                from: from.into(),
                to: to.into(),
            })
        };
        assert_eq!(
            [
                n(Reading::Refund, "식비", "카카오뱅크"),
                n(Reading::IncomeReturned, "카카오뱅크", "월급"),
                n(Reading::RefundAsIncome, "식비", "월급"),
                n(Reading::SpendingMoved, "쇼핑", "식비"),
                n(Reading::IncomeMoved, "월급", "상여"),
                n(Reading::ThroughEquity, "식비", "기초잔액"),
            ],
            [
                "Reads as a refund of 식비 into 카카오뱅크; if this is spending, swap from and to.",
                "Reads as 월급 income paid back out of 카카오뱅크; if this is income received, swap from and to.",
                "Reads as 식비 spending moved into the income account 월급; a refund goes back to the account that paid.",
                "Reads as spending moved from 쇼핑 to 식비; a purchase comes from the account that paid.",
                "Reads as income moved from 월급 to 상여; income received goes to the account it arrived in.",
                "Reads as an adjustment between 식비 and 기초잔액 through equity, which is normally only for opening balances.",
            ]
        );
    }
}
