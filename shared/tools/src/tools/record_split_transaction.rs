//! `record_split_transaction`: several `from` and `to` lines whose sums must match, exactly once.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::{NewSplit, SplitLine};
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{AccountArg, DateArg, KeyArg, MemoArg, NameArg, PositiveAmountArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::tools::recorded::Output;

/// One line of a split.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Line {
    #[schemars(description = text::ACCOUNT)]
    account: AccountArg,
    #[schemars(description = text::AMOUNT)]
    amount: PositiveAmountArg,
}

/// Arguments of `record_split_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Lines the money leaves, each an account name and a positive amount, e.g. [{"account": "신한카드", "amount": "45000"}]. Their sum must equal the sum of `to`.
    #[schemars(length(min = 1))]
    from: Vec<Line>,
    /// Lines the money arrives at, e.g. [{"account": "식비", "amount": "30000"}, {"account": "생활용품", "amount": "15000"}] for one receipt split over two categories. Their sum must equal the sum of `from`.
    #[schemars(length(min = 1))]
    to: Vec<Line>,
    #[schemars(description = text::DATE_DEFAULT_TODAY)]
    date: Option<DateArg>,
    #[schemars(description = text::MEMO)]
    memo: Option<MemoArg>,
    #[schemars(description = text::IDEMPOTENCY_KEY)]
    idempotency_key: KeyArg,
    #[schemars(description = text::ALLOW_DUPLICATE)]
    allow_duplicate: Option<bool>,
    #[schemars(description = text::FUTURE_DATE)]
    future_date: Option<bool>,
    #[schemars(description = text::DRY_RUN)]
    dry_run: Option<bool>,
}

/// The `record_split_transaction` tool.
pub(crate) struct RecordSplitTransaction;

#[async_trait]
impl Operation for RecordSplitTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "record_split_transaction";
    const TITLE: &'static str = "Record a split transaction";
    const DESCRIPTION: &'static str = "Records one transaction with several lines: money leaves the `from` accounts and arrives at the `to` accounts, and the two sides must add up to the same total. Example: a 45,000 won supermarket receipt paid by card, 30,000 groceries and 15,000 household goods: from [{\"account\": \"신한카드\", \"amount\": \"45000\"}], to [{\"account\": \"식비\", \"amount\": \"30000\"}, {\"account\": \"생활용품\", \"amount\": \"15000\"}]. Amounts are positive decimal strings in the vault currency. Make up an idempotencyKey once for each new entry and reuse it unchanged if you retry that same entry: it is then recorded only once. Set dryRun true to preview. For a simple one-to-one payment use record_transaction. Result balances are as of today; entries dated later show as `scheduled`.";
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
        let recorded = ledger
            .record_split(
                who,
                NewSplit {
                    vault: args.vault.map(String::from),
                    from: lines(args.from),
                    to: lines(args.to),
                    date: args.date.map(|d| d.0),
                    memo: args.memo.map(String::from),
                    idempotency_key: args.idempotency_key.into(),
                    allow_duplicate: args.allow_duplicate.unwrap_or(false),
                    future_date: args.future_date.unwrap_or(false),
                    dry_run: args.dry_run.unwrap_or(false),
                    external_ref: None,
                },
            )
            .await?;
        Ok(recorded.into())
    }
}
