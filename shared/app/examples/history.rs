//! Does history show? Every read a model makes, on a ten-year book and on a one-month
//! book of the same household, timed through the real handler.
//!
//! Two books are built the same way on the embedded store (redb; in memory so that
//! loading 29,000 entries takes seconds, reads go through the same code as on disk):
//! a couple (two members, shares 6:4), 21 accounts with owners, two cards with billing,
//! budgets, a goal, a subscription schedule, and 241 entries a month (about one in ten
//! `for` one of them), for 120 months or for the last one. The clock stands at
//! 2026-11-28 12:00 in Seoul. Each read is called once to count what it reads (store
//! calls, read rounds, items), then `RUNS` times for its time (median and slowest of
//! the runs, handler only: no HTTP, no TLS). The last column is the ten-year median
//! over the one-month median.
//!
//! `month` instead runs a household's month on the one-month book: the call mix of two
//! people keeping their book (281 tool calls, listed in `month`), counting every store
//! call, read round, item read and write operation, and prices it on AWS from those
//! counts (the prices and the per-call latencies assumed are printed with it).
//!
//! Run: `cargo run --release -p dochiya-app --example history [MONTHS | month]`
//! (default 120 months).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use dochiya_auth::{BearerAuthenticator, DevSecret, DevTokenIssuer};
use dochiya_domain::ManualClock;
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_protocol::{Server, ServerConfig};
use dochiya_store::Store;
use dochiya_store_embedded::EmbeddedStore;
use dochiya_testkit::testing::{CountingStore, StoreCounts};
use http::Request;
use serde_json::{Value, json};

const RESOURCE: &str = "http://127.0.0.1:8080/mcp";
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
/// Timed calls per read.
const RUNS: usize = 40;
/// 2026-11-28T03:00:00Z: noon in Seoul.
const NOW: i64 = 1_795_921_200;
/// Entries a month (28,920 over ten years).
const PER_MONTH: usize = 241;

type Failure = Box<dyn std::error::Error>;

struct Book {
    server: Server,
    counting: Arc<CountingStore<dyn Store>>,
    tokens: [String; 2],
}

impl Book {
    /// One `tools/call` as member `who` (0 or 1); its structuredContent.
    async fn call(&self, who: usize, tool: &str, arguments: &Value) -> Result<Value, Failure> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
        );
        let request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .header("authorization", format!("Bearer {}", self.tokens[who]))
            .body(Bytes::from(body))?;
        let response = self.server.handle(request).await;
        let json: Value = serde_json::from_slice(response.body())?;
        let result = &json["result"];
        if result["isError"] == Value::Bool(true) || !result.is_object() {
            return Err(format!("{tool} {arguments} failed: {json}").into());
        }
        Ok(result["structuredContent"].clone())
    }
}

/// A small deterministic generator (no dependency for a bench's dice).
struct Dice(u64);

