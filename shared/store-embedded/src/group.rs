//! Group commit for the file store: writes that arrive while a durable commit is
//! under way wait for it, then share the next one.
//!
//! redb admits one write transaction at a time and each commit of a file ends in an
//! fsync, so one commit per write caps throughput at the disk's fsync rate. Here the
//! first writer to find no commit running becomes the leader: it takes every queued
//! write, stages them one after another in ONE write transaction and commits once;
//! meanwhile new writes queue for the next round. Where the leader commits depends on
//! what a commit costs here (decision 045): while recent commits took less than
//! [`INLINE_BELOW`] (a file on tmpfs, a disk whose fsync is cheap), the leader's first
//! round runs on its own thread, sparing the hand-off to the blocking pool and the
//! wake-up back (three context switches a write, measured); when commits are slower
//! (a disk's fsync, milliseconds) every round goes to the blocking pool, so a request's
//! thread never waits out an fsync and the writes that arrive meanwhile share the next
//! commit. Writes queued behind an inline round always go to the pool. Each
//! write keeps its own conditions and outcome: it is staged against the state left by
//! the writes before it in the group (exactly as if they had committed one by one), and
//! a write whose condition fails stages nothing and fails alone. A write is answered
//! only after the commit that holds it is durable, so an acknowledged write survives a
//! crash exactly as before.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use dochiya_store::{StoreError, WriteOp};
use redb::Database;
use tokio::sync::oneshot;

use crate::EmbeddedError;

/// Most writes one group commit carries; the rest wait for the next round, so one
/// round's latency stays bounded under a flood.
pub(crate) const MAX_GROUP: usize = 256;

/// A leader commits its first round on its own thread while recent commits took less
/// than this: about what tokio allows a task between awaits, and far below an fsync.
pub(crate) const INLINE_BELOW: Duration = Duration::from_micros(200);

/// A write waiting for a commit.
struct Pending {
    ops: Vec<WriteOp>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

#[derive(Default)]
struct Queue {
    pending: Vec<Pending>,
    leader: bool,
}

/// The queue of writes, what recent commits took, and the count of durable commits
/// (for tests and benchmarks).
pub(crate) struct Group {
    queue: Mutex<Queue>,
    commits: AtomicU64,
    /// Recent commits' duration in nanoseconds, a moving average (0 before the first).
    recent_ns: AtomicU64,
    /// Commit inline while `recent_ns` is below this.
    inline_below: Duration,
}

impl Default for Group {
    fn default() -> Self {
        Self::new(INLINE_BELOW)
    }
}

/// The moving average after one more commit of `sample_ns`: a quarter of the way to it,
/// so one slow commit (a page split, a hiccup) moves it but does not decide alone.
fn average(old_ns: u64, sample_ns: u64) -> u64 {
    old_ns - old_ns / 4 + sample_ns / 4
}

impl Group {
    /// A group that commits inline while recent commits took less than `inline_below`.
    pub(crate) fn new(inline_below: Duration) -> Self {
        Self {
            queue: Mutex::default(),
            commits: AtomicU64::new(0),
            recent_ns: AtomicU64::new(0),
            inline_below,
        }
    }

    /// Whether a leader now commits its first round on its own thread.
    fn inline(&self) -> bool {
        u128::from(self.recent_ns.load(Ordering::Relaxed)) < self.inline_below.as_nanos()
    }

