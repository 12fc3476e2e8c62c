//! `join_vault`: join another person's vault with their invite code.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{InviteCodeArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{MemberOut, RoleWire, VaultOut};

/// Arguments of `join_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    /// The invite code exactly as the other person gave it (case, spaces and dashes do not matter).
    invite_code: InviteCodeArg,
    /// The name the other members see you by (default: your sign-in name; numbered if taken).
    name: Option<NameArg>,
    /// Your own name for the vault; needed only when you already have a vault with its name.
    vault_name: Option<NameArg>,
}

/// Result of `join_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault joined, under your name for it; pass it as `vault`.
    vault: VaultOut,
    /// Your role in it.
    role: RoleWire,
    #[schemars(description = text::MEMBERS)]
    members: Vec<MemberOut>,
}

/// The `join_vault` tool.
pub(crate) struct JoinVault;

#[async_trait]
impl Operation for JoinVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "join_vault";
    const TITLE: &'static str = "Join a shared vault";
    const DESCRIPTION: &'static str = "Joins a vault someone shared with you (share_vault gave them the code). From then on the vault appears in list_vaults and both of you record into the same book. If you already have a vault with that name, the error asks for `vaultName`: your own name for the joined vault.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(false);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let j = ledger
            .join_vault_as(
                who,
                &args.invite_code,
                args.vault_name.as_deref(),
                args.name.as_deref(),
            )
            .await?;
        Ok(Output {
            vault: j.vault.into(),
            role: j.role.into(),
            members: j.members.into_iter().map(Into::into).collect(),
        })
    }
}
