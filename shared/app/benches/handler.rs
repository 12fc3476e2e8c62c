//! Handler path without network: `Server::handle` on the embedded store in memory,
//! with a real dev HS256 token, against the floor of the JSON work alone.
//!
//! Three 2026-07-28 requests (per-request `_meta` plus the mirror headers):
//! `tools/list`, `tools/call list_accounts`, and `tools/call record_transaction`
//! with a fresh `idempotencyKey` per iteration, so every iteration really writes.
//! The floor for each is serde_json parsing the same request body into a `Value`
//! and serialising the same response (as a `Value`) back to bytes: work any JSON
//! server must do for that exchange. The store is the embedded one (redb in
//! memory: the real storage code, commits included). docs/design.md §10 budgets the
//! handler's CPU "excluding storage", so after criterion's report a plain loop
//! of the same requests times the store calls apart (a wrapper around the
//! store; the embedded store answers on the calling thread, so the time inside
//! a call is its CPU) and prints handler time, storage share, and handler
//! without storage / floor per request.
//!
//! Run: `cargo bench -p dochiya-app --bench handler` (see docs/benchmarks.md).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use criterion::{BatchSize, Criterion};
use dochiya_auth::{BearerAuthenticator, DevSecret, DevTokenIssuer};
use dochiya_domain::SystemClock;
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_protocol::{Server, ServerConfig};
use dochiya_store::{Item, Key, Page, Query, Store, StoreError, WriteOp};
use dochiya_store_embedded::EmbeddedStore;
use http::Request;
use serde_json::Value;
use tokio::runtime::Runtime;

/// The resource URL the dev token is minted for (the local default).
const RESOURCE: &str = "http://127.0.0.1:8080/mcp";
const VERSION: &str = "2026-07-28";
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// The server under test, its runtime and a token with both scopes.
struct Bench {
    rt: Runtime,
    server: Arc<Server>,
    token: String,
}

impl Bench {
    fn new(store: Arc<dyn Store>) -> Bench {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio runtime");
        let ledger = Ledger::new(store, Arc::new(SystemClock), LedgerConfig::default());
        let secret = DevSecret::new("bench-dev-secret-0123456789abcdef-0123").expect("dev secret");
        let auth =
            BearerAuthenticator::dev(RESOURCE, &[], &secret, Duration::from_secs(30)).expect("dev auth");
        let token = DevTokenIssuer::new(&secret, RESOURCE)
            .expect("issuer")
            .mint(
                "bench",
                &["ledger:read", "ledger:write"],
                Duration::from_secs(3600),
            )
            .expect("token");
        let config = ServerConfig {
            instructions: dochiya_tools::INSTRUCTIONS.to_owned(),
            ..ServerConfig::default()
        };
        let server =
            Server::new(config, dochiya_tools::all(Arc::new(ledger)), Arc::new(auth)).expect("server");
        Bench {
            rt,
            server: Arc::new(server),
            token,
        }
    }

    /// A 2026-07-28 request as a stateless client sends it.
    fn request(&self, method: &str, tool: Option<&str>, body: String) -> Request<Bytes> {
        let mut builder = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", VERSION)
            .header("mcp-method", method)
            .header("authorization", format!("Bearer {}", self.token));
        if let Some(tool) = tool {
            builder = builder.header("mcp-name", tool);
        }
        builder.body(Bytes::from(body)).expect("request")
    }

    /// Send one request; returns the response body, which must be a JSON-RPC result.
    fn send(&self, request: Request<Bytes>) -> Bytes {
        let response = self.rt.block_on(self.server.handle(request));
        assert_eq!(response.status().as_u16(), 200, "{:?}", response.body());
        let body = response.into_body();
        let json: Value = serde_json::from_slice(&body).expect("JSON body");
        assert!(
            json["result"].is_object() && json["result"]["isError"] != Value::Bool(true),
            "not a success: {json}"
        );
        body
    }
}

fn tools_list_body() -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#)
}

fn call_body(tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
    )
}

fn record_args(n: u64) -> String {
    // allowDuplicate: the same payment every iteration is on purpose, not a duplicate.
    format!(
        r#"{{"from":"카카오뱅크","to":"식비","amount":"12000","memo":"점심","idempotencyKey":"bench-{n}","allowDuplicate":true}}"#
    )
}

/// One exchange: how to build its request, and a captured request/response pair for the floor.
struct Case {
    id: &'static str,
    method: &'static str,
    tool: Option<&'static str>,
    body: fn(u64) -> String,
}

const CASES: [Case; 3] = [
    Case {
        id: "tools_list",
        method: "tools/list",
        tool: None,
        body: |_| tools_list_body(),
    },
    Case {
        id: "list_accounts",
        method: "tools/call",
        tool: Some("list_accounts"),
        body: |_| call_body("list_accounts", "{}"),
    },
    Case {
        id: "record_transaction",
        method: "tools/call",
        tool: Some("record_transaction"),
        body: |n| call_body("record_transaction", &record_args(n)),
    },
];

