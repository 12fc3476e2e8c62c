//! `join_vault`: join another person's vault with their invite code.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{InviteCodeArg, NameArg};
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::wire::{MemberOut, RoleWire, VaultOut};

/// Arguments of `join_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    /// The code as given (case, spaces, dashes ignored).
    invite_code: InviteCodeArg,
    /// Your own name for the vault; needed only when you already have a vault with its name.
    name: Option<NameArg>,
    /// The name the other members see you by (default: your sign-in name; numbered if taken).
    display_name: Option<NameArg>,
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
    const DESCRIPTION: &'static str = "Joins a vault someone shared with you, with their invite code; it then appears in list_vaults. `displayName`: how the other members see you; `name` only when you already have a vault of that name.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"inviteCode": "7K2M-QX4P-9RTW-HB3N-5CZA-8VDE-1FGJ", "displayName": "준호"}"#,
            r#"{"inviteCode": "7K2M-QX4P-9RTW-HB3N-5CZA-8VDE-1FGJ", "displayName": "준호", "name": "우리집"}"#,
        ],
        &[r#"{}"#, r#"{"inviteCode": 12345}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let j = ledger
            .join_vault_as(
                who,
                &args.invite_code,
                args.name.as_deref(),
                args.display_name.as_deref(),
            )
            .await?;
        Ok(Output {
            vault: j.vault.into(),
            role: j.role.into(),
            members: j.members.into_iter().map(Into::into).collect(),
        })
    }
}
