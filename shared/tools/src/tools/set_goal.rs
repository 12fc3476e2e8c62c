//! `set_goal`: a savings goal on an asset account (적금, 여행통장), or its removal.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{GoalInput, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DateArg, NameArg, PositiveAmountArg};
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::wire::{GoalOut, VaultOut};

/// Arguments of `set_goal`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// e.g. "여행 자금".
    name: NameArg,
    /// The asset account it is kept in.
    account: AccountArg,
    /// The amount to reach (needed unless remove).
    target: Option<PositiveAmountArg>,
    /// YYYY-MM-DD to reach it by.
    by: Option<DateArg>,
    /// true stops the goal.
    remove: Option<bool>,
}

/// Result of `set_goal`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The goal now (as it was, when removed).
    goal: GoalOut,
    /// True when the goal is new.
    created: bool,
    /// True when this call stopped it.
    removed: bool,
}

/// The `set_goal` tool.
pub(crate) struct SetGoal;

#[async_trait]
impl Operation for SetGoal {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "set_goal";
    const TITLE: &'static str = "Set a savings goal";
    const DESCRIPTION: &'static str = "A savings goal (\"여행 자금 300만원 6월까지\") kept in an asset account: saved is its balance, with left and, given by, the monthly amount needed.";
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"name": "여행 자금", "account": "여행통장", "target": "3000000", "by": "2027-06-30"}"#,
            r#"{"name": "여행 자금", "account": "여행통장", "remove": true}"#,
        ],
        &[
            r#"{"name": "여행 자금"}"#,
            r#"{"name": "a", "account": "b", "remove": "yes"}"#,
        ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let g = ledger
            .set_goal(
                who,
                GoalInput {
                    vault: args.vault.map(String::from),
                    name: args.name.into(),
                    account: args.account.into(),
                    target: args.target.map(|t| t.0),
                    by: args.by.map(|d| d.0),
                    remove: args.remove.unwrap_or(false),
                },
            )
            .await?;
        Ok(Output {
            vault: g.vault.into(),
            goal: g.goal.into(),
            created: g.created,
            removed: g.removed,
        })
    }
}
