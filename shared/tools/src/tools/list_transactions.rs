//! `list_transactions`: newest first, filtered by account, dates and memo text, one page at a time.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::TransactionQuery;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, CursorArg, DayOrMonthArg, NameArg, SearchArg};
use crate::operation::{Operation, READ, READ_ONLY};
use crate::text;
use crate::wire::{TransactionOut, VaultOut, account_note};

/// Arguments of `list_transactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Only transactions that touch this account (its name, e.g. "식비").
    account: Option<AccountArg>,
    /// First day to include, YYYY-MM-DD in the vault's time zone (inclusive); a month YYYY-MM means its first day.
    from: Option<DayOrMonthArg>,
    /// Last day to include, YYYY-MM-DD in the vault's time zone (inclusive); a month YYYY-MM means its last day; not before `from`.
    to: Option<DayOrMonthArg>,
    /// Only transactions whose memo contains this text (case-insensitive).
    text: Option<SearchArg>,
    /// Most transactions per page, 1–200. Default 50.
    #[schemars(range(min = 1, max = 200))]
    limit: Option<u32>,
    /// To get the next page, pass `nextCursor` from the previous result here, with the same filters.
    cursor: Option<CursorArg>,
    /// Set true to also list voided entries (marked `voided`, with voidReason, voidedAt, voidedBy). Default false: left out.
    include_voided: Option<bool>,
}

/// Result of `list_transactions`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The transactions, newest first (voided ones only with includeVoided).
    transactions: Vec<TransactionOut>,
    /// Present when more transactions may follow: call again with `cursor` set to this and the same filters. A page can hold fewer than `limit` and still have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
    #[schemars(description = text::ACCOUNT_NOTE)]
    #[serde(skip_serializing_if = "Option::is_none")]
    account_note: Option<String>,
}

/// The `list_transactions` tool.
pub(crate) struct ListTransactions;

#[async_trait]
impl Operation for ListTransactions {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_transactions";
    const TITLE: &'static str = "List transactions";
    const DESCRIPTION: &'static str = "Lists transactions newest first, optionally only those touching one account, within a date range (YYYY-MM-DD, inclusive, in the vault's time zone) or whose memo contains some text. Each has a transactionId (a decimal string), date, memo and signed postings (positive = money arriving at that account, negative = leaving). Results come in pages: when `nextCursor` is present, call again with it as `cursor`. Use a transactionId from here with get_transaction or void_transaction.";
    const SCOPE: &'static str = READ;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = READ_ONLY;

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        if let (Some(from), Some(to)) = (&args.from, &args.to) {
            LedgerError::check_range(&from.first(), &to.last())?;
        }
        if let Some(limit) = args.limit.filter(|l| !(1..=200).contains(l)) {
            return Err(LedgerError::invalid(
                dochiya_ledger::Field::Limit,
                format!(
                    "{limit} is outside 1–200; leave it out for 50 per page, and use nextCursor for more."
                ),
            ));
        }
        let page = ledger
            .list_transactions(
                who,
                TransactionQuery {
                    vault: args.vault.map(String::from),
                    account: args.account.map(String::from),
                    from: args.from.map(DayOrMonthArg::first),
                    to: args.to.map(DayOrMonthArg::last),
                    text: args.text.map(String::from),
                    limit: args.limit,
                    cursor: args.cursor.map(String::from),
                    include_voided: args.include_voided.unwrap_or(false),
                },
            )
            .await?;
        Ok(Output {
            vault: page.vault.into(),
            currency: page.currency.code().to_owned(),
            transactions: page.transactions.into_iter().map(Into::into).collect(),
            next_cursor: page.next_cursor,
            account_note: account_note(page.account_choice),
        })
    }
}
