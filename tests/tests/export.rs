//! `export_transactions` on the two-month household (`book.rs`), checked by
//! the tools the ledger world uses: `hledger check` and `bean-check` accept the
//! files, `hledger bal` equals get_balances for every account, and the CSV read
//! back with Python's csv module sums to the same balances.
//!
//! hledger (Debian) and bean-check (PyPI) are installed by the test command
//! (tests/stages/25-ledger-tools.sh, which sets `DOCHIYA_LEDGER_TOOLS=required`).
//! Run without them, the checks that need a tool say so loudly and stop there;
//! under CI or with that variable set, a missing tool fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{Client, Harness};
use serde_json::{Value, json};

/// Every page of an export, concatenated, and the number of pages.
async fn export(p: &Client<'_>, args: Value) -> (String, usize) {
    let mut text = String::new();
    let mut args = args;
    let mut pages = 0;
    loop {
        let page = p.ok("export_transactions", &args.to_string()).await;
        pages += 1;
        text.push_str(page["text"].as_str().expect("text"));
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(c) => args["cursor"] = json!(c),
            None => return (text, pages),
        }
    }
}

/// A ledger tool: on PATH, or where the stage put it; `None` (said loudly) when
/// it is missing and not required, a failure when it is.
fn tool(name: &str) -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("DOCHIYA_BEANCOUNT_BIN").map(|d| PathBuf::from(d).join(name)),
        Some(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../.build/beancount-venv/bin")
                .join(name),
        ),
    ];
    let found = candidates
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .or_else(|| {
            Command::new(name)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|_| PathBuf::from(name))
        });
    let required = std::env::var("DOCHIYA_LEDGER_TOOLS").is_ok_and(|v| v == "required")
        || std::env::var("CI").is_ok_and(|v| v == "true");
    match (&found, required) {
        (None, true) => panic!("{name} is not installed; tests/stages/25-ledger-tools.sh installs it"),
        (None, false) => eprintln!("NOT CHECKED: {name} is not installed (run tests/run.sh, or install it)"),
        _ => {}
    }
    found
}

