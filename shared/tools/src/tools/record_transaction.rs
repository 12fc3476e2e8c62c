//! `record_transaction`: one entry, exactly once: money moves `from` one account `to`
//! another, or, with `lines`, leaves several accounts and arrives at several.

use std::borrow::Cow;

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::{EditLines, NewSplit, SplitLine};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::args::{AccountArg, DateArg, KeyArg, MemoArg, NameArg, PositiveAmountArg, RefArg, TagArg};
use crate::errors::{self, Spelling};
use crate::lines::{Lines, split_argument};
use crate::operation::{Kind, Operation, write};
use crate::text;
use crate::tools::recorded::Output;

/// Arguments of `record_transaction`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    #[schemars(description = text::FROM_ACCOUNT)]
    from: Option<AccountArg>,
    #[schemars(description = text::TO_ACCOUNT)]
    to: Option<AccountArg>,
    #[schemars(description = text::AMOUNT)]
    amount: Option<PositiveAmountArg>,
    /// A split instead of from/to/amount: one receipt over several accounts.
    lines: Option<Lines>,
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
    #[schemars(description = text::TAGS)]
    tags: Option<Vec<TagArg>>,
    #[schemars(description = text::INSTALLMENTS)]
    installments: Option<i64>,
    #[serde(rename = "for")]
    #[schemars(description = text::FOR)]
    for_whom: Option<NameArg>,
}

/// The two forms an entry comes in.
enum Form {
    Simple(String, String, dochiya_domain::Decimal),
    Split(EditLines),
}

/// The form sent, or what to send instead (the schema cannot say "one of", see decision 034).
fn form(
    from: Option<AccountArg>,
    to: Option<AccountArg>,
    amount: Option<PositiveAmountArg>,
    (lines, memo): (Option<Lines>, bool),
) -> Result<Form, LedgerError> {
    match (from, to, amount, lines) {
        (Some(from), Some(to), Some(amount), None) => Ok(Form::Simple(from.into(), to.into(), amount.0)),
        // `to` left out with a memo: the memo's words choose the category ("" tells the ledger).
        (Some(from), None, Some(amount), None) if memo => Ok(Form::Simple(from.into(), String::new(), amount.0)),
        (None, None, None, Some(lines)) => Ok(Form::Split(lines.into())),
        (_, _, _, Some(_)) => Err(crate::errors::refused(
            Field::Entries,
            "send either `lines` (a split) or `from`, `to` and `amount`, not both",
        )),
        (from, to, _, None) => {
            let missing = match (from.is_some(), to.is_some()) {
                (false, _) => "from",
                (true, false) => "to",
                (true, true) => "amount",
            };
            Err(crate::errors::refused(
                Field::Entries,
                format!("`{missing}` is missing: send `from`, `to` and `amount` (`to` may be left out with a memo whose words name the category), or `lines` for a split"),
            ))
        }
    }
}

/// The simple form's spelling; the form itself is "the arguments".
fn simple(field: Field) -> Cow<'static, str> {
    match field {
        Field::Entries => Cow::Borrowed("arguments"),
        other => errors::simple_argument(other),
    }
}

/// The split form's spelling.
fn split(field: Field) -> Cow<'static, str> {
    match field {
        Field::Entries => Cow::Borrowed("arguments"),
        other => split_argument(other),
    }
}

/// The `record_transaction` tool.
pub(crate) struct RecordTransaction;

#[async_trait]
impl Operation for RecordTransaction {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "record_transaction";
    const TITLE: &'static str = "Record a transaction";
    const DESCRIPTION: &'static str = "Records one entry (지출, 수입, 이체, 카드값): money leaves `from` and arrives at `to`. Lunch 12,000 from the bank: from \"카카오뱅크\", to \"식비\", amount \"12000\". Salary: from \"월급\" to \"카카오뱅크\". Card purchase: from \"신한카드\" to \"식비\"; paying the card bill: from \"카카오뱅크\" to \"신한카드\". One receipt over several accounts: `lines` instead. Many entries or a statement: record_transactions.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "idempotencyKey": "k"}"#,
            r#"{"vault": "우리집", "from": "카카오뱅크", "to": "식비", "amount": "12.50", "date": "2026-03-02", "memo": "점심", "idempotencyKey": "k", "allowDuplicate": true, "dryRun": false}"#,
            r#"{"lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "생활용품", "amount": "15000"}]}, "idempotencyKey": "k"}"#,
            r#"{"from": "신한카드", "to": "가전", "amount": "900000", "installments": 3, "idempotencyKey": "k"}"#,
        ],
        &[
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000"}"#,
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "12,000", "idempotencyKey": "k"}"#,
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "idempotencyKey": "k", "currency": "KRW"}"#,
            r#"{"lines": {"from": [{"account": "신한카드"}], "to": [{"account": "식비", "amount": "1"}]}, "idempotencyKey": "k"}"#,
        ],
    );

    fn spelling(args: &Args) -> Spelling {
        if args.lines.is_some() { split } else { simple }
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let vault = args.vault.map(String::from);
        let date = args.date.map(|d| d.0);
        let memo = args.memo.map(String::from);
        let idempotency_key: String = args.idempotency_key.into();
        let allow_duplicate = args.allow_duplicate.unwrap_or(false);
        let future_date = args.future_date.unwrap_or(false);
        let dry_run = args.dry_run.unwrap_or(false);
        let external_ref = args.external_ref.map(String::from);
        let tags: Vec<String> = args.tags.unwrap_or_default().into_iter().map(String::from).collect();
        let installments = super::card_bill::installments(args.installments)?;
        let memo_given = memo.as_deref().is_some_and(|m| !m.trim().is_empty());
        let lines = match form(args.from, args.to, args.amount, (args.lines, memo_given))? {
            Form::Simple(from, to, amount) => EditLines {
                from: vec![SplitLine { account: from, amount }],
                to: vec![SplitLine { account: to, amount }],
            },
            Form::Split(lines) => lines,
        };
        let recorded = ledger
            .record_split(
                who,
                NewSplit {
                    vault,
                    from: lines.from,
                    to: lines.to,
                    date,
                    memo,
                    idempotency_key,
                    allow_duplicate,
                    future_date,
                    dry_run,
                    external_ref,
                    tags,
                    installments,
                    for_whom: args.for_whom.map(String::from),
                },
            )
            .await?;
        Ok(recorded.into())
    }
}
