//! `upsert_snapshot`: the balance a person actually saw for an account on a date.

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::ledger::SnapshotInput;
use dochiya_ledger::{Ledger, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, AmountArg, DateArg, NameArg};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::wire::{AmountOut, DateOut, UuidOut, VaultOut};

/// Arguments of `upsert_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    #[schemars(description = text::ACCOUNT)]
    account: AccountArg,
    /// The date the balance was seen, YYYY-MM-DD in the vault's time zone (the balance at the end of that day).
    date: DateArg,
    /// The balance the user saw (e.g. in the bank or card app), as a decimal string in the vault currency, in the kind's natural sign: money in a bank account, what a card owes ("300000" for 300,000 won owed). May be negative (an overdraft).
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
    const DESCRIPTION: &'static str = "Records the balance the user actually saw for an asset or liability account (a bank account, a card) on a date up to today (e.g. in the bank app), as a decimal string in the vault currency. One snapshot per account and date: calling again for the same date replaces it. The result compares it with the ledger's own balance that day and shows the difference (snapshot minus ledger). Call reconcile to compare every account's latest snapshot; list_snapshots and delete_snapshot show and remove them.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(true);

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
