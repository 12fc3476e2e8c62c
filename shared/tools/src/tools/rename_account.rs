//! `rename_account`: give a live account a new name.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{UuidOut, VaultOut};

/// Arguments of `rename_account`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Current name of the account (as list_accounts shows it).
    account: AccountArg,
    /// The new name (at most 64 characters, unique among the vault's live accounts).
    new_name: NameArg,
}

/// Result of `rename_account`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The account's id (unchanged).
    account_id: UuidOut,
    /// The account's name now; use it from now on.
    name: String,
}

/// The `rename_account` tool.
pub(crate) struct RenameAccount;

#[async_trait]
impl Operation for RenameAccount {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "rename_account";
    const TITLE: &'static str = "Rename an account";
    const DESCRIPTION: &'static str = "Renames a live account, found by its current name. Its balance and history are unchanged, and past transactions show the new name. Use the new name in later calls.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(true);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let a = ledger
            .rename_account(who, args.vault.as_deref(), &args.account, &args.new_name)
            .await?;
        Ok(Output {
            vault: a.vault.into(),
            account_id: a.account_id.into(),
            name: a.name,
        })
    }
}
