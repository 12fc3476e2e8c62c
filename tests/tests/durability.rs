//! kill -9 under concurrent writes loses no acknowledged write: the built server on its
//! file store, 16 connections of `record_transaction` (so writes share group commits),
//! SIGKILL mid-stream, a restart on the same data directory, and every acknowledged entry
//! is there, replays as itself, and the balances add up to exactly the stored entries.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::e2e::{Server, send};
use serde_json::{Value, json};

const PROTOCOL: (&str, &str) = ("mcp-protocol-version", "2025-06-18");
const WRITERS: u64 = 16;
/// Acknowledged writes to wait for before the kill (the writers keep going meanwhile).
const ACKS_BEFORE_KILL: usize = 240;

fn body(id: u64, tool: &str, arguments: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

/// A tool call that must succeed; its structured content.
fn ok(server: &Server, tool: &str, arguments: Value) -> Value {
    let bearer = server.bearer();
    let r = server.post_json(
        &[PROTOCOL, ("authorization", &bearer)],
        &body(1, tool, &arguments),
    );
    assert_eq!(r.status, 200, "{tool}: {}", String::from_utf8_lossy(&r.body));
    let answer = r.json();
    assert_eq!(answer["result"]["isError"], json!(false), "{tool}: {answer}");
    answer["result"]["structuredContent"].clone()
}

fn entry(writer: u64, n: u64) -> Value {
    json!({"from": "현금", "to": "식비", "amount": (writer * 100_000 + n + 1).to_string(),
           "date": "2026-11-02", "memo": format!("w{writer}-{n}"),
           "idempotencyKey": format!("crash-{writer}-{n}"), "allowDuplicate": true})
}

/// What a writer got back for one entry: its arguments and the id the server gave it.
struct Ack {
    arguments: Value,
    transaction_id: String,
}

#[test]
fn kill_9_under_concurrent_writes_loses_no_acknowledged_write() {
    let server = Server::start();
    ok(
        &server,
        "create_vault",
        json!({"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}),
    );
    ok(
        &server,
        "create_account",
        json!({"name": "현금", "kind": "asset"}),
    );
    ok(
        &server,
        "create_account",
        json!({"name": "식비", "kind": "expense"}),
    );

    let acks: Arc<Mutex<Vec<Ack>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let (port, bearer) = (server.port, server.bearer());
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let (acks, stop, bearer) = (Arc::clone(&acks), Arc::clone(&stop), bearer.clone());
            std::thread::spawn(move || {
                let headers = [
                    ("content-type", "application/json"),
                    PROTOCOL,
                    ("authorization", bearer.as_str()),
                ];
                for n in 0.. {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let arguments = entry(w, n);
                    let request = body(n, "record_transaction", &arguments);
                    // After the kill a request fails to connect or is cut off: not acknowledged.
                    let Ok(r) = send(port, "POST", "/mcp", &headers, request.as_bytes()) else {
                        return;
                    };
                    // A reply cut off by the kill is no acknowledgement either.
                    let Ok(answer) = serde_json::from_slice::<Value>(&r.body) else {
                        return;
                    };
                    assert_eq!(r.status, 200, "{answer}");
                    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
                    let result = &answer["result"]["structuredContent"];
                    assert_eq!(result["replayed"], json!(false), "{answer}");
                    let transaction_id = result["transaction"]["transactionId"]
                        .as_str()
                        .expect("transactionId")
                        .to_owned();
                    acks.lock().unwrap().push(Ack {
                        arguments,
                        transaction_id,
                    });
                }
            })
        })
        .collect();

    let started = Instant::now();
    while acks.lock().unwrap().len() < ACKS_BEFORE_KILL {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "only {} writes acknowledged in 120 s",
            acks.lock().unwrap().len()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Writers are mid-request here: the kill lands inside commits, not between them.
    let data_dir = server.kill_keeping_data();
    stop.store(true, Ordering::Relaxed);
    for writer in writers {
        writer.join().expect("a writer failed");
    }
    let acks = std::mem::take(&mut *acks.lock().unwrap());
    assert!(acks.len() >= ACKS_BEFORE_KILL, "{} acknowledged", acks.len());

    let server = Server::start_in(data_dir, &[]);
    // Every stored entry, read back page by page.
    let mut stored: BTreeMap<String, String> = BTreeMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut arguments = json!({"account": "식비", "limit": 200});
        if let Some(c) = &cursor {
            arguments["cursor"] = json!(c);
        }
        let page = ok(&server, "list_transactions", arguments);
        for t in page["transactions"].as_array().expect("transactions") {
            let id = t["transactionId"].as_str().expect("id").to_owned();
            let amount = t["postings"]
                .as_array()
                .and_then(|ps| ps.iter().find(|p| p["account"] == "식비"))
                .and_then(|p| p["amount"].as_str())
                .unwrap_or_else(|| panic!("no 식비 posting in {t}"))
                .to_owned();
            assert_eq!(stored.insert(id.clone(), amount), None, "{id} listed twice");
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let missing: Vec<&str> = acks
        .iter()
        .map(|a| a.transaction_id.as_str())
        .filter(|id| !stored.contains_key(*id))
        .collect();
    assert_eq!(missing, Vec::<&str>::new(), "acknowledged but lost after kill -9");
    // At most the requests in flight at the kill were stored without an answer.
    assert!(
        stored.len() <= acks.len() + WRITERS as usize,
        "{} stored, {} acknowledged",
        stored.len(),
        acks.len()
    );

    // The rollups agree with the entries exactly: no half-applied write survived.
    let total: i64 = stored.values().map(|a| a.parse::<i64>().expect("amount")).sum();
    let accounts = ok(&server, "list_accounts", json!({}));
    let balance = |name: &str| -> String {
        accounts["accounts"]
            .as_array()
            .expect("accounts")
            .iter()
            .find(|a| a["name"] == name)
            .and_then(|a| a["balance"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        (balance("식비"), balance("현금")),
        (total.to_string(), format!("-{total}"))
    );

    // Each acknowledged write replays as itself: its idempotency record survived too.
    for ack in &acks {
        let again = ok(&server, "record_transaction", ack.arguments.clone());
        assert_eq!(
            (&again["replayed"], again["transaction"]["transactionId"].as_str()),
            (&json!(true), Some(ack.transaction_id.as_str())),
            "{}",
            ack.arguments
        );
    }
}
