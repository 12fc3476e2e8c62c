//! The embedded [`dochiya_store::Store`]: a redb file on local disk, or in memory for tests.
//!
//! One redb table maps the key `(PK, SK bytes)` to the encoded attributes
//! ([`codec`]). redb compares tuple keys element by element and both elements
//! by bytes, so a partition's items lie together in the byte order of their
//! sort keys — DynamoDB's order. A write runs all its operations in one redb
//! write transaction (redb admits one writer at a time), evaluating conditions
//! and updates with the shared [`dochiya_store::eval`] rules, and
//! commits all or nothing. Reads use a read transaction: a snapshot of the last
//! commit, so they are strongly consistent, and run on the caller's thread. Writes to
//! a file share durable commits (the `group` module): on the caller's thread while
//! commits are cheap, on tokio's blocking pool once they cost an fsync; writes to the
//! in-memory store commit inline.

pub mod codec;
mod error;
mod group;

use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use dochiya_store::{
    Attrs, Item, Key, Page, Query, SkRange, Store, StoreError, TTL_ATTRIBUTE, Value, WriteOp, eval,
};
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

pub use error::EmbeddedError;

/// Items: (PK, SK as bytes) → encoded attributes. The sort key is stored as
/// bytes so a range can end just past a prefix (prefix + 0xFF, which no UTF-8 text reaches).
const ITEMS: TableDefinition<(&str, &[u8]), &[u8]> = TableDefinition::new("items");

/// Store-wide facts, e.g. the format of the items.
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// The layout of keys and values this build reads and writes.
const STORE_FORMAT: u64 = 1;

/// The file name used inside a data directory by [`EmbeddedStore::open_in_dir`].
pub const DEFAULT_FILE_NAME: &str = "dochiya.redb";

/// redb's page cache for a file store. Its default (1 GiB) lets a local
/// server's memory grow with the file under load (a write-heavy benchmark
/// reached 87 MB; 40 MiB at a 32 MiB cap, 22 MiB at 4 MiB, 18-19 MiB at this
/// one, same write rate); a household ledger's hot pages fit in far less, and
/// the rest is read through the OS page cache, which RSS does not count.
const CACHE_BYTES: usize = 1024 * 1024;

/// Items one purge step examines at most (one short write transaction).
pub const PURGE_STEP_ITEMS: usize = 2000;

/// Where the next purge step starts (the first item it has not examined).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurgeCursor {
    pk: String,
    sk: Vec<u8>,
}

/// What one purge step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PurgeStep {
    /// Items deleted.
    pub purged: u64,
    /// Where to go on; `None` when the step reached the end of the table.
    pub resume: Option<PurgeCursor>,
}

/// The location name of an in-memory store.
const MEMORY: &str = "memory";

/// A [`Store`] on redb, in a file or in memory. Cheap to clone; clones share the database.
#[derive(Clone)]
pub struct EmbeddedStore {
    db: Arc<Database>,
    location: Arc<str>,
    /// Writes end in an fsync (a file): they share group commits (see the `group` module).
    /// `None` in memory, where a commit is as quick as a read.
    group: Option<Arc<group::Group>>,
}

impl std::fmt::Debug for EmbeddedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedStore")
            .field("location", &self.location)
            .finish()
    }
}

impl EmbeddedStore {
    /// Open (or create) the store file at `path`, creating its directories as needed
    /// (0700 on Unix). The file is 0600 whatever the umask: set on create, fixed on open.
    /// Blocking: call it at start-up. Fails if another process has the file open.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, EmbeddedError> {
        let path = path.as_ref();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            private::create_dir(dir).map_err(|source| EmbeddedError::CreateDir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        private::file(path).map_err(|source| EmbeddedError::Permissions {
            path: path.to_path_buf(),
            source,
        })?;
        let location = path.display().to_string();
        let db = Database::builder()
            .set_cache_size(CACHE_BYTES)
            .create(path)
            .map_err(|source| EmbeddedError::Open {
                location: location.clone(),
                source,
            })?;
        Self::init(db, location)
    }

