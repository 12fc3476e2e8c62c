//! `leave_vault`: stop keeping a shared vault.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Operation, WRITE, destructive};
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
    const DESCRIPTION: &'static str = "Leaves a vault shared with others; it stays with them, with every entry. The last owner cannot leave while others remain (the error says how to hand over), and the only member cannot leave.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = destructive(false);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let l = ledger.leave_vault(who, args.vault.as_deref()).await?;
        Ok(Output {
            vault: l.vault.into(),
            left: l.left,
        })
    }
}
