//! `leave_vault`: stop keeping a shared vault.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, destructive, Operation};
use crate::text;
use crate::wire::VaultOut;

/// Arguments of `leave_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
}

/// Result of `leave_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault left (its entries stay with the other members).
    vault: VaultOut,
    /// True: it no longer appears in list_vaults.
    left: bool,
}

/// The `leave_vault` tool.
pub(crate) struct LeaveVault;

#[async_trait]
impl Operation for LeaveVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "leave_vault";
    const TITLE: &'static str = "Leave a shared vault";
    const DESCRIPTION: &'static str = "Leaves a shared vault; it stays with the others, with every entry. The last owner hands over first; the only member cannot leave.";
    const KIND: Kind = destructive(true);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let l = ledger.leave_vault(who, args.vault.as_deref()).await?;
        Ok(Output {
            vault: l.vault.into(),
            left: l.left,
        })
    }
}
