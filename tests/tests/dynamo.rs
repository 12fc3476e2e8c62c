//! End to end on DynamoDB: the built server with `DOCHIYA_TABLE` against the
//! local moto server that tests/run.sh starts, a small household story over
//! HTTP by two people, then the raw items read back with the SDK:
//! - no number is stored in a float-looking form;
//! - every vault partition is reachable only through a membership item in its
//!   member's own partition;
//! - idempotency records carry their TTL (`expiresAt`, epoch seconds, ~7 days out).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use crate::e2e::{Response, Server, binary_path, dynamodb_env, run};
use serde_json::{Value, json};

const PROTOCOL: (&str, &str) = ("mcp-protocol-version", "2025-06-18");
const SECRET: &str = "e2e-dynamo-dev-secret-0123456789-abcdef";

/// The local DynamoDB endpoint; fails loudly when absent: no DynamoDB test is skipped.
fn endpoint() -> String {
    std::env::var("AWS_ENDPOINT_URL_DYNAMODB").unwrap_or_else(|_| {
        panic!(
            "AWS_ENDPOINT_URL_DYNAMODB is not set: this test needs the local moto server \
             that tests/run.sh installs and starts (run tests/run.sh)"
        )
    })
}

/// Everything the binary needs to reach moto (the e2e harness passes no AWS_* through).
fn aws_env(table: &str) -> Vec<(&'static str, String)> {
    vec![
        ("DOCHIYA_TABLE", table.to_owned()),
        ("DOCHIYA_DEV_SECRET", SECRET.to_owned()),
        ("AWS_ENDPOINT_URL_DYNAMODB", endpoint()),
        ("AWS_ACCESS_KEY_ID", "test".to_owned()),
        ("AWS_SECRET_ACCESS_KEY", "test".to_owned()),
        ("AWS_REGION", "us-east-1".to_owned()),
        ("AWS_EC2_METADATA_DISABLED", "true".to_owned()),
    ]
}

fn unique_table() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("e2e-{}-{nanos}", std::process::id())
}

/// Run the binary to completion with exactly `env` (plus `args`), within a minute.
fn run_binary(args: &[&str], env: &[(&'static str, String)]) -> (bool, String, String) {
    let mut child = Command::new(binary_path())
        .args(args)
        .env_clear()
        .env("DOCHIYA_AUTH", "dev")
        .env("DOCHIYA_PORT", "0")
        .env("DOCHIYA_LOG", "warn")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn dochiya-mcp");
    let started = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().expect("wait") {
            let out = child.wait_with_output().expect("output");
            return (
                out.status.success(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("dochiya-mcp {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn mint(sub: &str, port: u16) -> String {
    let (ok, stdout, stderr) = run_binary(
        &[
            "token",
            "--sub",
            sub,
            "--scopes",
            "ledger:read ledger:write",
            "--port",
            &port.to_string(),
        ],
        &[("DOCHIYA_DEV_SECRET", SECRET.to_owned())],
    );
    assert!(ok, "token: {stderr}");
    stdout.trim().to_owned()
}

struct Person<'a> {
    server: &'a Server,
    bearer: String,
    next_id: std::cell::Cell<u64>,
}

impl Person<'_> {
    fn call(&self, tool: &str, arguments: Value) -> Response {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}});
        self.server.post_json(
            &[PROTOCOL, ("authorization", self.bearer.as_str())],
            &body.to_string(),
        )
    }

    /// A successful tool result's structured content.
    fn ok(&self, tool: &str, arguments: Value) -> Value {
        let r = self.call(tool, arguments);
        assert_eq!(r.status, 200, "{tool}: {}", String::from_utf8_lossy(&r.body));
        let body = r.json();
        assert_eq!(body["result"]["isError"], json!(false), "{tool}: {body}");
        body["result"]["structuredContent"].clone()
    }
}

fn number_text_is_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

/// A string that would read as a fractional or exponent number.
fn looks_like_float(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.trim_start_matches(['+', '-']))),
        None => (t, None),
    };
    let parts: Vec<&str> = mantissa.split('.').collect();
    let numeric = parts.len() <= 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
        && parts.iter().any(|p| !p.is_empty())
        && exponent.is_none_or(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()));
    numeric && (parts.len() == 2 || exponent.is_some())
}

