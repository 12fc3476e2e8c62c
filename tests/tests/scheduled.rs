//! The scheduled run of recurring entries (decision 036), driven from outside on
//! vaults nobody opened: the books are set up in process with a clock in the past,
//! then the built binary posts what is due as of a given time.
//! - `dochiya-mcp post-due --at` on the embedded store;
//! - the Lambda function (`_HANDLER=post-due`) under a stand-in Lambda runtime API on
//!   127.0.0.1, invoked with the payload the EventBridge Scheduler schedule sends,
//!   against DynamoDB on moto (`moto` feature);
//! - the local server's timer, and the timer loop itself on a settable clock.
//!
//! Each book: a rent on the 15th from 2026-03-01 and a fee on the 20th from 2026-05-01,
//! in two vaults. As of 2026-05-16T00:00Z the rent's 03-15, 04-15 and 05-15 are due,
//! each on its date; the fee's 05-20 is not.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use dochiya_domain::{AccountKind, Decimal, LocalDate, ManualClock, PersonId, VaultId};
use dochiya_ledger::api::{NewAccount, NewVault, RecurringInput, TransactionQuery};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_store::{Query, SkRange, Store};
use serde_json::{Value, json};

/// 2026-03-01T03:00:00Z: noon in Seoul, when the books are set up.
const SETUP: i64 = 1_772_334_000;
/// What the schedule sends for the run of 2026-05-16T00:00Z (09:00 in Seoul).
const EVENT: &str =
    r#"{"scheduledTime":"2026-05-16T00:00:00Z","executionId":"d32c5kddcf5bb8c3","attempt":"1"}"#;

fn d(s: &str) -> Decimal {
    Decimal::parse(s).expect("an amount")
}

/// A vault with a schedule: `name` of `amount` on `day`, from `start`.
async fn book(l: &Ledger, who: &PersonId, name: &str, day: i64, start: &str) -> VaultId {
    let vault = Box::pin(l.create_vault(
        who,
        NewVault {
            name: "가계부".into(),
            currency: None,
            time_zone: None,
        },
    ))
    .await
    .expect("create_vault")
    .vault_id;
    for (account, kind, opening) in [
        ("카카오뱅크", AccountKind::Asset, Some(d("10000000"))),
        ("주거비", AccountKind::Expense, None),
    ] {
        Box::pin(l.create_account(
            who,
            NewAccount {
                vault: None,
                name: account.into(),
                kind,
                opening_balance: opening,
                opening_date: None,
                parent: None,
                billing: None,
                owner: None,
            },
        ))
        .await
        .expect("create_account");
    }
    Box::pin(l.set_recurring(
        who,
        RecurringInput {
            name: name.into(),
            from: Some("카카오뱅크".into()),
            to: Some("주거비".into()),
            amount: Some(d("500000")),
            day: Some(day),
            start: Some(LocalDate::parse(start).expect("a date")),
            ..Default::default()
        },
    ))
    .await
    .expect("set_recurring");
    vault
}

fn person(tag: &str) -> PersonId {
    PersonId::new(format!("scheduled-{tag}-{}", std::process::id())).expect("a subject")
}

/// The two books, set up on 2026-03-01 (nothing due yet).
async fn set_up(store: Arc<dyn Store>) -> (PersonId, PersonId) {
    let l = Ledger::new(
        store,
        Arc::new(ManualClock::at_unix_seconds(SETUP)),
        LedgerConfig::default(),
    );
    let (rent, fee) = (person("rent"), person("fee"));
    book(&l, &rent, "월세", 15, "2026-03-01").await;
    book(&l, &fee, "관리비", 20, "2026-05-01").await;
    (rent, fee)
}

/// (date, schedule) of every entry in `who`'s vault, read as of 2026-05-16 09:00 in
/// Seoul (nothing is due then, so the read posts nothing itself).
async fn entries(store: Arc<dyn Store>, who: &PersonId) -> Vec<(String, Option<String>)> {
    let l = Ledger::new(
        store,
        Arc::new(ManualClock::at_unix_seconds(1_778_889_600)),
        LedgerConfig::default(),
    );
    let page = Box::pin(l.list_transactions(
        who,
        TransactionQuery {
            limit: Some(200),
            ..Default::default()
        },
    ))
    .await
    .expect("list_transactions");
    let mut out: Vec<_> = page
        .transactions
        .into_iter()
        .filter(|t| t.recurring.is_some())
        .map(|t| (t.date.to_string(), t.recurring))
        .collect();
    out.sort();
    out
}