fn run(tool: &Path, args: &[&str]) -> String {
    let out = Command::new(tool).args(args).output().expect("run the tool");
    assert!(
        out.status.success(),
        "{} {args:?} failed:\n{}{}",
        tool.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// get_balances on `as_of` as `name → (kind, balance)`.
async fn balances(p: &Client<'_>, as_of: &str) -> BTreeMap<String, (String, String)> {
    let b = p.ok("get_balances", &json!({"asOf": as_of}).to_string()).await;
    b["accounts"]
        .as_array()
        .expect("accounts")
        .iter()
        .map(|a| {
            let s = |k: &str| a[k].as_str().unwrap_or_default().to_owned();
            (s("name"), (s("kind"), s("balance")))
        })
        .collect()
}

fn hledger_root(kind: &str) -> &'static str {
    match kind {
        "asset" => "assets",
        "liability" => "liabilities",
        "equity" => "equity",
        "income" => "income",
        _ => "expenses",
    }
}

/// Debit-positive (hledger's and the CSV's sign) to the kind's natural sign.
fn natural(kind: &str, debit_net: &str) -> String {
    if !["liability", "income", "equity"].contains(&kind) || debit_net == "0" {
        return debit_net.to_owned();
    }
    match debit_net.strip_prefix('-') {
        Some(positive) => positive.to_owned(),
        None => format!("-{debit_net}"),
    }
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dochiya-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[tokio::test]
async fn the_household_exports_in_three_formats_that_their_tools_accept() {
    let h = Harness::new().await;
    let p = h.person("export-household");
    let ids = crate::book::record(&p).await;
    let expected = balances(&p, "2026-02-28").await;
    for (name, balance) in crate::book::FEBRUARY_END {
        assert_eq!(expected[*name].1, *balance, "{name}: the hand computation");
    }

    // CSV: a byte-order mark, the header, one row per posting, voided ones marked.
    let (csv, pages) = export(&p, json!({"format": "csv", "from": "2026-01", "to": "2026-02"})).await;
    assert_eq!(pages, 1);
    assert!(
        csv.starts_with(
            "\u{feff}transactionId,date,memo,account,kind,parent,amount,tags,voided,owner,for\r\n"
        )
    );
    assert!(
        csv.contains(",\"점심 \"\"김밥\"\", 2인분\",카카오뱅크,asset,,-9000,,false,,\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains(",\"'=SUM(A1:A9)\",신한카드,liability,,-3500,,false,,\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains(",버스 (잘못 입력),교통비,expense,,1400,,true,,\r\n"),
        "{csv}"
    );
    let path = temp_file("book.csv", &csv);
    let sums = Command::new("python3")
        .arg("-c")
        .arg(
            "import csv, json, sys, decimal\n\
             rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8-sig', newline='')))\n\
             out = {}\n\
             for r in rows:\n\
             \x20   k = (r['account'], r['kind'])\n\
             \x20   out.setdefault(k, decimal.Decimal(0))\n\
             \x20   if r['voided'] == 'false': out[k] += decimal.Decimal(r['amount'])\n\
             print(json.dumps({'rows': len(rows), 'sums': [[a, k, str(v)] for (a, k), v in sorted(out.items())]}))",
        )
        .arg(&path)
        .output()
        .expect("python3");
    assert!(sums.status.success(), "{}", String::from_utf8_lossy(&sums.stderr));
    let sums: Value = serde_json::from_slice(&sums.stdout).expect("json");
    // 12 entries: 10 of two postings, the split of three, and two opening balances.
    assert_eq!(sums["rows"], 2 * 11 + 3);
    let mut from_csv = BTreeMap::new();
    for row in sums["sums"].as_array().expect("sums") {
        let (name, kind, sum) = (
            row[0].as_str().unwrap(),
            row[1].as_str().unwrap(),
            row[2].as_str().unwrap(),
        );
        from_csv.insert(name.to_owned(), (kind.to_owned(), natural(kind, sum)));
    }
    for (name, (kind, balance)) in &expected {
        let shown = from_csv.get(name).cloned().unwrap_or((kind.clone(), "0".into()));
        assert_eq!(&shown, &(kind.clone(), balance.clone()), "CSV sum of {name}");
    }

    // hledger: accepted, and `hledger bal` equals get_balances for every account.
    let (journal, _) = export(&p, json!({"format": "hledger"})).await;
    assert!(
        journal.contains("2026-02-03 () (주)쿠팡 환불  ; id:"),
        "{journal}"
    );
    assert!(journal.contains("2026-01-10 마트； 장보기  ; id:"), "{journal}");
    assert!(
        journal.contains("; voided: 2026-01-12 버스 (잘못 입력)"),
        "{journal}"
    );
    let path = temp_file("book.journal", &journal);
    if let Some(hledger) = tool("hledger") {
        let file = path.to_str().expect("path");
        run(&hledger, &["-f", file, "check"]);
        let bal = run(
            &hledger,
            &[
                "-f",
                file,
                "bal",
                "--flat",
                "-E",
                "--no-total",
                "-O",
                "csv",
                "-e",
                "2026-03-01",
            ],
        );
        let got: BTreeMap<String, String> = bal
            .lines()
            .skip(1)
            .map(|l| {
                let cells: Vec<&str> = l.split("\",\"").map(|c| c.trim_matches('"')).collect();
                (cells[0].to_owned(), cells[1].trim_end_matches(" KRW").to_owned())
            })
            .collect();
        let accounts: Vec<String> = expected
            .iter()
            .map(|(n, (k, _))| format!("{}:{n}", hledger_root(k)))
            .collect();
        // get_balances leaves out an archived account at zero (현금); hledger shows it at 0.
        assert!(got.iter().all(|(a, b)| accounts.contains(a) || b == "0"), "{bal}");
        for (name, (kind, balance)) in &expected {
            let account = format!("{}:{name}", hledger_root(kind));
            // hledger lists only accounts with postings (교통비's one entry is voided).
            let shown = got.get(&account).map_or("0".to_owned(), |b| natural(kind, b));
            assert_eq!(&shown, balance, "hledger bal of {account}:\n{bal}");
        }
    }

    // Beancount: accepted; Korean names under generated components, the originals kept.
    let (beancount, _) = export(&p, json!({"format": "beancount"})).await;
    assert!(
        beancount.contains("2026-01-01 open Assets:X-카카오뱅크 KRW\n  name: \"카카오뱅크\"\n  id: \""),
        "{beancount}"
    );
    assert!(
        beancount.contains("2026-01-05 * \"점심 \\\"김밥\\\", 2인분\"\n"),
        "{beancount}"
    );
    let path = temp_file("book.beancount", &beancount);
    if let Some(bean_check) = tool("bean-check") {
        run(&bean_check, &[path.to_str().expect("path")]);
    }
    assert_eq!(ids.len(), 10);
}

#[tokio::test]
async fn pages_join_into_the_whole_file_and_bad_requests_say_what_to_send() {
    let h = Harness::new().await;
    let p = h.person("export-pages");
    crate::book::record(&p).await;
    let (whole, pages) = export(&p, json!({"format": "hledger"})).await;
    assert_eq!(pages, 1);
    let one = p
        .ok(
            "export_transactions",
            r#"{"format": "hledger", "from": "2026-02-01", "to": "2026-02-28"}"#,
        )
        .await;
    assert_eq!(one["from"], "2026-02-01");
    assert_eq!(one["to"], "2026-02-28");
    assert_eq!(one["count"], 4);
    let text = one["text"].as_str().expect("text");
    // The preamble, then each entry as its own block, each also in the whole export.
    let blocks: Vec<&str> = text.split("\n\n").filter(|b| !b.is_empty()).collect();
    assert_eq!(blocks.len(), 1 + 4, "{text}");
    for block in &blocks[1..] {
        assert!(whole.contains(block), "{block}");
    }

    // More than a page: 520 more entries in March.
    for batch in 0..6 {
        let entries: Vec<Value> = (0..100)
            .filter(|i| batch * 100 + i < 520)
            .map(|i| json!({"from": "카카오뱅크", "to": "식비", "amount": (1000 + batch * 100 + i).to_string(), "date": "2026-03-02"}))
            .collect();
        let r = p
            .ok(
                "record_transactions",
                &json!({"entries": entries, "idempotencyKey": format!("many-{batch}")}).to_string(),
            )
            .await;
        assert_eq!(r["counts"]["recorded"], entries.len(), "{r}");
    }
    let first = p.ok("export_transactions", r#"{"format": "csv"}"#).await;
    assert_eq!(first["count"], 500);
    assert_eq!(first["from"], "2026-01-01");
    let (csv, pages) = export(&p, json!({"format": "csv"})).await;
    assert_eq!(pages, 2);
    assert_eq!(csv.matches('\u{feff}').count(), 1);
    assert_eq!(csv.matches("transactionId,").count(), 1);
    assert_eq!(csv.lines().count(), 1 + 2 * 11 + 3 + 2 * 520);

    let bad = p.err("export_transactions", r#"{"format": "xlsx"}"#).await;
    assert!(
        bad.contains("csv") && bad.contains("hledger") && bad.contains("beancount"),
        "{bad}"
    );
    let bad = p
        .err(
            "export_transactions",
            r#"{"format": "csv", "from": "2026-02-01", "to": "2026-01-01"}"#,
        )
        .await;
    assert!(bad.contains("2026-02-01") && bad.contains("2026-01-01"), "{bad}");
    let bad = p
        .err("export_transactions", r#"{"format": "csv", "cursor": "00ff"}"#)
        .await;
    assert!(bad.starts_with("Invalid cursor"), "{bad}");
}

/// What the household adds for the groups and tags test: 외식 under 식비, 병원 and
/// 약국 under 의료비, entries tagged "제주 여행" (a space, Hangul) and "health", a split
/// across a parent and its child, and a voided tagged entry that counts nowhere.
async fn add_groups_and_tags(p: &Client<'_>) {
    for (name, parent) in [
        ("외식", Some("식비")),
        ("의료비", None),
        ("병원", Some("의료비")),
        ("약국", Some("의료비")),
    ] {
        let mut args = json!({"name": name, "kind": "expense"});
        if let Some(parent) = parent {
            args["parent"] = json!(parent);
        }
        p.ok("create_account", &args.to_string()).await;
    }
    let entries = [
        (
            "신한카드",
            "외식",
            "42000",
            "2026-02-07",
            "흑돼지",
            vec!["제주 여행"],
        ),
        (
            "카카오뱅크",
            "약국",
            "8000",
            "2026-02-08",
            "약국",
            vec!["제주 여행", "health"],
        ),
        (
            "카카오뱅크",
            "병원",
            "35000",
            "2026-01-15",
            "정형외과",
            vec!["health"],
        ),
        ("카카오뱅크", "의료비", "5000", "2026-02-20", "서류 발급", vec![]),
    ];
    for (i, (from, to, amount, date, memo, tags)) in entries.into_iter().enumerate() {
        let args = json!({"from": from, "to": to, "amount": amount, "date": date, "memo": memo, "tags": tags, "idempotencyKey": format!("g-{i}")});
        p.ok("record_transaction", &args.to_string()).await;
    }
    let split = json!({
        "lines": {
            "from": [{"account": "신한카드", "amount": "50000"}],
            "to": [{"account": "식비", "amount": "20000"}, {"account": "외식", "amount": "30000"}],
        },
        "date": "2026-02-09", "memo": "제주 시장", "tags": ["제주 여행"], "idempotencyKey": "g-split",
    });
    p.ok("record_transaction", &split.to_string()).await;
    let voided = json!({"from": "카카오뱅크", "to": "병원", "amount": "1000", "date": "2026-02-10", "memo": "취소", "tags": ["health"], "idempotencyKey": "g-void"});
    let r = p.ok("record_transaction", &voided.to_string()).await;
    p.ok(
        "void_transaction",
        &json!({"transactionId": r["transaction"]["transactionId"]}).to_string(),
    )
    .await;
}

/// spending_report over January and February: `by: group` as `group → amount`, or
/// the total of the entries carrying `tag`.
async fn spending(p: &Client<'_>, by_group: bool, tag: Option<&str>) -> BTreeMap<String, String> {
    let mut args = json!({"from": "2026-01-01", "to": "2026-02-28"});
    if by_group {
        args["by"] = json!("group");
    }
    if let Some(tag) = tag {
        args["tag"] = json!(tag);
    }
    let r = p.ok("spending_report", &args.to_string()).await;
    let mut out: BTreeMap<String, String> = r["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            (
                row["account"].as_str().unwrap_or_default().to_owned(),
                row["amount"].as_str().expect("amount").to_owned(),
            )
        })
        .collect();
    out.insert("total".into(), r["total"].as_str().expect("total").to_owned());
    out
}

/// Run a Python snippet (with `sys.argv[1]` the file) under `python`, as JSON.
fn python_json(python: &Path, script: &str, file: &Path) -> Value {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(file)
        .output()
        .expect("python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("json")
}

/// The sum hledger reports for `query` through the end of February.
fn hledger_sum(hledger: &Path, file: &str, query: &[&str]) -> String {
    let mut args = vec!["-f", file, "bal", "-e", "2026-03-01", "-O", "csv", "--depth", "1"];
    args.extend_from_slice(query);
    let out = run(hledger, &args);
    // "account","balance" rows, then the total row.
    let last = out.lines().last().expect("a total row");
    last.split("\",\"")
        .nth(1)
        .expect("a balance")
        .trim_end_matches('"')
        .trim_end_matches(" KRW")
        .to_owned()
}

#[tokio::test]
async fn exports_keep_groups_and_tags_as_the_reports_count_them() {
    let h = Harness::new().await;
    let p = h.person("export-groups");
    crate::book::record(&p).await;
    add_groups_and_tags(&p).await;
    let groups = spending(&p, true, None).await;
    let trip = spending(&p, false, Some("제주 여행")).await;
    let health = spending(&p, false, Some("health")).await;
    // By hand: 식비 97,000 + 20,000 and 외식 42,000 + 30,000; 의료비 5,000 + 35,000 + 8,000.
    assert_eq!(
        (groups["식비"].as_str(), groups["의료비"].as_str()),
        ("189000", "48000")
    );
    assert_eq!(
        (trip["total"].as_str(), health["total"].as_str()),
        ("100000", "43000")
    );

    // CSV: every posting row names its parent and its entry's tags.
    let (csv, _) = export(&p, json!({"format": "csv", "from": "2026-01", "to": "2026-02"})).await;
    assert!(
        csv.contains(",흑돼지,외식,expense,식비,42000,제주 여행,false,,\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains(",약국,약국,expense,의료비,8000,\"제주 여행,health\",false,,\r\n"),
        "{csv}"
    );
    let path = temp_file("groups.csv", &csv);
    let sums = python_json(
        Path::new("python3"),
        "import csv, json, sys, decimal\n\
         groups, tags = {}, {}\n\
         for r in csv.DictReader(open(sys.argv[1], encoding='utf-8-sig', newline='')):\n\
         \x20   if r['kind'] != 'expense' or r['voided'] != 'false': continue\n\
         \x20   g = r['parent'] or r['account']\n\
         \x20   groups[g] = groups.get(g, decimal.Decimal(0)) + decimal.Decimal(r['amount'])\n\
         \x20   for t in filter(None, r['tags'].split(',')):\n\
         \x20       tags[t] = tags.get(t, decimal.Decimal(0)) + decimal.Decimal(r['amount'])\n\
         print(json.dumps({'groups': {k: str(v) for k, v in groups.items()}, 'tags': {k: str(v) for k, v in tags.items()}}))",
        &path,
    );
    for group in ["식비", "의료비", "생활용품"] {
        assert_eq!(sums["groups"][group], groups[group], "CSV group {group}");
    }
    assert_eq!(sums["tags"]["제주 여행"], trip["total"], "CSV tag 제주 여행");
    assert_eq!(sums["tags"]["health"], health["total"], "CSV tag health");

    // hledger: children nest under their parent; `bal expenses:식비` is the group.
    let (journal, _) = export(&p, json!({"format": "hledger"})).await;
    assert!(
        journal.contains("account expenses:식비:외식  ; type: X\n"),
        "{journal}"
    );
    assert!(journal.contains(" 흑돼지  ; id:"), "{journal}");
    assert!(journal.contains(", 제주-여행:제주 여행\n"), "{journal}");
    assert!(journal.contains(", 제주-여행:제주 여행, health:\n"), "{journal}");
    let path = temp_file("groups.journal", &journal);
    if let Some(hledger) = tool("hledger") {
        let file = path.to_str().expect("path");
        run(&hledger, &["-f", file, "check"]);
        for group in ["식비", "의료비"] {
            let account = format!("expenses:{group}");
            assert_eq!(
                hledger_sum(&hledger, file, &[&account]),
                groups[group],
                "hledger bal {account}"
            );
        }
        assert_eq!(
            hledger_sum(&hledger, file, &["^expenses", "tag:^제주-여행$"]),
            trip["total"],
            "hledger tag 제주-여행"
        );
        assert_eq!(
            hledger_sum(&hledger, file, &["^expenses", "tag:^health$"]),
            health["total"],
            "hledger tag health"
        );
    }

    // Beancount: nested the same way, tags as #tags; bean-check accepts it.
    let (beancount, _) = export(&p, json!({"format": "beancount"})).await;
    assert!(
        beancount.contains("open Expenses:X-식비:X-외식 KRW\n  name: \"외식\"\n"),
        "{beancount}"
    );
    assert!(
        beancount.contains(" * \"약국\" #xn----bs6f29cvzac37b #health\n"),
        "{beancount}"
    );
    assert!(
        beancount.contains("  tags: \"제주 여행,health\"\n"),
        "{beancount}"
    );
    let path = temp_file("groups.beancount", &beancount);
    if let Some(bean_check) = tool("bean-check") {
        run(&bean_check, &[path.to_str().expect("path")]);
        let python = bean_check.with_file_name("python");
        let sums = python_json(
            &python,
            "import json, sys\n\
             from beancount import loader\n\
             from beancount.core import data\n\
             entries, errors, _ = loader.load_file(sys.argv[1])\n\
             assert not errors, errors\n\
             groups, tags = {}, {}\n\
             for e in entries:\n\
             \x20   if not isinstance(e, data.Transaction): continue\n\
             \x20   for p in e.postings:\n\
             \x20       parts = p.account.split(':')\n\
             \x20       if parts[0] != 'Expenses': continue\n\
             \x20       groups[parts[1]] = groups.get(parts[1], 0) + p.units.number\n\
             \x20       for t in e.tags: tags[t] = tags.get(t, 0) + p.units.number\n\
             print(json.dumps({'groups': {k: str(v) for k, v in groups.items()}, 'tags': {k: str(v) for k, v in tags.items()}}))",
            &path,
        );
        assert_eq!(sums["groups"]["X-식비"], groups["식비"], "Beancount 식비");
        assert_eq!(sums["groups"]["X-의료비"], groups["의료비"], "Beancount 의료비");
        assert_eq!(
            sums["tags"]["xn----bs6f29cvzac37b"], trip["total"],
            "Beancount 제주 여행"
        );
        assert_eq!(sums["tags"]["health"], health["total"], "Beancount health");
    }
}

/// A couple's book keeps whose accounts and spending are whose in every format: CSV
/// columns, hledger tags (`owner:` on the account, `for:` on the entry, queryable),
/// Beancount metadata; hledger check and bean-check accept the files.
#[tokio::test]
async fn exports_keep_owners_and_for() {
    let h = Harness::new().await;
    let jihun = h.person_named("export-couple-jihun", "지훈");
    let haeun = h.person_named("export-couple-haeun", "하은");
    jihun.ok("create_vault", r#"{"name": "우리집"}"#).await;
    let code = jihun.ok("share_vault", "{}").await["inviteCode"]
        .as_str()
        .expect("code")
        .to_owned();
    haeun
        .ok("join_vault", &json!({"inviteCode": code}).to_string())
        .await;
    for args in [
        r#"{"name": "공동통장", "kind": "asset"}"#,
        r#"{"name": "하은카드", "kind": "liability", "owner": "하은"}"#,
        r#"{"name": "식비", "kind": "expense"}"#,
        r#"{"name": "용돈", "kind": "expense", "owner": "하은"}"#,
    ] {
        jihun.ok("create_account", args).await;
    }
    haeun
        .ok(
            "record_transaction",
            r#"{"from": "하은카드", "to": "식비", "amount": "30000", "date": "2026-01-10", "memo": "지훈 점심", "for": "지훈", "idempotencyKey": "couple-1"}"#,
        )
        .await;
    jihun
        .ok(
            "record_transaction",
            r#"{"from": "공동통장", "to": "용돈", "amount": "5000", "date": "2026-01-11", "memo": "같이 쓸 우산", "for": "shared", "idempotencyKey": "couple-2"}"#,
        )
        .await;

    let (csv, _) = export(&jihun, json!({"format": "csv"})).await;
    assert!(
        csv.starts_with(
            "\u{feff}transactionId,date,memo,account,kind,parent,amount,tags,voided,owner,for\r\n"
        ),
        "{csv}"
    );
    assert!(
        csv.contains(",지훈 점심,식비,expense,,30000,,false,,지훈\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains(",지훈 점심,하은카드,liability,,-30000,,false,하은,지훈\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains(",같이 쓸 우산,용돈,expense,,5000,,false,하은,shared\r\n"),
        "{csv}"
    );

    let (journal, _) = export(&jihun, json!({"format": "hledger"})).await;
    assert!(
        journal.contains("account liabilities:하은카드  ; type: L, owner: 하은\n"),
        "{journal}"
    );
    assert!(journal.contains(" 지훈 점심  ; id:"), "{journal}");
    assert!(journal.contains(", for: 지훈\n"), "{journal}");
    let path = temp_file("couple.journal", &journal);
    if let Some(hledger) = tool("hledger") {
        let file = path.to_str().expect("path");
        run(&hledger, &["-f", file, "check"]);
        // hledger finds the spending that was for 지훈 by its tag.
        let out = run(
            &hledger,
            &["-f", file, "bal", "-O", "csv", "^expenses", "tag:for=지훈"],
        );
        assert_eq!(out.lines().last(), Some("\"total\",\"30000 KRW\""), "{out}");
    }

    let (beancount, _) = export(&jihun, json!({"format": "beancount"})).await;
    assert!(beancount.contains("  name: \"하은카드\"\n"), "{beancount}");
    assert!(beancount.contains("  owner: \"하은\"\n"), "{beancount}");
    assert!(beancount.contains("  for: \"지훈\"\n"), "{beancount}");
    let path = temp_file("couple.beancount", &beancount);
    if let Some(bean_check) = tool("bean-check") {
        run(&bean_check, &[path.to_str().expect("path")]);
        let python = bean_check.with_file_name("python");
        let read = python_json(
            &python,
            "import json, sys\n\
             from beancount import loader\n\
             from beancount.core import data\n\
             entries, errors, _ = loader.load_file(sys.argv[1])\n\
             assert not errors, errors\n\
             owners = {e.account: e.meta['owner'] for e in entries if isinstance(e, data.Open) and 'owner' in e.meta}\n\
             fors = {e.narration: e.meta['for'] for e in entries if isinstance(e, data.Transaction) and 'for' in e.meta}\n\
             print(json.dumps({'owners': owners, 'fors': fors}))",
            &path,
        );
        assert_eq!(
            read,
            json!({
                "owners": {"Liabilities:X-하은카드": "하은", "Expenses:X-용돈": "하은"},
                "fors": {"지훈 점심": "지훈", "같이 쓸 우산": "shared"}
            })
        );
    }
}
