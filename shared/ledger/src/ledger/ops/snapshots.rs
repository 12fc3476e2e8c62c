//! Snapshots (balances a person saw) and reconciling them with the ledger.

use std::collections::BTreeMap;

use crate::api::{Field, Reason, Total};
use crate::ledger::guards::{SNAPSHOT_EXISTS, SNAPSHOT_HEAD};
use crate::ledger::nets::nets_at;
use crate::ledger::resolve;
use crate::ledger::resolve::{Catalogue, join2, query_all, retrying};
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::*;
use crate::stored::account::{account_item_live, account_live};
use crate::stored::rollup::{Period, Rollup};
use crate::stored::snapshot::{LatestSnapshot, SnapshotHead, SnapshotRec};
use crate::stored::{account, member, rollup, snapshot, table};
use dochiya_domain::{AccountId, AccountKind, Money};
use dochiya_store::{Condition, Guard, Item, WriteOp};

pub(in crate::ledger) async fn upsert_snapshot(
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
    let m = v.membership.clone();
    let today = ledger.today_in(&m);
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
            .ok_or_else(|| {
                LedgerError::out_of_range(Total::Balance {
                    account: a.name.clone(),
                })
            })?,
        m.currency,
    );
    let difference = balance
        .checked_sub(ledger_balance)
        .ok_or_else(|| LedgerError::invalid(Field::Balance, Reason::BalanceOutOfRange))?;
    let rec = SnapshotRec {
        account_id: a.account_id,
        date: input.date,
        balance: balance.minor(),
        seq: a.snapshots.next_seq(),
    };
    let latest = match a.snapshots {
        SnapshotHead::Known { latest, .. } => newer(latest, rec.latest()),
        // An account item from before heads: its own snapshots decide, read after
        // the head (one more round, once per such account; decision 030).
        SnapshotHead::Unknown => {
            let items = query_all(
                ledger.store.as_ref(),
                table::vault_pk(m.vault_id),
                snapshot::account_snapshots(a.account_id),
                true,
            )
            .await?;
            let mut latest = Some(rec.latest());
            for item in &items {
                let s = SnapshotRec::from_attrs(&item.attrs)?;
                // The one on this date is the one being replaced.
                if s.date != input.date {
                    latest = newer(latest, s.latest());
                }
            }
            latest
        }
    };
    let ops = vec![
        // One snapshot per account and date: the key is the pair, so writing again replaces it.
        WriteOp::Put {
            item: Item {
                key: snapshot::snapshot(m.vault_id, a.account_id, input.date),
                attrs: rec.to_attrs(ledger.clock.now().as_second(), &who.display_name()),
            },
            guard: None,
        },
        // The account is live and its head unchanged since read; the head moves on.
        a.snapshots.moved_on(
            account::account(m.vault_id, a.account_id),
            latest,
            Guard::new(
                SNAPSHOT_HEAD,
                Condition::All(vec![account_live(), a.snapshots.unchanged()]),
            ),
        ),
    ];
    // The roster or the head moved (another snapshot write): decide again.
    v.write_with(ledger, who, ops, |guard, current| {
        (guard == SNAPSHOT_HEAD && !account_item_live(current))
            .then(|| LedgerError::ArchivedAccount { name: a.name.clone() })
    })
    .await?;
    Ok(SnapshotOutcome {
        vault: m.vault_ref(),
        currency: m.currency,
        account_id: a.account_id,
        account: a.name.clone(),
        date: input.date,
        balance,
        ledger_balance,
        difference,
    })
}

/// The later of a head's latest and a snapshot; on the same date, the snapshot
/// (it replaces the item of that date).
fn newer(current: Option<LatestSnapshot>, candidate: LatestSnapshot) -> Option<LatestSnapshot> {
    match current {
        Some(c) if c.date > candidate.date => Some(c),
        _ => Some(candidate),
    }
}

/// The latest of `snaps` other than the one dated `gone`.
fn latest_without(snaps: &[SnapshotRec], gone: LocalDate) -> Option<LatestSnapshot> {
    snaps
        .iter()
        .filter(|s| s.date != gone)
        .max_by_key(|s| s.date)
        .map(SnapshotRec::latest)
}

pub(in crate::ledger) async fn reconcile(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: Option<&str>,
) -> Result<Reconciliation, LedgerError> {
    in_vault(ledger, who, vault, |v| {
        reconcile_in(ledger, v.membership, account)
    })
    .await
}

