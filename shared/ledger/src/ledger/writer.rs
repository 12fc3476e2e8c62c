//! The one place a transaction's items are built.
//!
//! A transaction is stored twice (by date for ranges, by id for lookups) and
//! moves stored totals: each account's running balance and its monthly and daily
//! rollups, all in the same atomic write, so balances and reports never scan
//! postings. Every way of changing a transaction is a [`TxChange`]; its effect on
//! totals is a sum of signed postings on dates, so a change that touches two
//! dates (an edit that moves a transaction) merges into one op per key.

use std::collections::BTreeMap;

use super::guards::{
    ACCOUNT_EXISTS, ACCOUNT_LIVE, TRANSACTION_LIVE, TRANSACTION_NEW, TRANSACTION_UNCHANGED, guard,
};
use super::installments::installment_ops;
use crate::api::{Field, LedgerError, Reason};
use crate::stored::account::account_live;
use crate::stored::entry::{PostingRec, TxRec, VersionRec, still_live, void_mark};
use crate::stored::rollup::{
    Period, balance_update, for_rollup_labels, rollup_day_attrs, rollup_month_attrs, rollup_update,
    tag_rollup_labels,
};
use crate::stored::table::tag_net_attr;
use crate::stored::word::{WORD_FIX, first_word};
use crate::stored::{account, entry, rollup, word};
use dochiya_domain::{AccountId, LocalDate, NameKey, VaultId, YearMonth};
use dochiya_store::{Condition, Guard, Item, StoreError, WriteOp};

/// A change to one transaction, as its write sees it.
#[derive(Debug, Clone, Copy)]
pub(super) enum TxChange<'a> {
    /// A new transaction: both items only if absent; totals move by its postings.
    Create(&'a TxRec),
    /// Voiding: both items marked voided only if still live; totals move back.
    Reverse {
        /// The transaction as stored (not yet voided).
        tx: &'a TxRec,
        /// Why it was voided (may be empty).
        reason: &'a str,
        /// When, epoch seconds.
        at: i64,
        /// Who (their display name).
        by: &'a str,
    },
    /// Editing: the previous version saved (only if absent, so two edits of one
    /// version cannot both land), the transaction's items rewritten (moved when
    /// the date changes) only if still live; totals move by the difference.
    Edit {
        /// The transaction as stored (live).
        old: &'a TxRec,
        /// Its next version: same id, `version` one higher.
        new: &'a TxRec,
        /// When, epoch milliseconds.
        at_ms: i64,
    },
}

impl TxChange<'_> {
    /// The signed postings this change applies to totals, with their dates.
    fn effects(&self) -> Vec<(LocalDate, i64, &PostingRec)> {
        match self {
            TxChange::Create(tx) => tx.postings.iter().map(|p| (tx.date, 1, p)).collect(),
            TxChange::Reverse { tx, .. } => tx.postings.iter().map(|p| (tx.date, -1, p)).collect(),
            TxChange::Edit { old, new, .. } => old
                .postings
                .iter()
                .map(|p| (old.date, -1, p))
                .chain(new.postings.iter().map(|p| (new.date, 1, p)))
                .collect(),
        }
    }

    /// Net change of each account's running balance (debit-positive).
    pub fn nets(&self) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
        let mut out = BTreeMap::new();
        for (_, sign, p) in self.effects() {
            add(&mut out, p.account_id, p.amount, sign)?;
        }
        Ok(out)
    }

    /// Net change of each account (debit-positive) from postings dated after `day`:
    /// what a result shows apart as `scheduled` when `day` is today.
    pub fn nets_after(&self, day: LocalDate) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
        let mut out = BTreeMap::new();
        for (_, sign, p) in self.effects().into_iter().filter(|(date, _, _)| *date > day) {
            add(&mut out, p.account_id, p.amount, sign)?;
        }
        Ok(out)
    }
}

