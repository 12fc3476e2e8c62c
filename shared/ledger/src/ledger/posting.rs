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
//!
//! An occurrence that cannot post for a reason of its own (an account archived, a
//! total that would pass 64 bits, an item the store refuses) would fail the same way
//! on every call: the schedule is marked stuck at that date instead (decision 048),
//! leaves the head, and nothing else in the vault waits for it. A lost race replays.

use std::collections::BTreeMap;

use super::Ledger;
use super::entry::{line_text, posted_guard_key};
use super::guards::{ACCOUNT_EXISTS, ACCOUNT_LIVE, RECURRING_CLAIM, RECURRING_HEAD, SCHEDULE_UNCHANGED};
use super::operations::{EntryAction, OpKind, OpStamp};
use super::resolve::query_all;
use super::writer::TxChange;
use super::writer::transaction_ops;
use crate::api::{ErrorKind, LedgerError};
use crate::api::{Stuck, StuckReason};
use crate::stored::entry::{GuardRec, PostingRec, TxRec};
use crate::stored::member::Membership;
use crate::stored::schedule::{HEAD_NEXT, ScheduleRec, posted_attrs};
use crate::stored::table::sv;
use crate::stored::{schedule, table, vault};
use dochiya_domain::{LocalDate, NameKey, VaultId};
use dochiya_store::{Attrs, Condition, Guard, Item, Key, StoreError, Value, WriteOp, eval};

