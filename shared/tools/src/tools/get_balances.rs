//! `get_balances`: every account's balance as of a date, with assets, liabilities and net worth.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{DayOrMonthArg, NameArg};
use crate::operation::{Operation, READ, READ_ONLY};
use crate::text;
use crate::wire::{AmountOut, DateOut, KindWire, UuidOut, VaultOut};

/// Arguments of `get_balances`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Balances at the end of this day, YYYY-MM-DD in the vault's time zone (a month YYYY-MM means its last day). Leave it out for today.
    as_of: Option<DayOrMonthArg>,
}

/// Result of `get_balances`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The day the balances are for (at its end), YYYY-MM-DD.
    as_of: DateOut,
    /// Every live account with its balance on that day.
    accounts: Vec<BalanceRow>,
    /// Archived accounts that still hold money, apart from the live ones; they still count in totals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    archived: Vec<BalanceRow>,
    /// Totals over the asset and liability accounts (archived ones included).
    totals: TotalsOut,
}

/// One account's balance.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct BalanceRow {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    name: String,
    #[schemars(description = text::KIND)]
    kind: KindWire,
    #[schemars(description = text::BALANCE)]
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
}

impl From<dochiya_ledger::ledger::BalanceRow> for BalanceRow {
    fn from(a: dochiya_ledger::ledger::BalanceRow) -> Self {
        Self {
            account_id: a.account_id.into(),
            name: a.name,
            kind: a.kind.into(),
            balance: a.balance.into(),
            scheduled: a.scheduled.map(Into::into),
        }
    }
}

/// Assets, liabilities and net worth.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TotalsOut {
    /// Sum of the asset balances, decimal string in the vault currency.
    assets: AmountOut,
    /// Sum of the liability balances (what is owed, positive), decimal string in the vault currency.
    liabilities: AmountOut,
    /// Assets minus liabilities, decimal string in the vault currency (may be negative).
    net_worth: AmountOut,
}

/// The `get_balances` tool.
pub(crate) struct GetBalances;

#[async_trait]
impl Operation for GetBalances {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "get_balances";
    const TITLE: &'static str = "Get balances";
    const DESCRIPTION: &'static str = "Shows every account's balance at the end of a day (default today in the vault's time zone), each in its kind's natural sign (a card owing 300,000 won shows \"300000\"), plus total assets, total liabilities and net worth (assets minus liabilities), as decimal strings in the vault currency. On today or a later day, entries dated after it are shown apart as `scheduled`. For how balances moved over months use net_worth_history; to compare with the bank's numbers use upsert_snapshot and reconcile.";
    const SCOPE: &'static str = READ;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = READ_ONLY;

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let b = ledger
            .get_balances(who, args.vault.as_deref(), args.as_of.map(DayOrMonthArg::last))
            .await?;
        Ok(Output {
            vault: b.vault.into(),
            currency: b.currency.code().to_owned(),
            as_of: b.as_of.into(),
            accounts: b.accounts.into_iter().map(BalanceRow::from).collect(),
            archived: b.archived.into_iter().map(BalanceRow::from).collect(),
            totals: TotalsOut {
                assets: b.totals.assets.into(),
                liabilities: b.totals.liabilities.into(),
                net_worth: b.totals.net_worth.into(),
            },
        })
    }
}