    /// Open (or create) [`DEFAULT_FILE_NAME`] inside the data directory `dir`, which
    /// is made 0700 (on create, and fixed on open): the ledger is nobody else's.
    pub fn open_in_dir(dir: impl AsRef<Path>) -> Result<Self, EmbeddedError> {
        let dir = dir.as_ref();
        private::create_dir(dir)
            .and_then(|()| private::fix_dir(dir))
            .map_err(|source| EmbeddedError::Permissions {
                path: dir.to_path_buf(),
                source,
            })?;
        Self::open(dir.join(DEFAULT_FILE_NAME))
    }

    /// A fresh, empty store in process memory (redb's in-memory backend, same code path as a file).
    pub fn in_memory() -> Result<Self, EmbeddedError> {
        let location = MEMORY.to_owned();
        let db = Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .map_err(|source| EmbeddedError::Open {
                location: location.clone(),
                source,
            })?;
        Self::init(db, location)
    }

    /// Where the data lives (a file path, or `memory`).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Create the tables on first use and refuse a file of another format.
    fn init(db: Database, location: String) -> Result<Self, EmbeddedError> {
        let txn = db.begin_write().map_err(EmbeddedError::storage("begin init"))?;
        {
            txn.open_table(ITEMS)
                .map_err(EmbeddedError::storage("create items table"))?;
            let mut meta = txn
                .open_table(META)
                .map_err(EmbeddedError::storage("create meta table"))?;
            let found = meta
                .get("format")
                .map_err(EmbeddedError::storage("read format"))?
                .map(|g| g.value());
            match found {
                None => {
                    meta.insert("format", STORE_FORMAT)
                        .map_err(EmbeddedError::storage("write format"))?;
                }
                Some(f) if f == STORE_FORMAT => {}
                Some(found) => {
                    return Err(EmbeddedError::Format {
                        location,
                        found,
                        expected: STORE_FORMAT,
                    });
                }
            }
        }
        txn.commit().map_err(EmbeddedError::storage("commit init"))?;
        Ok(Self {
            group: (location != MEMORY).then(Arc::default),
            db: Arc::new(db),
            location: location.into(),
        })
    }

    /// Delete every item whose [`TTL_ATTRIBUTE`] (epoch seconds) is at or before
    /// `now`; returns how many went. DynamoDB does this by itself; here
    /// [`EmbeddedStore::purge_periodically`] runs it in bounded steps. Never
    /// required for correctness: the ledger checks expiry itself.
    pub async fn purge_expired(&self, now: i64) -> Result<u64, StoreError> {
        let mut purged = 0;
        let mut from = None;
        loop {
            let step = self.purge_step(now, from, PURGE_STEP_ITEMS).await?;
            purged += step.purged;
            match step.resume {
                Some(next) => from = Some(next),
                None => return Ok(purged),
            }
        }
    }

    /// One bounded purge step: examine at most `max_examined` items from `from`
    /// (the start when `None`) in one write transaction, delete the expired ones.
    pub async fn purge_step(
        &self,
        now: i64,
        from: Option<PurgeCursor>,
        max_examined: usize,
    ) -> Result<PurgeStep, StoreError> {
        self.blocking(move |db| Ok(purge_blocking(db, now, from, max_examined)?))
            .await
    }

    /// Purge expired idempotency and duplicate-guard records forever: a step at
    /// once (start-up), then one every `every`, each examining at most
    /// [`PURGE_STEP_ITEMS`] items and resuming where the last one stopped.
    pub async fn purge_periodically(&self, every: Duration) {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut from = None;
        loop {
            ticks.tick().await;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
            match self.purge_step(now, from.take(), PURGE_STEP_ITEMS).await {
                Ok(step) => {
                    if step.purged > 0 {
                        tracing::debug!(purged = step.purged, "purged expired records");
                    }
                    from = step.resume;
                }
                Err(e) => tracing::warn!(error = ?e.to_string(), "purging expired records failed"),
            }
        }
    }