impl Dice {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// (year, month) `back` months before November 2026.
fn month_back(back: u32) -> (i32, u32) {
    let index = 2026 * 12 + 11 - 1 - back as i32;
    (index.div_euclid(12), index.rem_euclid(12) as u32 + 1)
}

async fn book(months: u32) -> Result<Book, Failure> {
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::in_memory()?);
    let counting: Arc<CountingStore<dyn Store>> = Arc::new(CountingStore::from_arc(store));
    let clock = Arc::new(ManualClock::at_unix_seconds(NOW));
    let ledger = Ledger::new(counting.clone(), clock, LedgerConfig::default());
    let secret = DevSecret::new("bench-history-dev-secret-0123456789")?;
    let issuer = DevTokenIssuer::new(&secret, RESOURCE)?;
    let auth = BearerAuthenticator::dev(RESOURCE, &[], &secret, Duration::from_secs(30))?;
    let config = ServerConfig {
        instructions: dochiya_tools::INSTRUCTIONS.to_owned(),
        ..ServerConfig::default()
    };
    let server = Server::new(config, dochiya_tools::all(Arc::new(ledger)), Arc::new(auth))?;
    let scopes = ["ledger:read", "ledger:write"];
    let tokens = [
        issuer.mint("history-jihun", &scopes, Duration::from_secs(7200))?,
        issuer.mint("history-haeun", &scopes, Duration::from_secs(7200))?,
    ];
    let b = Book {
        server,
        counting,
        tokens,
    };
    let (fy, fm) = month_back(months - 1);
    let start = format!("{fy:04}-{fm:02}-01");
    b.call(0, "create_vault", &json!({"name": "우리집"})).await?;
    let code = b.call(0, "share_vault", &json!({})).await?["inviteCode"]
        .as_str()
        .ok_or("no invite code")?
        .to_owned();
    b.call(
        1,
        "join_vault",
        &json!({"inviteCode": code, "displayName": "하은"}),
    )
    .await?;
    let v = b
        .call(
            0,
            "update_vault",
            &json!({"shares": {"하은": 4, "history-jihun": 6}}),
        )
        .await?;
    if v["changed"] != json!(true) {
        return Err(format!("shares not set: {v}").into());
    }
    let accounts: [(&str, &str, Option<&str>); 21] = [
        ("공동통장", "asset", None),
        ("국민은행", "asset", Some("history-jihun")),
        ("하은통장", "asset", Some("하은")),
        ("적금", "asset", None),
        ("현금", "asset", None),
        ("신한카드", "liability", Some("하은")),
        ("현대카드", "liability", None),
        ("월급", "income", Some("history-jihun")),
        ("하은월급", "income", Some("하은")),
        ("이자", "income", None),
        ("식비", "expense", None),
        ("외식", "expense", None),
        ("교통", "expense", None),
        ("통신", "expense", None),
        ("주거", "expense", None),
        ("의료", "expense", None),
        ("쇼핑", "expense", None),
        ("문화", "expense", None),
        ("구독", "expense", None),
        ("용돈", "expense", Some("하은")),
        ("경조사", "expense", None),
    ];
    for (name, kind, owner) in accounts {
        let mut args = json!({"name": name, "kind": kind});
        if kind == "asset" && name == "공동통장" {
            args["openingBalance"] = json!("1000000");
            args["openingDate"] = json!(start);
        }
        if let Some(o) = owner {
            args["owner"] = json!(o);
        }
        b.call(0, "create_account", &args).await?;
    }
    for card in ["신한카드", "현대카드"] {
        b.call(
            0,
            "update_account",
            &json!({"account": card, "billing": {"closingDay": 14, "paymentDay": 25}}),
        )
        .await?;
    }
    for (account, amount) in [("식비", "600000"), ("외식", "300000"), ("쇼핑", "200000")] {
        b.call(
            0,
            "set_budget",
            &json!({"account": account, "amount": amount, "repeat": true}),
        )
        .await?;
    }
    b.call(
        0,
        "set_goal",
        &json!({"account": "적금", "name": "여행", "target": "3000000", "by": "2027-06-30"}),
    )
    .await?;
    b.call(
        0,
        "set_recurring",
        &json!({"name": "넷플릭스", "from": "현대카드", "to": "구독", "amount": "17000", "day": 15, "start": "2026-11-01"}),
    )
    .await?;
    load_entries(&b, months).await?;
    Ok(b)
}

/// 241 entries a month for `months` months up to 2026-11-28, in batches of 100.
async fn load_entries(b: &Book, months: u32) -> Result<(), Failure> {
    let mut dice = Dice(7);
    let spend = ["식비", "외식", "교통", "통신", "쇼핑", "문화", "의료", "경조사"];
    let payers = ["공동통장", "신한카드", "현대카드", "국민은행", "하은통장", "현금"];
    let mut batch = Vec::new();
    let mut key = 0u64;
    for back in (0..months).rev() {
        let (y, m) = month_back(back);
        let day = |d: u64| format!("{y:04}-{m:02}-{:02}", d.min(28));
        // The month's fixed entries: two salaries, contributions, rent, card payments, interest.
        let fixed = [
            json!({"from": "월급", "to": "국민은행", "amount": "3500000", "date": day(25), "memo": "월급"}),
            json!({"from": "하은월급", "to": "하은통장", "amount": "2800000", "date": day(25), "memo": "월급"}),
            json!({"from": "국민은행", "to": "공동통장", "amount": "1500000", "date": day(26), "memo": "생활비"}),
            json!({"from": "하은통장", "to": "공동통장", "amount": "1000000", "date": day(26), "memo": "생활비"}),
            json!({"from": "공동통장", "to": "주거", "amount": "900000", "date": day(1), "memo": "월세"}),
            json!({"from": "공동통장", "to": "현대카드", "amount": "400000", "date": day(25), "memo": "카드대금"}),
            json!({"from": "하은통장", "to": "신한카드", "amount": "300000", "date": day(25), "memo": "카드대금"}),
            json!({"from": "이자", "to": "공동통장", "amount": "1237", "date": day(20), "memo": "이자"}),
            json!({"from": "공동통장", "to": "적금", "amount": "200000", "date": day(10), "memo": "적금"}),
        ];
        let mut month: Vec<Value> = fixed.into_iter().collect();
        while month.len() < PER_MONTH {
            let mut e = json!({
                "from": payers[dice.next(payers.len() as u64) as usize],
                "to": spend[dice.next(spend.len() as u64) as usize],
                "amount": format!("{}", 1000 * (1 + dice.next(80))),
                "date": day(1 + dice.next(28)),
                "memo": "장보기",
            });
            match dice.next(10) {
                0 => e["for"] = json!("하은"),
                1 => e["for"] = json!("history-jihun"),
                _ => {}
            }
            month.push(e);
        }
        for e in month {
            batch.push(e);
            if batch.len() == 100 {
                flush(b, &mut batch, &mut key).await?;
            }
        }
    }
    flush(b, &mut batch, &mut key).await
}