/// Every number and float-looking string under an attribute, with its path.
fn check_numbers(path: &str, value: &AttributeValue, bad: &mut Vec<String>) {
    match value {
        AttributeValue::N(n) if !number_text_is_integer(n) => bad.push(format!("{path} = N {n}")),
        AttributeValue::S(s) if looks_like_float(s) => bad.push(format!("{path} = S {s}")),
        AttributeValue::Ns(_) => bad.push(format!("{path} is a number set")),
        AttributeValue::L(items) => {
            for (i, v) in items.iter().enumerate() {
                check_numbers(&format!("{path}[{i}]"), v, bad);
            }
        }
        AttributeValue::M(map) => {
            for (k, v) in map {
                check_numbers(&format!("{path}.{k}"), v, bad);
            }
        }
        _ => {}
    }
}

fn s<'a>(item: &'a HashMap<String, AttributeValue>, name: &str) -> &'a str {
    match item.get(name) {
        Some(AttributeValue::S(v)) => v,
        other => panic!("{name} is {other:?} in {item:?}"),
    }
}

#[test]
fn float_check_recognises_floats() {
    for text in ["1.5", "-0.25", "1e5", "2E-3", ".5", "5.", "1.0e+10"] {
        assert!(looks_like_float(text), "{text}");
    }
    for text in [
        "12500",
        "-7",
        "2026-03-15",
        "T#2026-03-15#1",
        "카카오뱅크",
        "e",
        ".",
        "1.2.3",
        "",
    ] {
        assert!(!looks_like_float(text), "{text}");
    }
    assert!(number_text_is_integer("-9223372036854775808"));
    assert!(
        !number_text_is_integer("1.0") && !number_text_is_integer("01") && !number_text_is_integer("1E2")
    );
}

#[test]
fn a_missing_table_is_a_clear_startup_error() {
    let table = unique_table();
    let (ok, _, stderr) = run_binary(&["serve"], &aws_env(&table));
    assert!(!ok, "the server started without its table");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(stderr.contains(&table), "{stderr}");
}