    /// Run a read on the caller's thread. redb reads take a lock-free MVCC
    /// snapshot and touch a few pages already cached in memory: microseconds,
    /// far less than a hop to the blocking pool and back (a profile of the
    /// handler bench showed those thread wake-ups as its largest cost).
    fn read<T>(&self, f: impl FnOnce(&Database) -> Result<T, StoreError>) -> Result<T, StoreError> {
        f(&self.db)
    }

    /// Durable commits made so far by this store's writes (0 in memory): fewer than the
    /// writes when concurrent writes shared commits.
    pub fn durable_commits(&self) -> u64 {
        self.group.as_ref().map_or(0, |g| g.commits())
    }

    /// Run blocking redb work on tokio's blocking pool.
    async fn blocking<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Database) -> Result<T, StoreError> + Send + 'static,
    {
        let db = self.db.clone();
        match tokio::task::spawn_blocking(move || f(&db)).await {
            Ok(r) => r,
            Err(e) => Err(EmbeddedError::Task(e).into()),
        }
    }
}

type ItemsRead = redb::ReadOnlyTable<(&'static str, &'static [u8]), &'static [u8]>;

fn read_items(db: &Database) -> Result<ItemsRead, EmbeddedError> {
    let txn = db.begin_read().map_err(EmbeddedError::storage("begin read"))?;
    txn.open_table(ITEMS)
        .map_err(EmbeddedError::storage("open items table"))
}

fn decode_attrs(key: &Key, bytes: &[u8]) -> Result<Attrs, EmbeddedError> {
    codec::decode(bytes).map_err(|source| EmbeddedError::CorruptItem {
        pk: key.pk.clone(),
        sk: key.sk.clone(),
        source,
    })
}

fn get_one(
    table: &impl ReadableTable<(&'static str, &'static [u8]), &'static [u8]>,
    key: &Key,
) -> Result<Option<Attrs>, EmbeddedError> {
    let guard = table
        .get((key.pk.as_str(), key.sk.as_bytes()))
        .map_err(EmbeddedError::storage("get"))?;
    guard.map(|g| decode_attrs(key, g.value())).transpose()
}

/// Lower and upper bounds of sort-key bytes.
type SkBounds = (Bound<Vec<u8>>, Bound<Vec<u8>>);

/// The sort-key bounds of a query, cursor applied; `None` when nothing can match.
fn sk_bounds(q: &Query) -> Option<SkBounds> {
    // 0xFF never occurs in UTF-8, so `x ++ [0xFF]` is above every key starting with `x`.
    let (lo, mut hi) = match &q.range {
        SkRange::All => (Bound::Included(Vec::new()), Bound::Excluded(vec![0xFF])),
        SkRange::Prefix(p) => {
            let mut end = p.as_bytes().to_vec();
            end.push(0xFF);
            (Bound::Included(p.as_bytes().to_vec()), Bound::Excluded(end))
        }
        SkRange::Between(a, b) => (
            Bound::Included(a.as_bytes().to_vec()),
            Bound::Included(b.as_bytes().to_vec()),
        ),
    };
    let mut lo = lo;
    if let Some(c) = &q.after {
        let c = c.as_bytes().to_vec();
        // Resume strictly after the cursor, in the direction of travel, if it tightens the range.
        if q.forward {
            if let Bound::Included(l) | Bound::Excluded(l) = &lo
                && c >= *l
            {
                lo = Bound::Excluded(c);
            }
        } else if let Bound::Included(h) | Bound::Excluded(h) = &hi
            && c <= *h
        {
            hi = Bound::Excluded(c);
        }
    }
    let empty = match (&lo, &hi) {
        (Bound::Included(l), Bound::Included(h)) => l > h,
        (Bound::Included(l) | Bound::Excluded(l), Bound::Included(h) | Bound::Excluded(h)) => l >= h,
        _ => false,
    };
    (!empty).then_some((lo, hi))
}

