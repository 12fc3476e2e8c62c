//! `list_snapshots`: the balances seen that are stored, to check or undo them.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::SnapshotQuery;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, DayOrMonthArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, UuidOut, VaultOut, account_note};

/// Arguments of `list_snapshots`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Only this account.
    account: Option<AccountArg>,
    /// From this day, YYYY-MM-DD (or YYYY-MM).
    from: Option<DayOrMonthArg>,
    /// To this day, YYYY-MM-DD (or YYYY-MM).
    to: Option<DayOrMonthArg>,
}

/// One stored snapshot.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SnapshotOut {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    /// The date the balance was seen.
    date: DateOut,
    /// The balance seen, natural sign.
    balance: AmountOut,
}

/// Result of `list_snapshots`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The snapshots, by account name then date.
    snapshots: Vec<SnapshotOut>,
    #[schemars(description = text::ACCOUNT_NOTE)]
    #[serde(rename = "accountNote", skip_serializing_if = "Option::is_none")]
    account_note: Option<String>,
}

/// The `list_snapshots` tool.
pub(crate) struct ListSnapshots;

#[async_trait]
impl Operation for ListSnapshots {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_snapshots";
    const TITLE: &'static str = "List balance snapshots";
    const DESCRIPTION: &'static str = "Balances the user saw and recorded with upsert_snapshot, by account and date; a mistyped one is removed with delete_snapshot.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                "{}",
                r#"{"account": "카카오뱅크", "from": "2026-03-01", "to": "2026-03-31"}"#,
            ],
            &[r#"{"date": "2026-03-01"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let list = ledger
            .list_snapshots(
                who,
                SnapshotQuery {
                    vault: args.vault.map(String::from),
                    account: args.account.map(String::from),
                    from: args.from.map(DayOrMonthArg::first),
                    to: args.to.map(DayOrMonthArg::last),
                },
            )
            .await?;
        Ok(Output {
            vault: list.vault.into(),
            currency: list.currency.code().to_owned(),
            snapshots: list
                .snapshots
                .into_iter()
                .map(|s| SnapshotOut {
                    account_id: s.account_id.into(),
                    account: s.account,
                    date: s.date.into(),
                    balance: s.balance.into(),
                })
                .collect(),
            account_note: account_note(list.account_choice),
        })
    }
}
