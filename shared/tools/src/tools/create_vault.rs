//! `create_vault`: a new household book with its currency and time zone.

use async_trait::async_trait;
use dochiya_ledger::domain::{Currency, PersonId, VaultZone};
use dochiya_ledger::ledger::NewVault;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{CodeArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::wire::{DateOut, UuidOut};

/// Arguments of `create_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    /// Name of the new vault, e.g. "우리집" (at most 64 characters, unique among your vaults).
    name: NameArg,
    /// ISO 4217 currency code all amounts in this vault are written in, e.g. "KRW" (default), "USD", "EUR". It cannot be changed later.
    currency: Option<CodeArg>,
    /// IANA time zone whose calendar dates the vault uses, e.g. "Asia/Seoul" (default) or "America/New_York".
    time_zone: Option<CodeArg>,
}

/// Result of `create_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault's id (a UUID). Tools take the vault's name, not this id.
    vault_id: UuidOut,
    /// The vault's name; pass it as `vault` to other tools.
    name: String,
    /// ISO 4217 currency code of the vault.
    currency: String,
    /// IANA time zone of the vault.
    time_zone: String,
    /// Today's date in the vault's time zone, YYYY-MM-DD.
    today: DateOut,
    /// True when the vault was created now; false when you already had a vault with this name and the same settings (nothing was changed).
    created: bool,
}

/// The `create_vault` tool.
pub(crate) struct CreateVault;

#[async_trait]
impl Operation for CreateVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "create_vault";
    const TITLE: &'static str = "Create a vault";
    const DESCRIPTION: &'static str = "Creates a vault (a household book) with a name, a currency (default KRW) and a time zone (default Asia/Seoul). Calling it again with the same name and settings returns the existing vault with created false, so a retry is safe. Next: create its accounts with create_account (e.g. \"카카오뱅크\" asset, \"신한카드\" liability, \"월급\" income, \"식비\" expense).";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(true);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let currency = args
            .currency
            .as_deref()
            .map(Currency::parse)
            .transpose()
            .map_err(|e| LedgerError::from_parse(dochiya_ledger::Field::Currency, e))?;
        let time_zone = args
            .time_zone
            .as_deref()
            .map(VaultZone::parse)
            .transpose()
            .map_err(|e| LedgerError::from_parse(dochiya_ledger::Field::TimeZone, e))?;
        let v = ledger
            .create_vault(
                who,
                NewVault {
                    name: args.name.into(),
                    currency,
                    time_zone,
                },
            )
            .await?;
        Ok(Output {
            vault_id: v.vault_id.into(),
            name: v.name,
            currency: v.currency.code().to_owned(),
            time_zone: v.time_zone,
            today: v.today.into(),
            created: v.created,
        })
    }
}
