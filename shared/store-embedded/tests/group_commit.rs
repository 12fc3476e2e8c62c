//! Group commit on a file store: concurrent writes share durable commits, yet each
//! keeps its own conditions and outcome, and every acknowledged write is on disk.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use common::ScratchDir;
use dochiya_store::{Condition, Guard, Item, Key, Store, StoreError, Value, WriteOp};
use dochiya_store_embedded::EmbeddedStore;

fn put_new(pk: &str, sk: &str, n: i64) -> WriteOp {
    let mut attrs = BTreeMap::new();
    attrs.insert("n".to_owned(), Value::N(n));
    WriteOp::Put {
        item: Item {
            key: Key::new(pk, sk),
            attrs,
        },
        guard: Some(Guard::new("new-item", Condition::NotExists)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_share_commits_and_each_keeps_its_own_outcome() {
    let dir = ScratchDir::new("group-commit");
    let store = Arc::new(EmbeddedStore::open_in_dir(dir.path()).expect("open"));
    // 64 writes of distinct items, and 16 racing to create the same one.
    let mut tasks = Vec::new();
    for i in 0..80i64 {
        let store = Arc::clone(&store);
        tasks.push(tokio::spawn(async move {
            let sk = if i < 64 {
                format!("K#{i:02}")
            } else {
                "SAME".to_owned()
            };
            store.write(vec![put_new("P#group", &sk, i)]).await
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.expect("task"));
    }
    assert!(outcomes[..64].iter().all(Result::is_ok), "{:?}", &outcomes[..64]);
    let same: Vec<&Result<(), StoreError>> = outcomes[64..].iter().collect();
    assert_eq!(
        same.iter().filter(|o| o.is_ok()).count(),
        1,
        "exactly one creates SAME"
    );
    for failed in same.iter().filter(|o| o.is_err()) {
        match failed {
            Err(StoreError::ConditionFailed { guard, current }) => {
                assert_eq!(*guard, "new-item");
                assert_eq!(current.as_ref().map(|i| i.key.sk.as_str()), Some("SAME"));
            }
            other => panic!("expected the write's own failed guard, got {other:?}"),
        }
    }
    let commits = store.durable_commits();
    assert!(
        (1..65).contains(&commits),
        "65 successful writes were acknowledged in {commits} durable commits"
    );

    // Every acknowledged write is on disk after the store is closed and reopened.
    drop(store);
    let reopened = EmbeddedStore::open_in_dir(dir.path()).expect("reopen");
    for i in 0..64 {
        let item = reopened
            .get(&Key::new("P#group", format!("K#{i:02}")))
            .await
            .expect("get");
        assert_eq!(item.map(|it| it.attrs["n"].clone()), Some(Value::N(i)));
    }
    assert!(
        reopened
            .get(&Key::new("P#group", "SAME"))
            .await
            .expect("get")
            .is_some()
    );
}

#[tokio::test]
async fn a_store_in_memory_commits_inline_and_counts_no_durable_commits() {
    let store = EmbeddedStore::in_memory().expect("memory");
    store.write(vec![put_new("P#m", "A", 1)]).await.expect("write");
    assert_eq!(store.durable_commits(), 0);
}
