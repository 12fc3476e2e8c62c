//! `remove_member`: an owner takes a person out of a vault.

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

/// Arguments of `remove_member`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Their name among list_vaults' members.
    member: NameArg,
}

/// Result of `remove_member`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The member's name.
    member: String,
    /// True: they can no longer read or write this vault.
    removed: bool,
}

/// The `remove_member` tool.
pub(crate) struct RemoveMember;

#[async_trait]
impl Operation for RemoveMember {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "remove_member";
    const TITLE: &'static str = "Remove a member";
    const DESCRIPTION: &'static str = "Takes a person out of a vault at once (owner only); their entries stay. Members are listed by list_vaults. To leave yourself: leave_vault.";
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"member": "민지"}"#], &[r#"{}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let r = ledger
            .remove_member(who, args.vault.as_deref(), &args.member)
            .await?;
        Ok(Output {
            vault: r.vault.into(),
            member: r.member,
            removed: r.removed,
        })
    }
}
