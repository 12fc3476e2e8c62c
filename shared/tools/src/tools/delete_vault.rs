//! `delete_vault`: delete a vault and everything of it (decision 057).

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{DeletedCounts, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::wire::VaultOut;

/// Arguments of `delete_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT_REQUIRED)]
    vault: NameArg,
    /// The vault's name again, as the person typed it to confirm.
    confirm: NameArg,
    #[schemars(description = text::DRY_RUN)]
    dry_run: Option<bool>,
}

/// What went with the vault (or would, in a dry run).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Deleted {
    /// Transactions, live and voided.
    entries: u64,
    /// Accounts, live and archived.
    accounts: u64,
    /// Members who kept the vault, you included; they lost access at once.
    members: u64,
    /// Recurring schedules.
    schedules: u64,
    /// Budget settings.
    budgets: u64,
    /// Balance snapshots.
    snapshots: u64,
}

impl From<DeletedCounts> for Deleted {
    fn from(c: DeletedCounts) -> Self {
        Self {
            entries: c.entries,
            accounts: c.accounts,
            members: c.members,
            schedules: c.schedules,
            budgets: c.budgets,
            snapshots: c.snapshots,
        }
    }
}

/// Result of `delete_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault deleted; its name is free again.
    vault: VaultOut,
    /// What went with it.
    deleted: Deleted,
    /// True: nothing was deleted; `deleted` is what would go.
    dry_run: bool,
}

/// The `delete_vault` tool.
pub(crate) struct DeleteVault;

#[async_trait]
impl Operation for DeleteVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "delete_vault";
    const TITLE: &'static str = "Delete a vault";
    const DESCRIPTION: &'static str = "Deletes a vault and everything in it for good (owner only; every member loses it). Only when the person asks: dryRun first to show what goes, then confirm with the vault's name as they typed it. export_transactions keeps a copy.";
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"vault": "우리집", "confirm": "우리집"}"#,
            r#"{"vault": "우리집", "confirm": "우리집", "dryRun": true}"#,
        ],
        &[r#"{"vault": "우리집"}"#, r#"{"confirm": "우리집"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let d = ledger
            .delete_vault(who, &args.vault, &args.confirm, args.dry_run.unwrap_or(false))
            .await?;
        Ok(Output {
            vault: d.vault.into(),
            deleted: d.deleted.into(),
            dry_run: d.dry_run,
        })
    }
}
