//! `list_members`: who keeps a vault, with role and when they joined.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Operation, READ, READ_ONLY};
use crate::text;
use crate::wire::{MemberOut, VaultOut};

/// Arguments of `list_members`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
}

/// Result of `list_members`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::MEMBERS)]
    members: Vec<MemberOut>,
}

/// The `list_members` tool.
pub(crate) struct ListMembers;

#[async_trait]
impl Operation for ListMembers {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_members";
    const TITLE: &'static str = "List a vault's members";
    const DESCRIPTION: &'static str = "Lists the people who keep a vault: each one's name, role (owner or member) and the date they joined; `you` marks the caller. Use a name shown here as `member` in remove_member.";
    const SCOPE: &'static str = READ;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = READ_ONLY;

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let list = ledger.list_members(who, args.vault.as_deref()).await?;
        Ok(Output {
            vault: list.vault.into(),
            members: list.members.into_iter().map(Into::into).collect(),
        })
    }
}
