//! Snapshots (balances a person saw) and reconciling them with the ledger.

use std::collections::BTreeMap;

use super::accounts::{membership_check, vault_gone};
use super::codec::account_live;
use super::codec::{Period, Rollup, SnapshotRec};
use super::guards::{ACCOUNT_LIVE, MEMBERSHIP, SNAPSHOT_EXISTS};
use super::reports::nets_at;
use super::resolve::{Catalogue, join2, query_all, retrying};
use super::roster::{InVault, in_vault};
use super::*;
use crate::domain::{AccountId, AccountKind, Money};
use crate::error::Field;
use crate::keys;
use crate::store::{Guard, Item, StoreError, WriteOp};

pub(super) async fn upsert_snapshot(
    ledger: &Ledger,
    who: &PersonId,
    input: SnapshotInput,
) -> Result<SnapshotOutcome, LedgerError> {
    let input = &input;
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            upsert_in(ledger, who, input, v)
        })
    })
    .await
}

async fn upsert_in(
    ledger: &Ledger,
    who: &PersonId,
    input: &SnapshotInput,
    v: InVault,
) -> Result<SnapshotOutcome, LedgerError> {
    let m = v.m.clone();
    let today = m.today(ledger);
    if input.date > today {
        return Err(LedgerError::SnapshotAfterToday {
            date: input.date,
            today,
        });
    }
    let balance = Money::from_decimal(input.balance, m.currency)
        .map_err(|e| LedgerError::from_parse(Field::Balance, e))?;
    let (cat, nets) = nets_at(ledger, &m, input.date).await?;
    let a = cat.resolve(&input.account, false, &m)?.clone();
    if !matches!(a.kind, AccountKind::Asset | AccountKind::Liability) {
        return Err(LedgerError::SnapshotOfFlowAccount {
            name: a.name,
            kind: a.kind,
        });
    }
    let ledger_balance = Money::from_minor(
        a.kind
            .natural(nets.get(&a.account_id).copied().unwrap_or(0))
            .ok_or_else(|| LedgerError::out_of_range(format!("balance of account \"{}\"", a.name)))?,
        m.currency,
    );
    let difference = balance
        .checked_sub(ledger_balance)
        .ok_or_else(|| LedgerError::invalid(Field::Balance, "the balance is out of range"))?;
    let rec = SnapshotRec {
        account_id: a.account_id,
        date: input.date,
        balance: balance.minor(),
    };
    let ops = vec![
        membership_check(who, &m),
        // One snapshot per account and date: the key is the pair, so writing again replaces it.
        WriteOp::Put {
            item: Item {
                key: keys::snapshot(m.vault_id, a.account_id, input.date),
                attrs: rec.to_attrs(ledger.clock.now().as_second(), &who.display_name()),
            },
            guard: None,
        },
        WriteOp::Check {
            key: keys::account(m.vault_id, a.account_id),
            guard: Guard::new(ACCOUNT_LIVE, account_live()),
        },
    ];
    match v.commit(ledger, who, ops).await {
        Ok(()) => Ok(SnapshotOutcome {
            vault: m.vault_ref(),
            currency: m.currency,
            account_id: a.account_id,
            account: a.name.clone(),
            date: input.date,
            balance,
            ledger_balance,
            difference,
        }),
        Err(StoreError::ConditionFailed {
            guard: MEMBERSHIP, ..
        }) => Err(vault_gone(&m)),
        Err(StoreError::ConditionFailed {
            guard: ACCOUNT_LIVE, ..
        }) => Err(LedgerError::ArchivedAccount { name: a.name }),
        // The roster moved (see `roster.rs`): decide again on a fresh one.
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(e.into()),
    }
}

pub(super) async fn reconcile(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: Option<&str>,
) -> Result<Reconciliation, LedgerError> {
    in_vault(ledger, who, vault, |v| reconcile_in(ledger, v.m, account)).await
}

