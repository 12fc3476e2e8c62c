//! `get_balances`: every account's balance as of a date, with assets, liabilities and net worth.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{DayOrMonthArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, KindWire, UuidOut, VaultOut};

/// Arguments of `get_balances`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// At the end of this day, YYYY-MM-DD (YYYY-MM: its last day); default today.
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

impl From<dochiya_ledger::api::BalanceRow> for BalanceRow {
    fn from(a: dochiya_ledger::api::BalanceRow) -> Self {
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
    const DESCRIPTION: &'static str = "Balances (잔액) of every account at the end of a day (default today) with total assets, liabilities (카드값, 대출) and net worth (순자산). Over months: net_worth_history; against the bank's figures: upsert_snapshot then reconcile.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}", r#"{"asOf": "2026-03-10"}"#], &[r#"{"asOf": "today"}"#],
    );

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
