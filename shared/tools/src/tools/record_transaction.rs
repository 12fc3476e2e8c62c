//! `record_transaction`: money moves `from` one account `to` another, exactly once.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::NewTransaction;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{AccountArg, DateArg, KeyArg, MemoArg, NameArg, PositiveAmountArg, RefArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::tools::recorded::Output;

/// Arguments of `record_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    #[schemars(description = text::FROM_ACCOUNT)]
    from: AccountArg,
    #[schemars(description = text::TO_ACCOUNT)]
    to: AccountArg,
    #[schemars(description = text::AMOUNT)]
    amount: PositiveAmountArg,
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
    #[schemars(description = text::EXTERNAL_REF)]
    external_ref: Option<RefArg>,
}

/// The `record_transaction` tool.
pub(crate) struct RecordTransaction;

#[async_trait]
impl Operation for RecordTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "record_transaction";
    const TITLE: &'static str = "Record a transaction";
    const DESCRIPTION: &'static str = "Records money moving from one account to another: it leaves `from` and arrives at `to`. Lunch for 12,000 won paid from the bank: from \"카카오뱅크\", to \"식비\", amount \"12000\". Salary: from \"월급\", to \"카카오뱅크\". Card purchase: from \"신한카드\", to \"식비\"; paying the card bill: from \"카카오뱅크\", to \"신한카드\". The amount is a positive decimal string in the vault currency; the date defaults to today in the vault. Make up an idempotencyKey once for each new entry and reuse it unchanged if you retry that same entry: it is then recorded only once. Set dryRun true to preview. For one payment split over several accounts use record_split_transaction; to undo an entry use void_transaction. Result balances are as of today; entries dated later show as `scheduled`.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(false);

    fn argument(field: dochiya_ledger::Field) -> std::borrow::Cow<'static, str> {
        crate::errors::simple_argument(field)
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let recorded = ledger
            .record_transaction(
                who,
                NewTransaction {
                    vault: args.vault.map(String::from),
                    from: args.from.into(),
                    to: args.to.into(),
                    amount: args.amount.0,
                    date: args.date.map(|d| d.0),
                    memo: args.memo.map(String::from),
                    idempotency_key: args.idempotency_key.into(),
                    allow_duplicate: args.allow_duplicate.unwrap_or(false),
                    future_date: args.future_date.unwrap_or(false),
                    dry_run: args.dry_run.unwrap_or(false),
                    external_ref: args.external_ref.map(String::from),
                },
            )
            .await?;
        Ok(recorded.into())
    }
}