async fn flush(b: &Book, batch: &mut Vec<Value>, key: &mut u64) -> Result<(), Failure> {
    if batch.is_empty() {
        return Ok(());
    }
    *key += 1;
    let out = b
        .call(
            0,
            "record_transactions",
            &json!({"entries": batch, "idempotencyKey": format!("history-{key}"), "allowDuplicate": true}),
        )
        .await?;
    if out["counts"]["recorded"] != json!(batch.len()) {
        return Err(format!("batch {key}: {}", out["counts"]).into());
    }
    batch.clear();
    Ok(())
}

/// What one read cost: store calls, rounds, items, and its times.
struct Measured {
    counts: StoreCounts,
    median: Duration,
    slowest: Duration,
}

/// Every call of a household's month, counted: what AWS would bill for it.
#[derive(Default)]
struct Month {
    calls: u64,
    counts: Vec<StoreCounts>,
}

impl Month {
    async fn call(&mut self, b: &Book, who: usize, tool: &str, args: Value) -> Result<Value, Failure> {
        b.counting.take();
        let out = b.call(who, tool, &args).await?;
        self.calls += 1;
        self.counts.push(b.counting.take());
        Ok(out)
    }
}

/// Two people's month: 150 entries one by one (one in ten `for` one of them, one in
/// seven left to the memo's words), two card statements of 40 lines, 5 edits, 3 voids,
/// 2 undos, and the reads a model makes around them.
async fn month(b: &Book) -> Result<(), Failure> {
    let mut m = Month::default();
    let mut dice = Dice(11);
    let spend = ["식비", "외식", "교통", "쇼핑", "문화"];
    m.call(
        b,
        0,
        "update_account",
        json!({"account": "식비", "match": ["이마트"]}),
    )
    .await?;
    let mut ids = Vec::new();
    for i in 0..150u64 {
        let who = (i % 2) as usize;
        let mut e = json!({
            "from": if who == 0 { "국민은행" } else { "하은통장" },
            "to": spend[dice.next(5) as usize],
            "amount": format!("{}", 1000 * (1 + dice.next(60))),
            "date": format!("2026-11-{:02}", 1 + i % 28),
            "memo": "장보기",
            "idempotencyKey": format!("month-{i}"),
        });
        if i % 10 == 0 {
            e["for"] = json!(if who == 0 { "history-jihun" } else { "하은" });
        }
        if i % 7 == 0 {
            e.as_object_mut().map(|o| o.remove("to"));
            e["memo"] = json!("이마트 장보기");
        }
        let out = m.call(b, who, "record_transaction", e).await?;
        ids.push(out["transaction"]["transactionId"].clone());
    }
    for (n, card) in ["신한카드", "현대카드"].into_iter().enumerate() {
        let lines: Vec<Value> = (0..40u64)
            .map(|i| {
                json!({"from": card, "to": spend[dice.next(5) as usize], "amount": format!("{}", 1000 * (1 + dice.next(90))),
                    "date": format!("2026-11-{:02}", 1 + i % 27), "memo": "카드", "externalRef": format!("{card}-{i}")})
            })
            .collect();
        m.call(
            b,
            n,
            "record_transactions",
            json!({"entries": lines, "idempotencyKey": format!("statement-{n}")}),
        )
        .await?;
    }
    for (i, id) in ids.iter().take(5).enumerate() {
        m.call(
            b,
            0,
            "edit_transaction",
            json!({"transactionId": id, "amount": "4500", "idempotencyKey": format!("edit-{i}")}),
        )
        .await?;
    }
    let mut last_op = Value::Null;
    for id in ids.iter().skip(5).take(3) {
        last_op = m
            .call(b, 1, "void_transaction", json!({"transactionId": id}))
            .await?["operationId"]
            .clone();
    }
    m.call(b, 1, "undo", json!({"operationId": last_op})).await?;
    m.call(b, 1, "undo", json!({})).await?;
    let reads: [(&str, Value, u32); 11] = [
        ("list_accounts", json!({}), 30),
        ("get_balances", json!({}), 15),
        ("list_transactions", json!({}), 25),
        (
            "spending_report",
            json!({"from": "2026-11-01", "to": "2026-11-30"}),
            12,
        ),
        (
            "spending_report",
            json!({"from": "2026-11-01", "to": "2026-11-30", "by": "member"}),
            3,
        ),
        ("budget_report", json!({}), 8),
        ("card_bill", json!({"account": "현대카드"}), 6),
        ("settle_up", json!({}), 4),
        ("list_recurring", json!({}), 3),
        (
            "net_worth_history",
            json!({"from": "2025-12", "to": "2026-11"}),
            2,
        ),
        ("list_vaults", json!({}), 10),
    ];
    for (tool, args, times) in reads {
        for i in 0..times {
            m.call(b, (i % 2) as usize, tool, args.clone()).await?;
        }
    }
    price(&m);
    Ok(())
}

