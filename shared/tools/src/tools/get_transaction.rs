//! `get_transaction`: one transaction by its id.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{NameArg, TransactionIdArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{TransactionOut, VaultOut};

/// Arguments of `get_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    #[schemars(description = text::TRANSACTION_ID)]
    transaction_id: TransactionIdArg,
}

/// Result of `get_transaction`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    #[schemars(description = text::TRANSACTION)]
    transaction: TransactionOut,
}

/// The `get_transaction` tool.
pub(crate) struct GetTransaction;

#[async_trait]
impl Operation for GetTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "get_transaction";
    const TITLE: &'static str = "Get a transaction";
    const DESCRIPTION: &'static str = "One entry by transactionId: date, memo, signed postings, version and edit history. To correct it: edit_transaction; to cancel it: void_transaction.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"transactionId": "4818349038087529260"}"#],
            &[
                "{}",
                r#"{"transactionId": 4818349038087529260}"#,
                r#"{"transactionId": "0123"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let view = ledger
            .get_transaction(who, args.vault.as_deref(), args.transaction_id.0)
            .await?;
        Ok(Output {
            vault: view.vault.into(),
            currency: view.currency.code().to_owned(),
            transaction: view.transaction.into(),
        })
    }
}