#[tokio::test]
async fn a_household_on_dynamodb_leaves_clean_items() {
    let table = unique_table();
    let env = aws_env(&table);
    let (ok, _, stderr) = run_binary(&["create-table"], &env);
    assert!(ok, "create-table: {stderr}");
    let (ok, _, stderr) = run_binary(&["create-table"], &env);
    assert!(ok, "create-table again: {stderr}");

    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server = Server::start_with(&env_refs);
    let person = |sub: &str| Person {
        server: &server,
        bearer: format!("Bearer {}", mint(sub, server.port)),
        next_id: 1.into(),
    };
    let alice = person("alice-dynamo");
    let bob = person("bob-dynamo");

    // Alice keeps a household book.
    let vault = alice.ok(
        "create_vault",
        json!({"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}),
    );
    assert_eq!(vault["name"], "우리집");
    alice.ok(
        "create_account",
        json!({"name": "카카오뱅크", "kind": "asset", "openingBalance": "500000", "openingDate": "2026-03-01"}),
    );
    alice.ok("create_account", json!({"name": "신한카드", "kind": "liability"}));
    alice.ok("create_account", json!({"name": "식비", "kind": "expense"}));
    let lunch = json!({"from": "카카오뱅크", "to": "식비", "amount": "12500", "date": "2026-03-15",
                       "memo": "점심", "idempotencyKey": "lunch-2026-03-15"});
    let first = alice.ok("record_transaction", lunch.clone());
    assert_eq!(first["replayed"], json!(false));
    let again = alice.ok("record_transaction", lunch);
    assert_eq!(
        (again["replayed"].clone(), again["transaction"].clone()),
        (json!(true), first["transaction"].clone())
    );
    alice.ok(
        "record_transaction",
        json!({"from": "신한카드", "to": "식비", "amount": 38000, "date": "2026-03-16",
                                        "memo": "장보기", "idempotencyKey": "groceries-1"}),
    );
    let snapshot = alice.ok(
        "upsert_snapshot",
        json!({"account": "카카오뱅크", "date": "2026-03-16", "balance": "487500"}),
    );
    assert_eq!(snapshot["difference"], "0");
    let accounts = alice.ok("list_accounts", json!({}));
    let balances: BTreeMap<String, String> = accounts["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .map(|a| {
            (
                a["name"].as_str().unwrap_or_default().to_owned(),
                a["balance"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(balances.get("카카오뱅크").map(String::as_str), Some("487500"));
    assert_eq!(balances.get("식비").map(String::as_str), Some("50500"));
    assert_eq!(balances.get("신한카드").map(String::as_str), Some("38000"));

    // Bob has his own book; neither sees the other's.
    bob.ok("create_vault", json!({"name": "Bob's"}));
    let names = |p: &Person| -> Vec<String> {
        p.ok("list_vaults", json!({}))["vaults"]
            .as_array()
            .expect("vaults")
            .iter()
            .map(|v| v["name"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(names(&alice), vec!["우리집"]);
    assert_eq!(names(&bob), vec!["Bob's"]);
    drop(server);

    // The raw items, as DynamoDB holds them.
    let client = dochiya_store_dynamodb::load_client().await;
    let mut items: Vec<HashMap<String, AttributeValue>> = Vec::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(&table)
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .expect("scan");
        items.extend(page.items().iter().cloned());
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            break;
        }
    }
    assert!(items.len() > 10, "only {} items", items.len());

    let mut bad = Vec::new();
    for item in &items {
        let at = format!("{}/{}", s(item, "PK"), s(item, "SK"));
        for (name, value) in item {
            check_numbers(&format!("{at}.{name}"), value, &mut bad);
        }
    }
    assert!(bad.is_empty(), "float-looking numbers: {bad:?}");

    // Vault partitions, and the memberships that lead to them.
    let vault_partitions: BTreeSet<&str> = items
        .iter()
        .map(|i| s(i, "PK"))
        .filter(|pk| pk.starts_with("V#"))
        .collect();
    let memberships: Vec<(&str, String)> = items
        .iter()
        .filter(|i| s(i, "PK").starts_with("P#") && s(i, "SK").starts_with("M#"))
        .map(|i| (s(i, "PK"), format!("V#{}", &s(i, "SK")[2..])))
        .collect();
    assert_eq!(vault_partitions.len(), 2, "{vault_partitions:?}");
    let reachable: BTreeSet<&str> = memberships.iter().map(|(_, v)| v.as_str()).collect();
    assert_eq!(
        reachable, vault_partitions,
        "every vault partition has a membership, and no membership dangles"
    );
    let mut members: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (person, vault) in &memberships {
        members.entry(vault.as_str()).or_default().push(person);
    }
    let owners: BTreeSet<Vec<&str>> = members.values().cloned().collect();
    assert_eq!(
        owners,
        BTreeSet::from([vec!["P#alice-dynamo"], vec!["P#bob-dynamo"]]),
        "each vault is reachable from exactly its creator's partition"
    );

    // Idempotency records: two (the replay wrote nothing), each with a TTL about 7 days out.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let records: Vec<&HashMap<String, AttributeValue>> =
        items.iter().filter(|i| s(i, "SK").starts_with("IK#")).collect();
    assert_eq!(records.len(), 2, "{records:?}");
    for record in records {
        assert_eq!(s(record, "PK"), "P#alice-dynamo");
        let Some(AttributeValue::N(expires)) = record.get("expiresAt") else {
            panic!("idempotency record without a numeric expiresAt: {record:?}")
        };
        let expires: u64 = expires.parse().expect("epoch seconds");
        let days = expires.saturating_sub(now) / 86_400;
        assert!(
            (6..=7).contains(&days),
            "expiresAt {expires} is {days} days after now ({now})"
        );
    }
}

// ---- the binary's DynamoDB subcommand and start-up check ----

fn list_vaults(s: &Server, bearer: &str) -> (u16, serde_json::Value) {
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25"), ("authorization", bearer)],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_vaults","arguments":{}}}"#,
    );
    let body = if r.body.is_empty() {
        serde_json::Value::Null
    } else {
        r.json()
    };
    (r.status, body)
}

#[test]
fn create_table_then_serve_tools_from_dynamodb() {
    let aws = dynamodb_env();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let table = format!("e2e-app-{}-{nanos}", std::process::id());
    let mut env: Vec<(&str, &str)> = aws.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.push(("DOCHIYA_TABLE", &table));
    let first = run(&["create-table"], &env);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&first.stdout).trim(),
        format!("table {table}: Created")
    );
    let again = run(&["create-table"], &env);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        format!("table {table}: AlreadyExists")
    );

    let s = Server::start_with(&env);
    let bearer = s.bearer();
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25"), ("authorization", &bearer)],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_vault","arguments":{"name":"우리집"}}}"#,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["structuredContent"]["created"], true);
    let (status, body) = list_vaults(&s, &bearer);
    assert_eq!(status, 200);
    assert_eq!(body["result"]["structuredContent"]["vaults"][0]["name"], "우리집");
    // Nothing went to the embedded store.
    assert!(!s.data_dir().join("dochiya.redb").exists());
}

