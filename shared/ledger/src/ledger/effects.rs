//! What a transaction does to stored totals: per-account running balances and
//! monthly and daily rollups, all updated in the same atomic write as the
//! transaction itself, so balances and reports never scan postings.

use std::collections::BTreeMap;

use super::codec::{PostingRec, sv};
use crate::domain::{AccountId, LocalDate, VaultId};
use crate::error::LedgerError;
use crate::keys;
use crate::store::{Condition, StoreError, Value, WriteOp};

/// Net change per account (debit-positive), summing repeated accounts.
pub(super) fn net_by_account(
    postings: &[PostingRec],
    sign: i64,
) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
    let mut out: BTreeMap<AccountId, i64> = BTreeMap::new();
    for p in postings {
        let delta = p.amount.checked_mul(sign).ok_or_else(overflow)?;
        let slot = out.entry(p.account_id).or_insert(0);
        *slot = slot.checked_add(delta).ok_or_else(overflow)?;
    }
    Ok(out)
}

fn overflow() -> LedgerError {
    LedgerError::invalid("amount", "the amounts are out of range for this ledger")
}

/// A write's error, with the store's refusal of an overflowing `add` (a balance or a
/// monthly or daily rollup passing 64 bits) told as what it is: nothing was written,
/// and the message says what to do. Every store words that refusal the same way.
pub(super) fn refusing_overflow(e: StoreError) -> LedgerError {
    match e {
        StoreError::Invalid(message) if message.starts_with("numeric overflow") => LedgerError::invalid(
            "amount",
            "this entry would put a stored monthly or daily total of one of its accounts out of range \
             (past 9223372036854775807 minor units), so nothing was recorded; check the amount for extra digits",
        ),
        other => other.into(),
    }
}

/// Rollup updates (month and day) for each account's net change on `date`.
pub(super) fn rollup_ops(vault: VaultId, date: LocalDate, nets: &BTreeMap<AccountId, i64>) -> Vec<WriteOp> {
    let mut ops = Vec::with_capacity(nets.len() * 2);
    for (&account, &net) in nets {
        ops.push(WriteOp::Update {
            key: keys::month_rollup(vault, date.month(), account),
            set: BTreeMap::from([
                ("accountId".into(), sv(account.to_string())),
                ("month".into(), sv(date.month().to_string())),
            ]),
            add: BTreeMap::from([("net".into(), net)]),
            remove: vec![],
            condition: None,
        });
        ops.push(WriteOp::Update {
            key: keys::day_rollup(vault, date, account),
            set: BTreeMap::from([
                ("accountId".into(), sv(account.to_string())),
                ("date".into(), sv(date.to_string())),
            ]),
            add: BTreeMap::from([("net".into(), net)]),
            remove: vec![],
            condition: None,
        });
    }
    ops
}

/// Running-balance update of an existing account. New transactions require the
/// account to be live (`archived = false`, which also means it exists); voids
/// only require it to exist.
pub(super) fn balance_op(vault: VaultId, account: AccountId, net: i64, require_live: bool) -> WriteOp {
    WriteOp::Update {
        key: keys::account(vault, account),
        set: BTreeMap::new(),
        add: BTreeMap::from([("net".into(), net)]),
        remove: vec![],
        condition: Some(if require_live {
            Condition::AttrEquals("archived".into(), Value::Bool(false))
        } else {
            Condition::Exists
        }),
    }
}
