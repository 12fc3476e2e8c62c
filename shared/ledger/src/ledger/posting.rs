//! Posting recurring entries: every occurrence due through the vault's today becomes a
//! real transaction on its own date, exactly once, whoever gets there first.
//!
//! One atomic write per occurrence: the claim `RP#<scheduleId>#<date>` (only if
//! absent), the schedule moved past the date (only if still the version read), the
//! hand-entry guard (`DR#`) and the transaction's items and totals. A racing poster
//! (another read, the scheduler, a second instance) loses on the claim or on the
//! schedule's version, re-reads the schedule and goes on from where it now is: it
//! never posts a date twice. The claim is never deleted, so a voided occurrence is
//! not posted again. Then the vault's head (`RN`: the earliest next due date) moves
//! on, only if it is still what was read, so a schedule made meanwhile is not missed.

use super::Ledger;
use super::codec::{GuardRec, HEAD_NEXT, Membership, PostingRec, ScheduleRec, TxRec, posted_attrs, sv};
use super::entry::{line_text, posted_guard_key};
use super::guards::{ACCOUNT_EXISTS, ACCOUNT_LIVE, RECURRING_CLAIM, RECURRING_HEAD, SCHEDULE_UNCHANGED};
use super::operations::{EntryAction, OpKind, OpStamp};
use super::resolve::query_all;
use super::writer::TxChange;
use super::writer::transaction_ops;
use crate::domain::{LocalDate, NameKey};
use crate::error::LedgerError;
use crate::keys;
use crate::store::{Condition, Guard, Item, StoreError, Value, WriteOp};

/// Most occurrences of one schedule one run posts: a start is at most a year back,
/// so a year of months and today's; the next run posts any rest.
pub(crate) const MAX_CATCH_UP: usize = 13;
/// How long the hand-entry guard of a posting is kept: a household enters its rent
/// by hand within days of the date, if at all.
const POSTED_GUARD_SECS: i64 = 45 * 24 * 3600;

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PostingRun {
    /// Occurrences this run posted.
    pub posted: usize,
    /// Occurrences it found posted by another poster meanwhile.
    pub replayed: usize,
}

/// The condition "the head is still `read`".
fn head_unchanged(read: Option<LocalDate>) -> Condition {
    match read {
        Some(d) => Condition::AttrEquals(HEAD_NEXT.into(), Value::S(d.to_string())),
        None => Condition::NotExists,
    }
}

/// The ops that set the vault's head to `next` (remove it when nothing is ever due),
/// only if it is still `read`, and move the vault's entry in the due index with it.
pub(super) fn head_ops(m: &Membership, read: Option<LocalDate>, next: Option<LocalDate>) -> Vec<WriteOp> {
    let key = keys::recurring_head(m.vault_id);
    let guard = Some(Guard::new(RECURRING_HEAD, head_unchanged(read)));
    let mut ops = vec![match next {
        Some(d) => WriteOp::Put {
            item: Item {
                key,
                attrs: [(HEAD_NEXT.to_string(), sv(d.to_string()))].into(),
            },
            guard,
        },
        None => WriteOp::Delete { key, guard },
    }];
    if let Some(old) = read.filter(|old| Some(*old) != next) {
        ops.push(WriteOp::Delete {
            key: keys::due(m.vault_id, old),
            guard: None,
        });
    }
    if let Some(new) = next.filter(|new| Some(*new) != read) {
        ops.push(WriteOp::Put {
            item: Item {
                key: keys::due(m.vault_id, new),
                attrs: [("vaultId".to_string(), sv(m.vault_id.to_string()))].into(),
            },
            guard: None,
        });
    }
    ops
}

/// Every schedule of the vault (one query), by name key.
pub(super) async fn schedules(ledger: &Ledger, m: &Membership) -> Result<Vec<ScheduleRec>, LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        keys::vault_pk(m.vault_id),
        keys::recurrings(),
        true,
    )
    .await?;
    items.iter().map(|i| ScheduleRec::from_attrs(&i.attrs)).collect()
}

/// The schedule's next date not yet decided.
pub(super) fn next_of(s: &ScheduleRec) -> Option<LocalDate> {
    match s.posted_through {
        Some(p) if p.next_day() == p => None,
        Some(p) => s.dates.next_on_or_after(p.next_day()),
        None => s.dates.next_on_or_after(s.dates.start()),
    }
}

