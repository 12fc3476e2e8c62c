//! `set_budget`: a monthly budget for an expense account, from a month on (or for that month only).

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::BudgetInput;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg, OnlyMonthArg, PositiveAmountArg};
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::wire::{AmountOut, MonthOut, UuidOut, VaultOut};

/// Arguments of `set_budget`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Expense account, e.g. "식비".
    account: AccountArg,
    /// The month's budget, 0 or more, e.g. "600000"; "0" clears it.
    amount: PositiveAmountArg,
    /// First month, YYYY-MM; default this month.
    month: Option<OnlyMonthArg>,
    /// false: this month only; true: later months too. Omitted: as set before (default true).
    repeat: Option<bool>,
    /// true: what is left, or overspent, carries into the next month. Omitted: as set before (default false).
    rollover: Option<bool>,
}

/// Result of `set_budget`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    /// The month set, YYYY-MM.
    month: MonthOut,
    /// The budget set, decimal string in the vault currency; "0" means cleared.
    amount: AmountOut,
    /// Whether later months keep this amount (as sent, or kept from before).
    repeat: bool,
    /// Whether what is left carries into the next month (as sent, or kept from before).
    rollover: bool,
}

/// The `set_budget` tool.
pub(crate) struct SetBudget;

#[async_trait]
impl Operation for SetBudget {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "set_budget";
    const TITLE: &'static str = "Set a monthly budget";
    const DESCRIPTION: &'static str = "Sets a monthly budget (예산) for an expense account, e.g. 식비 600000: from `month` on (repeat, default) or that month only. \"0\" clears it. Changes only what is sent. Then budget_report.";
    // "0" removes a budget.
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"account": "식비", "amount": "600000"}"#,
                r#"{"vault": "우리집", "account": "식비", "amount": "0", "month": "2026-04", "repeat": false}"#,
                r#"{"account": "식비", "amount": "600000", "rollover": true}"#,
            ],
            &[
                r#"{"account": "식비"}"#,
                r#"{"account": "식비", "amount": "1", "month": "2026/04"}"#,
                r#"{"account": "식비", "amount": "1", "repeat": "yes"}"#,
                r#"{"account": "식비", "amount": "1", "month": "2026-04-15"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let set = ledger
            .set_budget(
                who,
                BudgetInput {
                    vault: args.vault.map(String::from),
                    account: args.account.into(),
                    amount: args.amount.0,
                    month: args.month.map(|m| m.0),
                    repeat: args.repeat,
                    rollover: args.rollover,
                },
            )
            .await?;
        Ok(Output {
            vault: set.vault.into(),
            currency: set.currency.code().to_owned(),
            account_id: set.account_id.into(),
            account: set.account,
            month: set.month.into(),
            amount: set.amount.into(),
            repeat: set.repeat,
            rollover: set.rollover,
        })
    }
}
