//! Test helpers: a store file in a directory of its own, removed when dropped.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use async_trait::async_trait;
use dochiya_store::{Item, Key, Page, Query, Store, StoreError, WriteOp};
use dochiya_store_embedded::EmbeddedStore;

/// A fresh directory under cargo's per-target scratch space, removed on drop.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// A new, not yet existing, directory path (the store creates it).
    pub fn new(tag: &str) -> Self {
        let name = format!("{tag}-{}", uuid::Uuid::new_v4());
        Self(
            Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("store-embedded")
                .join(name),
        )
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An [`EmbeddedStore`] on a file of its own, deleted with the store.
#[derive(Debug)]
pub struct FileStore {
    /// The store under test.
    pub store: EmbeddedStore,
    // Dropped after `store` (field order), so the file is closed first.
    _dir: ScratchDir,
}

impl FileStore {
    /// A store in a nested, not yet existing directory (exercises directory creation).
    pub fn new() -> Self {
        let dir = ScratchDir::new("file");
        let path = dir.path().join("nested").join("dochiya.redb");
        let store = EmbeddedStore::open(path).expect("open a store file");
        Self { store, _dir: dir }
    }
}

#[async_trait]
impl Store for FileStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.store.get(key).await
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        self.store.get_many(keys).await
    }

    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        self.store.query(query).await
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        self.store.write(ops).await
    }
}
