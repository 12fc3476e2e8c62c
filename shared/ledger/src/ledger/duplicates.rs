//! The duplicate guard (decision 032): the keys an entry's date, accounts and amounts
//! give in this time bucket and the one before, the guard a recurring posting leaves,
//! the check against what the guards read, and the guard writes that keep two racing
//! entries from both passing.

use super::entry::{Entry, window_ms};
use super::guards::DUPLICATE_GUARD;
use super::idempotency::Claim;
use super::posting::POSTED_GUARD_SECS;
use super::*;
use crate::stored::entry;
use crate::stored::entry::{GuardRec, TxRec, guard_points_at};
use crate::stored::idempotency::IdemRec;
use crate::stored::member::Membership;
use dochiya_store::{Condition, Item, Key, WriteOp};

/// The duplicate guards read for an entry, in the order of its `guard_keys`.
pub(super) type Guards = Vec<Option<GuardRec>>;

/// The guards of `guards` that `e` repeats, recorded within the window before
/// `now_ms`, newest first.
fn within_window<'g>(e: &Entry<'_>, guards: &'g Guards, window_ms: i64, now_ms: i64) -> Vec<&'g GuardRec> {
    let mut live: Vec<&GuardRec> = guards
        .iter()
        .flatten()
        .filter(|g| {
            // A posting's guard holds for its 45 days; the store may still return it
            // after its record expired (the TTL attribute is data only).
            let age = now_ms.saturating_sub(g.recorded_at_ms);
            let in_force = if g.posted {
                age < POSTED_GUARD_SECS.saturating_mul(1000)
            } else {
                age < window_ms
            };
            in_force && e.repeats(g)
        })
        .collect();
    live.sort_by_key(|g| std::cmp::Reverse(g.recorded_at_ms));
    live.dedup_by_key(|g| g.transaction_id);
    live
}

/// The refusal of an entry that repeats `earlier` (recorded `now_ms - recorded_at` ago).
pub(super) fn probable_duplicate(earlier: &TxRec, now_ms: i64) -> LedgerError {
    LedgerError::ProbableDuplicate {
        earlier_id: earlier.id,
        earlier_date: earlier.date,
        earlier_memo: earlier.memo.clone(),
        recorded_at: jiff::Timestamp::from_millisecond(earlier.recorded_at_ms)
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH),
        minutes_ago: now_ms.saturating_sub(earlier.recorded_at_ms) / 60_000,
    }
}

/// The duplicate guard: an entry with the same date, accounts and amounts recorded
/// within the window (whatever its memo), still live, is refused
/// unless the caller allowed duplicates. `Some` is a replay: the guard was this very
/// entry, landed from a concurrent retry.
pub(super) async fn duplicate_check(
    ledger: &Ledger,
    e: &Entry<'_>,
    claim: &Claim,
    guards: &Guards,
    m: &Membership,
    now_ms: i64,
) -> Result<Option<Recorded>, LedgerError> {
    let candidates = within_window(e, guards, window_ms(ledger), now_ms);
    if e.input.allow_duplicate || candidates.is_empty() {
        return Ok(None);
    }
    // Rare path: were the earlier ones voided, or is it this very entry landing from a concurrent retry?
    let mut wanted = vec![claim.key().clone()];
    wanted.extend(
        candidates
            .iter()
            .map(|g| entry::transaction_by_id(m.vault_id, g.transaction_id)),
    );
    let got = ledger.store.get_many(&wanted).await?;
    if let Some(Some(item)) = got.first() {
        return e.replay(&IdemRec::from_attrs(&item.attrs)?, m).map(Some);
    }
    for item in got.iter().skip(1).flatten() {
        let earlier = TxRec::from_item(item)?;
        if !earlier.voided {
            return Err(probable_duplicate(&earlier, now_ms));
        }
    }
    Ok(None)
}

/// The current bucket's guard of the entry's date moved to this transaction, only if
/// every guard read is still what was read (`read`: the transaction each pointed at,
/// in the order of `guard_keys`), so two racing entries with the same date and lines
/// cannot both pass, even across a bucket's edge. Unconditional when `guarded` is
/// false (allowDuplicate, an externalRef, or a batch entry, decided by data).
pub(super) fn guard_ops(
    e: &Entry<'_>,
    guarded: bool,
    read: &[Option<TransactionId>],
    tx: &TxRec,
    now_s: i64,
    window_ms: i64,
) -> Vec<WriteOp> {
    bucket_guard_ops(&e.guard_keys, guarded, read, tx, now_s, window_ms)
}

