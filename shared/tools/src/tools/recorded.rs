//! The result shared by `record_transaction` and `record_split_transaction`.

use dochiya_ledger::ledger::Recorded;
use schemars::JsonSchema;
use serde::Serialize;

use crate::text;
use crate::wire::{AmountOut, TransactionOut, UuidOut, VaultOut};

/// Result of recording a transaction.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The transaction as recorded (or as it would be, on a dry run). Keep its transactionId to look it up or void it later.
    transaction: TransactionOut,
    #[schemars(description = text::WRITE_BALANCES)]
    balances: Vec<BalanceOut>,
    /// True when this is the stored result of an earlier call with the same idempotencyKey: nothing new was written, the entry exists once.
    replayed: bool,
    /// True when dryRun was set: nothing was written, this is a preview.
    dry_run: bool,
}

/// An account's balance after the write: as of today, later-dated entries apart.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BalanceOut {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    #[schemars(description = text::BALANCE)]
    balance: AmountOut,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
}

impl From<dochiya_ledger::ledger::AccountBalance> for BalanceOut {
    fn from(b: dochiya_ledger::ledger::AccountBalance) -> Self {
        Self {
            account_id: b.account_id.into(),
            account: b.account,
            balance: b.balance.into(),
            scheduled: b.scheduled.map(Into::into),
        }
    }
}

impl From<Recorded> for Output {
    fn from(r: Recorded) -> Self {
        Self {
            vault: r.vault.into(),
            currency: r.currency.code().to_owned(),
            transaction: r.transaction.into(),
            balances: r.balances.into_iter().map(BalanceOut::from).collect(),
            replayed: r.replayed,
            dry_run: r.dry_run,
        }
    }
}
