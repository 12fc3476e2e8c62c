//! `list_vaults`: the caller's vaults with currency, time zone, today and account count.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{DateOut, MemberOut, RoleWire, UuidOut};

/// Takes no arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Args {}

/// Result of `list_vaults`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    /// Your vaults, by name. Empty when you have none yet: call create_vault.
    vaults: Vec<VaultRow>,
}

/// One vault.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct VaultRow {
    /// The vault's id (a UUID). Tools take the vault's name, not this id.
    vault_id: UuidOut,
    /// The vault's name; pass it as `vault` to other tools.
    name: String,
    /// ISO 4217 currency code (e.g. "KRW"); amounts in this vault are decimal strings in its major unit.
    currency: String,
    /// IANA time zone of the vault (e.g. "Asia/Seoul"); dates are in this zone.
    time_zone: String,
    /// Today's date in the vault's time zone, YYYY-MM-DD. Use it as the default date and to work out "yesterday" or "this month".
    today: DateOut,
    /// Number of live (not archived) accounts.
    account_count: u32,
    /// Your role: owner or member.
    role: RoleWire,
    /// How many people keep this vault (1 until it is shared with share_vault).
    member_count: u32,
    #[schemars(description = text::MEMBERS)]
    members: Vec<MemberOut>,
}

/// The `list_vaults` tool.
pub(crate) struct ListVaults;

#[async_trait]
impl Operation for ListVaults {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_vaults";
    const TITLE: &'static str = "List vaults";
    const DESCRIPTION: &'static str = "Start here. Your household books (가계부, vaults): each one's name, currency, time zone and `today` there (you do not know the date otherwise), account count, your role and its members (who shares it). Next: list_accounts.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}"], &[r#"{"vault": "x"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, _args: Args) -> Result<Output, LedgerError> {
        let list = ledger.list_vaults(who).await?;
        Ok(Output {
            vaults: list
                .vaults
                .into_iter()
                .map(|v| VaultRow {
                    vault_id: v.vault_id.into(),
                    name: v.name,
                    currency: v.currency.code().to_owned(),
                    time_zone: v.time_zone,
                    today: v.today.into(),
                    account_count: v.account_count,
                    role: v.role.into(),
                    member_count: v.member_count,
                    members: v.members.into_iter().map(Into::into).collect(),
                })
                .collect(),
        })
    }
}