fn query_blocking(db: &Database, q: &Query) -> Result<Page, EmbeddedError> {
    let Some((lo, hi)) = sk_bounds(q) else {
        return Ok(Page {
            items: Vec::new(),
            last_sk: None,
        });
    };
    let table = read_items(db)?;
    let pk = q.pk.as_str();
    fn with_pk<'a>(pk: &'a str, b: &'a Bound<Vec<u8>>) -> Bound<(&'a str, &'a [u8])> {
        match b {
            Bound::Included(v) => Bound::Included((pk, v.as_slice())),
            Bound::Excluded(v) => Bound::Excluded((pk, v.as_slice())),
            Bound::Unbounded => Bound::Unbounded,
        }
    }
    let range = table
        .range((with_pk(pk, &lo), with_pk(pk, &hi)))
        .map_err(EmbeddedError::storage("query"))?;
    let limit = q.limit as usize;
    let entries: Box<dyn Iterator<Item = _>> = if q.forward {
        Box::new(range)
    } else {
        Box::new(range.rev())
    };
    let mut items = Vec::with_capacity(limit.min(256));
    let mut more = false;
    for entry in entries {
        let (k, v) = entry.map_err(EmbeddedError::storage("query"))?;
        if items.len() == limit {
            more = true;
            break;
        }
        let (kpk, ksk) = k.value();
        let sk = std::str::from_utf8(ksk)
            .map_err(|_| EmbeddedError::CorruptKey { pk: kpk.to_owned() })?
            .to_owned();
        let key = Key::new(kpk, sk);
        let attrs = decode_attrs(&key, v.value())?;
        items.push(Item { key, attrs });
    }
    let last_sk = if more {
        items.last().map(|i| i.key.sk.clone())
    } else {
        None
    };
    Ok(Page { items, last_sk })
}

/// Evaluate and stage every operation inside the open write transaction; the
/// caller commits only if this returns `Ok`.
pub(crate) fn stage_write(txn: &redb::WriteTransaction, ops: &[WriteOp]) -> Result<(), StoreError> {
    let mut table = txn
        .open_table(ITEMS)
        .map_err(EmbeddedError::storage("open items table"))?;
    let mut plan = Vec::with_capacity(ops.len());
    for op in ops {
        let key = op.key();
        let current = get_one(&table, key)?;
        if let Some(cond) = eval::condition_of(op)
            && !eval::holds(cond, current.as_ref())
        {
            return Err(eval::guard_failed(
                op,
                current.map(|attrs| Item {
                    key: key.clone(),
                    attrs,
                }),
            ));
        }
        plan.push(eval::apply(op, current.as_ref())?);
    }
    for (op, next) in ops.iter().zip(plan) {
        let key = op.key();
        let k = (key.pk.as_str(), key.sk.as_bytes());
        match next {
            Some(Some(attrs)) => {
                table
                    .insert(k, codec::encode(&attrs).as_slice())
                    .map_err(EmbeddedError::storage("insert"))?;
            }
            Some(None) => {
                table.remove(k).map_err(EmbeddedError::storage("remove"))?;
            }
            None => {}
        }
    }
    Ok(())
}

fn write_blocking(db: &Database, ops: &[WriteOp]) -> Result<(), StoreError> {
    let txn = db.begin_write().map_err(EmbeddedError::storage("begin write"))?;
    match stage_write(&txn, ops) {
        Ok(()) => {
            txn.commit().map_err(EmbeddedError::storage("commit"))?;
            Ok(())
        }
        Err(e) => {
            // Nothing staged reaches the file: the whole transaction is dropped.
            if let Err(abort) = txn.abort() {
                tracing::warn!(error = %abort, "aborting an embedded store write failed");
            }
            Err(e)
        }
    }
}

