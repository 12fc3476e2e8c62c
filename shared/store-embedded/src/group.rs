//! Group commit for the file store: writes that arrive while a durable commit is
//! under way wait for it, then share the next one.
//!
//! redb admits one write transaction at a time and each commit of a file ends in an
//! fsync, so one commit per write caps throughput at the disk's fsync rate. Here the
//! first writer to find no commit running becomes the leader: on the blocking pool it
//! takes every queued write, stages them one after another in ONE write transaction
//! and commits once; meanwhile new writes queue for the leader's next round. Each
//! write keeps its own conditions and outcome: it is staged against the state left by
//! the writes before it in the group (exactly as if they had committed one by one), and
//! a write whose condition fails stages nothing and fails alone. A write is answered
//! only after the commit that holds it is durable, so an acknowledged write survives a
//! crash exactly as before.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use dochiya_store::{StoreError, WriteOp};
use redb::Database;
use tokio::sync::oneshot;

use crate::EmbeddedError;

/// Most writes one group commit carries; the rest wait for the next round, so one
/// round's latency stays bounded under a flood.
pub(crate) const MAX_GROUP: usize = 256;

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

/// The queue of writes and the count of durable commits (for tests and benchmarks).
#[derive(Default)]
pub(crate) struct Group {
    queue: Mutex<Queue>,
    commits: AtomicU64,
}

impl Group {
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
            // The leader holds the database only while it commits (see `lead`).
            let (group, db) = (Arc::clone(self), Arc::downgrade(db));
            // Detached on purpose: the leader answers every waiter itself, this one included.
            drop(tokio::task::spawn_blocking(move || group.lead(&db)));
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
            let round: Vec<Pending> = {
                let mut queue = self.lock();
                if queue.pending.is_empty() {
                    queue.leader = false;
                    return;
                }
                let take = queue.pending.len().min(MAX_GROUP);
                queue.pending.drain(..take).collect()
            };
            let (ops, waiters): (Vec<Vec<WriteOp>>, Vec<_>) =
                round.into_iter().map(|p| (p.ops, p.done)).unzip();
            // A panic in staging is a bug; it must fail this round's writes, not strand
            // every later writer behind a leader that never steps down.
            let fail = |why: &str| -> Vec<Result<(), StoreError>> {
                ops.iter()
                    .map(|_| Err(EmbeddedError::Group(why.to_owned()).into()))
                    .collect()
            };
            let outcomes = match db.upgrade() {
                Some(db) => catch_unwind(AssertUnwindSafe(|| commit_round(&db, &ops)))
                    .unwrap_or_else(|_| fail("it panicked")),
                // Unreachable while a waiter's store is alive; answered all the same.
                None => fail("the store was closed"),
            };
            if outcomes.iter().any(Result::is_ok) {
                self.commits.fetch_add(1, Ordering::Relaxed);
            }
            for (done, outcome) in waiters.into_iter().zip(outcomes) {
                // A waiter that went away (its request was cancelled) needs no answer.
                let _ = done.send(outcome);
            }
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
