//! `delete_snapshot`: remove a mistyped balance snapshot.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DateArg, NameArg};
use crate::operation::{Kind, destructive, Operation};
use crate::text;
use crate::wire::{DateOut, UuidOut, VaultOut};

/// Arguments of `delete_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Bank account or card, e.g. "카카오뱅크".
    account: AccountArg,
    /// Its date, YYYY-MM-DD.
    date: DateArg,
}

/// Result of `delete_snapshot`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    /// The date.
    date: DateOut,
    /// False when there was no snapshot for that account on that date (nothing changed).
    deleted: bool,
}

/// The `delete_snapshot` tool.
pub(crate) struct DeleteSnapshot;

#[async_trait]
impl Operation for DeleteSnapshot {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "delete_snapshot";
    const TITLE: &'static str = "Delete a balance snapshot";
    const DESCRIPTION: &'static str = "Deletes an account's balance snapshot on a date (e.g. a mistyped one); transactions are untouched. Confirm with the user first.";
    // Deleting what is already gone changes nothing and says so.
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"account": "카카오뱅크", "date": "2027-11-30"}"#],
            &[
                r#"{"account": "카카오뱅크"}"#,
                r#"{"account": "카카오뱅크", "date": "2027/11/30"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let account: String = args.account.into();
        let d = ledger
            .delete_snapshot(
                who,
                args.vault.map(String::from).as_deref(),
                &account,
                args.date.0,
            )
            .await?;
        Ok(Output {
            vault: d.vault.into(),
            account_id: d.account_id.into(),
            account: d.account,
            date: d.date.into(),
            deleted: d.deleted,
        })
    }
}