fn purge_blocking(
    db: &Database,
    now: i64,
    from: Option<PurgeCursor>,
    max_examined: usize,
) -> Result<PurgeStep, EmbeddedError> {
    let txn = db.begin_write().map_err(EmbeddedError::storage("begin purge"))?;
    let step = {
        let mut table = txn
            .open_table(ITEMS)
            .map_err(EmbeddedError::storage("open items table"))?;
        let mut expired: Vec<(String, Vec<u8>)> = Vec::new();
        let mut resume = None;
        let entries = match &from {
            Some(c) => table.range((c.pk.as_str(), c.sk.as_slice())..),
            None => table.range::<(&str, &[u8])>(..),
        }
        .map_err(EmbeddedError::storage("scan"))?;
        for (examined, entry) in entries.enumerate() {
            let (k, v) = entry.map_err(EmbeddedError::storage("scan"))?;
            let (pk, sk) = k.value();
            if examined == max_examined {
                resume = Some(PurgeCursor {
                    pk: pk.to_owned(),
                    sk: sk.to_vec(),
                });
                break;
            }
            let key = Key::new(pk, String::from_utf8_lossy(sk));
            if let Some(Value::N(at)) = decode_attrs(&key, v.value())?.get(TTL_ATTRIBUTE)
                && *at <= now
            {
                expired.push((pk.to_owned(), sk.to_vec()));
            }
        }
        for (pk, sk) in &expired {
            table
                .remove((pk.as_str(), sk.as_slice()))
                .map_err(EmbeddedError::storage("purge"))?;
        }
        PurgeStep {
            purged: expired.len() as u64,
            resume,
        }
    };
    txn.commit().map_err(EmbeddedError::storage("commit purge"))?;
    Ok(step)
}

#[async_trait]
impl Store for EmbeddedStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        eval::validate_key(key)?;
        self.read(|db| {
            let table = read_items(db)?;
            Ok(get_one(&table, key)?.map(|attrs| Item {
                key: key.clone(),
                attrs,
            }))
        })
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        keys.iter().try_for_each(eval::validate_key)?;
        self.read(|db| {
            // One read transaction: all keys from the same snapshot.
            let table = read_items(db)?;
            let mut out = Vec::with_capacity(keys.len());
            for key in keys {
                let attrs = get_one(&table, key)?;
                out.push(attrs.map(|attrs| Item {
                    key: key.clone(),
                    attrs,
                }));
            }
            Ok(out)
        })
    }

    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        if query.limit == 0 {
            return Err(StoreError::Invalid("query limit must be at least 1".into()));
        }
        if query.pk.is_empty() {
            return Err(StoreError::Invalid(
                "query partition key must not be empty".into(),
            ));
        }
        self.read(|db| Ok(query_blocking(db, query)?))
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        eval::validate(&ops)?;
        match &self.group {
            Some(group) => group.write(&self.db, ops).await,
            None => write_blocking(&self.db, &ops),
        }
    }
}

/// Owner-only directories and files (Unix modes; elsewhere the platform default).
mod private {
    use std::path::Path;