async fn reconcile_in(
    ledger: &Ledger,
    m: super::codec::Membership,
    account: Option<&str>,
) -> Result<Reconciliation, LedgerError> {
    let store = ledger.store.as_ref();
    let pk = keys::vault_pk(m.vault_id);
    // Round 1: accounts with every monthly rollup, and every snapshot.
    let (head, snaps) = join2(
        query_all(store, pk.clone(), keys::accounts_and_months_through(None), true),
        query_all(store, pk.clone(), keys::snapshots(), true),
    )
    .await;
    let head = head?;
    let cat = Catalogue::from_items(&head)?;
    let (only, account_choice) = match account {
        Some(a) => {
            let (a, choice) = cat.resolve_filter(a, &m)?;
            (Some(a.account_id), choice)
        }
        None => (None, None),
    };
    // The latest snapshot on or before today per account: one dated later (kept
    // from before such dates were refused) never takes over.
    let today = m.today(ledger);
    let mut latest: BTreeMap<AccountId, SnapshotRec> = BTreeMap::new();
    for item in &snaps? {
        let s = SnapshotRec::from_attrs(&item.attrs)?;
        if only.is_some_and(|o| o != s.account_id) || s.date > today {
            continue;
        }
        if latest.get(&s.account_id).is_none_or(|cur| cur.date < s.date) {
            latest.insert(s.account_id, s);
        }
    }
    let mut rows = Vec::new();
    if let (Some(first), Some(last)) = (
        latest.values().map(|s| s.date).min(),
        latest.values().map(|s| s.date).max(),
    ) {
        // Round 2: daily rollups from the earliest snapshot's month to the latest snapshot.
        let days = query_all(store, pk, keys::days_between(first.first_of_month(), last), true).await?;
        for s in latest.values() {
            let Some(a) = cat.by_id(s.account_id) else {
                continue;
            };
            let mut net: i64 = 0;
            for item in head.iter().filter(|i| keys::is_month_rollup(&i.key.sk)) {
                let r = Rollup::from_attrs(&item.attrs)?;
                if r.account_id == a.account_id && r.period.month() < s.date.month() {
                    net = net.checked_add(r.net).ok_or_else(|| {
                        LedgerError::out_of_range(format!("balance of account \"{}\"", a.name))
                    })?;
                }
            }
            for item in &days {
                let r = Rollup::from_attrs(&item.attrs)?;
                let Period::Day(day) = r.period else {
                    return Err(LedgerError::internal("a daily range returned a monthly rollup"));
                };
                if r.account_id == a.account_id && day.month() == s.date.month() && day <= s.date {
                    net = net.checked_add(r.net).ok_or_else(|| {
                        LedgerError::out_of_range(format!("balance of account \"{}\"", a.name))
                    })?;
                }
            }
            let ledger_balance = Money::from_minor(
                a.kind
                    .natural(net)
                    .ok_or_else(|| LedgerError::out_of_range(format!("balance of account \"{}\"", a.name)))?,
                m.currency,
            );
            let snapshot_balance = Money::from_minor(s.balance, m.currency);
            let difference = snapshot_balance.checked_sub(ledger_balance).ok_or_else(|| {
                LedgerError::out_of_range(format!(
                    "difference between snapshot and ledger for \"{}\"",
                    a.name
                ))
            })?;
            rows.push(ReconcileRow {
                account_id: a.account_id,
                name: cat.shown_name(a).to_string(),
                snapshot_date: s.date,
                snapshot_balance,
                ledger_balance,
                difference,
                status: if difference.is_zero() {
                    ReconcileStatus::Matched
                } else {
                    ReconcileStatus::Mismatch
                },
            });
        }
    }
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Reconciliation {
        vault: m.vault_ref(),
        currency: m.currency,
        accounts: rows,
        account_choice,
    })
}

pub(super) async fn list_snapshots(
    ledger: &Ledger,
    who: &PersonId,
    q: SnapshotQuery,
) -> Result<SnapshotList, LedgerError> {
    if let (Some(f), Some(t)) = (q.from, q.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let q = &q;
    in_vault(ledger, who, q.vault.as_deref(), |v| async move {
        let m = v.m;
        let store = ledger.store.as_ref();
        // One round: the accounts (names, and which account a filter means) and the snapshots.
        let (cat, snaps) = join2(
            super::resolve::catalogue(ledger, &m),
            query_all(store, keys::vault_pk(m.vault_id), keys::snapshots(), true),
        )
        .await;
        let cat = cat?;
        let (only, account_choice) = match q.account.as_deref() {
            Some(a) => {
                let (a, choice) = cat.resolve_filter(a, &m)?;
                (Some(a.account_id), choice)
            }
            None => (None, None),
        };
        let mut snapshots = Vec::new();
        for item in &snaps? {
            let s = SnapshotRec::from_attrs(&item.attrs)?;
            let wanted = only.is_none_or(|o| o == s.account_id)
                && q.from.is_none_or(|f| s.date >= f)
                && q.to.is_none_or(|t| s.date <= t);
            let Some(a) = cat.by_id(s.account_id).filter(|_| wanted) else {
                continue;
            };
            snapshots.push(SnapshotRow {
                account_id: a.account_id,
                account: cat.shown_name(a).to_string(),
                date: s.date,
                balance: Money::from_minor(s.balance, m.currency),
            });
        }
        snapshots.sort_by(|a, b| (&a.account, a.date).cmp(&(&b.account, b.date)));
        Ok(SnapshotList {
            vault: m.vault_ref(),
            currency: m.currency,
            snapshots,
            account_choice,
        })
    })
    .await
}

pub(super) async fn delete_snapshot(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    date: LocalDate,
) -> Result<SnapshotDeleted, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.m.clone();
            let cat = super::resolve::catalogue(ledger, &m).await?;
            // Archived accounts' snapshots can be deleted too (they are still listed).
            let a = cat.resolve(account, true, &m)?.clone();
            let ops = vec![
                membership_check(who, &m),
                WriteOp::Delete {
                    key: keys::snapshot(m.vault_id, a.account_id, date),
                    guard: Some(Guard::new(SNAPSHOT_EXISTS, crate::store::Condition::Exists)),
                },
            ];
            let deleted = match v.commit(ledger, who, ops).await {
                Ok(()) => true,
                // Nothing on that date: nothing to delete, and a retry is harmless.
                Err(StoreError::ConditionFailed {
                    guard: SNAPSHOT_EXISTS,
                    ..
                }) => false,
                Err(StoreError::ConditionFailed {
                    guard: MEMBERSHIP, ..
                }) => return Err(vault_gone(&m)),
                Err(StoreError::ConditionFailed { .. }) => return Err(LedgerError::Conflict),
                Err(e) => return Err(e.into()),
            };
            Ok(SnapshotDeleted {
                vault: m.vault_ref(),
                account_id: a.account_id,
                account: a.name,
                date,
                deleted,
            })
        })
    })
    .await
}
