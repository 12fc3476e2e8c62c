//! `void_transaction`: keep the record, reverse its effect.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{MemoArg, NameArg, TransactionIdArg};
use crate::operation::{Kind, destructive, Operation};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{OperationIdOut, TransactionOut, VaultOut};

/// Arguments of `void_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    #[schemars(description = text::TRANSACTION_ID)]
    transaction_id: TransactionIdArg,
    /// Why, e.g. "entered twice".
    reason: Option<MemoArg>,
}

/// Result of `void_transaction`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The transaction, now voided: the record stays, it no longer counts in any balance.
    transaction: TransactionOut,
    /// True when it had already been voided before this call (nothing changed now).
    already_voided: bool,
    /// Balances of the accounts it touched, after the void, as of today (entries dated later are apart, as scheduled).
    balances: Vec<BalanceOut>,
    /// The write's operation: pass it to undo to take the whole write back.
    #[serde(skip_serializing_if = "Option::is_none")]
    operation_id: Option<OperationIdOut>,
}

/// The `void_transaction` tool.
pub(crate) struct VoidTransaction;

#[async_trait]
impl Operation for VoidTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "void_transaction";
    const TITLE: &'static str = "Void a transaction";
    const DESCRIPTION: &'static str = "Cancels an entry (취소): it stays, marked voided, and stops counting in balances and reports. A wrong amount, date or account: edit_transaction instead. Confirm with the user first.";
    // Voiding a voided transaction changes nothing and says so (docs/design.md §6).
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"transactionId": "4818349038087529260", "reason": "중복"}"#],
            &[r#"{"transactionId": 4818349038087529260}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let v = ledger
            .void_transaction(
                who,
                args.vault.as_deref(),
                args.transaction_id.0,
                args.reason.as_deref(),
            )
            .await?;
        Ok(Output {
            vault: v.vault.into(),
            currency: v.currency.code().to_owned(),
            transaction: v.transaction.into(),
            already_voided: v.already_voided,
            balances: v.balances.into_iter().map(BalanceOut::from).collect(),
            operation_id: v.operation_id.map(Into::into),
        })
    }
}