/// [`guard_ops`] over the entry's guard keys and whether the guard decides about it.
fn bucket_guard_ops(
    guard_keys: &[Key],
    guarded: bool,
    read: &[Option<TransactionId>],
    tx: &TxRec,
    now_s: i64,
    window_ms: i64,
) -> Vec<WriteOp> {
    let unchanged = |was: Option<TransactionId>| match was {
        Some(id) => super::guards::guard(DUPLICATE_GUARD, guard_points_at(id)),
        None => super::guards::guard(DUPLICATE_GUARD, Condition::NotExists),
    };
    let was = |i: usize| read.get(i).copied().flatten();
    let Some(current_key) = guard_keys.first() else {
        return vec![];
    };
    let mut ops = vec![WriteOp::Put {
        item: Item {
            key: current_key.clone(),
            attrs: GuardRec {
                transaction_id: tx.id,
                date: tx.date,
                recorded_at_ms: tx.recorded_at_ms,
                posted: false,
            }
            // Read until the end of the next bucket: two windows, and a minute's slack.
            .to_attrs(now_s.saturating_add(2 * (window_ms / 1000) + 60)),
        },
        guard: if guarded { unchanged(was(0)) } else { None },
    }];
    if guarded {
        for (i, key) in guard_keys.iter().enumerate().skip(1) {
            if let Some(guard) = unchanged(was(i)) {
                ops.push(WriteOp::Check {
                    key: key.clone(),
                    guard,
                });
            }
        }
    }
    ops
}

/// The transactions the guards read point at.
pub(super) fn pointed_at(guards: &Guards) -> Vec<Option<TransactionId>> {
    guards
        .iter()
        .map(|g| g.as_ref().map(|g| g.transaction_id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::entry::guard_keys;
    use super::*;

    /// The guard keys cover the last window whatever the bucket's edge, differ by
    /// date and lines, and the write moves the current bucket's guard only if every
    /// guard read is still what was read.
    #[test]
    fn guards_are_per_date_and_bucket_and_all_checked_on_write() {
        let v = dochiya_domain::VaultId::from_uuid(uuid::Uuid::nil());
        let w = 600_000;
        let on = LocalDate::parse("2026-03-15").unwrap();
        let at = |ms| guard_keys(v, on, "식비=4500", "카카오뱅크=-4500", ms, w);
        // Within one bucket the keys are the same; the next bucket's previous is this one's current.
        assert_eq!(at(w * 5), at(w * 6 - 1));
        assert_eq!(at(w * 6)[1], at(w * 5)[0]);
        assert_ne!(at(w * 6)[0], at(w * 5)[0]);
        // Other lines, or another date, other guards.
        assert_ne!(
            guard_keys(v, on, "식비=4600", "카카오뱅크=-4600", w * 5, w),
            at(w * 5)
        );
        assert_ne!(
            guard_keys(v, on.next_day(), "식비=4500", "카카오뱅크=-4500", w * 5, w),
            at(w * 5)
        );
        let tx = TxRec::new(
            TransactionId::from_u64((1 << 53) + 9).unwrap(),
            on,
            String::new(),
            w * 5,
            None,
            vec![],
        );
        let earlier = TransactionId::from_u64((1 << 53) + 3).unwrap();
        let mut keys = at(w * 5).to_vec();
        keys.extend(guard_keys(
            v,
            on.prev_day(),
            "식비=4500",
            "카카오뱅크=-4500",
            w * 5,
            w,
        ));
        let ops = bucket_guard_ops(&keys, true, &[None, Some(earlier), None, None], &tx, 0, w);
        let shape: Vec<_> = ops
            .iter()
            .map(|op| {
                let g = dochiya_store::eval::guard_of(op).expect("guarded");
                (
                    op.key().clone(),
                    matches!(op, WriteOp::Put { .. }),
                    g.name,
                    g.condition.clone(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (keys[0].clone(), true, DUPLICATE_GUARD, Condition::NotExists),
                (keys[1].clone(), false, DUPLICATE_GUARD, guard_points_at(earlier)),
                (keys[2].clone(), false, DUPLICATE_GUARD, Condition::NotExists),
                (keys[3].clone(), false, DUPLICATE_GUARD, Condition::NotExists),
            ]
        );
        // allowDuplicate: the guard moves without a condition, and nothing is checked.
        let free = bucket_guard_ops(&keys, false, &[None, Some(earlier)], &tx, 0, w);
        assert_eq!(free.len(), 1);
        assert!(dochiya_store::eval::guard_of(&free[0]).is_none());
    }
}
