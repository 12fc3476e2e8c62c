//! `create_account`: a new account in a vault, optionally with an opening balance.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::NewAccount;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AmountArg, DateArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{AmountOut, KindWire, TransactionIdOut, UuidOut, VaultOut};

/// Arguments of `create_account`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Name of the new account, e.g. "카카오뱅크", "신한카드", "월급", "식비" (at most 64 characters, unique among the vault's live accounts).
    name: NameArg,
    /// What the account is: "asset" (bank account, cash), "liability" (credit card, loan), "income" (salary), "expense" (food, transport) or "equity" (rarely needed).
    kind: KindWire,
    /// Balance the account already has, as a decimal string in the vault currency, in the kind's natural sign: money in a bank account, or what a card owes (a card owing 300,000 won is "300000"). Posted against an opening-balance equity account. Only for asset, liability and equity accounts; leave it out for zero.
    opening_balance: Option<AmountArg>,
    /// Date of the opening balance, YYYY-MM-DD in the vault's time zone. Leave it out for today.
    opening_date: Option<DateArg>,
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
    const DESCRIPTION: &'static str = "Creates an account in a vault: \"asset\" for bank accounts and cash (카카오뱅크), \"liability\" for credit cards and loans (신한카드), \"income\" for salary (월급), \"expense\" for spending categories (식비, 교통비). An asset, liability or equity account may start with an opening balance (decimal string in the vault currency), recorded against an opening-balance equity account; income and expense accounts start at zero. Calling it again with the same name and kind returns the existing account with created false. Next: record_transaction.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(true);

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