/// Most occurrences of one schedule one run posts: a start is at most a year back,
/// so a year of months and today's; the next run posts any rest.
pub(crate) const MAX_CATCH_UP: usize = 13;
/// How long the hand-entry guard of a posting is kept: a household enters its rent
/// by hand within days of the date, if at all.
pub(super) const POSTED_GUARD_SECS: i64 = 45 * 24 * 3600;

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PostingRun {
    /// Occurrences this run posted.
    pub posted: usize,
    /// Occurrences it found posted by another poster meanwhile.
    pub replayed: usize,
    /// Schedules it marked stuck (an occurrence that cannot post as it is).
    pub stuck: usize,
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
    let key = schedule::recurring_head(m.vault_id);
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
            key: schedule::due(m.vault_id, old),
            guard: None,
        });
    }
    if let Some(new) = next.filter(|new| Some(*new) != read) {
        ops.push(WriteOp::Put {
            item: Item {
                key: schedule::due(m.vault_id, new),
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
        table::vault_pk(m.vault_id),
        schedule::recurrings(),
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

/// The earliest next date of any of `all` that can post (a stuck one waits for a change).
pub(super) fn earliest(all: &[ScheduleRec]) -> Option<LocalDate> {
    all.iter().filter(|s| s.stuck.is_none()).filter_map(next_of).min()
}

/// Why a posting's write failed, when it is the schedule's own problem and would fail
/// the same way again; `None` for a lost race or a failure of the store itself.
pub(super) fn stuck_reason(e: &StoreError) -> Option<StuckReason> {
    match e {
        StoreError::ConditionFailed {
            guard: ACCOUNT_LIVE | ACCOUNT_EXISTS,
            ..
        } => Some(StuckReason::ArchivedAccount),
        StoreError::Overflow { .. } => Some(StuckReason::Overflow),
        StoreError::Invalid(_) => Some(StuckReason::Refused),
        _ => None,
    }
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
/// is left with an empty id (its caller drops it); one whose occurrence cannot post
/// is marked stuck and left there.
async fn post_schedule(
    ledger: &Ledger,
    m: &Membership,
    s: &mut ScheduleRec,
    today: LocalDate,
    run: &mut PostingRun,
) -> Result<(), LedgerError> {
    // Bounded: each turn posts a date, or finds it posted (or the schedule moved) by another.
    for _ in 0..MAX_CATCH_UP * 3 {
        let Some(date) = next_of(s).filter(|d| *d <= today && s.stuck.is_none()) else {
            return Ok(());
        };
        let o = occurrence(ledger, m, s, date)?;
        match ledger.store.write(o.ops).await {
            Ok(()) => {
                *s = o.moved;
                run.posted += 1;
            }
            Err(StoreError::ConditionFailed {
                guard: RECURRING_CLAIM | SCHEDULE_UNCHANGED,
                ..
            }) => {
                run.replayed += 1;
                reread(ledger, m, s).await?;
            }
            Err(e) => match stuck_reason(&e) {
                Some(reason) => {
                    run.stuck += usize::from(mark_stuck(ledger, m, s, Stuck { reason, since: date }).await?);
                }
                None => return Err(e.into()),
            },
        }
        if s.schedule_id.is_empty() {
            return Ok(());
        }
    }
    Ok(())
}

/// Read `s` again after a lost race (an empty id when it was removed meanwhile).
async fn reread(ledger: &Ledger, m: &Membership, s: &mut ScheduleRec) -> Result<(), LedgerError> {
    match ledger
        .store
        .get(&schedule::recurring(m.vault_id, &s.name_key))
        .await?
    {
        Some(item) => *s = ScheduleRec::from_attrs(&item.attrs)?,
        None => s.schedule_id.clear(),
    }
    Ok(())
}

/// Mark `s` stuck, only if it is still the version read (otherwise it is read again:
/// whoever changed it decides). Whether this call marked it.
async fn mark_stuck(
    ledger: &Ledger,
    m: &Membership,
    s: &mut ScheduleRec,
    stuck: Stuck,
) -> Result<bool, LedgerError> {
    let marked = ScheduleRec {
        stuck: Some(stuck),
        version: s.version.saturating_add(1),
        ..s.clone()
    };
    let put = WriteOp::Put {
        item: Item {
            key: schedule::recurring(m.vault_id, &s.name_key),
            attrs: marked.to_attrs(),
        },
        guard: Some(Guard::new(SCHEDULE_UNCHANGED, s.unchanged())),
    };
    match ledger.store.write(vec![put]).await {
        Ok(()) => {
            *s = marked;
            Ok(true)
        }
        Err(StoreError::ConditionFailed { .. }) => reread(ledger, m, s).await.map(|()| false),
        Err(e) => Err(e.into()),
    }
}

/// One occurrence's posting: its write, and the schedule as it is once that write lands.
pub(super) struct Occurrence {
    /// The atomic write.
    pub ops: Vec<WriteOp>,
    /// The schedule moved past the date.
    pub moved: ScheduleRec,
}

/// The posting of `s`'s occurrence on `date`: a new transaction, an operation of its
/// own, nobody's (any member may undo it).
pub(super) fn occurrence(
    ledger: &Ledger,
    m: &Membership,
    s: &ScheduleRec,
    date: LocalDate,
) -> Result<Occurrence, LedgerError> {
    let now = ledger.clock.now();
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
    let ops = occurrence_ops(m, s, &moved, &tx, &op, now.as_second())?;
    Ok(Occurrence { ops, moved })
}

/// Refuse a schedule whose occurrences due through today cannot post (an account
/// archived, a total past 64 bits, an item the store refuses) before it is stored:
/// its postings are rehearsed on the items they would change, read in one round, by
/// the stores' own rules (`store::eval`), so the refusal stores nothing. Nothing due:
/// nothing read.
pub(super) async fn check_postable(
    ledger: &Ledger,
    m: &Membership,
    rec: &ScheduleRec,
) -> Result<(), LedgerError> {
    let today = ledger.today_in(m);
    let mut s = rec.clone();
    let mut writes = Vec::new();
    while let Some(date) = next_of(&s).filter(|d| *d <= today && writes.len() < MAX_CATCH_UP) {
        let o = occurrence(ledger, m, &s, date)?;
        writes.push((date, o.ops));
        s = o.moved;
    }
    if writes.is_empty() {
        return Ok(());
    }
    let schedule = schedule::recurring(m.vault_id, &rec.name_key);
    let mut wanted: Vec<Key> = writes
        .iter()
        .flat_map(|(_, ops)| ops.iter().map(|op| op.key().clone()))
        .filter(|k| *k != schedule)
        .collect();
    wanted.sort();
    wanted.dedup();
    let found = ledger.store.get_many(&wanted).await?;
    let mut state: BTreeMap<Key, Attrs> = wanted
        .into_iter()
        .zip(found)
        .filter_map(|(k, item)| item.map(|i| (k, i.attrs)))
        .collect();
    state.insert(schedule, rec.to_attrs());
    for (date, ops) in &writes {
        if let Err(e) = rehearse(&mut state, ops) {
            return match stuck_reason(&e) {
                Some(reason) => Err(LedgerError::ScheduleCannotPost {
                    name: rec.name.clone(),
                    date: *date,
                    reason,
                }),
                // Anything else (a claim taken: someone posts it right now) is the posting's to meet.
                None => Ok(()),
            };
        }
    }
    Ok(())
}

/// Apply one atomic write to `state` as every store does: each guard against the state
/// before the write, then every operation, or none.
fn rehearse(state: &mut BTreeMap<Key, Attrs>, ops: &[WriteOp]) -> Result<(), StoreError> {
    eval::validate(ops)?;
    let mut after = Vec::new();
    for op in ops {
        let current = state.get(op.key());
        if let Some(condition) = eval::condition_of(op)
            && !eval::holds(condition, current)
        {
            return Err(eval::guard_failed(op, None));
        }
        if let Some(next) = eval::apply(op, current)? {
            after.push((op.key().clone(), next));
        }
    }
    for (key, next) in after {
        match next {
            Some(attrs) => state.insert(key, attrs),
            None => state.remove(&key),
        };
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
                key: schedule::recurring_posted(m.vault_id, &s.schedule_id, tx.date),
                attrs: posted_attrs(tx.id, op.id),
            },
            guard: Some(Guard::new(RECURRING_CLAIM, Condition::NotExists)),
        },
        WriteOp::Put {
            item: Item {
                key: schedule::recurring(m.vault_id, &s.name_key),
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
    vault: VaultId,
    at: jiff::Timestamp,
) -> Result<PostingRun, LedgerError> {
    match vault_and_head(ledger, vault).await? {
        Some((m, head)) => post_due_at(ledger, &m, head, at).await,
        None => Ok(PostingRun::default()),
    }
}

/// The vault's settings (as a membership of nobody) and its head, in one `get_many`;
/// `None` when the vault is gone.
async fn vault_and_head(
    ledger: &Ledger,
    vault: VaultId,
) -> Result<Option<(Membership, Option<LocalDate>)>, LedgerError> {
    let got = ledger
        .store
        .get_many(&[vault::vault_meta(vault), schedule::recurring_head(vault)])
        .await?;
    let Some(Some(meta)) = got.first() else {
        return Ok(None);
    };
    let m = Membership::from_attrs(&meta.attrs)?;
    let head = schedule::head_next(got.get(1).and_then(Option::as_ref))?;
    Ok(Some((m, head)))
}

/// Post what is due in the vault of `m` as of `at` (its own today then), given the head.
async fn post_due_at(
    ledger: &Ledger,
    m: &Membership,
    head: Option<LocalDate>,
    at: jiff::Timestamp,
) -> Result<PostingRun, LedgerError> {
    let today = m.zone.date_at(at);
    if head.is_none_or(|d| d > today) {
        return Ok(PostingRun::default());
    }
    post_due_through(ledger, m, head, today).await.map(|(_, run)| run)
}

/// What one scheduled run over the due index did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DueRun {
    /// Occurrences it posted.
    pub posted: usize,
    /// Occurrences it found posted by another poster meanwhile.
    pub replayed: usize,
    /// Vaults it visited (due-index entries read and acted on).
    pub vaults: usize,
    /// It stopped at its cap with due entries left (the next run goes on from them).
    pub more: bool,
    /// Vaults whose posting failed; the run went on with the next one.
    pub failed: usize,
    /// Vaults it left alone because they failed before and are backed off.
    pub deferred: usize,
    /// Schedules it marked stuck (an occurrence that cannot post as it is).
    pub stuck: usize,
    /// The failures, vault by vault (at most [`MAX_FAILURES_KEPT`]; `failed` counts all).
    pub failures: Vec<VaultFailure>,
}

/// One vault's failed posting in a scheduled run, for the run's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultFailure {
    /// The vault's id (or, for an unreadable index entry, the entry's sort key).
    pub vault: String,
    /// What kind of failure.
    pub kind: ErrorKind,
    /// The error and its causes, one line.
    pub error: String,
}

/// Most failures a run keeps for its log (it counts every one).
pub const MAX_FAILURES_KEPT: usize = 100;
/// Attribute of a due-index entry: how many runs in a row failed on its vault.
const DUE_FAILURES: &str = "failures";
/// Attribute of a due-index entry: no run visits it before this time (epoch seconds).
const DUE_RETRY_AT: &str = "retryAt";
/// Most due-index entries one shard query pages through in a run, backed-off ones included.
const MAX_SCANNED: usize = 10_000;

/// How long a vault whose posting failed `failures` runs in a row is left alone:
/// 2 hours after the first failure, doubling, at most a day.
pub fn backoff_secs(failures: i64) -> i64 {
    let doublings = u32::try_from(failures.clamp(1, 5)).unwrap_or(5);
    (3_600i64 << doublings).min(24 * 3_600)
}

/// The scheduled run over one shard of the due index: the vaults whose head is due on
/// or before `through`, each posted as [`post_due_vault`] does as of `at`, until the
/// run has visited `max_vaults`. An entry backed off after a failure is passed over
/// until its time; a vault that fails is counted, backed off, and the run goes on.
/// With no budget left it only looks (one entry) whether the shard has any due, to
/// say that more remain. Only a failed query of the index itself fails the run.
pub(crate) async fn post_due_shard(
    ledger: &Ledger,
    shard: u32,
    through: LocalDate,
    at: jiff::Timestamp,
    max_vaults: usize,
    run: &mut DueRun,
) -> Result<(), LedgerError> {
    let mut after = None;
    let mut scanned = 0;
    loop {
        let budget = max_vaults.saturating_sub(run.vaults);
        let page = ledger
            .store
            .query(&dochiya_store::Query {
                pk: schedule::due_pk(shard),
                range: schedule::due_through(through),
                forward: true,
                limit: u32::try_from(budget.max(1)).unwrap_or(u32::MAX),
                after: after.take(),
            })
            .await?;
        if budget == 0 {
            run.more |= page.items.iter().any(|i| !backed_off(i, at));
            return Ok(());
        }
        for item in &page.items {
            if backed_off(item, at) {
                run.deferred += 1;
            } else {
                visit(ledger, item, at, run).await;
            }
        }
        scanned += page.items.len();
        match page.last_sk {
            None => return Ok(()),
            // The stores say exactly whether more follow the page.
            Some(_) if run.vaults >= max_vaults || scanned >= MAX_SCANNED => {
                run.more = true;
                return Ok(());
            }
            Some(sk) => after = Some(sk),
        }
    }
}

/// Whether a due-index entry is backed off at `at`.
fn backed_off(entry: &Item, at: jiff::Timestamp) -> bool {
    matches!(entry.attrs.get(DUE_RETRY_AT), Some(Value::N(t)) if *t > at.as_second())
}

/// Visit one due-index entry: post its vault, clear its back-off when it had one, or
/// count the failure and back it off (unless the store was only briefly unavailable).
async fn visit(ledger: &Ledger, entry: &Item, at: jiff::Timestamp, run: &mut DueRun) {
    run.vaults += 1;
    let failures = match entry.attrs.get(DUE_FAILURES) {
        Some(Value::N(n)) => *n,
        _ => 0,
    };
    let outcome = match entry.attrs.get("vaultId") {
        Some(Value::S(v)) => match VaultId::parse(v) {
            Ok(vault) => post_entry(ledger, vault, &entry.key.sk, at).await,
            Err(_) => Err(LedgerError::internal(
                "a due-index entry has an unreadable vault id",
            )),
        },
        _ => Err(LedgerError::internal("a due-index entry has no vault id")),
    };
    let backoff = match outcome {
        Ok(one) => {
            run.posted += one.posted;
            run.replayed += one.replayed;
            run.stuck += one.stuck;
            (failures > 0).then(|| WriteOp::Update {
                key: entry.key.clone(),
                set: Default::default(),
                add: Default::default(),
                remove: vec![DUE_FAILURES.into(), DUE_RETRY_AT.into()],
                guard: Some(Guard::new(DUE_ENTRY_PRESENT, Condition::Exists)),
            })
        }
        Err(e) => {
            run.failed += 1;
            let transient = matches!(e, LedgerError::Transient(_));
            if run.failures.len() < MAX_FAILURES_KEPT {
                run.failures.push(VaultFailure {
                    vault: match entry.attrs.get("vaultId") {
                        Some(Value::S(v)) => v.clone(),
                        _ => entry.key.sk.clone(),
                    },
                    kind: e.kind(),
                    error: chain(&e),
                });
            }
            (!transient).then(|| WriteOp::Update {
                key: entry.key.clone(),
                set: [(
                    DUE_RETRY_AT.to_string(),
                    Value::N(
                        at.as_second()
                            .saturating_add(backoff_secs(failures.saturating_add(1))),
                    ),
                )]
                .into(),
                add: [(DUE_FAILURES.to_string(), 1)].into(),
                remove: vec![],
                guard: Some(Guard::new(DUE_ENTRY_PRESENT, Condition::Exists)),
            })
        }
    };
    if let Some(op) = backoff {
        // Best effort: an entry moved meanwhile (its vault was opened) needs none, and
        // a store that fails here fails the next run's visit the same way.
        let _ = ledger.store.write(vec![op]).await;
    }
}

/// Guard of a back-off write: the due-index entry is still there (a vault opened
/// meanwhile moved it, and a put would bring back an entry nothing points at).
const DUE_ENTRY_PRESENT: &str = "due-entry-present";

/// Post the vault of a due-index entry (sort key `entry`). An entry that no longer
/// matches its vault's head (the vault is gone, or the head moved without it) is
/// deleted, only if the head is still as read, so runs stop visiting it.
async fn post_entry(
    ledger: &Ledger,
    vault: VaultId,
    entry: &str,
    at: jiff::Timestamp,
) -> Result<PostingRun, LedgerError> {
    let found = vault_and_head(ledger, vault).await?;
    let head = found.as_ref().and_then(|(_, head)| *head);
    if head.is_none_or(|d| schedule::due(vault, d).sk != entry) {
        let delete = vec![
            WriteOp::Delete {
                key: dochiya_store::Key::new(schedule::due_pk(schedule::due_shard(vault)), entry),
                guard: None,
            },
            WriteOp::Check {
                key: schedule::recurring_head(vault),
                guard: Guard::new(RECURRING_HEAD, head_unchanged(head)),
            },
        ];
        return match ledger.store.write(delete).await {
            Ok(()) | Err(StoreError::ConditionFailed { .. }) => Ok(PostingRun::default()),
            Err(e) => Err(e.into()),
        };
    }
    match found {
        Some((m, head)) => post_due_at(ledger, &m, head, at).await,
        None => Ok(PostingRun::default()),
    }
}

/// An error and its causes on one line, for the run's log.
fn chain(e: &LedgerError) -> String {
    let mut out = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

/// Whether a head read says something may be due today in the vault of `m`.
pub(super) fn due(ledger: &Ledger, m: &Membership, head: Option<LocalDate>) -> bool {
    head.is_some_and(|d| d <= ledger.today_in(m))
}

impl Ledger {
    /// The scheduled run as of `at` (the scheduler's time; never later than the clock,
    /// so nothing posts early): the shards of the due index in order, posting what is
    /// due in each vault whose head falls on or before the day after `at` in UTC (a
    /// vault's own zone may be ahead; each vault is then checked against its own
    /// today), at most `max_vaults` vaults; `more` says due entries were left. A vault
    /// that fails is counted in `failed`, backed off (decision 048) and passed; only a
    /// failed read of the due index itself fails the run.
    pub async fn post_due_everywhere(
        &self,
        at: jiff::Timestamp,
        max_vaults: usize,
    ) -> Result<DueRun, LedgerError> {
        let at = at.min(self.clock.now());
        let through = dochiya_domain::VaultZone::utc().date_at(at).next_day();
        let mut run = DueRun::default();
        for shard in 0..schedule::DUE_SHARDS {
            post_due_shard(self, shard, through, at, max_vaults, &mut run).await?;
            if run.more {
                break;
            }
        }
        Ok(run)
    }

    /// Post what is due in a vault, by id: the scheduled run's entry point (the vault id
    /// comes from the due index, never from a client). Nothing due writes nothing.
    pub async fn post_due_vault(&self, vault: dochiya_domain::VaultId) -> Result<PostingRun, LedgerError> {
        post_due_vault(self, vault, self.clock.now()).await
    }
}
