//! `delete_snapshot`: remove a mistyped balance snapshot.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DateArg, NameArg};
use crate::operation::{Operation, WRITE, destructive};
use crate::text;
use crate::wire::{DateOut, UuidOut, VaultOut};

/// Arguments of `delete_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// The account whose snapshot to remove (a name).
    account: AccountArg,
    /// The snapshot's date, YYYY-MM-DD (list_snapshots shows them).
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
    const DESCRIPTION: &'static str = "Deletes an account's balance snapshot on a date (e.g. one saved with a mistyped date), so reconcile no longer uses it. Transactions are not touched. Deleting one that does not exist changes nothing and says deleted: false. Confirm with the user first.";
    const SCOPE: &'static str = WRITE;
    // Deleting what is already gone changes nothing and says so.
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = destructive(true);

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
