//! `create_account`: a new account in a vault, optionally with an opening balance.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::NewAccount;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AmountArg, DateArg, NameArg};
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::wire::{AmountOut, KindWire, TransactionIdOut, UuidOut, VaultOut};

/// Arguments of `create_account`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Name, e.g. "카카오뱅크", "신한카드", "월급", "식비".
    name: NameArg,
    /// asset (bank, cash), liability (card, loan), income, expense (a spending category) or equity (rare).
    kind: KindWire,
    /// What it holds now (a card: what it owes, "300000"); asset, liability or equity only.
    opening_balance: Option<AmountArg>,
    /// YYYY-MM-DD; default today.
    opening_date: Option<DateArg>,
    #[schemars(description = text::PARENT)]
    parent: Option<NameArg>,
    /// A card's bill cycle.
    billing: Option<super::card_bill::BillingArg>,
    #[schemars(description = text::OWNER)]
    owner: Option<NameArg>,
}

/// Result of `create_account`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    name: String,
    #[schemars(description = text::KIND)]
    kind: KindWire,
    /// Its balance as of today in the vault's time zone; see scheduled for a later opening date.
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
    /// True when the account was created now; false when a live account with this name and kind already existed (nothing was changed).
    created: bool,
    /// The transaction that recorded the opening balance, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_transaction_id: Option<TransactionIdOut>,
}

/// The `create_account` tool.
pub(crate) struct CreateAccount;

#[async_trait]
impl Operation for CreateAccount {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "create_account";
    const TITLE: &'static str = "Create an account";
    const DESCRIPTION: &'static str = "Adds an account: asset (통장, 현금), liability (신용카드, 대출), income (월급) or expense category (식비, 교통비). An asset or liability may start with openingBalance, posted against equity. The same name and kind again returns it. Next: record_transaction.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"name": "신한카드", "kind": "liability", "openingBalance": "300000", "openingDate": "2026-03-01"}"#,
                r#"{"name": "외식", "kind": "expense", "parent": "식비"}"#,
                r#"{"name": "삼성카드", "kind": "liability", "billing": {"closingDay": 18, "paymentDay": 1}}"#,
            ],
            &[
                r#"{"name": "x", "kind": "salary"}"#,
                r#"{"name": "x", "kind": "asset", "openingBalance": "1,000"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let a = ledger
            .create_account(
                who,
                NewAccount {
                    vault: args.vault.map(String::from),
                    name: args.name.into(),
                    kind: args.kind.into(),
                    opening_balance: args.opening_balance.map(|a| a.0),
                    opening_date: args.opening_date.map(|d| d.0),
                    parent: args.parent.map(String::from),
                    billing: args.billing.as_ref().map(|b| b.parse()).transpose()?.flatten(),
                    owner: args.owner.map(String::from),
                },
            )
            .await?;
        Ok(Output {
            vault: a.vault.into(),
            account_id: a.account_id.into(),
            name: a.name,
            kind: a.kind.into(),
            balance: a.balance.into(),
            scheduled: a.scheduled.map(Into::into),
            created: a.created,
            opening_transaction_id: a.opening_transaction_id.map(Into::into),
        })
    }
}