/// Every write op of `change` in `vault`: the transaction's two items, the
/// running balance of each account it touches (except those in `opened_here`,
/// whose items the same write creates with their net included), and the
/// monthly and daily rollups.
///
/// An account whose balance goes up by a created posting must be live
/// (`archived = false`, which also means it exists); a reversal only requires
/// the account to exist (archived accounts can still have entries voided).
/// An edit writes only the totals it changes (an account, month or day whose
/// old and new postings cancel is left alone).
pub(super) fn transaction_ops(
    vault: VaultId,
    change: TxChange<'_>,
    opened_here: &[AccountId],
) -> Result<Vec<WriteOp>, LedgerError> {
    let mut ops = item_ops(vault, change);
    // An installment purchase's item moves with it (decision 040).
    ops.extend(match change {
        TxChange::Create(tx) => installment_ops(vault, None, Some(tx)),
        TxChange::Reverse { tx, .. } => installment_ops(vault, Some(tx), None),
        TxChange::Edit { old, new, .. } => installment_ops(vault, Some(old), Some(new)),
    });
    let mut months: BTreeMap<(YearMonth, AccountId), i64> = BTreeMap::new();
    let mut days: BTreeMap<(LocalDate, AccountId), i64> = BTreeMap::new();
    let mut nets: BTreeMap<AccountId, i64> = BTreeMap::new();
    let mut created_by: Vec<AccountId> = Vec::new();
    for (date, sign, p) in change.effects() {
        add(&mut nets, p.account_id, p.amount, sign)?;
        add(&mut months, (date.month(), p.account_id), p.amount, sign)?;
        add(&mut days, (date, p.account_id), p.amount, sign)?;
        if sign > 0 {
            created_by.push(p.account_id);
        }
    }
    if matches!(change, TxChange::Edit { .. }) {
        nets.retain(|_, net| *net != 0);
        months.retain(|_, net| *net != 0);
        days.retain(|_, net| *net != 0);
    }
    for (&account, &net) in nets.iter().filter(|(a, _)| !opened_here.contains(a)) {
        let guard = if created_by.contains(&account) {
            Guard::new(ACCOUNT_LIVE, account_live())
        } else {
            Guard::new(ACCOUNT_EXISTS, Condition::Exists)
        };
        ops.push(balance_update(account::account(vault, account), net, Some(guard)));
    }
    for (&(month, account), &net) in &months {
        ops.push(rollup_update(
            rollup::month_rollup(vault, month, account),
            rollup_month_attrs(account, month),
            net,
        ));
    }
    for (&(date, account), &net) in &days {
        ops.push(rollup_update(
            rollup::day_rollup(vault, date, account),
            rollup_day_attrs(account, date),
            net,
        ));
    }
    ops.extend(tag_ops(vault, change)?);
    ops.extend(for_ops(vault, change)?);
    ops.extend(word_ops(vault, change));
    Ok(ops)
}

/// The accounts an entry moves money into (its debits), once each: where its first
/// word "went" (only expense accounts are ever learned; the reads check the kind).
fn debited(tx: &TxRec) -> Vec<AccountId> {
    let mut out: Vec<AccountId> = Vec::new();
    for p in tx.postings.iter().filter(|p| p.amount > 0) {
        if !out.contains(&p.account_id) {
            out.push(p.account_id);
        }
    }
    out
}

/// The word items a change moves (decision 061): per memo first word, how many live
/// entries with it went to each account; an edit that keeps the word and moves the
/// entry to another account also sets that account as the word's latest correction.
fn word_ops(vault: VaultId, change: TxChange<'_>) -> Vec<WriteOp> {
    let sides: Vec<(&TxRec, i64)> = match change {
        TxChange::Create(tx) => vec![(tx, 1)],
        TxChange::Reverse { tx, .. } => vec![(tx, -1)],
        TxChange::Edit { old, new, .. } => vec![(old, -1), (new, 1)],
    };
    let mut items: BTreeMap<String, (String, NameKey, BTreeMap<AccountId, i64>)> = BTreeMap::new();
    for (tx, sign) in sides {
        let Some(word) = first_word(&tx.memo) else {
            continue;
        };
        let key = NameKey::of(&word);
        let slot = items
            .entry(key.as_str().to_string())
            .or_insert_with(|| (word.clone(), key.clone(), BTreeMap::new()));
        slot.0 = word;
        for a in debited(tx) {
            *slot.2.entry(a).or_insert(0) += sign;
        }
    }
    let fix = match change {
        TxChange::Edit { old, new, .. } => first_word(&old.memo)
            .zip(first_word(&new.memo))
            .filter(|(a, b)| NameKey::of(a) == NameKey::of(b))
            .and_then(|(_, w)| {
                let before = debited(old);
                debited(new)
                    .into_iter()
                    .find(|a| !before.contains(a))
                    .map(|a| (NameKey::of(&w).as_str().to_string(), a))
            }),
        _ => None,
    };
    let mut ops = Vec::new();
    for (k, (word, key, mut nets)) in items {
        nets.retain(|_, n| *n != 0);
        let fixed = fix.as_ref().filter(|(fk, _)| *fk == k).map(|(_, a)| *a);
        if nets.is_empty() && fixed.is_none() {
            continue;
        }
        let mut set = BTreeMap::from([
            ("word".to_string(), dochiya_store::Value::S(word)),
            (
                "wordKey".to_string(),
                dochiya_store::Value::S(key.as_str().to_string()),
            ),
        ]);
        if let Some(a) = fixed {
            set.insert(WORD_FIX.to_string(), dochiya_store::Value::S(a.to_string()));
        }
        ops.push(WriteOp::Update {
            key: word::word(vault, &key),
            set,
            add: nets.into_iter().map(|(a, n)| (tag_net_attr(a), n)).collect(),
            remove: vec![],
            guard: None,
        });
    }
    ops
}

