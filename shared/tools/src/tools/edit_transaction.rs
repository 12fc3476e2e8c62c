//! `edit_transaction`: correct an entry in place; the id stays, the previous version is kept.

use std::borrow::Cow;

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::{EditLines, Edited, SplitLine, TransactionEdit};
use dochiya_ledger::{Field, Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{DateArg, KeyArg, MemoArg, NameArg, PositiveAmountArg, TransactionIdArg};
use crate::errors;
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{TransactionOut, VaultOut};

/// One line of a split, as `lines` takes it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Line {
    /// Account name.
    account: NameArg,
    /// Positive decimal string in the vault currency, e.g. "9000".
    amount: PositiveAmountArg,
}

/// Every line of the corrected entry, as record_split_transaction takes them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Lines {
    /// Lines the money leaves; their sum equals the sum of `to`.
    #[schemars(length(min = 1))]
    from: Vec<Line>,
    /// Lines the money arrives at.
    #[schemars(length(min = 1))]
    to: Vec<Line>,
}

/// Arguments of `edit_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// The id as a string, exactly as returned (never a JSON number).
    transaction_id: TransactionIdArg,
    /// A key you make up once for this correction; if you retry it, reuse the same idempotencyKey unchanged, with the same arguments.
    idempotency_key: KeyArg,
    /// The version you last saw (get_transaction shows it): the edit is refused if the entry changed since.
    expected_version: Option<std::num::NonZeroU32>,
    /// New positive amount of a simple (one from, one to) entry, e.g. "9000".
    amount: Option<PositiveAmountArg>,
    /// New date, YYYY-MM-DD.
    date: Option<DateArg>,
    /// New memo ("" clears it).
    memo: Option<MemoArg>,
    /// New account the money leaves (simple entry).
    from: Option<NameArg>,
    /// New account the money arrives at (simple entry).
    to: Option<NameArg>,
    /// Every line anew, for a split entry; not with amount/from/to.
    lines: Option<Lines>,
    #[schemars(description = text::FUTURE_DATE)]
    future_date: Option<bool>,
    /// True to preview: checked, nothing written.
    dry_run: Option<bool>,
}

/// Result of `edit_transaction`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The entry after the edit (same transactionId), with its version and earlier versions.
    transaction: TransactionOut,
    /// Balances of the accounts the entry touched before or after, after the edit, as of today (entries dated later are apart, as scheduled).
    balances: Vec<BalanceOut>,
    /// False when the arguments matched the entry already: nothing was written.
    changed: bool,
    /// True when this is the stored result of an earlier call with this idempotencyKey.
    replayed: bool,
    /// True when dryRun was set: nothing was written.
    dry_run: bool,
    /// On a replay, the entry as it is now, when it changed since (edited again or voided).
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<TransactionOut>,
}

impl From<Edited> for Output {
    fn from(e: Edited) -> Self {
        Self {
            vault: e.vault.into(),
            currency: e.currency.code().to_owned(),
            transaction: e.transaction.into(),
            balances: e.balances.into_iter().map(BalanceOut::from).collect(),
            changed: e.changed,
            replayed: e.replayed,
            dry_run: e.dry_run,
            current: e.current.map(Into::into),
        }
    }
}

/// The `edit_transaction` tool.
pub(crate) struct EditTransaction;

#[async_trait]
impl Operation for EditTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "edit_transaction";
    const TITLE: &'static str = "Edit a transaction";
    const DESCRIPTION: &'static str = "Corrects an entry in place: send its transactionId and only what changes (amount, date, memo, from, to; or lines for a split). The id stays the same, balances and reports move exactly, and the previous version is kept (get_transaction shows history). Voided entries cannot be edited. Use it instead of void + record for a wrong amount, date, memo or account. Retry with the same idempotencyKey; dryRun previews. Result balances are as of today; entries dated later show as `scheduled`.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(false);

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let lines = |lines: Vec<Line>| {
            lines
                .into_iter()
                .map(|l| SplitLine {
                    account: l.account.into(),
                    amount: l.amount.0,
                })
                .collect::<Vec<_>>()
        };
        let edited = ledger
            .edit_transaction(
                who,
                TransactionEdit {
                    vault: args.vault.map(String::from),
                    transaction_id: args.transaction_id.0,
                    idempotency_key: args.idempotency_key.into(),
                    expected_version: args.expected_version.map(std::num::NonZeroU32::get),
                    amount: args.amount.map(|a| a.0),
                    date: args.date.map(|d| d.0),
                    memo: args.memo.map(String::from),
                    from: args.from.map(String::from),
                    to: args.to.map(String::from),
                    lines: args.lines.map(|l| EditLines {
                        from: lines(l.from),
                        to: lines(l.to),
                    }),
                    future_date: args.future_date.unwrap_or(false),
                    dry_run: args.dry_run.unwrap_or(false),
                },
            )
            .await?;
        Ok(edited.into())
    }

    fn argument(field: Field) -> Cow<'static, str> {
        match field {
            Field::LineAmount { side, index } => {
                Cow::Owned(format!("lines.{}[{index}].amount", side.as_str()))
            }
            Field::LineAccount { side, index } => {
                Cow::Owned(format!("lines.{}[{index}].account", side.as_str()))
            }
            Field::Lines(side) => Cow::Owned(format!("lines.{}", side.as_str())),
            other => errors::argument(other),
        }
    }
}
