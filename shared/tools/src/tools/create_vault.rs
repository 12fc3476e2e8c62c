//! `create_vault`: a new household book with its currency and time zone.

use async_trait::async_trait;
use dochiya_domain::{Currency, PersonId, VaultZone};
use dochiya_ledger::api::NewVault;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{CodeArg, NameArg};
use crate::operation::{Kind, write, Operation};
use crate::wire::{DateOut, UuidOut};

/// Arguments of `create_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    /// Name, e.g. "우리집".
    name: NameArg,
    /// ISO 4217 code: KRW (default), USD, JPY, EUR; fixed once made.
    currency: Option<CodeArg>,
    /// IANA zone of its dates; default Asia/Seoul.
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
    const DESCRIPTION: &'static str = "Starts a household book (가계부 만들기) with a currency and time zone. The same name and settings again returns it. Next: create_account for bank accounts, cards, income and spending categories.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}"#],
            &["{}", r#"{"name": 1}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let currency = args
            .currency
            .as_deref()
            .map(Currency::parse)
            .transpose()
            .map_err(|e| LedgerError::from_parse(dochiya_ledger::api::Field::Currency, e))?;
        let time_zone = args
            .time_zone
            .as_deref()
            .map(VaultZone::parse)
            .transpose()
            .map_err(|e| LedgerError::from_parse(dochiya_ledger::api::Field::TimeZone, e))?;
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
