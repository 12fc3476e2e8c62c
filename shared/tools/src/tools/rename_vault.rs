//! `rename_vault`: give a vault a new name.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::wire::UuidOut;

/// Arguments of `rename_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT_REQUIRED)]
    vault: NameArg,
    /// New name, unique among your vaults.
    new_name: NameArg,
}

/// Result of `rename_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault's id (unchanged).
    vault_id: UuidOut,
    /// The vault's name now; pass it as `vault` from now on.
    name: String,
}

/// The `rename_vault` tool.
pub(crate) struct RenameVault;

#[async_trait]
impl Operation for RenameVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "rename_vault";
    const TITLE: &'static str = "Rename a vault";
    const DESCRIPTION: &'static str = "Renames a vault (owner only); use the new name from then on.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"vault": "a", "newName": "b"}"#], &[r#"{"newName": "b"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let v = ledger.rename_vault(who, &args.vault, &args.new_name).await?;
        Ok(Output {
            vault_id: v.vault_id.into(),
            name: v.name,
        })
    }
}
