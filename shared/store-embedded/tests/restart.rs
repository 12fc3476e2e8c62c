//! The file store keeps its data across a close and reopen and across an
//! abrupt exit of the process that wrote it, and refuses a second concurrent
//! opener instead of corrupting the file.

mod common;

use std::collections::BTreeMap;

use common::ScratchDir;
use dochiya_store::{Item, Key, Query, SkRange, Store, Value, WriteOp};
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

/// Set only in the child process of [`kill_9_during_group_commits_loses_no_acknowledged_write`].
const GROUP_CHILD_DIR_ENV: &str = "DOCHIYA_TEST_GROUP_CHILD_DIR";
const GROUP_WRITERS: usize = 16;
/// Acknowledgements the parent reads before it sends SIGKILL (the child writes on).
const GROUP_ACKS_BEFORE_KILL: usize = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_during_group_commits_loses_no_acknowledged_write() {
    use std::io::{BufRead, Write};
    if let Some(dir) = std::env::var_os(GROUP_CHILD_DIR_ENV) {
        // Child: 16 concurrent writers, each printing a line per acknowledged write
        // with the durable commits made so far, until the parent kills the process.
        let store = EmbeddedStore::open_in_dir(&dir).unwrap();
        let writers: Vec<_> = (0..GROUP_WRITERS)
            .map(|w| {
                let store = store.clone();
                tokio::spawn(async move {
                    for n in 0i64.. {
                        let sk = format!("W{w:02}#{n:06}");
                        let bump = WriteOp::Update {
                            key: Key::new("VAULT#1", "COUNTER"),
                            set: BTreeMap::new(),
                            add: [("n".to_owned(), 1)].into_iter().collect(),
                            remove: vec![],
                            guard: None,
                        };
                        let put = WriteOp::Put {
                            item: item(&sk, n),
                            guard: None,
                        };
                        store.write(vec![bump, put]).await.unwrap();
                        let mut out = std::io::stdout().lock();
                        writeln!(out, "ack {sk} {}", store.durable_commits()).unwrap();
                        out.flush().unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.await.unwrap();
        }
        unreachable!("the writers never stop");
    }
    let dir = ScratchDir::new("group-child");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "kill_9_during_group_commits_loses_no_acknowledged_write",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(GROUP_CHILD_DIR_ENV, dir.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut acked = Vec::new();
    let mut commits = 0;
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        // libtest's own lines ("running 1 test") are not acknowledgements.
        let Some(rest) = line.strip_prefix("ack ") else {
            continue;
        };
        let (sk, made) = rest.split_once(' ').unwrap();
        acked.push(sk.to_owned());
        commits = made.parse::<u64>().unwrap();
        if acked.len() == GROUP_ACKS_BEFORE_KILL {
            break;
        }
    }
    assert_eq!(acked.len(), GROUP_ACKS_BEFORE_KILL, "the child stopped early");
    // SIGKILL while the other writers are queued or mid-commit.
    child.kill().unwrap();
    child.wait().unwrap();
    // The writes shared commits (else this would not test group commit at all).
    assert!(
        commits < acked.len() as u64,
        "{commits} commits for {} acknowledged writes",
        acked.len()
    );

    let store = EmbeddedStore::open_in_dir(dir.path()).unwrap();
    let mut items = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .query(&Query {
                pk: "VAULT#1".into(),
                range: SkRange::Prefix("W".into()),
                forward: true,
                limit: 500,
                after,
            })
            .await
            .unwrap();
        items.extend(page.items);
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => break,
        }
    }
    let stored: Vec<&str> = items.iter().map(|i| i.key.sk.as_str()).collect();
    let lost: Vec<&String> = acked
        .iter()
        .filter(|sk| stored.binary_search(&sk.as_str()).is_err())
        .collect();
    assert!(
        lost.is_empty(),
        "{} acknowledged but lost, first {:?}",
        lost.len(),
        &lost[..lost.len().min(5)]
    );
    // Each write is whole: the counter counts exactly the entries stored.
    let counter = store.get(&Key::new("VAULT#1", "COUNTER")).await.unwrap();
    assert_eq!(
        counter.map(|c| c.attrs),
        Some(
            [("n".to_owned(), Value::N(stored.len() as i64))]
                .into_iter()
                .collect()
        )
    );
}