    /// Create `dir` and missing parents; new ones are 0700.
    pub(super) fn create_dir(dir: &Path) -> std::io::Result<()> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)
    }

    /// Make an existing directory 0700.
    pub(super) fn fix_dir(dir: &Path) -> std::io::Result<()> {
        set_mode(dir, 0o700)
    }

    /// Create `path` 0600 if it is missing, and make it 0600 if it is not.
    pub(super) fn file(path: &Path) -> std::io::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        drop(options.open(path)?);
        set_mode(path, 0o600)
    }

    #[cfg(unix)]
    fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt as _;
        if std::fs::metadata(path)?.permissions().mode() & 0o777 != mode {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
        }
        Ok(())
    }

    #[cfg(not(unix))]
    fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(range: SkRange, forward: bool, after: Option<&str>) -> Query {
        Query {
            pk: "p".into(),
            range,
            forward,
            limit: 10,
            after: after.map(str::to_owned),
        }
    }

    fn inc(v: &str) -> Bound<Vec<u8>> {
        Bound::Included(v.as_bytes().to_vec())
    }

    fn exc(v: &[u8]) -> Bound<Vec<u8>> {
        Bound::Excluded(v.to_vec())
    }

    #[test]
    fn bounds_follow_range_and_cursor() {
        assert_eq!(
            sk_bounds(&q(SkRange::All, true, None)),
            Some((inc(""), exc(&[0xFF])))
        );
        assert_eq!(
            sk_bounds(&q(SkRange::Prefix("가".into()), true, None)),
            Some((inc("가"), exc(&[0xEA, 0xB0, 0x80, 0xFF])))
        );
        let between = SkRange::Between("b".into(), "d".into());
        assert_eq!(
            sk_bounds(&q(between.clone(), true, Some("c"))),
            Some((exc(b"c"), inc("d")))
        );
        assert_eq!(
            sk_bounds(&q(between.clone(), true, Some("a"))),
            Some((inc("b"), inc("d")))
        );
        assert_eq!(sk_bounds(&q(between.clone(), true, Some("d"))), None);
        assert_eq!(
            sk_bounds(&q(between.clone(), false, Some("c"))),
            Some((inc("b"), exc(b"c")))
        );
        assert_eq!(
            sk_bounds(&q(between.clone(), false, Some("z"))),
            Some((inc("b"), inc("d")))
        );
        assert_eq!(sk_bounds(&q(between, false, Some("b"))), None);
        assert_eq!(
            sk_bounds(&q(SkRange::Between("d".into(), "b".into()), true, None)),
            None
        );
    }

    #[tokio::test]
    async fn purge_expired_deletes_only_items_at_or_past_their_expiry() {
        let store = EmbeddedStore::in_memory().unwrap();
        let with_ttl = |sk: &str, ttl: Option<Value>| {
            let mut attrs = Attrs::new();
            attrs.insert("v".into(), Value::S(sk.into()));
            if let Some(t) = ttl {
                attrs.insert(TTL_ATTRIBUTE.into(), t);
            }
            WriteOp::Put {
                item: Item {
                    key: Key::new("P#me", sk),
                    attrs,
                },
                guard: None,
            }
        };
        store
            .write(vec![
                with_ttl("IDEM#old", Some(Value::N(999))),
                with_ttl("IDEM#now", Some(Value::N(1000))),
                with_ttl("IDEM#later", Some(Value::N(1001))),
                with_ttl("MEMBER#v", None),
                with_ttl("ODD", Some(Value::S("999".into()))),
            ])
            .await
            .unwrap();
        assert_eq!(store.purge_expired(1000).await.unwrap(), 2);
        let page = store
            .query(&Query {
                pk: "P#me".into(),
                range: SkRange::All,
                forward: true,
                limit: 10,
                after: None,
            })
            .await;
        let sks: Vec<String> = page.unwrap().items.into_iter().map(|i| i.key.sk).collect();
        assert_eq!(sks, vec!["IDEM#later", "MEMBER#v", "ODD"]);
        assert_eq!(store.purge_expired(1000).await.unwrap(), 0);
    }

    #[tokio::test]
    async fn a_purge_step_examines_at_most_its_bound_and_resumes() {
        let store = EmbeddedStore::in_memory().unwrap();
        let ops: Vec<WriteOp> = (0..5)
            .map(|i| {
                let mut attrs = Attrs::new();
                // Items 0, 2, 4 expired; 1 and 3 not yet.
                attrs.insert(TTL_ATTRIBUTE.into(), Value::N(if i % 2 == 0 { 10 } else { 99 }));
                WriteOp::Put {
                    item: Item {
                        key: Key::new("P#me", format!("IDEM#{i}")),
                        attrs,
                    },
                    guard: None,
                }
            })
            .collect();
        store.write(ops).await.unwrap();
        let first = store.purge_step(50, None, 2).await.unwrap();
        assert_eq!(first.purged, 1, "examined IDEM#0 and IDEM#1 only");
        assert_eq!(
            first.resume,
            Some(PurgeCursor {
                pk: "P#me".into(),
                sk: b"IDEM#2".to_vec()
            })
        );
        let second = store.purge_step(50, first.resume, 2).await.unwrap();
        assert_eq!(second.purged, 1);
        let third = store.purge_step(50, second.resume, 2).await.unwrap();
        assert_eq!((third.purged, third.resume), (1, None));
        let left = store
            .query(&Query {
                pk: "P#me".into(),
                range: SkRange::All,
                forward: true,
                limit: 10,
                after: None,
            })
            .await
            .unwrap();
        let sks: Vec<String> = left.items.into_iter().map(|i| i.key.sk).collect();
        assert_eq!(sks, vec!["IDEM#1", "IDEM#3"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_data_dir_and_store_file_are_private_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = std::env::temp_dir().join(format!("dochiya-perm-{}", uuid::Uuid::new_v4()));
        // As a 022 umask leaves them: an existing data dir 0755 and store file 0644.
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        drop(EmbeddedStore::open_in_dir(&dir).unwrap());
        let file = dir.join(DEFAULT_FILE_NAME);
        assert_eq!((mode(&dir), mode(&file)), (0o700, 0o600), "fixed on open");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        drop(EmbeddedStore::open_in_dir(&dir).unwrap());
        assert_eq!(mode(&file), 0o600, "fixed again on the next open");
        std::fs::remove_dir_all(&dir).unwrap();
        // Created fresh (with parents): 0700 and 0600 from the start.
        let nested = std::env::temp_dir().join(format!("dochiya-perm-{}", uuid::Uuid::new_v4()));
        drop(EmbeddedStore::open_in_dir(nested.join("data")).unwrap());
        assert_eq!(mode(&nested.join("data")), 0o700);
        assert_eq!(mode(&nested.join("data").join(DEFAULT_FILE_NAME)), 0o600);
        std::fs::remove_dir_all(&nested).unwrap();
    }

    #[tokio::test]
    async fn corrupt_bytes_are_a_backend_error_naming_the_item() {
        let store = EmbeddedStore::in_memory().unwrap();
        let txn = store.db.begin_write().unwrap();
        txn.open_table(ITEMS)
            .unwrap()
            .insert(("p", "s".as_bytes()), [9u8, 0].as_slice())
            .unwrap();
        txn.commit().unwrap();
        let err = store.get(&Key::new("p", "s")).await.unwrap_err();
        let StoreError::Backend(inner) = err else {
            panic!("expected Backend, got {err:?}")
        };
        assert_eq!(inner.to_string(), "corrupt item p / s in the embedded store");
        let source = std::error::Error::source(&*inner).map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("unknown format 9"));
        let page = store
            .query(&Query {
                pk: "p".into(),
                range: SkRange::All,
                forward: true,
                limit: 5,
                after: None,
            })
            .await;
        assert!(matches!(page, Err(StoreError::Backend(_))), "{page:?}");
    }

    #[tokio::test]
    async fn a_sort_key_that_is_not_utf8_is_reported() {
        let store = EmbeddedStore::in_memory().unwrap();
        let txn = store.db.begin_write().unwrap();
        let value = codec::encode(&Attrs::new());
        txn.open_table(ITEMS)
            .unwrap()
            .insert(("p", [0xC3u8].as_slice()), value.as_slice())
            .unwrap();
        txn.commit().unwrap();
        let err = store
            .query(&Query {
                pk: "p".into(),
                range: SkRange::All,
                forward: true,
                limit: 5,
                after: None,
            })
            .await
            .unwrap_err();
        let StoreError::Backend(inner) = err else {
            panic!("expected Backend, got {err:?}")
        };
        assert_eq!(
            inner.to_string(),
            "corrupt sort key in partition p of the embedded store"
        );
    }
}
