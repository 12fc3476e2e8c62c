//! `reconcile`: each account's latest snapshot against the ledger's balance on its date.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::ReconcileStatus;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, UuidOut, VaultOut, account_note};

/// Arguments of `reconcile`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Only this account; default every account with a snapshot.
    account: Option<AccountArg>,
}

/// Whether a snapshot agrees with the ledger.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Matched,
    Mismatch,
}

/// Result of `reconcile`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// Accounts that have a snapshot, by name, each compared on its latest snapshot's date. Empty when no snapshot was recorded yet (use upsert_snapshot).
    accounts: Vec<Row>,
    #[schemars(description = text::ACCOUNT_NOTE)]
    #[serde(rename = "accountNote", skip_serializing_if = "Option::is_none")]
    account_note: Option<String>,
}

/// One account's latest snapshot against the ledger.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Row {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    name: String,
    /// Date of the latest snapshot, YYYY-MM-DD.
    snapshot_date: DateOut,
    /// The balance the user saw on that date (e.g. in the bank app), decimal string in the vault currency.
    snapshot_balance: AmountOut,
    /// The ledger's balance for the account at the end of that date, natural sign.
    ledger_balance: AmountOut,
    /// snapshotBalance minus ledgerBalance. Positive: the ledger is missing money coming in (or has too much going out); negative: the reverse. Look for missing or wrong entries around the date with list_transactions.
    difference: AmountOut,
    /// "matched" when the difference is zero, else "mismatch".
    status: Status,
}

/// The `reconcile` tool.
pub(crate) struct Reconcile;

#[async_trait]
impl Operation for Reconcile {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "reconcile";
    const TITLE: &'static str = "Reconcile with snapshots";
    const DESCRIPTION: &'static str = "Checks the book against the bank (잔액 대조): each account's latest snapshot (upsert_snapshot) against the ledger's balance that day, with the difference. On a mismatch look around the date with list_transactions, then fix with edit_transaction or record_transaction.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}", r#"{"account": "카카오뱅크"}"#], &[r#"{"accounts": "x"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let r = ledger
            .reconcile(who, args.vault.as_deref(), args.account.as_deref())
            .await?;
        Ok(Output {
            vault: r.vault.into(),
            currency: r.currency.code().to_owned(),
            accounts: r
                .accounts
                .into_iter()
                .map(|a| Row {
                    account_id: a.account_id.into(),
                    name: a.name,
                    snapshot_date: a.snapshot_date.into(),
                    snapshot_balance: a.snapshot_balance.into(),
                    ledger_balance: a.ledger_balance.into(),
                    difference: a.difference.into(),
                    status: match a.status {
                        ReconcileStatus::Matched => Status::Matched,
                        ReconcileStatus::Mismatch => Status::Mismatch,
                    },
                })
                .collect(),
            account_note: account_note(r.account_choice),
        })
    }
}
