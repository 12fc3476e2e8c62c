//! The stores a history runs on: every store the ledger ships on, and the test kit's.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use dochiya_store::Store;
use dochiya_store_dynamodb::{DynamoStore, TableCreation, create_table, load_client};
use dochiya_store_embedded::EmbeddedStore;
use dochiya_testkit::memory::MemoryStore;

/// Which store the ledger under test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The test kit's in-memory stand-in.
    Memory,
    /// The embedded redb store, in memory.
    Embedded,
    /// The embedded redb store on a file of its own, removed afterwards.
    EmbeddedFile,
    /// DynamoDB on the local moto server (`AWS_ENDPOINT_URL_DYNAMODB`), a fresh table per history.
    Dynamo,
}

/// What must outlive the store (a file's folder, removed when dropped).
pub struct Held(Option<PathBuf>);

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(dir) = &self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A name no other history of this process uses.
fn unique(label: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{label}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// A fresh, empty store of `backend`.
pub(super) async fn open(backend: Backend) -> (Arc<dyn Store>, Held) {
    match backend {
        Backend::Memory => (Arc::new(MemoryStore::new()), Held(None)),
        Backend::Embedded => (
            Arc::new(EmbeddedStore::in_memory().expect("in-memory embedded store")),
            Held(None),
        ),
        Backend::EmbeddedFile => {
            let dir = std::env::temp_dir().join(unique("dochiya-model"));
            std::fs::create_dir_all(&dir).expect("a folder for the store");
            let store = EmbeddedStore::open_in_dir(&dir).expect("embedded store on a file");
            (Arc::new(store), Held(Some(dir)))
        }
        Backend::Dynamo => {
            assert!(
                std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB").is_some(),
                "AWS_ENDPOINT_URL_DYNAMODB is not set: the model's DynamoDB run needs the moto \
                 server tests/run.sh starts"
            );
            let client = load_client().await;
            let table = unique("model");
            assert_eq!(
                create_table(&client, &table).await.expect("create a table"),
                TableCreation::Created
            );
            (Arc::new(DynamoStore::new(client, table)), Held(None))
        }
    }
}