/// The tag rollups a change moves (decision 038): per tag, one monthly and one
/// daily item, each holding a net per account. An edit writes only the items
/// whose nets it changes (a tag kept on an entry whose amounts stayed is left alone).
fn tag_ops(vault: VaultId, change: TxChange<'_>) -> Result<Vec<WriteOp>, LedgerError> {
    let sides: Vec<(&TxRec, i64)> = match change {
        TxChange::Create(tx) => vec![(tx, 1)],
        TxChange::Reverse { tx, .. } => vec![(tx, -1)],
        TxChange::Edit { old, new, .. } => vec![(old, -1), (new, 1)],
    };
    type Nets = (String, NameKey, BTreeMap<AccountId, i64>);
    let mut items: BTreeMap<(Period, String), Nets> = BTreeMap::new();
    for (tx, sign) in sides {
        for tag in &tx.tags {
            let key = NameKey::of(tag);
            for period in [Period::Month(tx.date.month()), Period::Day(tx.date)] {
                let slot = items
                    .entry((period, key.as_str().to_string()))
                    .or_insert_with(|| (tag.clone(), key.clone(), BTreeMap::new()));
                // The latest display wins (the new version's, for an edit).
                slot.0.clone_from(tag);
                for p in &tx.postings {
                    add(&mut slot.2, p.account_id, p.amount, sign)?;
                }
            }
        }
    }
    let mut ops = Vec::new();
    for ((period, _), (tag, key, mut nets)) in items {
        nets.retain(|_, net| *net != 0);
        if nets.is_empty() {
            continue;
        }
        let item_key = match period {
            Period::Month(m) => rollup::tag_month_rollup(vault, m, &key),
            Period::Day(d) => rollup::tag_day_rollup(vault, d, &key),
        };
        ops.push(WriteOp::Update {
            key: item_key,
            set: tag_rollup_labels(&tag, &key, period),
            add: nets.into_iter().map(|(a, n)| (tag_net_attr(a), n)).collect(),
            remove: vec![],
            guard: None,
        });
    }
    Ok(ops)
}

/// The `for` rollups a change moves (decision 062): per month and `for`, one item
/// holding a net per account, so settle-up reads months, not entries. An edit that
/// keeps the amounts, the month and `for` writes none.
fn for_ops(vault: VaultId, change: TxChange<'_>) -> Result<Vec<WriteOp>, LedgerError> {
    let sides: Vec<(&TxRec, i64)> = match change {
        TxChange::Create(tx) => vec![(tx, 1)],
        TxChange::Reverse { tx, .. } => vec![(tx, -1)],
        TxChange::Edit { old, new, .. } => vec![(old, -1), (new, 1)],
    };
    let mut items: BTreeMap<(YearMonth, String), BTreeMap<AccountId, i64>> = BTreeMap::new();
    for (tx, sign) in sides {
        let Some(f) = tx.for_whom.as_deref() else {
            continue;
        };
        let nets = items.entry((tx.date.month(), f.to_string())).or_default();
        for p in &tx.postings {
            add(nets, p.account_id, p.amount, sign)?;
        }
    }
    let mut ops = Vec::new();
    for ((month, f), mut nets) in items {
        nets.retain(|_, net| *net != 0);
        if nets.is_empty() {
            continue;
        }
        ops.push(WriteOp::Update {
            key: rollup::for_month_rollup(vault, month, &f),
            set: for_rollup_labels(&f, month),
            add: nets.into_iter().map(|(a, n)| (tag_net_attr(a), n)).collect(),
            remove: vec![],
            guard: None,
        });
    }
    Ok(ops)
}

