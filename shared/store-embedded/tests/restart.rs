//! The file store keeps its data across a close and reopen and across an
//! abrupt exit of the process that wrote it, and refuses a second concurrent
//! opener instead of corrupting the file.

mod common;

use std::collections::BTreeMap;

use common::ScratchDir;
use dochiya_ledger::store::{Item, Key, Query, SkRange, Store, Value, WriteOp};
use dochiya_store_embedded::{DEFAULT_FILE_NAME, EmbeddedStore};

fn item(sk: &str, n: i64) -> Item {
    let mut attrs = BTreeMap::new();
    attrs.insert("n".to_owned(), Value::N(n));
    attrs.insert("name".to_owned(), Value::S(format!("가계부 {sk}")));
    Item {
        key: Key::new("VAULT#1", sk),
        attrs,
    }
}

#[tokio::test]
async fn data_survives_close_and_reopen() {
    let dir = ScratchDir::new("restart");
    {
        let store = EmbeddedStore::open_in_dir(dir.path()).unwrap();
        assert_eq!(
            store.location(),
            dir.path().join(DEFAULT_FILE_NAME).display().to_string()
        );
        store
            .write(vec![
                WriteOp::Put {
                    item: item("A", 1),
                    guard: None,
                },
                WriteOp::Put {
                    item: item("B", 2),
                    guard: None,
                },
            ])
            .await
            .unwrap();
        store
            .write(vec![WriteOp::Delete {
                key: Key::new("VAULT#1", "B"),
                guard: None,
            }])
            .await
            .unwrap();
    }
    let reopened = EmbeddedStore::open_in_dir(dir.path()).unwrap();
    let page = reopened
        .query(&Query {
            pk: "VAULT#1".into(),
            range: SkRange::All,
            forward: true,
            limit: 10,
            after: None,
        })
        .await
        .unwrap();
    assert_eq!(page.items, vec![item("A", 1)]);
    assert_eq!(page.last_sk, None);
    // And it keeps working after the reopen.
    reopened
        .write(vec![WriteOp::Put {
            item: item("C", 3),
            guard: None,
        }])
        .await
        .unwrap();
    assert_eq!(
        reopened.get(&Key::new("VAULT#1", "C")).await.unwrap(),
        Some(item("C", 3))
    );
}

/// Set only in the child process of [`data_survives_an_abrupt_process_exit`]: where to write.
const CHILD_DIR_ENV: &str = "DOCHIYA_TEST_RESTART_CHILD_DIR";

/// The child's exit code once its writes returned (neither libtest's 0 nor 101).
const CHILD_WROTE: i32 = 42;

#[tokio::test]
async fn data_survives_an_abrupt_process_exit() {
    if let Some(dir) = std::env::var_os(CHILD_DIR_ENV) {
        // Child: 50 separate commits, then exit at once, never closing the store,
        // as a process killed right after answering would.
        let store = EmbeddedStore::open_in_dir(&dir).unwrap();
        for i in 0..50 {
            let op = WriteOp::Update {
                key: Key::new("VAULT#1", "COUNTER"),
                set: BTreeMap::new(),
                add: [("n".to_owned(), i)].into_iter().collect(),
                remove: vec![],
                guard: None,
            };
            store
                .write(vec![
                    op,
                    WriteOp::Put {
                        item: item(&format!("T{i:02}"), i),
                        guard: None,
                    },
                ])
                .await
                .unwrap();
        }
        std::process::exit(CHILD_WROTE);
    }
    let dir = ScratchDir::new("child");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "data_survives_an_abrupt_process_exit",
            "--test-threads=1",
        ])
        .env(CHILD_DIR_ENV, dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(
        status.code(),
        Some(CHILD_WROTE),
        "the child process did not finish its writes"
    );

    let store = EmbeddedStore::open_in_dir(dir.path()).unwrap();
    let page = store
        .query(&Query {
            pk: "VAULT#1".into(),
            range: SkRange::Prefix("T".into()),
            forward: true,
            limit: 100,
            after: None,
        })
        .await
        .unwrap();
    let expected: Vec<Item> = (0..50).map(|i| item(&format!("T{i:02}"), i)).collect();
    assert_eq!(page.items, expected);
    let counter = store
        .get(&Key::new("VAULT#1", "COUNTER"))
        .await
        .unwrap()
        .map(|c| c.attrs);
    assert_eq!(
        counter,
        Some([("n".to_owned(), Value::N(1225))].into_iter().collect())
    );
}

#[tokio::test]
async fn a_second_opener_is_refused_while_the_file_is_open() {
    let dir = ScratchDir::new("locked");
    let first = EmbeddedStore::open_in_dir(dir.path()).unwrap();
    let err = EmbeddedStore::open_in_dir(dir.path()).unwrap_err();
    let path = dir.path().join(DEFAULT_FILE_NAME);
    assert_eq!(
        err.to_string(),
        format!("cannot open the embedded store {}", path.display())
    );
    let source = std::error::Error::source(&err).map(ToString::to_string);
    assert_eq!(
        source.as_deref(),
        Some("Database already open. Cannot acquire lock.")
    );
    drop(first);
    EmbeddedStore::open_in_dir(dir.path()).unwrap();
}

#[tokio::test]
async fn a_file_that_is_not_a_store_is_refused() {
    let dir = ScratchDir::new("garbage");
    std::fs::create_dir_all(dir.path()).unwrap();
    let path = dir.path().join(DEFAULT_FILE_NAME);
    std::fs::write(
        &path,
        b"this is not a redb file, just some text long enough to look like a header..",
    )
    .unwrap();
    let err = EmbeddedStore::open(&path).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("cannot open the embedded store {}", path.display())
    );
}

#[tokio::test]
async fn in_memory_stores_are_independent() {
    let a = EmbeddedStore::in_memory().unwrap();
    let b = EmbeddedStore::in_memory().unwrap();
    a.write(vec![WriteOp::Put {
        item: item("A", 1),
        guard: None,
    }])
    .await
    .unwrap();
    assert_eq!(b.get(&Key::new("VAULT#1", "A")).await.unwrap(), None);
    assert_eq!(
        a.clone().get(&Key::new("VAULT#1", "A")).await.unwrap(),
        Some(item("A", 1))
    );
    assert_eq!(a.location(), "memory");
}