/// The earliest next date of any of `all`.
pub(super) fn earliest(all: &[ScheduleRec]) -> Option<LocalDate> {
    all.iter().filter_map(next_of).min()
}

/// Post what is due through today in the vault of `m`, given the head as read; then
/// move the head on. Returns the schedules as they now are.
pub(crate) async fn post_due(
    ledger: &Ledger,
    m: &Membership,
    head: Option<LocalDate>,
) -> Result<(Vec<ScheduleRec>, PostingRun), LedgerError> {
    post_due_through(ledger, m, head, ledger.today_in(m)).await
}

/// [`post_due`] through `today` (the scheduled run's own "today", never after the clock's).
async fn post_due_through(
    ledger: &Ledger,
    m: &Membership,
    head: Option<LocalDate>,
    today: LocalDate,
) -> Result<(Vec<ScheduleRec>, PostingRun), LedgerError> {
    let mut all = schedules(ledger, m).await?;
    let mut run = PostingRun::default();
    for s in &mut all {
        post_schedule(ledger, m, s, today, &mut run).await?;
    }
    all.retain(|s| !s.schedule_id.is_empty());
    let next = earliest(&all);
    if next != head {
        // Lost to a concurrent change of the head: whoever moved it read newer schedules.
        match ledger.store.write(head_ops(m, head, next)).await {
            Ok(()) | Err(StoreError::ConditionFailed { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok((all, run))
}

/// Post one schedule's due occurrences, oldest first. A schedule removed meanwhile
/// is left with an empty id (its caller drops it).
async fn post_schedule(
    ledger: &Ledger,
    m: &Membership,
    s: &mut ScheduleRec,
    today: LocalDate,
    run: &mut PostingRun,
) -> Result<(), LedgerError> {
    // Bounded: each turn posts a date, or finds it posted (or the schedule moved) by another.
    for _ in 0..MAX_CATCH_UP * 3 {
        let Some(date) = next_of(s).filter(|d| *d <= today) else {
            return Ok(());
        };
        let now = ledger.clock.now();
        // A posting is an operation of its own, nobody's (any member may undo it).
        let op = OpStamp::new(ledger, OpKind::Posting, None, now.as_millisecond());
        let tx = TxRec {
            recurring: Some(s.name.clone()),
            operation_id: Some(op.id),
            tags: s.tags.clone(),
            ..TxRec::new(
                ledger.new_transaction_id(now.as_millisecond()),
                date,
                s.memo.clone(),
                now.as_millisecond(),
                None,
                vec![
                    PostingRec {
                        account_id: s.to_id,
                        name: s.to_name.clone(),
                        amount: s.amount,
                    },
                    PostingRec {
                        account_id: s.from_id,
                        name: s.from_name.clone(),
                        amount: -s.amount,
                    },
                ],
            )
        };
        let moved = ScheduleRec {
            posted_through: Some(date),
            last_posted: Some(date),
            version: s.version.saturating_add(1),
            ..s.clone()
        };
        match ledger
            .store
            .write(occurrence_ops(m, s, &moved, &tx, &op, now.as_second())?)
            .await
        {
            Ok(()) => {
                *s = moved;
                run.posted += 1;
            }
            Err(StoreError::ConditionFailed {
                guard: RECURRING_CLAIM | SCHEDULE_UNCHANGED,
                ..
            }) => {
                run.replayed += 1;
                match ledger
                    .store
                    .get(&keys::recurring(m.vault_id, &s.name_key))
                    .await?
                {
                    Some(item) => *s = ScheduleRec::from_attrs(&item.attrs)?,
                    None => {
                        s.schedule_id.clear();
                        return Ok(());
                    }
                }
            }
            // An account of the schedule was archived: nothing can post until it is changed.
            Err(StoreError::ConditionFailed {
                guard: ACCOUNT_LIVE | ACCOUNT_EXISTS,
                ..
            }) => return Ok(()),
            Err(e) => return Err(super::writer::refusing_overflow(e)),
        }
    }
    Ok(())
}

/// The ops of one occurrence's posting.
fn occurrence_ops(
    m: &Membership,
    s: &ScheduleRec,
    moved: &ScheduleRec,
    tx: &TxRec,
    op: &OpStamp,
    now_s: i64,
) -> Result<Vec<WriteOp>, LedgerError> {
    let mut ops = vec![
        WriteOp::Put {
            item: Item {
                key: keys::recurring_posted(m.vault_id, &s.schedule_id, tx.date),
                attrs: posted_attrs(tx.id, op.id),
            },
            guard: Some(Guard::new(RECURRING_CLAIM, Condition::NotExists)),
        },
        WriteOp::Put {
            item: Item {
                key: keys::recurring(m.vault_id, &s.name_key),
                attrs: moved.to_attrs(),
            },
            guard: Some(Guard::new(SCHEDULE_UNCHANGED, s.unchanged())),
        },
        WriteOp::Put {
            item: Item {
                key: posted_guard_key(
                    m.vault_id,
                    tx.date,
                    &line_text(&NameKey::of(&s.to_name), s.amount),
                    &line_text(&NameKey::of(&s.from_name), s.amount),
                ),
                attrs: GuardRec {
                    transaction_id: tx.id,
                    date: tx.date,
                    recorded_at_ms: tx.recorded_at_ms,
                    posted: true,
                }
                .to_attrs(now_s.saturating_add(POSTED_GUARD_SECS)),
            },
            guard: None,
        },
    ];
    ops.extend(transaction_ops(m.vault_id, TxChange::Create(tx), &[])?);
    ops.extend(op.ops(m.vault_id, tx, EntryAction::Recorded, None));
    Ok(ops)
}

/// The scheduler's way in: post what is due in one vault as of `at`, found by id (from
/// the due index, never from a client), with its settings from the vault's own item.
pub(crate) async fn post_due_vault(
    ledger: &Ledger,
    vault: crate::domain::VaultId,
    at: jiff::Timestamp,
) -> Result<PostingRun, LedgerError> {
    let store = ledger.store.as_ref();
    let got = store
        .get_many(&[keys::vault_meta(vault), keys::recurring_head(vault)])
        .await?;
    let Some(Some(meta)) = got.first() else {
        return Ok(PostingRun::default());
    };
    let m = Membership::from_attrs(&meta.attrs)?;
    let head = super::codec::head_next(got.get(1).and_then(Option::as_ref))?;
    let today = m.zone.date_at(at);
    if head.is_none_or(|d| d > today) {
        return Ok(PostingRun::default());
    }
    post_due_through(ledger, &m, head, today)
        .await
        .map(|(_, run)| run)
}

/// What one scheduled run over the due index did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DueRun {
    /// Occurrences it posted.
    pub posted: usize,
    /// Occurrences it found posted by another poster meanwhile.
    pub replayed: usize,
    /// Vaults it visited (due-index entries read).
    pub vaults: usize,
    /// It stopped at its cap with due entries left (the next run goes on from them).
    pub more: bool,
}

/// The scheduled run over one shard of the due index: the vaults whose head is due on
/// or before `through` (one query of at most `budget` entries), each posted as
/// [`post_due_vault`] does as of `at`. With no budget left it only looks (one entry)
/// whether the shard has any due, to say that more remain.
pub(crate) async fn post_due_shard(
    ledger: &Ledger,
    shard: u32,
    through: LocalDate,
    at: jiff::Timestamp,
    budget: usize,
    run: &mut DueRun,
) -> Result<(), LedgerError> {
    let page = ledger
        .store
        .query(&crate::store::Query {
            pk: keys::due_pk(shard),
            range: keys::due_through(through),
            forward: true,
            limit: u32::try_from(budget.max(1)).unwrap_or(u32::MAX),
            after: None,
        })
        .await?;
    if budget == 0 {
        run.more |= !page.items.is_empty();
        return Ok(());
    }
    // The stores say exactly whether more follow the page.
    run.more |= page.last_sk.is_some();
    for item in &page.items {
        let vault = match item.attrs.get("vaultId") {
            Some(Value::S(v)) => crate::domain::VaultId::parse(v)
                .map_err(|_| LedgerError::internal("a due-index entry has an unreadable vault id"))?,
            _ => return Err(LedgerError::internal("a due-index entry has no vault id")),
        };
        let one = post_due_vault(ledger, vault, at).await?;
        run.posted += one.posted;
        run.replayed += one.replayed;
        run.vaults += 1;
    }
    Ok(())
}

/// Whether a head read says something may be due today in the vault of `m`.
pub(super) fn due(ledger: &Ledger, m: &Membership, head: Option<LocalDate>) -> bool {
    head.is_some_and(|d| d <= ledger.today_in(m))
}