/// AWS's list prices (us-east-1, on-demand, as published for 2025; assumed, not
/// fetched) applied to a month's counts, in micro-dollars.
fn price(m: &Month) {
    let total = m.counts.iter().fold(StoreCounts::default(), |mut t, c| {
        t.gets += c.gets;
        t.get_manys += c.get_manys;
        t.keys_requested += c.keys_requested;
        t.queries += c.queries;
        t.writes += c.writes;
        t.write_ops += c.write_ops;
        t.items_read += c.items_read;
        t.read_rounds += c.read_rounds;
        t
    });
    // Requests: each tool call, plus an initialize and a tools/list for each of 40
    // conversations (no store call).
    let requests = m.calls + 80;
    // DynamoDB: strongly consistent reads of items under 1 KB, so one read request unit
    // per 4 items of a query (at least one per call) and per item got; a transactional
    // write costs 2 write units per operation of items under 1 KB.
    let rru: u64 = m
        .counts
        .iter()
        .map(|c| {
            c.queries
                .max(c.items_read.saturating_sub(c.keys_requested).div_ceil(4))
                + c.gets
                + c.keys_requested
        })
        .sum();
    let wru = total.write_ops * 2;
    // Lambda: 256 MB arm64 billed per ms; a call's time assumed 1 ms of handler plus 5 ms
    // per read round and 10 ms per write (DynamoDB in the same region).
    let lambda_ms: u64 = m
        .counts
        .iter()
        .map(|c| 1 + 5 * c.read_rounds + 10 * c.writes)
        .sum::<u64>()
        + 80;
    // Micro-dollars: API Gateway HTTP API $1.00/M requests; Lambda $0.20/M requests and
    // $0.0000133334 per GB-s (256 MB: 0.0033334 µ$ per ms); DynamoDB $0.125/M read and
    // $0.625/M write request units.
    let api = requests; // 1 µ$ each
    let lambda_requests = requests * 2 / 10;
    let lambda_time = lambda_ms * 33_334 / 10_000_000;
    let reads = rru / 8; // 0.125 µ$ each
    let writes = wru * 5 / 8; // 0.625 µ$ each
    let sum = api + lambda_requests + lambda_time + reads + writes;
    println!("a household's month: {} tool calls, {requests} requests", m.calls);
    println!(
        "store: {} queries, {} gets, {} get_many ({} keys), {} read rounds, {} items read, {} writes carrying {} operations",
        total.queries,
        total.gets,
        total.get_manys,
        total.keys_requested,
        total.read_rounds,
        total.items_read,
        total.writes,
        total.write_ops
    );
    println!("read units {rru}, write units {wru}, Lambda billed {lambda_ms} ms at 256 MB");
    println!(
        "cost (µ$): API Gateway {api}, Lambda requests {lambda_requests}, Lambda time {lambda_time}, DynamoDB reads {reads}, DynamoDB writes {writes}: {sum} µ$ per household-month, ${} per million households",
        sum
    );
}

