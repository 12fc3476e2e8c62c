//! `share_vault`: an invite code another person uses to join a vault.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{RoleWire, VaultOut};

/// Arguments of `share_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// "member" (default: records, edits, voids, snapshots, reads) or "owner" (also renames and archives accounts, renames the vault, invites and removes people).
    role: Option<RoleWire>,
}

/// Result of `share_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The code to give the other person, exactly as shown; it works once.
    invite_code: String,
    /// When the code stops working (RFC 3339, UTC): 7 days from now.
    expires_at: String,
    /// The role the person gets on joining.
    role: RoleWire,
}

/// The `share_vault` tool.
pub(crate) struct ShareVault;

#[async_trait]
impl Operation for ShareVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "share_vault";
    const TITLE: &'static str = "Invite someone to a vault";
    const DESCRIPTION: &'static str = "Makes an invite code so another person (e.g. a partner keeping the household book together) can join this vault from their own client with join_vault. Show the code to the user to pass on; it works once and expires after 7 days. Only owners can invite. Each call makes a new code.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(false);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let role = args
            .role
            .map(Into::into)
            .unwrap_or(dochiya_ledger::ledger::Role::Member);
        let s = ledger.share_vault(who, args.vault.as_deref(), role).await?;
        Ok(Output {
            vault: s.vault.into(),
            invite_code: s.invite_code,
            expires_at: s.expires_at.to_string(),
            role: s.role.into(),
        })
    }
}
