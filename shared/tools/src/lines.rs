//! The `lines` argument of a split entry, one shape for every tool that takes it
//! (`record_transaction`, each entry of `record_transactions`, `edit_transaction`).

use std::borrow::Cow;

use dochiya_ledger::api::Field;
use dochiya_ledger::api::{EditLines, SplitLine};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{AccountArg, PositiveAmountArg};
use crate::errors;

/// One line: an account and a positive amount.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Line {
    /// Account name.
    account: AccountArg,
    /// Positive amount, e.g. "30000".
    amount: PositiveAmountArg,
}

/// Every line of a split entry; the two sides add up to the same total.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Lines {
    /// Lines money leaves, e.g. [{"account": "신한카드", "amount": "45000"}].
    #[schemars(length(min = 1))]
    from: Vec<Line>,
    /// Lines money arrives at, e.g. 식비 30000 and 생활용품 15000; same sum as `from`.
    #[schemars(length(min = 1))]
    to: Vec<Line>,
}

impl From<Lines> for EditLines {
    fn from(l: Lines) -> Self {
        let side = |lines: Vec<Line>| {
            lines
                .into_iter()
                .map(|l| SplitLine {
                    account: l.account.into(),
                    amount: l.amount.0,
                })
                .collect()
        };
        EditLines {
            from: side(l.from),
            to: side(l.to),
        }
    }
}

/// How a split entry's fields are spelled: a line of `lines` by its place.
pub(crate) fn split_argument(field: Field) -> Cow<'static, str> {
    match field {
        Field::LineAmount { side, index } => Cow::Owned(format!("lines.{}[{index}].amount", side.as_str())),
        Field::LineAccount { side, index } => Cow::Owned(format!("lines.{}[{index}].account", side.as_str())),
        Field::Lines(side) => Cow::Owned(format!("lines.{}", side.as_str())),
        other => errors::argument(other),
    }
}