async fn measure(b: &Book, tool: &str, args: &Value) -> Result<Measured, Failure> {
    b.counting.take();
    b.call(0, tool, args).await?;
    let counts = b.counting.take();
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let t = Instant::now();
        b.call(0, tool, args).await?;
        times.push(t.elapsed());
    }
    times.sort();
    Ok(Measured {
        counts,
        median: times[RUNS / 2],
        slowest: times[RUNS - 1],
    })
}

fn ms(d: Duration) -> String {
    // Integer arithmetic only: the workspace denies floats.
    let us = d.as_micros();
    format!("{}.{:02}", us / 1000, (us % 1000) / 10)
}

/// `a / b` with one decimal.
fn ratio(a: Duration, b: Duration) -> String {
    let tenths = a.as_nanos() * 10 / b.as_nanos().max(1);
    format!("{}.{}", tenths / 10, tenths % 10)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Failure> {
    if std::env::args().nth(1).as_deref() == Some("month") {
        return month(&book(1).await?).await;
    }
    let months: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(120);
    let t = Instant::now();
    let long = book(months).await?;
    eprintln!("{months}-month book built in {:.1} s", t.elapsed().as_secs_f64());
    let short = book(1).await?;
    let reads: Vec<(&str, &str, Value)> = vec![
        ("list_accounts", "", json!({})),
        ("get_balances", "", json!({})),
        ("list_transactions", "", json!({})),
        ("list_vaults", "", json!({})),
        (
            "spending_report",
            "this month",
            json!({"from": "2026-11-01", "to": "2026-11-30"}),
        ),
        (
            "spending_report",
            "12 months by month",
            json!({"from": "2025-12-01", "to": "2026-11-30", "by": "month"}),
        ),
        (
            "spending_report",
            "by member, this month",
            json!({"from": "2026-11-01", "to": "2026-11-30", "by": "member"}),
        ),
        (
            "spending_report",
            "by member, 12 months",
            json!({"from": "2025-12-01", "to": "2026-11-30", "by": "member"}),
        ),
        ("budget_report", "with a goal", json!({})),
        (
            "net_worth_history",
            "12 months",
            json!({"from": "2025-12-01", "to": "2026-11-30"}),
        ),
        ("settle_up", "all time", json!({})),
        ("settle_up", "this month", json!({"from": "2026-11-01"})),
        ("settle_up", "12 months", json!({"from": "2025-12-01"})),
        ("list_recurring", "with detection", json!({})),
        ("card_bill", "", json!({"account": "현대카드"})),
        ("reconcile", "", json!({})),
    ];
    println!(
        "{:<42} {:>6} {:>6} {:>7} {:>9} {:>9} {:>6} {:>6} {:>7} {:>9} {:>9} {:>6}",
        "read",
        "q",
        "rounds",
        "items",
        "med ms",
        "max ms",
        "q",
        "rounds",
        "items",
        "med ms",
        "max ms",
        "ratio"
    );
    println!(
        "{:<42} {:-^40} {:-^40}",
        "",
        format!(" {months} months "),
        " one month "
    );
    for (tool, label, args) in &reads {
        let a = measure(&long, tool, args).await?;
        let s = measure(&short, tool, args).await?;
        println!(
            "{:<42} {:>6} {:>6} {:>7} {:>9} {:>9} {:>6} {:>6} {:>7} {:>9} {:>9} {:>5}×",
            format!("{tool} {label}"),
            a.counts.queries,
            a.counts.read_rounds,
            a.counts.items_read,
            ms(a.median),
            ms(a.slowest),
            s.counts.queries,
            s.counts.read_rounds,
            s.counts.items_read,
            ms(s.median),
            ms(s.slowest),
            ratio(a.median, s.median),
        );
    }
    // Deleting the whole book: one atomic write ends the memberships, the partition
    // follows page by page in the same call (decision 057).
    long.counting.take();
    let t = Instant::now();
    let out = long
        .call(
            0,
            "delete_vault",
            &json!({"vault": "우리집", "confirm": "우리집"}),
        )
        .await?;
    let c = long.counting.take();
    println!(
        "delete_vault of the {months}-month book: {} ms, {} queries, {} writes carrying {} operations; deleted {}",
        t.elapsed().as_millis(),
        c.queries,
        c.writes,
        c.write_ops,
        out["deleted"]
    );
    Ok(())
}
