//! A store in process memory: a sorted map under a lock.
//!
//! The stand-in the ledger's contract tests run on; it follows the same
//! [`dochiya_store::eval`] rules as the embedded store.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Mutex;

use async_trait::async_trait;

use dochiya_store::eval;
use dochiya_store::{Attrs, Item, Key, Page, Query, SkRange, Store, StoreError, WriteOp};

/// Items kept in a `BTreeMap` keyed by (PK, SK).
#[derive(Debug, Default)]
pub struct MemoryStore {
    items: Mutex<BTreeMap<Key, Attrs>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<Key, Attrs>> {
        // A poisoned lock means a panic mid-write; writes are applied only after
        // all checks pass, so the map itself is still consistent.
        self.items.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait]
impl Store for MemoryStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        eval::validate_key(key)?;
        Ok(self.lock().get(key).map(|a| eval::item(key, a)))
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        keys.iter().try_for_each(eval::validate_key)?;
        let items = self.lock();
        Ok(keys
            .iter()
            .map(|k| items.get(k).map(|a| eval::item(k, a)))
            .collect())
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
        let items = self.lock();
        let lo = match &query.range {
            SkRange::All => String::new(),
            SkRange::Prefix(p) => p.clone(),
            SkRange::Between(a, _) => a.clone(),
        };
        let start = Key::new(query.pk.clone(), lo);
        let in_range = |k: &Key| {
            k.pk == query.pk
                && match &query.range {
                    SkRange::All => true,
                    SkRange::Prefix(p) => k.sk.starts_with(p.as_str()),
                    SkRange::Between(a, b) => k.sk.as_str() >= a.as_str() && k.sk.as_str() <= b.as_str(),
                }
        };
        let after_cursor = |k: &Key| match &query.after {
            None => true,
            Some(c) => {
                if query.forward {
                    k.sk.as_str() > c.as_str()
                } else {
                    k.sk.as_str() < c.as_str()
                }
            }
        };
        let candidates: Box<dyn Iterator<Item = (&Key, &Attrs)>> = if query.forward {
            Box::new(items.range((Bound::Included(start), Bound::Unbounded)))
        } else {
            Box::new(items.iter().rev())
        };
        let mut out = Vec::new();
        let mut more = false;
        for (k, a) in candidates {
            if query.forward && k.pk != query.pk {
                break;
            }
            if !in_range(k) || !after_cursor(k) {
                continue;
            }
            if out.len() == query.limit as usize {
                more = true;
                break;
            }
            out.push(eval::item(k, a));
        }
        let last_sk = if more {
            out.last().map(|i| i.key.sk.clone())
        } else {
            None
        };
        Ok(Page { items: out, last_sk })
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        eval::validate(&ops)?;
        let mut items = self.lock();
        let mut results = Vec::with_capacity(ops.len());
        for op in &ops {
            let current = items.get(op.key());
            if let Some(cond) = eval::condition_of(op)
                && !eval::holds(cond, current)
            {
                return Err(eval::guard_failed(op, current.map(|a| eval::item(op.key(), a))));
            }
            results.push(eval::apply(op, current)?);
        }
        for (op, next) in ops.iter().zip(results) {
            match next {
                Some(Some(attrs)) => {
                    items.insert(op.key().clone(), attrs);
                }
                Some(None) => {
                    items.remove(op.key());
                }
                None => {}
            }
        }
        Ok(())
    }
}
