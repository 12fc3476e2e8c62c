//! Test wrappers over any [`Store`]: one that counts calls and items read (to
//! assert read budgets per operation), and one that fails a chosen write (to
//! prove nothing partial is left behind).

use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;

use dochiya_store::{Item, Key, Page, Query, Store, StoreError, WriteOp};

/// Calls made through a [`CountingStore`] since it was created or last reset.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoreCounts {
    /// `get` calls.
    pub gets: u64,
    /// `get_many` calls.
    pub get_manys: u64,
    /// Keys asked for through `get_many`.
    pub keys_requested: u64,
    /// `query` calls.
    pub queries: u64,
    /// `write` calls (including failed ones).
    pub writes: u64,
    /// Operations carried by those writes.
    pub write_ops: u64,
    /// Items returned by `get`, `get_many` and `query` (absent items are not counted).
    pub items_read: u64,
    /// Read rounds: a read that starts while no other read is in flight opens a
    /// round; reads issued together (joined) share it, and none of them answers
    /// before all have their answer. On DynamoDB each round is one network
    /// latency, however many calls it holds.
    pub read_rounds: u64,
}

impl StoreCounts {
    /// Read calls of any kind (`get` + `get_many` + `query`).
    pub fn reads(&self) -> u64 {
        self.gets + self.get_manys + self.queries
    }

    /// Every call that would be a network round trip on DynamoDB.
    pub fn round_trips(&self) -> u64 {
        self.reads() + self.writes
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A counter behind a poisoned lock is still a valid number.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A [`Store`] that forwards to another and counts what passes through.
///
/// Hold it in an `Arc`, hand a clone to the code under test (it coerces to
/// `Arc<dyn Store>`), and read [`CountingStore::take`] around each operation.
#[derive(Debug)]
pub struct CountingStore<S: ?Sized> {
    counts: Mutex<StoreCounts>,
    /// The read rounds (not reset with the counts).
    rounds: Mutex<Rounds>,
    inner: Arc<S>,
}

impl<S: Store> CountingStore<S> {
    /// Wrap a store.
    pub fn new(inner: S) -> Self {
        Self::from_arc(Arc::new(inner))
    }
}

impl<S: Store + ?Sized> CountingStore<S> {
    /// Wrap a shared store (e.g. an `Arc<dyn Store>`).
    pub fn from_arc(inner: Arc<S>) -> Self {
        Self {
            counts: Mutex::new(StoreCounts::default()),
            rounds: Mutex::new(Rounds::default()),
            inner,
        }
    }

    /// The wrapped store (calls through it are not counted).
    pub fn inner(&self) -> &Arc<S> {
        &self.inner
    }

    /// The counts so far.
    pub fn counts(&self) -> StoreCounts {
        *lock(&self.counts)
    }

    /// Zero the counts.
    pub fn reset(&self) {
        *lock(&self.counts) = StoreCounts::default();
    }

    /// The counts so far, zeroing them: call before and after an operation to see its cost alone.
    pub fn take(&self) -> StoreCounts {
        std::mem::take(&mut *lock(&self.counts))
    }

    fn record(&self, f: impl FnOnce(&mut StoreCounts)) {
        f(&mut lock(&self.counts));
    }

    /// Register a read, then let the caller's other joined futures start theirs
    /// before this one can finish: an in-memory store answers on the first
    /// poll, which would otherwise make joined reads look sequential.
    async fn begin_read(&self) -> ReadGuard<'_> {
        let generation = {
            let mut r = lock(&self.rounds);
            if r.unfinished == 0 {
                r.opened += 1;
                self.record(|c| c.read_rounds += 1);
            }
            r.unfinished += 1;
            r.opened
        };
        let guard = ReadGuard {
            rounds: &self.rounds,
            generation,
            finished: false,
        };
        YieldOnce(false).await;
        guard
    }
}

/// The read rounds of a [`CountingStore`]: which round is open and how many of
/// its reads are still waiting on the store.
#[derive(Debug, Default)]
struct Rounds {
    /// Rounds opened so far (the open one's number while `unfinished > 0`).
    opened: u64,
    /// Rounds whose every read has its answer.
    closed: u64,
    /// Reads of the open round still waiting on the store.
    unfinished: u64,
    /// Reads that have their answer, waiting for the rest of their round.
    waiting: Vec<std::task::Waker>,
}

/// One read's place in its round. A read hands its answer back only when every
/// read of its round has one: a round then ends at one moment whatever the
/// store's timing, so a read chained after one of them never overlaps a slow
/// sibling and the count of rounds does not depend on load (on DynamoDB a
/// sibling that answered late merged two rounds into one).
struct ReadGuard<'a> {
    rounds: &'a Mutex<Rounds>,
    generation: u64,
    finished: bool,
}