/// The ops on the transaction's own two items (by date, by id).
fn item_ops(vault: VaultId, change: TxChange<'_>) -> Vec<WriteOp> {
    match change {
        TxChange::Create(tx) => [
            entry::transaction(vault, tx.date, tx.id),
            entry::transaction_by_id(vault, tx.id),
        ]
        .into_iter()
        .map(|key| WriteOp::Put {
            item: Item {
                key,
                attrs: tx.to_attrs(),
            },
            guard: guard(TRANSACTION_NEW, Condition::NotExists),
        })
        .collect(),
        TxChange::Reverse { tx, reason, at, by } => {
            let mut ops: Vec<WriteOp> = [
                entry::transaction(vault, tx.date, tx.id),
                entry::transaction_by_id(vault, tx.id),
            ]
            .into_iter()
            .map(|key| WriteOp::Update {
                key,
                set: void_mark(reason, at, by),
                add: BTreeMap::new(),
                remove: vec![],
                guard: guard(TRANSACTION_LIVE, still_live()),
            })
            .collect();
            // The version read is still the current one: an edit that landed
            // meanwhile saved it, and its postings are no longer the ones to reverse.
            ops.push(WriteOp::Check {
                key: entry::transaction_version(vault, tx.id, tx.version),
                guard: Guard::new(TRANSACTION_UNCHANGED, Condition::NotExists),
            });
            ops
        }
        TxChange::Edit { old, new, at_ms } => edit_item_ops(vault, old, new, at_ms),
    }
}

/// An edit's ops on the transaction's items and its saved previous version.
fn edit_item_ops(vault: VaultId, old: &TxRec, new: &TxRec, at_ms: i64) -> Vec<WriteOp> {
    let put = |key, tx: &TxRec, guard| WriteOp::Put {
        item: Item {
            key,
            attrs: tx.to_attrs(),
        },
        guard,
    };
    let live = || guard(TRANSACTION_LIVE, still_live());
    let mut ops = vec![WriteOp::Put {
        item: Item {
            key: entry::transaction_version(vault, old.id, old.version),
            attrs: VersionRec {
                tx: old.clone(),
                replaced_at_ms: at_ms,
            }
            .to_attrs(),
        },
        guard: guard(TRANSACTION_UNCHANGED, Condition::NotExists),
    }];
    if old.date == new.date {
        ops.push(put(entry::transaction(vault, new.date, new.id), new, live()));
    } else {
        ops.push(WriteOp::Delete {
            key: entry::transaction(vault, old.date, old.id),
            guard: live(),
        });
        ops.push(put(
            entry::transaction(vault, new.date, new.id),
            new,
            guard(TRANSACTION_NEW, Condition::NotExists),
        ));
    }
    ops.push(put(entry::transaction_by_id(vault, new.id), new, live()));
    ops
}

/// `map[key] += amount * sign`, refusing overflow.
fn add<K: Ord>(map: &mut BTreeMap<K, i64>, key: K, amount: i64, sign: i64) -> Result<(), LedgerError> {
    let delta = amount.checked_mul(sign).ok_or_else(overflow)?;
    let slot = map.entry(key).or_insert(0);
    *slot = slot.checked_add(delta).ok_or_else(overflow)?;
    Ok(())
}

fn overflow() -> LedgerError {
    LedgerError::invalid(Field::Total, Reason::NetsOutOfRange)
}