#[test]
fn serving_a_missing_table_fails_at_start_with_a_reason() {
    let aws = dynamodb_env();
    let mut env: Vec<(&str, &str)> = aws.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let data_dir = std::env::temp_dir().join(format!("dochiya-e2e-missing-table-{}", std::process::id()));
    let data_dir = data_dir.to_string_lossy().into_owned();
    env.push(("DOCHIYA_TABLE", "e2e-no-such-table"));
    env.push(("DOCHIYA_PORT", "0"));
    env.push(("DOCHIYA_DATA_DIR", &data_dir));
    let out = run(&[], &env);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("dochiya-mcp: store: "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- sharing: two server processes over one table ----

/// Two instances (separate processes, each with its own roster cache) serve one
/// table. Both have served the partner (warm caches) when the owner removes them on
/// one instance; the partner's very next call is refused on both.
#[test]
fn a_removed_member_is_refused_at_once_on_two_instances() {
    let table = unique_table();
    let env = aws_env(&table);
    let (ok, _, stderr) = run_binary(&["create-table"], &env);
    assert!(ok, "create-table: {stderr}");
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let one = Server::start_with(&env_refs);
    let two = Server::start_with(&env_refs);
    fn on<'s>(server: &'s Server, sub: &str) -> Person<'s> {
        Person {
            server,
            bearer: format!("Bearer {}", mint(sub, server.port)),
            next_id: 1.into(),
        }
    }
    let (one, two) = (&one, &two);
    let owner = on(one, "two-instances-owner");
    let partner_one = on(one, "two-instances-partner");
    let partner_two = on(two, "two-instances-partner");
    let stranger = on(two, "two-instances-stranger");

    owner.ok("create_vault", json!({"name": "우리집"}));
    owner.ok("create_account", json!({"name": "카카오뱅크", "kind": "asset"}));
    owner.ok("create_account", json!({"name": "식비", "kind": "expense"}));
    let invite = owner.ok("share_vault", json!({}));
    let joined = partner_two.ok("join_vault", json!({"inviteCode": invite["inviteCode"]}));
    assert_eq!(joined["vault"]["name"], "우리집");

    // A non-member sees nothing, even on the instance that served the join.
    let none = stranger.ok("list_vaults", json!({}));
    assert_eq!(none["vaults"], json!([]));

    // Warm the partner's roster on both instances (a read and a write each).
    for (i, p) in [&partner_one, &partner_two].into_iter().enumerate() {
        p.ok("list_accounts", json!({}));
        p.ok(
            "record_transaction",
            // Amounts apart: the same accounts and amount within minutes would be a probable duplicate.
            json!({"from": "카카오뱅크", "to": "식비", "amount": format!("{}", 1000 + i), "memo": format!("warm {i}"), "idempotencyKey": format!("warm-{i}")}),
        );
    }
    let vaults = owner.ok("list_vaults", json!({}));
    let partner_name = vaults["vaults"][0]["members"][1]["name"].clone();
    owner.ok("remove_member", json!({"member": partner_name}));

    for p in [&partner_two, &partner_one] {
        let read = p.call("list_accounts", json!({})).json();
        assert_eq!(read["result"]["isError"], json!(true), "{read}");
        let text = read["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        // Never "create a vault": a model told so would start a new, empty book.
        assert!(
            text.starts_with("Your access to vault \"우리집\" ended on "),
            "{text}"
        );
        let write = p
            .call(
                "record_transaction",
                json!({"from": "카카오뱅크", "to": "식비", "amount": "1000", "memo": "after", "idempotencyKey": "after"}),
            )
            .json();
        assert_eq!(write["result"]["isError"], json!(true), "{write}");
    }
    // The owner's book holds the two warm-up entries and nothing from after the removal.
    let listed = owner.ok("list_transactions", json!({}));
    let memos: Vec<&str> = listed["transactions"]
        .as_array()
        .map(|t| t.iter().filter_map(|x| x["memo"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(memos.len(), 2, "{memos:?}");
    assert!(!memos.contains(&"after"));
}