    /// Durable commits made so far.
    pub(crate) fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Queue `ops` and wait for the commit that carries them.
    pub(crate) async fn write(
        self: &Arc<Self>,
        db: &Arc<Database>,
        ops: Vec<WriteOp>,
    ) -> Result<(), StoreError> {
        let (done, outcome) = oneshot::channel();
        let lead = {
            let mut queue = self.lock();
            queue.pending.push(Pending { ops, done });
            !std::mem::replace(&mut queue.leader, true)
        };
        if lead {
            // One round here, on the caller's thread, with no await in between: nothing
            // can cancel the leader between taking the lead and answering its round.
            let more = if self.inline() {
                self.commit(Some(Arc::clone(db)), self.take_round());
                self.more_or_step_down()
            } else {
                true
            };
            if more {
                // The leader holds the database only while it commits (see `lead`).
                let (group, db) = (Arc::clone(self), Arc::downgrade(db));
                // Detached on purpose: the leader answers every waiter itself.
                drop(tokio::task::spawn_blocking(move || group.lead(&db)));
            }
        }
        outcome
            .await
            .unwrap_or_else(|_| Err(EmbeddedError::Group("it ended without an answer".into()).into()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // The queue is a plain list; a panic elsewhere cannot leave it half-changed.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Commit rounds until the queue is empty, then step down. The database is held
    /// only during a commit and released before the waiters are answered, so a caller
    /// that drops the store right after its last write can reopen the file at once.
    fn lead(&self, db: &Weak<Database>) {
        loop {
            self.commit(db.upgrade(), self.take_round());
            if !self.more_or_step_down() {
                return;
            }
        }
    }

    /// The next round's writes (at most [`MAX_GROUP`]); the caller is the leader.
    fn take_round(&self) -> Vec<Pending> {
        let mut queue = self.lock();
        let take = queue.pending.len().min(MAX_GROUP);
        queue.pending.drain(..take).collect()
    }

    /// Whether writes are waiting (the leader goes on); if none, the leader steps down.
    fn more_or_step_down(&self) -> bool {
        let mut queue = self.lock();
        if queue.pending.is_empty() {
            queue.leader = false;
            return false;
        }
        true
    }

    /// Commit one round and answer its writers; `db` is `None` once the store is closed.
    fn commit(&self, db: Option<Arc<Database>>, round: Vec<Pending>) {
        let (ops, waiters): (Vec<Vec<WriteOp>>, Vec<_>) = round.into_iter().map(|p| (p.ops, p.done)).unzip();
        // A panic in staging is a bug; it must fail this round's writes, not strand
        // every later writer behind a leader that never steps down.
        let fail = |why: &str| -> Vec<Result<(), StoreError>> {
            ops.iter()
                .map(|_| Err(EmbeddedError::Group(why.to_owned()).into()))
                .collect()
        };
        let started = Instant::now();
        let outcomes = match db {
            Some(db) => catch_unwind(AssertUnwindSafe(|| commit_round(&db, &ops)))
                .unwrap_or_else(|_| fail("it panicked")),
            // Unreachable while a waiter's store is alive; answered all the same.
            None => fail("the store was closed"),
        };
        if outcomes.iter().any(Result::is_ok) {
            self.commits.fetch_add(1, Ordering::Relaxed);
            // Only rounds that committed say what a commit costs; one leader at a time writes it.
            let took = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let old = self.recent_ns.load(Ordering::Relaxed);
            self.recent_ns.store(average(old, took), Ordering::Relaxed);
        }
        for (done, outcome) in waiters.into_iter().zip(outcomes) {
            // A waiter that went away (its request was cancelled) needs no answer.
            let _ = done.send(outcome);
        }
    }
}

/// Stage every write of a round in one transaction and commit once. A write whose
/// staging fails (a condition, an overflow) staged nothing and keeps its own error;
/// if the commit itself fails, every write that was staged gets that error.
fn commit_round(db: &Database, writes: &[Vec<WriteOp>]) -> Vec<Result<(), StoreError>> {
    let txn = match db.begin_write() {
        Ok(txn) => txn,
        Err(e) => {
            return writes
                .iter()
                .map(|_| Err(storage_error("begin write", &e)))
                .collect();
        }
    };
    let mut outcomes: Vec<Result<(), StoreError>> =
        writes.iter().map(|ops| crate::stage_write(&txn, ops)).collect();
    if !outcomes.iter().any(Result::is_ok) {
        if let Err(abort) = txn.abort() {
            tracing::warn!(error = %abort, "aborting an embedded store write failed");
        }
        return outcomes;
    }
    if let Err(e) = txn.commit() {
        for outcome in outcomes.iter_mut().filter(|o| o.is_ok()) {
            *outcome = Err(storage_error("commit", &e));
        }
    }
    outcomes
}

fn storage_error(what: &'static str, e: &dyn std::fmt::Display) -> StoreError {
    EmbeddedError::Group(format!("{what} failed: {e}")).into()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use dochiya_store::{Condition, Guard, Item, Key, Value};

    use super::*;

    /// A fresh store file, removed when dropped.
    struct File(std::path::PathBuf);

    impl File {
        fn new() -> Self {
            Self(std::env::temp_dir().join(format!("dochiya-group-{}.redb", uuid::Uuid::new_v4())))
        }

        fn db(&self) -> Arc<Database> {
            Arc::new(Database::create(&self.0).expect("create"))
        }
    }

    impl Drop for File {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn put_new(sk: &str) -> Vec<WriteOp> {
        vec![WriteOp::Put {
            item: Item {
                key: Key::new("P#group", sk),
                attrs: BTreeMap::from([("n".to_owned(), Value::N(1))]),
            },
            guard: Some(Guard::new("new-item", Condition::NotExists)),
        }]
    }

    /// Poll a write once: `Some` when it was answered without waiting for another thread.
    fn first_poll(f: impl Future<Output = Result<(), StoreError>>) -> Option<Result<(), StoreError>> {
        let mut cx = Context::from_waker(Waker::noop());
        match pin!(f).poll(&mut cx) {
            Poll::Ready(r) => Some(r),
            Poll::Pending => None,
        }
    }

    #[test]
    fn the_average_moves_a_quarter_of_the_way_to_each_commit() {
        assert_eq!(average(0, 400_000), 100_000);
        assert_eq!(average(100_000, 400_000), 175_000);
        assert_eq!(average(2_000_000, 0), 1_500_000);
        // Never overflows: a quarter is taken off before a quarter is added.
        assert_eq!(average(u64::MAX, u64::MAX), u64::MAX);
    }

    #[test]
    fn while_commits_are_cheap_a_lone_write_commits_on_its_own_thread() {
        // No runtime at all: a write that needed the blocking pool would panic here.
        let file = File::new();
        let db = file.db();
        let group = Arc::new(Group::new(Duration::MAX));
        for sk in ["A", "B", "C"] {
            assert_eq!(
                first_poll(group.write(&db, put_new(sk))).map(|r| r.is_ok()),
                Some(true)
            );
        }
        assert_eq!(group.commits(), 3);
        // Its own guard still decides, and the failed write commits nothing.
        match first_poll(group.write(&db, put_new("A"))) {
            Some(Err(StoreError::ConditionFailed { guard, current })) => {
                assert_eq!(guard, "new-item");
                assert_eq!(current.map(|i| i.key.sk), Some("A".to_owned()));
            }
            other => panic!("expected the write's guard to fail at once, got {other:?}"),
        }
        assert_eq!(group.commits(), 3);
        assert!(group.recent_ns.load(Ordering::Relaxed) > 0);
        assert!(!group.lock().leader, "the leader stepped down");
    }

    #[test]
    fn once_commits_are_slow_every_round_goes_to_the_blocking_pool() {
        let file = File::new();
        let db = file.db();
        // Commits as slow as a disk's fsync, as the average saw them.
        let group = Arc::new(Group::new(INLINE_BELOW));
        group.recent_ns.store(2_000_000, Ordering::Relaxed);
        assert!(!group.inline());
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let mut cx = Context::from_waker(Waker::noop());
            let mut write = pin!(group.write(&db, put_new("A")));
            assert!(
                write.as_mut().poll(&mut cx).is_pending(),
                "committed on the caller's thread"
            );
            write.await.expect("write on the pool");
        });
        assert_eq!(group.commits(), 1);
        // The pool's leader answers its round and then steps down: a write in between
        // would queue behind it (correctly), so wait for the step-down, not a race.
        let deadline = Instant::now() + Duration::from_secs(10);
        while group.lock().leader {
            assert!(Instant::now() < deadline, "the pool's leader never stepped down");
            std::thread::yield_now();
        }
        // This machine's commit moved the average; a fast one brings inline commits back.
        group.recent_ns.store(0, Ordering::Relaxed);
        assert!(group.inline());
        assert_eq!(
            first_poll(group.write(&db, put_new("B"))).map(|r| r.is_ok()),
            Some(true)
        );
        assert_eq!(group.commits(), 2);
    }
}
