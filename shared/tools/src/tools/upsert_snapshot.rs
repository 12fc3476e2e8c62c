//! `upsert_snapshot`: the balance a person actually saw for an account on a date.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::SnapshotInput;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, AmountArg, DateArg, NameArg};
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::wire::{AmountOut, DateOut, UuidOut, VaultOut};

/// Arguments of `upsert_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Bank account or card, e.g. "카카오뱅크", "신한카드".
    account: AccountArg,
    /// YYYY-MM-DD it was seen (end of that day).
    date: DateArg,
    /// The balance seen; a card: what it owes ("300000"); negative for an overdraft.
    balance: AmountArg,
}

/// Result of `upsert_snapshot`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    /// The snapshot's date, YYYY-MM-DD.
    date: DateOut,
    /// The balance seen, decimal string in the vault currency.
    balance: AmountOut,
    /// The ledger's own balance for the account at the end of that date.
    ledger_balance: AmountOut,
    /// balance minus ledgerBalance; "0" means the ledger agrees. Otherwise look for missing or wrong entries with list_transactions.
    difference: AmountOut,
}

/// The `upsert_snapshot` tool.
pub(crate) struct UpsertSnapshot;

#[async_trait]
impl Operation for UpsertSnapshot {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "upsert_snapshot";
    const TITLE: &'static str = "Record a balance snapshot";
    const DESCRIPTION: &'static str = "Records the balance the user saw for a bank account or card (잔액 확인, e.g. in the bank app) on a date; one per account and date, a second replaces it. The result shows the ledger's balance and the difference. Then reconcile.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{"account": "카카오뱅크", "date": "2026-03-15", "balance": "-5000"}"#],
            &[
                r#"{"account": "카카오뱅크", "date": "2026-03-15"}"#,
                r#"{"account": "카카오뱅크", "date": "15/03", "balance": "1"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let s = ledger
            .upsert_snapshot(
                who,
                SnapshotInput {
                    vault: args.vault.map(String::from),
                    account: args.account.into(),
                    date: args.date.0,
                    balance: args.balance.0,
                },
            )
            .await?;
        Ok(Output {
            vault: s.vault.into(),
            currency: s.currency.code().to_owned(),
            account_id: s.account_id.into(),
            account: s.account,
            date: s.date.into(),
            balance: s.balance.into(),
            ledger_balance: s.ledger_balance.into(),
            difference: s.difference.into(),
        })
    }
}
