//! `set_budget`: a monthly budget for an expense account, from a month on (or for that month only).

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::BudgetInput;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, AmountArg, MonthArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{AmountOut, MonthOut, UuidOut, VaultOut};

/// Arguments of `set_budget`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Name of the expense account, e.g. "식비" (as list_accounts shows it).
    account: AccountArg,
    /// The month's budget as a decimal string in the vault currency, e.g. "600000"; "0" clears it.
    amount: AmountArg,
    /// First month it applies to, YYYY-MM; leave it out for this month in the vault's time zone.
    month: Option<MonthArg>,
    /// Default true: later months keep this amount until a later set_budget changes it. false: this month only.
    repeat: Option<bool>,
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
    /// Whether later months keep this amount.
    repeat: bool,
}

/// The `set_budget` tool.
pub(crate) struct SetBudget;

#[async_trait]
impl Operation for SetBudget {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "set_budget";
    const TITLE: &'static str = "Set a monthly budget";
    const DESCRIPTION: &'static str = "Sets how much may be spent in a month from an expense account (\"식비 한 달 60만 원\" is account \"식비\", amount \"600000\"). It applies from `month` (default this month) on, until a later set_budget changes it; repeat: false sets that month only. \"0\" clears the budget. Setting again replaces the amount, so a retry is harmless. Then budget_report shows what is spent and left.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(true);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let set = ledger
            .set_budget(
                who,
                BudgetInput {
                    vault: args.vault.map(String::from),
                    account: args.account.into(),
                    amount: args.amount.0,
                    month: args.month.map(|m| m.0),
                    repeat: args.repeat.unwrap_or(true),
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
        })
    }
}