/// An account's balance (natural sign) at the end of `date`: its running balance less
/// the rollups of what moved after it (`recent`: the days read run past `date`'s month
/// and no month was read).
fn balance_at<'i>(
    a: &account::AccountRec,
    date: LocalDate,
    after: impl Iterator<Item = &'i Item>,
    recent: bool,
) -> Result<i64, LedgerError> {
    let out_of_range = || {
        LedgerError::out_of_range(Total::Balance {
            account: a.name.clone(),
        })
    };
    let mut net: i64 = a.net;
    for item in after {
        let r = Rollup::from_attrs(&item.attrs)?;
        let later = match r.period {
            Period::Day(day) => day > date && (recent || day.month() == date.month()),
            Period::Month(month) => month > date.month(),
        };
        if r.account_id == a.account_id && later {
            net = net.checked_sub(r.net).ok_or_else(out_of_range)?;
        }
    }
    a.kind.natural(net).ok_or_else(out_of_range)
}

async fn reconcile_in(
    ledger: &Ledger,
    m: member::Membership,
    account: Option<&str>,
) -> Result<Reconciliation, LedgerError> {
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    // Round 1: accounts, each with its running balance and its latest snapshot (decision 030).
    let cat = Catalogue::from_items(&query_all(store, pk.clone(), account::accounts(), true).await?)?;
    let (only, account_choice) = match account {
        Some(a) => {
            let (a, choice) = cat.resolve_filter(a, &m)?;
            (Some(a.account_id), choice)
        }
        None => (None, None),
    };
    let today = ledger.today_in(&m);
    let mut latest: BTreeMap<AccountId, LatestSnapshot> = BTreeMap::new();
    let mut heads_decide = true;
    for a in cat
        .accounts
        .iter()
        .filter(|a| only.is_none_or(|o| o == a.account_id))
    {
        match a.snapshots {
            SnapshotHead::Known { latest: None, .. } => {}
            SnapshotHead::Known { latest: Some(l), .. } if l.date <= today => {
                latest.insert(a.account_id, l);
            }
            // A head from before heads existed, or one naming a snapshot dated after
            // today (kept from before such dates were refused): the items decide.
            _ => heads_decide = false,
        }
    }
    if !heads_decide {
        // The latest snapshot on or before today per account: one dated later never takes over.
        latest.clear();
        for item in &query_all(store, pk.clone(), snapshot::snapshots(), true).await? {
            let s = SnapshotRec::from_attrs(&item.attrs)?;
            if only.is_some_and(|o| o != s.account_id) || s.date > today {
                continue;
            }
            if latest.get(&s.account_id).is_none_or(|cur| cur.date < s.date) {
                latest.insert(s.account_id, s.latest());
            }
        }
    }
    let mut rows = Vec::new();
    if let (Some(first), Some(last)) = (
        latest.values().map(|s| s.date).min(),
        latest.values().map(|s| s.date).max(),
    ) {
        // Then what moved after the earliest snapshot: the rest of its month by day to the
        // end of the latest snapshot's month, every later month by month. A balance at a
        // snapshot's date is the running balance less what moved after it (decision 062).
        // Snapshots of this month only: the days after the first are all there is.
        let recent = first.month() >= today.month();
        let rest = async {
            if recent {
                query_all(store, pk.clone(), rollup::days_from(first.next_day()), true).await
            } else if first == last.month().last_day() {
                // Nothing after it in the latest one's month (a range must not end before it starts).
                Ok(vec![])
            } else {
                query_all(
                    store,
                    pk.clone(),
                    rollup::days_between(first.next_day(), last.month().last_day()),
                    true,
                )
                .await
            }
        };
        let months = async {
            if recent {
                return Ok(vec![]);
            }
            query_all(store, pk.clone(), rollup::months_from(first.month().next()), true).await
        };
        let (days, months) = join2(rest, months).await;
        let (days, months) = (days?, months?);
        for (account_id, s) in &latest {
            let Some(a) = cat.by_id(*account_id) else {
                continue;
            };
            let ledger_balance = Money::from_minor(
                balance_at(a, s.date, days.iter().chain(&months), recent)?,
                m.currency,
            );
            let snapshot_balance = Money::from_minor(s.balance, m.currency);
            let difference = snapshot_balance.checked_sub(ledger_balance).ok_or_else(|| {
                LedgerError::out_of_range(Total::SnapshotDifference {
                    account: a.name.clone(),
                })
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

pub(in crate::ledger) async fn list_snapshots(
    ledger: &Ledger,
    who: &PersonId,
    q: SnapshotQuery,
) -> Result<SnapshotList, LedgerError> {
    if let (Some(f), Some(t)) = (q.from, q.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let q = &q;
    in_vault(ledger, who, q.vault.as_deref(), |v| async move {
        let m = v.membership;
        let store = ledger.store.as_ref();
        // One round: the accounts (names, and which account a filter means) and the snapshots.
        let (cat, snaps) = join2(
            resolve::catalogue(ledger, &m),
            query_all(store, table::vault_pk(m.vault_id), snapshot::snapshots(), true),
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

pub(in crate::ledger) async fn delete_snapshot(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    date: LocalDate,
) -> Result<SnapshotDeleted, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            let store = ledger.store.as_ref();
            let pk = table::vault_pk(m.vault_id);
            // One round: the accounts (each with its snapshot head) and the vault's
            // snapshots (the next latest, should the latest go).
            let (cat, snaps) = join2(
                resolve::catalogue(ledger, &m),
                query_all(store, pk.clone(), snapshot::snapshots(), true),
            )
            .await;
            let cat = cat?;
            // Archived accounts' snapshots can be deleted too (they are still listed).
            let a = cat.resolve(account, true, &m)?.clone();
            let mut own = Vec::new();
            for item in &snaps? {
                let s = SnapshotRec::from_attrs(&item.attrs)?;
                if s.account_id == a.account_id {
                    own.push(s);
                }
            }
            let latest = match a.snapshots {
                SnapshotHead::Known { seq, latest: Some(l) } if l.date == date => {
                    // The latest goes. The list read beside the head names the next
                    // one only if it holds the head's own write (the newest `seq`);
                    // a newer one means a write landed between the reads: read again.
                    let newest = own.iter().map(|s| s.seq).max().unwrap_or(0);
                    if newest > seq {
                        return Err(LedgerError::Conflict);
                    }
                    if newest < seq {
                        // The head's last write was a delete: the list is read again,
                        // after the head (one more round; decision 030).
                        own.clear();
                        for item in
                            &query_all(store, pk, snapshot::account_snapshots(a.account_id), true).await?
                        {
                            own.push(SnapshotRec::from_attrs(&item.attrs)?);
                        }
                    }
                    latest_without(&own, date)
                }
                // Another date goes: the latest stays.
                SnapshotHead::Known { latest, .. } => latest,
                // From before heads: the list decides (the head is set only if still absent).
                SnapshotHead::Unknown => latest_without(&own, date),
            };
            let ops = vec![
                WriteOp::Delete {
                    key: snapshot::snapshot(m.vault_id, a.account_id, date),
                    guard: Some(Guard::new(SNAPSHOT_EXISTS, Condition::Exists)),
                },
                a.snapshots.moved_on(
                    account::account(m.vault_id, a.account_id),
                    latest,
                    Guard::new(SNAPSHOT_HEAD, a.snapshots.unchanged()),
                ),
            ];
            // Nothing on that date: nothing to delete, and a retry is harmless.
            let deleted = v.write_unless(ledger, who, ops, SNAPSHOT_EXISTS).await?.is_none();
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

impl Ledger {
    /// Each account's latest snapshot against the ledger's balance on its date.
    pub async fn reconcile(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: Option<&str>,
    ) -> Result<Reconciliation, LedgerError> {
        reconcile(self, who, vault, account).await
    }

    /// The stored snapshots, by account name then date, optionally of one account and a date range.
    pub async fn list_snapshots(
        &self,
        who: &PersonId,
        query: SnapshotQuery,
    ) -> Result<SnapshotList, LedgerError> {
        list_snapshots(self, who, query).await
    }

    /// Delete an account's snapshot on a date; `deleted: false` when there was none.
    pub async fn delete_snapshot(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        date: LocalDate,
    ) -> Result<SnapshotDeleted, LedgerError> {
        delete_snapshot(self, who, vault, account, date).await
    }

    /// Write (or replace) the balance seen for an account on a date.
    pub async fn upsert_snapshot(
        &self,
        who: &PersonId,
        input: SnapshotInput,
    ) -> Result<SnapshotOutcome, LedgerError> {
        upsert_snapshot(self, who, input).await
    }
}
