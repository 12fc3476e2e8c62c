//! `list_accounts`: a vault's accounts with kind and current balance.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, KindWire, UuidOut, VaultOut};

/// Arguments of `list_accounts`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// true: also archived accounts, each with its `handle`.
    include_archived: Option<bool>,
}

/// Result of `list_accounts`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The accounts, by kind then name.
    accounts: Vec<AccountRow>,
}

/// One account.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct AccountRow {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    name: String,
    #[schemars(description = text::KIND)]
    kind: KindWire,
    #[schemars(description = text::BALANCE)]
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
    /// True when the account is archived: new transactions cannot use it.
    archived: bool,
    /// Archived accounts: the name that means this one in every tool, e.g. "국민카드 (archived 2026-05-31)".
    #[serde(skip_serializing_if = "Option::is_none")]
    handle: Option<String>,
    /// Expense accounts with a budget: this month's (set_budget); budget_report shows what is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    budget: Option<AmountOut>,
    /// Its parent category (reports by group count it there).
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<String>,
    /// Whose it is (absent: the household's).
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    /// The savings goal kept in it (set_goal).
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<crate::wire::GoalOut>,
    /// Words that put an entry here when `to` is left out: set ones, then learned ones.
    #[serde(rename = "match", skip_serializing_if = "Vec::is_empty")]
    match_words: Vec<crate::wire::WordOut>,
    /// A card's billing cycle (update_account).
    #[serde(skip_serializing_if = "Option::is_none")]
    billing: Option<super::card_bill::BillingOut>,
    /// A card with billing: its next bill; card_bill has the items.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_bill: Option<NextBillOut>,
    /// A card with billing: what its 할부 still owes after the next bill.
    #[serde(skip_serializing_if = "Option::is_none")]
    installments_left: Option<super::card_bill::InstallmentsLeftOut>,
}

/// A card's next bill.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct NextBillOut {
    /// The day it is paid.
    due_date: crate::wire::DateOut,
    /// Its total.
    amount: AmountOut,
    /// What is left to pay of it (payments settle the oldest bill first).
    remaining: AmountOut,
}

/// The `list_accounts` tool.
pub(crate) struct ListAccounts;

#[async_trait]
impl Operation for ListAccounts {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_accounts";
    const TITLE: &'static str = "List accounts";
    const DESCRIPTION: &'static str = "Accounts (계좌, 카드, categories) with kind and today's balance (잔액): assets, cards and loans (liabilities), income, expense categories. Later-dated entries are apart as `scheduled`. Use the names shown as from/to/account. Missing one: create_account; rename or archive: update_account.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}", r#"{"vault": "우리집", "includeArchived": true}"#],
        &[r#"{"includeArchived": "yes"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let list = ledger
            .list_accounts(who, args.vault.as_deref(), args.include_archived.unwrap_or(false))
            .await?;
        Ok(Output {
            vault: list.vault.into(),
            currency: list.currency.code().to_owned(),
            accounts: list
                .accounts
                .into_iter()
                .map(|a| AccountRow {
                    account_id: a.account_id.into(),
                    name: a.name,
                    kind: a.kind.into(),
                    balance: a.balance.into(),
                    scheduled: a.scheduled.map(Into::into),
                    archived: a.archived,
                    handle: a.handle,
                    budget: a.budget.map(Into::into),
                    parent: a.parent,
                    owner: a.owner,
                    goal: a.goal.map(Into::into),
                    match_words: a.match_words.into_iter().map(Into::into).collect(),
                    billing: a.billing.map(Into::into),
                    installments_left: a.next_bill.as_ref().map(|b| b.installments_left.into()),
                    next_bill: a.next_bill.map(|b| NextBillOut {
                        due_date: b.due_date.into(),
                        amount: b.amount.into(),
                        remaining: b.remaining.into(),
                    }),
                })
                .collect(),
        })
    }
}
