//! `share_vault`: an invite code another person uses to join a vault.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::wire::{RoleWire, VaultOut};

/// Arguments of `share_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// member (default: records and reads) or owner (also manages accounts and people).
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
    const DESCRIPTION: &'static str = "Shares the book with a partner or family (가계부 공유): returns an invite code (one use, 7 days) to give them for join_vault. Owner only; each call makes a new code.";
    const KIND: Kind = write(false);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{}"#, r#"{"role": "owner"}"#], &[r#"{"role": "admin"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let role = args
            .role
            .map(Into::into)
            .unwrap_or(dochiya_ledger::api::Role::Member);
        let s = ledger.share_vault(who, args.vault.as_deref(), role).await?;
        Ok(Output {
            vault: s.vault.into(),
            invite_code: s.invite_code,
            expires_at: s.expires_at.to_string(),
            role: s.role.into(),
        })
    }
}