impl ReadGuard<'_> {
    /// This read has its answer: close the round if it was the last, then wait
    /// until the round is closed.
    async fn finish(mut self) {
        self.finished = true;
        close_one(self.rounds);
        RoundClosed {
            rounds: self.rounds,
            generation: self.generation,
        }
        .await;
    }
}

fn close_one(rounds: &Mutex<Rounds>) {
    let mut r = lock(rounds);
    r.unfinished = r.unfinished.saturating_sub(1);
    if r.unfinished == 0 {
        r.closed = r.opened;
        for w in r.waiting.drain(..) {
            w.wake();
        }
    }
}

impl Drop for ReadGuard<'_> {
    fn drop(&mut self) {
        // A read that failed or was cancelled leaves its round too.
        if !self.finished {
            close_one(self.rounds);
        }
    }
}

/// Ready once the round numbered `generation` is closed.
struct RoundClosed<'a> {
    rounds: &'a Mutex<Rounds>,
    generation: u64,
}

impl std::future::Future for RoundClosed<'_> {
    type Output = ();
    fn poll(self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        let mut r = lock(self.rounds);
        if r.closed >= self.generation {
            return std::task::Poll::Ready(());
        }
        r.waiting.push(cx.waker().clone());
        std::task::Poll::Pending
    }
}

/// Pending once (waking itself at once), then ready.
struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

#[async_trait]
impl<S: Store + ?Sized> Store for CountingStore<S> {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.record(|c| c.gets += 1);
        let read = self.begin_read().await;
        let out = self.inner.get(key).await?;
        read.finish().await;
        let found = u64::from(out.is_some());
        self.record(|c| c.items_read += found);
        Ok(out)
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        self.record(|c| {
            c.get_manys += 1;
            c.keys_requested += keys.len() as u64;
        });
        let read = self.begin_read().await;
        let out = self.inner.get_many(keys).await?;
        read.finish().await;
        let found = out.iter().filter(|i| i.is_some()).count() as u64;
        self.record(|c| c.items_read += found);
        Ok(out)
    }

    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        self.record(|c| c.queries += 1);
        let read = self.begin_read().await;
        let page = self.inner.query(query).await?;
        read.finish().await;
        let n = page.items.len() as u64;
        self.record(|c| c.items_read += n);
        Ok(page)
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        self.record(|c| {
            c.writes += 1;
            c.write_ops += ops.len() as u64;
        });
        self.inner.write(ops).await
    }
}

/// What a [`FailingStore`] does to the write it was told to fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectedFailure {
    /// Apply nothing; return [`StoreError::Transient`] (a throttle or conflict).
    Transient,
    /// Apply nothing; return [`StoreError::Backend`] (an outage).
    Backend,
    /// Apply the write, then return [`StoreError::Transient`]: the reply was lost
    /// after the commit (a timeout), so a retry sees its own earlier write.
    TransientAfterApply,
}

/// The error a [`FailingStore`] returns inside [`StoreError::Transient`] / [`StoreError::Backend`].
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("injected failure on write call {call}")]
pub struct InjectedError {
    /// Which write call (1-based, counted since the store was created) failed.
    pub call: u64,
}

#[derive(Debug, Default)]
struct FailState {
    writes_seen: u64,
    /// (write call number to fail, how).
    armed: Vec<(u64, InjectedFailure)>,
    failed: Vec<u64>,
}

/// A [`Store`] that forwards to another but fails chosen write calls.
#[derive(Debug)]
pub struct FailingStore<S: ?Sized> {
    state: Mutex<FailState>,
    inner: Arc<S>,
}

impl<S: Store> FailingStore<S> {
    /// Wrap a store; no failure is armed yet.
    pub fn new(inner: S) -> Self {
        Self::from_arc(Arc::new(inner))
    }
}

impl<S: Store + ?Sized> FailingStore<S> {
    /// Wrap a shared store (e.g. an `Arc<dyn Store>`).
    pub fn from_arc(inner: Arc<S>) -> Self {
        Self {
            state: Mutex::new(FailState::default()),
            inner,
        }
    }

    /// The wrapped store (calls through it are neither counted nor failed).
    pub fn inner(&self) -> &Arc<S> {
        &self.inner
    }