fn rent_rows() -> Vec<(String, Option<String>)> {
    ["2026-03-15", "2026-04-15", "2026-05-15"]
        .iter()
        .map(|d| ((*d).to_owned(), Some("월세".to_owned())))
        .collect()
}

fn summary(posted: usize, vaults: usize) -> Value {
    json!({
        "asOf": "2026-05-16T00:00:00Z", "posted": posted, "replayed": 0, "vaults": vaults, "more": false,
        "failed": 0, "deferred": 0, "stuck": 0,
    })
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dochiya-scheduled-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_due_subcommand_posts_what_was_due_at_the_given_time() {
    let dir = temp_dir("cli");
    let open = || dochiya_store_embedded::EmbeddedStore::open_in_dir(&dir).expect("open the store");
    let (rent, fee) = set_up(Arc::new(open())).await;
    let dir_text = dir.to_string_lossy().into_owned();
    let env = [("DOCHIYA_DATA_DIR", dir_text.as_str())];
    let at = ["post-due", "--at", "2026-05-16T00:00:00Z"];
    for expected in [summary(3, 1), summary(0, 0)] {
        let out = crate::e2e::run(&at, &env);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(serde_json::from_str::<Value>(stdout.trim()).ok(), Some(expected));
    }
    let store: Arc<dyn Store> = Arc::new(open());
    assert_eq!(entries(Arc::clone(&store), &rent).await, rent_rows());
    assert_eq!(entries(store, &fee).await, vec![]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 50: one vault that fails (a schedule item nobody can read) among thirteen due:
/// `post-due` posts every other vault's rent, counts the failure and logs it with the
/// vault's id, and exits 0; the run an hour later leaves the failing vault alone
/// (backed off for 2 hours) and still exits 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn post_due_goes_on_past_a_failing_vault_and_exits_zero() {
    let dir = temp_dir("failing");
    let open = || dochiya_store_embedded::EmbeddedStore::open_in_dir(&dir).expect("open the store");
    let (people, bad) = {
        let store: Arc<dyn Store> = Arc::new(open());
        let l = Ledger::new(
            Arc::clone(&store),
            Arc::new(ManualClock::at_unix_seconds(SETUP)),
            LedgerConfig::default(),
        );
        let mut people = Vec::new();
        for i in 0..12 {
            let who = person(&format!("household-{i}"));
            book(&l, &who, "월세", 15, "2026-03-01").await;
            people.push(who);
        }
        let bad = book(&l, &person("unreadable"), "월세", 15, "2026-03-01").await;
        let unreadable = dochiya_store::Item {
            key: dochiya_store::Key::new(format!("V#{bad}"), "RC#깨짐"),
            attrs: [("name".to_owned(), dochiya_store::Value::S("깨짐".into()))].into(),
        };
        store
            .write(vec![dochiya_store::WriteOp::Put {
                item: unreadable,
                guard: None,
            }])
            .await
            .expect("put");
        (people, bad)
    };
    let dir_text = dir.to_string_lossy().into_owned();
    let env = [("DOCHIYA_DATA_DIR", dir_text.as_str())];
    let runs = [
        ("2026-05-16T00:00:00Z", (36, 13, 1, 0)),
        ("2026-05-16T01:00:00Z", (0, 0, 0, 1)),
    ];
    for (at, (posted, vaults, failed, deferred)) in runs {
        let out = crate::e2e::run(&["post-due", "--at", at], &env);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{stdout} {stderr}");
        let expected = json!({
            "asOf": at, "posted": posted, "replayed": 0, "vaults": vaults, "more": false,
            "failed": failed, "deferred": deferred, "stuck": 0,
        });
        assert_eq!(
            serde_json::from_str::<Value>(stdout.trim()).ok(),
            Some(expected),
            "{stderr}"
        );
        // The failure is logged with the vault's id (the warning names it).
        assert_eq!(stderr.contains(&bad.to_string()), failed == 1, "{stderr}");
    }
    let store: Arc<dyn Store> = Arc::new(open());
    for who in &people {
        assert_eq!(entries(Arc::clone(&store), who).await, rent_rows());
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The schedule's own vault entries (`T#` items), straight from the store: no ledger
/// read (which would post by itself).
async fn stored_dates(store: &dyn Store, vault: VaultId) -> Vec<String> {
    let page = store
        .query(&Query {
            pk: format!("V#{vault}"),
            range: SkRange::Prefix("T#".into()),
            forward: true,
            limit: 100,
            after: None,
        })
        .await
        .expect("query");
    page.items
        .iter()
        .filter_map(|i| i.key.sk.strip_prefix("T#").map(|s| s[..10].to_owned()))
        .collect()
}

/// The local server's timer over a settable clock: a vault nobody reads gets its entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_timer_posts_in_a_vault_nobody_reads() {
    let store: Arc<dyn Store> = Arc::new(dochiya_store_embedded::EmbeddedStore::in_memory().expect("store"));
    // 2026-03-14, noon in Seoul: the rent of the 15th is set up, nothing is due.
    let clock = Arc::new(ManualClock::at_unix_seconds(1_773_457_200));
    let l = Arc::new(Ledger::new(
        Arc::clone(&store),
        clock.clone(),
        LedgerConfig::default(),
    ));
    let who = person("timer");
    let vault = book(&l, &who, "월세", 15, "2026-03-14").await;
    let timer = tokio::spawn(dochiya_app::scheduled::post_periodically(
        Arc::clone(&l),
        Duration::from_millis(20),
        100,
    ));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Opening balance only (its own T# item): nothing posted before the date.
    assert_eq!(stored_dates(store.as_ref(), vault).await, ["2026-03-14"]);
    clock.advance_seconds(24 * 3600);
    let mut dates = Vec::new();
    for _ in 0..250 {
        dates = stored_dates(store.as_ref(), vault).await;
        if dates.len() > 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Later ticks post nothing more.
    tokio::time::sleep(Duration::from_millis(200)).await;
    timer.abort();
    assert_eq!(dates, ["2026-03-14", "2026-03-15"]);
    assert_eq!(stored_dates(store.as_ref(), vault).await, dates);
}

/// The built server runs the same posting on its timer: a book due since 2026-03-15
/// (nobody has called the server) has its rent posted at start-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_server_posts_on_its_timer() {
    let dir = temp_dir("serve");
    let open = || dochiya_store_embedded::EmbeddedStore::open_in_dir(&dir).expect("open the store");
    let who = person("serve");
    let vault = {
        let l = Ledger::new(
            Arc::new(open()),
            Arc::new(ManualClock::at_unix_seconds(SETUP)),
            LedgerConfig::default(),
        );
        book(&l, &who, "월세", 15, "2026-03-01").await
    };
    let mut child = Command::new(crate::e2e::binary_path())
        .env_clear()
        .env("DOCHIYA_DATA_DIR", &dir)
        .env("DOCHIYA_PORT", "0")
        .env("DOCHIYA_AUTH", "dev")
        .env("DOCHIYA_LOG", "info")
        .env("DOCHIYA_POST_DUE_EVERY_SECS", "3600")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn dochiya-mcp");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let run_line = loop {
        match received.recv_timeout(Duration::from_secs(60)) {
            // Without the terminal colours the log may carry.
            Ok(line) if line.contains("recurring: scheduled run") => {
                let mut parts = line.split('\x1b');
                let first = parts.next().unwrap_or_default().to_owned();
                break parts.fold(first, |text, part| {
                    text + part.split_once('m').map_or(part, |(_, rest)| rest)
                });
            }
            Ok(_) => {}
            Err(e) => {
                let _ = child.kill();
                panic!("no scheduled run logged: {e}");
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    // The 15ths from 2026-03-15 through today in Seoul, at most 13 in one run.
    let today = dochiya_domain::VaultZone::seoul()
        .date_at(dochiya_domain::Clock::now(&dochiya_domain::SystemClock))
        .to_string();
    let (y, m, day): (i64, i64, i64) = (
        today[..4].parse().unwrap_or(0),
        today[5..7].parse().unwrap_or(0),
        today[8..10].parse().unwrap_or(0),
    );
    let due = ((y - 2026) * 12 + m - 3 + i64::from(day >= 15)).min(13);
    assert!(run_line.contains(&format!("posted={due} ")), "{run_line}");
    let store = open();
    let dates = stored_dates(&store, vault).await;
    assert_eq!(dates.len() as i64, 1 + due, "{dates:?}");
    assert_eq!(dates.get(1).map(String::as_str), Some("2026-03-15"));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- Lambda on moto

dochiya_testkit::moto_only! {
mod lambda {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    /// A stand-in for the Lambda runtime API on 127.0.0.1: hands out `events` in turn
    /// (then holds the next poll), and sends back what the function answered for each:
    /// `Ok(body)` from `/response`, `Err(body)` from `/error`.
    fn runtime_api(events: Vec<String>) -> (u16, mpsc::Receiver<Result<Value, Value>>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let (answers, received) = mpsc::channel();
        let events = Arc::new(std::sync::Mutex::new(events.into_iter().enumerate()));
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (events, answers) = (Arc::clone(&events), answers.clone());
                std::thread::spawn(move || serve_runtime(stream, &events, &answers));
            }
        });
        (port, received)
    }

    type Events = std::sync::Mutex<std::iter::Enumerate<std::vec::IntoIter<String>>>;

    /// One keep-alive connection of the runtime client.
    fn serve_runtime(
        stream: std::net::TcpStream,
        events: &Events,
        answers: &mpsc::Sender<Result<Value, Value>>,
    ) {
        let mut writer = stream.try_clone().expect("clone");
        let mut reader = BufReader::new(stream);
        loop {
            let mut request = String::new();
            if reader.read_line(&mut request).unwrap_or(0) == 0 {
                return;
            }
            let mut length = 0;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                if header.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
            if path.ends_with("/invocation/next") {
                let next = events.lock().map(|mut e| e.next()).unwrap_or(None);
                let Some((i, event)) = next else {
                    std::thread::sleep(Duration::from_secs(600)); // no more: hold the poll
                    return;
                };
                let deadline = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis() + 60_000)
                    .unwrap_or(0);
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nlambda-runtime-aws-request-id: req-{i}\r\n\
                 lambda-runtime-deadline-ms: {deadline}\r\n\
                 lambda-runtime-invoked-function-arn: arn:aws:lambda:us-east-1:123456789012:function:post-due\r\n\
                 lambda-runtime-trace-id: Root=1-00000000-000000000000000000000000\r\ncontent-length: {}\r\n\r\n",
                    event.len()
                );
                let _ = writer.write_all(head.as_bytes());
                let _ = writer.write_all(event.as_bytes());
            } else {
                let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let _ = answers.send(if path.ends_with("/error") {
                    Err(value)
                } else {
                    Ok(value)
                });
                let _ = writer
                    .write_all(b"HTTP/1.1 202 Accepted\r\ncontent-length: 16\r\n\r\n{\"status\":\"OK\"}\n");
            }
            let _ = writer.flush();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_scheduled_function_posts_only_what_is_due_on_dynamodb() {
        let table = format!("e2e-scheduled-{}", std::process::id());
        let env = crate::e2e::dynamodb_env();
        let client = dochiya_store_dynamodb::load_client().await;
        dochiya_store_dynamodb::create_table(&client, &table)
            .await
            .expect("create the table");
        let store: Arc<dyn Store> = Arc::new(dochiya_store_dynamodb::DynamoStore::new(client, table.clone()));
        let (rent, fee) = set_up(Arc::clone(&store)).await;
        // The schedule's event twice (the second an overlap or a retry), then one it never sends.
        let (port, answers) = runtime_api(vec![EVENT.into(), EVENT.into(), "{}".into()]);
        let mut child = Command::new(crate::e2e::binary_path())
            .env_clear()
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .env("DOCHIYA_TABLE", &table)
            .env("DOCHIYA_LOG", "warn")
            .env("_HANDLER", "post-due")
            .env("AWS_LAMBDA_RUNTIME_API", format!("127.0.0.1:{port}"))
            .env("AWS_LAMBDA_FUNCTION_NAME", "post-due")
            .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
            .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
            .env("AWS_LAMBDA_LOG_STREAM_NAME", "test")
            .env("AWS_LAMBDA_LOG_GROUP_NAME", "test")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn dochiya-mcp");
        let mut got = Vec::new();
        for _ in 0..3 {
            match answers.recv_timeout(Duration::from_secs(60)) {
                Ok(answer) => got.push(answer),
                Err(e) => {
                    let _ = child.kill();
                    panic!("no answer from the function: {e}; so far {got:?}");
                }
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(got[0], Ok(summary(3, 1)));
        assert_eq!(got[1], Ok(summary(0, 0)));
        let refused = got[2].clone().err().unwrap_or_default();
        assert_eq!(
            refused["errorMessage"],
            "the event has no scheduledTime; send {\"scheduledTime\": \"<aws.scheduler.scheduled-time>\"} as the schedule's input"
        );
        assert_eq!(entries(Arc::clone(&store), &rent).await, rent_rows());
        assert_eq!(entries(store, &fee).await, vec![]);
    }
}
}
