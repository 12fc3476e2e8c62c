//! `set_recurring`: a fixed cost (월세, 관리비) that posts itself on its day, by name.

use async_trait::async_trait;
use dochiya_domain::{Every, PersonId};
use dochiya_ledger::api::RecurringInput;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DateArg, MemoArg, NameArg, PositiveAmountArg, TagArg};
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::wire::{EveryWire, RecurringOut, VaultOut};

/// Arguments of `set_recurring`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Unique in the vault, e.g. "월세".
    name: NameArg,
    /// Paid from.
    from: Option<AccountArg>,
    /// Paid to.
    to: Option<AccountArg>,
    /// Each time.
    amount: Option<PositiveAmountArg>,
    /// 1-31; none or past month end: last day.
    day: Option<i64>,
    /// Default month (year: the start's month).
    every: Option<EveryWire>,
    /// Default today; past posts now.
    start: Option<DateArg>,
    /// Last date.
    end: Option<DateArg>,
    /// Default: name.
    memo: Option<MemoArg>,
    #[schemars(description = text::TAGS)]
    tags: Option<Vec<TagArg>>,
    /// true: edit from the next date.
    change: Option<bool>,
    /// true: stop (posted stays).
    remove: Option<bool>,
}

/// Result of `set_recurring`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The schedule as it now is (as it was, when removed).
    recurring: RecurringOut,
    /// Whether this call created it.
    created: bool,
    /// Whether this call changed it.
    changed: bool,
    /// Whether this call removed it.
    removed: bool,
}

/// The `set_recurring` tool.
pub(crate) struct SetRecurring;

#[async_trait]
impl Operation for SetRecurring {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "set_recurring";
    const TITLE: &'static str = "Set a recurring entry";
    const DESCRIPTION: &'static str = "A fixed cost (월세 25일) posting itself on its day, once a date. Same settings again: harmless.";
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"name": "월세", "from": "카카오뱅크", "to": "주거비", "amount": "500000", "day": 25}"#,
            r#"{"name": "보험", "from": "카카오뱅크", "to": "보험료", "amount": "120000", "every": "year", "start": "2026-03-10", "end": "2030-03-10", "memo": "자동차보험"}"#,
            r#"{"name": "월세", "amount": "550000", "change": true}"#,
            r#"{"name": "월세", "remove": true}"#,
        ],
        &[
            r#"{"from": "카카오뱅크"}"#,
            r#"{"name": "월세", "every": "week"}"#,
            r#"{"name": "월세", "day": "25일"}"#,
            r#"{"name": "월세", "start": "3월 1일"}"#,
        ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let set = ledger
            .set_recurring(
                who,
                RecurringInput {
                    vault: args.vault.map(String::from),
                    name: args.name.into(),
                    from: args.from.map(String::from),
                    to: args.to.map(String::from),
                    amount: args.amount.map(|a| a.0),
                    day: args.day,
                    every: args.every.map(Every::from),
                    start: args.start.map(|d| d.0),
                    end: args.end.map(|d| d.0),
                    memo: args.memo.map(String::from),
                    tags: args.tags.map(|t| t.into_iter().map(String::from).collect()),
                    change: args.change.unwrap_or(false),
                    remove: args.remove.unwrap_or(false),
                },
            )
            .await?;
        Ok(Output {
            vault: set.vault.into(),
            currency: set.currency.code().to_owned(),
            recurring: set.recurring.into(),
            created: set.created,
            changed: set.changed,
            removed: set.removed,
        })
    }
}