    /// Fail the `n`-th write call from now (1 = the next one) in the given way.
    /// Several failures may be armed at once.
    pub fn fail_nth_write(&self, n: u64, how: InjectedFailure) {
        let mut st = lock(&self.state);
        let at = st.writes_seen + n.max(1);
        st.armed.push((at, how));
    }

    /// Write calls seen so far (failed ones included).
    pub fn writes_seen(&self) -> u64 {
        lock(&self.state).writes_seen
    }

    /// The write call numbers (1-based since creation) that were failed on purpose.
    pub fn failed_calls(&self) -> Vec<u64> {
        lock(&self.state).failed.clone()
    }
}

#[async_trait]
impl<S: Store + ?Sized> Store for FailingStore<S> {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.inner.get(key).await
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        self.inner.get_many(keys).await
    }

    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        self.inner.query(query).await
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        let (call, how) = {
            let mut st = lock(&self.state);
            st.writes_seen += 1;
            let call = st.writes_seen;
            let how = st
                .armed
                .iter()
                .position(|(at, _)| *at == call)
                .map(|i| st.armed.remove(i).1);
            if how.is_some() {
                st.failed.push(call);
            }
            (call, how)
        };
        let injected = InjectedError { call };
        match how {
            None => self.inner.write(ops).await,
            Some(InjectedFailure::Transient) => Err(StoreError::Transient(Box::new(injected))),
            Some(InjectedFailure::Backend) => Err(StoreError::Backend(Box::new(injected))),
            Some(InjectedFailure::TransientAfterApply) => {
                self.inner.write(ops).await?;
                Err(StoreError::Transient(Box::new(injected)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryStore;
    use dochiya_store::{Attrs, Condition, Guard, SkRange, Value};

    fn put(pk: &str, sk: &str, n: i64) -> WriteOp {
        let mut attrs = Attrs::new();
        attrs.insert("n".into(), Value::N(n));
        WriteOp::Put {
            item: Item {
                key: Key::new(pk, sk),
                attrs,
            },
            guard: None,
        }
    }

    #[tokio::test]
    async fn counting_store_counts_each_call_kind_and_items_read() {
        let store = CountingStore::new(MemoryStore::new());
        store
            .write(vec![put("p", "a", 1), put("p", "b", 2)])
            .await
            .unwrap();
        assert_eq!(
            store.take(),
            StoreCounts {
                writes: 1,
                write_ops: 2,
                ..StoreCounts::default()
            }
        );

        store.get(&Key::new("p", "a")).await.unwrap();
        store.get(&Key::new("p", "zz")).await.unwrap();
        store
            .get_many(&[Key::new("p", "a"), Key::new("p", "b"), Key::new("p", "c")])
            .await
            .unwrap();
        let q = Query {
            pk: "p".into(),
            range: SkRange::All,
            forward: true,
            limit: 10,
            after: None,
        };
        store.query(&q).await.unwrap();
        let c = store.take();
        assert_eq!(
            c,
            StoreCounts {
                gets: 2,
                get_manys: 1,
                keys_requested: 3,
                queries: 1,
                items_read: 5,
                read_rounds: 4,
                ..Default::default()
            }
        );
        assert_eq!((c.reads(), c.round_trips()), (4, 4));
        assert_eq!(store.counts(), StoreCounts::default());
    }

    #[tokio::test]
    async fn counting_store_counts_joined_reads_as_one_round() {
        let store = CountingStore::new(MemoryStore::new());
        let (ka, kb) = (Key::new("p", "a"), Key::new("p", "b"));
        let (a, b) = tokio::join!(store.get(&ka), store.get(&kb));
        assert_eq!((a.unwrap(), b.unwrap()), (None, None));
        assert_eq!((store.counts().gets, store.take().read_rounds), (2, 1));
        store.get(&Key::new("p", "a")).await.unwrap();
        store.get(&Key::new("p", "b")).await.unwrap();
        assert_eq!((store.counts().gets, store.take().read_rounds), (2, 2));
    }

    /// A store whose reads of partition "slow" answer only after a pause, and
    /// whose reads of partition "bad" fail.
    #[derive(Debug)]
    struct SlowStore(MemoryStore);

    #[async_trait]
    impl Store for SlowStore {
        async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
            if key.pk == "slow" {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            if key.pk == "bad" {
                return Err(StoreError::Transient("bad partition".into()));
            }
            self.0.get(key).await
        }
        async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
            self.0.get_many(keys).await
        }
        async fn query(&self, query: &Query) -> Result<Page, StoreError> {
            self.0.query(query).await
        }
        async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
            self.0.write(ops).await
        }
    }

    #[tokio::test]
    async fn a_read_chained_beside_a_slow_sibling_is_a_round_of_its_own() {
        // The chain a1 -> a2 runs beside one slow read. Counted by overlap
        // alone, a2 started while the slow read was in flight and the two
        // rounds looked like one (the DynamoDB suite's flake under load).
        let store = CountingStore::new(SlowStore(MemoryStore::new()));
        let chain = async {
            store.get(&Key::new("p", "a1")).await.unwrap();
            store.get(&Key::new("p", "a2")).await.unwrap();
        };
        let ks = Key::new("slow", "s");
        let ((), slow) = tokio::join!(chain, store.get(&ks));
        assert_eq!(slow.unwrap(), None);
        assert_eq!((store.counts().gets, store.take().read_rounds), (3, 2));
    }

    #[tokio::test]
    async fn a_failed_read_leaves_its_round() {
        // The failed read must not hold its round open: the slow sibling's
        // answer comes back, and the next read opens a round of its own.
        let store = CountingStore::new(SlowStore(MemoryStore::new()));
        let (kb, ks) = (Key::new("bad", "x"), Key::new("slow", "s"));
        let (bad, slow) = tokio::join!(store.get(&kb), store.get(&ks));
        assert_eq!(
            bad.unwrap_err().to_string(),
            StoreError::Transient("bad partition".into()).to_string()
        );
        assert_eq!(slow.unwrap(), None);
        store.get(&Key::new("p", "b")).await.unwrap();
        assert_eq!(store.take().read_rounds, 2);
    }

    #[tokio::test]
    async fn counting_store_counts_failed_writes() {
        let store = CountingStore::new(MemoryStore::new());
        let op = WriteOp::Check {
            key: Key::new("p", "a"),
            guard: Guard::new("exists", Condition::Exists),
        };
        let err = store.write(vec![op]).await.unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::ConditionFailed {
                    guard: "exists",
                    current: None
                }
            ),
            "{err:?}"
        );
        assert_eq!(store.counts().writes, 1);
        store.reset();
        assert_eq!(store.counts(), StoreCounts::default());
    }

    #[tokio::test]
    async fn counting_store_wraps_a_dyn_store() {
        let inner: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let store = Arc::new(CountingStore::from_arc(inner));
        let as_dyn: Arc<dyn Store> = store.clone();
        as_dyn.write(vec![put("p", "a", 1)]).await.unwrap();
        assert_eq!(
            as_dyn
                .get(&Key::new("p", "a"))
                .await
                .unwrap()
                .map(|i| i.attrs["n"].clone()),
            Some(Value::N(1))
        );
        assert_eq!(store.counts().round_trips(), 2);
    }

    #[tokio::test]
    async fn failing_store_fails_only_the_nth_write_and_applies_nothing() {
        let store = FailingStore::new(MemoryStore::new());
        store.fail_nth_write(2, InjectedFailure::Transient);
        store.write(vec![put("p", "a", 1)]).await.unwrap();
        let err = store
            .write(vec![put("p", "b", 2), put("p", "c", 3)])
            .await
            .unwrap_err();
        match err {
            StoreError::Transient(e) => assert_eq!(e.to_string(), "injected failure on write call 2"),
            other => panic!("expected Transient, got {other:?}"),
        }
        assert_eq!(store.get(&Key::new("p", "b")).await.unwrap(), None);
        assert_eq!(store.get(&Key::new("p", "c")).await.unwrap(), None);
        store.write(vec![put("p", "b", 2)]).await.unwrap();
        assert_eq!(store.writes_seen(), 3);
        assert_eq!(store.failed_calls(), vec![2]);
    }

    #[tokio::test]
    async fn failing_store_backend_and_after_apply_modes() {
        let store = FailingStore::new(MemoryStore::new());
        store.fail_nth_write(1, InjectedFailure::Backend);
        store.fail_nth_write(2, InjectedFailure::TransientAfterApply);
        let first = store.write(vec![put("p", "a", 1)]).await.unwrap_err();
        assert!(matches!(first, StoreError::Backend(_)), "{first:?}");
        assert_eq!(store.get(&Key::new("p", "a")).await.unwrap(), None);
        let second = store.write(vec![put("p", "a", 2)]).await.unwrap_err();
        assert!(matches!(second, StoreError::Transient(_)), "{second:?}");
        let applied = store
            .get(&Key::new("p", "a"))
            .await
            .unwrap()
            .map(|i| i.attrs["n"].clone());
        assert_eq!(applied, Some(Value::N(2)));
        assert_eq!(store.failed_calls(), vec![1, 2]);
    }
}
