//! `list_transactions`: newest first, filtered by account, dates, memo text, tag and
//! recorder, one page at a time.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::TransactionQuery;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, CursorArg, DayOrMonthArg, NameArg, SearchArg, TagArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{TransactionOut, VaultOut, account_note};

/// Arguments of `list_transactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Only entries touching this account.
    account: Option<AccountArg>,
    /// First day, YYYY-MM-DD (or YYYY-MM), inclusive.
    from: Option<DayOrMonthArg>,
    /// Last day, YYYY-MM-DD (or YYYY-MM), inclusive.
    to: Option<DayOrMonthArg>,
    /// Memo contains this text.
    text: Option<SearchArg>,
    /// Only entries with this tag.
    tag: Option<TagArg>,
    /// Page size, 1–200; default 50.
    #[schemars(range(min = 1, max = 200))]
    limit: Option<u32>,
    /// nextCursor of the previous page, same filters.
    cursor: Option<CursorArg>,
    /// true: include voided entries.
    include_voided: Option<bool>,
    /// recorded: newest recorded first.
    order: Option<Order>,
    /// Only entries this member recorded: their name, or "me". 방금 거 (what I just entered): {"recordedBy": "me", "order": "recorded", "limit": 1}.
    recorded_by: Option<NameArg>,
}

/// How `list_transactions` sorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Order {
    Date,
    Recorded,
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
    const DESCRIPTION: &'static str = "Finds entries (거래 내역, 지출 내역) newest first: by account, dates, memo text; pages with nextCursor. Postings are signed (+ arriving, − leaving). A wrong entry: edit_transaction with its transactionId (fix in place, not void and re-record).";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"account": "식비", "from": "2026-03-01", "to": "2026-03-31", "text": "점심", "limit": 200, "cursor": "c"}"#,
                r#"{"order": "recorded", "limit": 5}"#,
                r#"{"recordedBy": "me", "order": "recorded", "limit": 1}"#,
            ],
            &[r#"{"from": "2026/03/01"}"#, r#"{"limit": "5"}"#, r#"{"page": 2}"#, r#"{"order": "newest"}"#, r#"{"recordedBy": 5}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        if let (Some(from), Some(to)) = (&args.from, &args.to) {
            LedgerError::check_range(&from.first(), &to.last())?;
        }
        if let Some(limit) = args.limit.filter(|l| !(1..=200).contains(l)) {
            return Err(crate::errors::refused(
                dochiya_ledger::api::Field::Limit,
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
                    tag: args.tag.map(String::from),
                    order_recorded: args.order == Some(Order::Recorded),
                    recorded_by: args.recorded_by.map(String::from),
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