/// A server over `store` with a household to work on: one vault, an asset and an expense account.
fn with_household(store: Arc<dyn Store>) -> Bench {
    let bench = Bench::new(store);
    for (tool, args) in [
        ("create_vault", r#"{"name":"우리집"}"#),
        (
            "create_account",
            r#"{"name":"카카오뱅크","kind":"asset","openingBalance":"1000000"}"#,
        ),
        ("create_account", r#"{"name":"식비","kind":"expense"}"#),
    ] {
        bench.send(bench.request("tools/call", Some(tool), call_body(tool, args)));
    }
    bench
}

fn main() {
    let timed = Arc::new(TimedStore {
        inner: EmbeddedStore::in_memory().expect("in-memory store"),
        nanos: AtomicU64::new(0),
    });
    let bench = with_household(timed.clone());

    let out_dir = criterion_dir();
    let mut c = Criterion::default()
        .output_directory(&out_dir)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let counter = AtomicU64::new(0);
    for case in &CASES {
        let mut group = c.benchmark_group(case.id);
        group.bench_function("handler", |b| {
            b.iter_batched(
                || {
                    let n = counter.fetch_add(1, Ordering::Relaxed);
                    bench.request(case.method, case.tool, (case.body)(n))
                },
                |request| bench.rt.block_on(bench.server.handle(request)),
                BatchSize::SmallInput,
            );
        });

        // The floor over the very bytes this exchange moves.
        let request_body = Bytes::from((case.body)(counter.fetch_add(1, Ordering::Relaxed)));
        let response_body = bench.send(bench.request(
            case.method,
            case.tool,
            String::from_utf8_lossy(&request_body).into_owned(),
        ));
        let response: Value = serde_json::from_slice(&response_body).expect("response JSON");
        group.bench_function("json_floor", |b| {
            b.iter(|| {
                let parsed: Value =
                    serde_json::from_slice(std::hint::black_box(&request_body)).expect("parse");
                let bytes = serde_json::to_vec(std::hint::black_box(&response)).expect("serialize");
                (parsed, bytes)
            });
        });
        group.finish();
        println!(
            "{}: request {} B, response {} B",
            case.id,
            request_body.len(),
            response_body.len()
        );
    }
    c.final_summary();
    let split = storage_split(&bench, &timed, &counter);
    print_ratios(&out_dir, &split);
}

/// Store calls forwarded to the embedded store, with the time spent inside them added up.
struct TimedStore {
    inner: EmbeddedStore,
    nanos: AtomicU64,
}

impl TimedStore {
    async fn timed<T>(&self, call: impl std::future::Future<Output = T>) -> T {
        let start = Instant::now();
        let out = call.await;
        let spent = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(spent, Ordering::Relaxed);
        out
    }
}

#[async_trait]
impl Store for TimedStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.timed(self.inner.get(key)).await
    }
    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        self.timed(self.inner.get_many(keys)).await
    }
    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        self.timed(self.inner.query(query)).await
    }
    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        self.timed(self.inner.write(ops)).await
    }
}

/// Per case: (total ns per request, of which in the store) over a plain loop.
fn storage_split(bench: &Bench, timed: &TimedStore, counter: &AtomicU64) -> Vec<(u64, u64)> {
    const ROUNDS: u64 = 2000;
    CASES
        .iter()
        .map(|case| {
            let requests: Vec<_> = (0..ROUNDS)
                .map(|_| {
                    let n = counter.fetch_add(1, Ordering::Relaxed);
                    bench.request(case.method, case.tool, (case.body)(n))
                })
                .collect();
            timed.nanos.store(0, Ordering::Relaxed);
            let start = Instant::now();
            for request in requests {
                std::hint::black_box(bench.rt.block_on(bench.server.handle(request)));
            }
            let total = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            (total / ROUNDS, timed.nanos.load(Ordering::Relaxed) / ROUNDS)
        })
        .collect()
}

/// Where criterion keeps its estimates: `target/criterion`, as `cargo bench` would.
fn criterion_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("criterion")
}

/// Mean time in nanoseconds from criterion's `estimates.json`, if this run measured it.
fn mean_ns(dir: &Path, group: &str, function: &str) -> Option<u64> {
    let path = dir.join(group).join(function).join("new").join("estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    // Timing, not money: a float from criterion rounded to whole nanoseconds.
    json["mean"]["point_estimate"]
        .as_f64()
        .map(|ns| ns.round() as u64)
}

fn print_ratios(dir: &Path, split: &[(u64, u64)]) {
    println!("\nhandler time / JSON floor (criterion means):");
    println!(
        "{:<20} {:>12} {:>12} {:>8}",
        "request", "handler", "floor", "ratio"
    );
    for case in &CASES {
        match (
            mean_ns(dir, case.id, "handler"),
            mean_ns(dir, case.id, "json_floor"),
        ) {
            (Some(handler), Some(floor)) if floor > 0 => println!(
                "{:<20} {:>9} µs {:>9} µs {:>8}",
                case.id,
                Micros(handler),
                Micros(floor),
                Ratio(handler, floor)
            ),
            _ => println!("{:<20} (not measured in this run)", case.id),
        }
    }
    println!("\nwithout storage (a loop of 2,000 requests each; store calls timed apart):");
    println!(
        "{:<20} {:>12} {:>12} {:>14} {:>16}",
        "request", "handler", "in store", "handler-store", "(h-s) / floor"
    );
    for (case, &(total, store)) in CASES.iter().zip(split) {
        let rest = total.saturating_sub(store);
        let floor = mean_ns(dir, case.id, "json_floor");
        println!(
            "{:<20} {:>9} µs {:>9} µs {:>11} µs {:>16}",
            case.id,
            Micros(total),
            Micros(store),
            Micros(rest),
            floor.map_or_else(|| "-".to_string(), |f| Ratio(rest, f).to_string())
        );
    }
}

/// `a / b` with two decimals, in integers.
struct Ratio(u64, u64);

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hundredths = self.0 * 100 / self.1.max(1);
        f.pad(&format!("{}.{:02}x", hundredths / 100, hundredths % 100))
    }
}

/// Nanoseconds shown as microseconds with one decimal, in integers.
struct Micros(u64);

impl std::fmt::Display for Micros {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 + 50) / 100;
        let text = format!("{}.{}", tenths / 10, tenths % 10);
        f.pad(&text)
    }
}