/// A write's error, with the store's refusal of an overflowing `add` (a balance or a
/// monthly or daily rollup passing 64 bits) told as what it is: nothing was written,
/// and the message says what to do. Every store words that refusal the same way.
pub(super) fn refusing_overflow(e: StoreError) -> LedgerError {
    match e {
        StoreError::Overflow { .. } => LedgerError::invalid(Field::Total, Reason::RollupWouldOverflow),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::TransactionId;
    use dochiya_store::Key;

    fn id(n: u128) -> AccountId {
        AccountId::from_uuid(uuid::Uuid::from_u128(n))
    }

    fn tx(date: &str, postings: &[(AccountId, i64)]) -> TxRec {
        TxRec::new(
            TransactionId::from_u64((1 << 53) + 7).unwrap(),
            LocalDate::parse(date).unwrap(),
            "m".into(),
            1,
            None,
            postings
                .iter()
                .map(|&(account_id, amount)| PostingRec {
                    account_id,
                    name: String::new(),
                    amount,
                })
                .collect(),
        )
    }

    /// (key, guard name, net added) of every op, in order.
    fn summary(ops: &[WriteOp]) -> Vec<(Key, Option<&'static str>, Option<i64>)> {
        ops.iter()
            .map(|op| {
                let guard = dochiya_store::eval::guard_of(op).map(|g| g.name);
                let net = match op {
                    WriteOp::Update { add, .. } => add.get("net").copied(),
                    _ => None,
                };
                (op.key().clone(), guard, net)
            })
            .collect()
    }

    /// (key, per-account adds) of every `for` rollup op, in order.
    fn for_rollups(ops: &[WriteOp]) -> Vec<(Key, Vec<(String, i64)>)> {
        ops.iter()
            .filter_map(|op| match op {
                WriteOp::Update { key, add, .. } if key.sk.starts_with(rollup::FOR_MONTH_PREFIX) => {
                    Some((key.clone(), add.iter().map(|(a, n)| (a.clone(), *n)).collect()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_entry_for_someone_moves_its_month_for_rollup_and_an_edit_moves_it_across() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let (bank, food) = (id(1), id(2));
        let plain = tx("2026-03-09", &[(bank, -1200), (food, 1200)]);
        let ops = transaction_ops(v, TxChange::Create(&plain), &[]).unwrap();
        assert_eq!(for_rollups(&ops), vec![]);
        let mut old = plain.clone();
        old.for_whom = Some("sub-a".into());
        let ops = transaction_ops(v, TxChange::Create(&old), &[]).unwrap();
        let m = |s: &str| YearMonth::parse(s).unwrap();
        assert_eq!(
            for_rollups(&ops),
            vec![(
                rollup::for_month_rollup(v, m("2026-03"), "sub-a"),
                vec![(tag_net_attr(bank), -1200), (tag_net_attr(food), 1200)]
            )]
        );
        // Moved to April and made shared: March's item goes back, April's `*` moves.
        let mut new = old.clone();
        new.date = LocalDate::parse("2026-04-01").unwrap();
        new.for_whom = Some("*".into());
        new.version = 2;
        let ops = transaction_ops(
            v,
            TxChange::Edit {
                old: &old,
                new: &new,
                at_ms: 1,
            },
            &[],
        )
        .unwrap();
        assert_eq!(
            for_rollups(&ops),
            vec![
                (
                    rollup::for_month_rollup(v, m("2026-03"), "sub-a"),
                    vec![(tag_net_attr(bank), 1200), (tag_net_attr(food), -1200)]
                ),
                (
                    rollup::for_month_rollup(v, m("2026-04"), "*"),
                    vec![(tag_net_attr(bank), -1200), (tag_net_attr(food), 1200)]
                ),
            ]
        );
        // An edit of the memo alone leaves the `for` rollups alone.
        let mut memo = old.clone();
        memo.memo = "n".into();
        memo.version = 2;
        let ops = transaction_ops(
            v,
            TxChange::Edit {
                old: &old,
                new: &memo,
                at_ms: 1,
            },
            &[],
        )
        .unwrap();
        assert_eq!(for_rollups(&ops), vec![]);
    }

    #[test]
    fn a_created_transaction_writes_both_items_live_balances_and_both_rollups() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let (bank, food) = (id(1), id(2));
        let t = tx("2026-03-09", &[(food, 1200), (bank, -1200)]);
        let d = t.date;
        let ops = transaction_ops(v, TxChange::Create(&t), &[]).unwrap();
        assert_eq!(
            summary(&ops),
            vec![
                (entry::transaction(v, d, t.id), Some(TRANSACTION_NEW), None),
                (entry::transaction_by_id(v, t.id), Some(TRANSACTION_NEW), None),
                (account::account(v, bank), Some(ACCOUNT_LIVE), Some(-1200)),
                (account::account(v, food), Some(ACCOUNT_LIVE), Some(1200)),
                (rollup::month_rollup(v, d.month(), bank), None, Some(-1200)),
                (rollup::month_rollup(v, d.month(), food), None, Some(1200)),
                (rollup::day_rollup(v, d, bank), None, Some(-1200)),
                (rollup::day_rollup(v, d, food), None, Some(1200)),
            ]
        );
    }

    #[test]
    fn a_reversal_marks_both_items_and_moves_totals_back_on_existing_accounts() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let (bank, food) = (id(1), id(2));
        let t = tx("2026-03-09", &[(food, 1200), (bank, -1200)]);
        let ops = transaction_ops(
            v,
            TxChange::Reverse {
                tx: &t,
                reason: "typo",
                at: 5,
                by: "지은",
            },
            &[],
        )
        .unwrap();
        let s = summary(&ops);
        assert_eq!(s[0].1, Some(TRANSACTION_LIVE));
        assert_eq!(s[1].1, Some(TRANSACTION_LIVE));
        // No edit replaced the version being reversed.
        assert_eq!(
            s[2],
            (
                entry::transaction_version(v, t.id, 1),
                Some(TRANSACTION_UNCHANGED),
                None
            )
        );
        assert_eq!(
            s[3],
            (account::account(v, bank), Some(ACCOUNT_EXISTS), Some(1200))
        );
        assert_eq!(
            s[4],
            (account::account(v, food), Some(ACCOUNT_EXISTS), Some(-1200))
        );
        match &ops[0] {
            WriteOp::Update { set, .. } => assert_eq!(set, &void_mark("typo", 5, "지은")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_edit_saves_the_old_version_moves_the_item_and_writes_only_changed_totals() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let (bank, food, cash) = (id(1), id(2), id(3));
        let old = tx("2026-03-09", &[(food, 1200), (bank, -1200)]);
        let new = TxRec {
            date: LocalDate::parse("2026-03-10").unwrap(),
            version: 2,
            postings: vec![
                PostingRec {
                    account_id: food,
                    name: String::new(),
                    amount: 1200,
                },
                PostingRec {
                    account_id: cash,
                    name: String::new(),
                    amount: -1200,
                },
            ],
            ..old.clone()
        };
        let ops = transaction_ops(
            v,
            TxChange::Edit {
                old: &old,
                new: &new,
                at_ms: 9,
            },
            &[],
        )
        .unwrap();
        let (d9, d10) = (old.date, new.date);
        assert_eq!(
            summary(&ops),
            [
                (
                    entry::transaction_version(v, old.id, 1),
                    Some(TRANSACTION_UNCHANGED),
                    None
                ),
                (entry::transaction(v, d9, old.id), Some(TRANSACTION_LIVE), None),
                (entry::transaction(v, d10, old.id), Some(TRANSACTION_NEW), None),
                (entry::transaction_by_id(v, old.id), Some(TRANSACTION_LIVE), None),
                // 식비 is unchanged in total and in its month: no balance or month op.
                (account::account(v, bank), Some(ACCOUNT_EXISTS), Some(1200)),
                (account::account(v, cash), Some(ACCOUNT_LIVE), Some(-1200)),
                (rollup::month_rollup(v, d9.month(), bank), None, Some(1200)),
                (rollup::month_rollup(v, d9.month(), cash), None, Some(-1200)),
                (rollup::day_rollup(v, d9, bank), None, Some(1200)),
                (rollup::day_rollup(v, d9, food), None, Some(-1200)),
                (rollup::day_rollup(v, d10, food), None, Some(1200)),
                (rollup::day_rollup(v, d10, cash), None, Some(-1200)),
            ]
        );
        assert!(matches!(&ops[1], WriteOp::Delete { .. }));
    }

    #[test]
    fn accounts_opened_in_the_same_write_get_no_balance_op_and_repeats_sum() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let (new, equity) = (id(1), id(2));
        let t = tx("2026-03-09", &[(new, 500), (equity, -300), (equity, -200)]);
        let ops = transaction_ops(v, TxChange::Create(&t), &[new]).unwrap();
        let balances: Vec<_> = summary(&ops)
            .into_iter()
            .filter(|(k, _, _)| account::is_account(&k.sk))
            .collect();
        assert_eq!(
            balances,
            vec![(account::account(v, equity), Some(ACCOUNT_LIVE), Some(-500))]
        );
        assert_eq!(TxChange::Create(&t).nets().unwrap()[&equity], -500);
        let huge = tx("2026-03-09", &[(new, i64::MAX), (new, 1)]);
        let e = transaction_ops(v, TxChange::Create(&huge), &[]).unwrap_err();
        assert!(
            matches!(
                &e,
                LedgerError::InvalidInput {
                    field: Field::Total,
                    reason: Reason::NetsOutOfRange
                }
            ),
            "{e:?}"
        );
    }
}
