//! `archive_account`: retire an account; its name is freed and its history stays.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg};
use crate::operation::{Operation, WRITE, destructive};
use crate::text;
use crate::wire::{AmountOut, UuidOut, VaultOut};

/// Arguments of `archive_account`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Name of the live account to archive (as list_accounts shows it).
    account: AccountArg,
    /// Archive it even though it still holds money (refused otherwise). Default false.
    force: Option<bool>,
}

/// Result of `archive_account`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    /// The archived account's name (now free for a new account).
    name: String,
    /// Always true: the account is archived.
    #[schemars(extend("const" = true))]
    archived: bool,
    /// Its balance as of today when archived, decimal string in the vault currency (natural sign); it still counts in balances.
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
}

/// The `archive_account` tool.
pub(crate) struct ArchiveAccount;

#[async_trait]
impl Operation for ArchiveAccount {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "archive_account";
    const TITLE: &'static str = "Archive an account";
    const DESCRIPTION: &'static str = "Archives an account the user no longer uses (e.g. a closed card). Its history stays in reports, but new transactions can no longer use it and its name becomes free for a new account. An account still holding money is refused: move the money first with record_transaction, or set force true. list_accounts with includeArchived true still shows it. Ask the user before archiving.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = destructive(false);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let a = ledger
            .archive_account(
                who,
                args.vault.as_deref(),
                &args.account,
                args.force.unwrap_or(false),
            )
            .await?;
        Ok(Output {
            vault: a.vault.into(),
            account_id: a.account_id.into(),
            name: a.name,
            archived: true,
            balance: a.balance.into(),
            scheduled: a.scheduled.map(Into::into),
        })
    }
}
