//! Export time and size for a vault of 10,000 entries (docs/benchmarks.md).
//!
//! Records 10,000 entries (a month's worth of ordinary household lines, repeated over
//! 2024–2026, 1 in 50 voided) into the embedded store in memory, then times each
//! export format page by page and the full backup (`Ledger::backup` + JSON lines).
//! Prints one row per format: pages, bytes, milliseconds (best of 3).
//!
//! Run: `cargo run --release -p dochiya-app --example export_size`.

use std::sync::Arc;
use std::time::Instant;

use dochiya_domain::{Decimal, LocalDate, PersonId, SystemClock};
use dochiya_ledger::api::{BatchEntry, NewAccount, NewBatch, NewVault};
use dochiya_ledger::portability::export::{ExportFormat, ExportRequest};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_store_embedded::EmbeddedStore;

const ENTRIES: usize = 10_000;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let store = Arc::new(EmbeddedStore::in_memory().expect("store"));
    let clock = Arc::new(SystemClock);
    let ledger = Ledger::new(store, clock, LedgerConfig::default());
    let who = PersonId::new("bench").expect("sub");
    let vault = NewVault {
        name: "우리집".into(),
        currency: None,
        time_zone: None,
    };
    ledger.create_vault(&who, vault).await.expect("vault");
    let accounts = [
        ("카카오뱅크", "asset"),
        ("신한카드", "liability"),
        ("월급", "income"),
        ("식비", "expense"),
        ("교통비", "expense"),
        ("생활용품", "expense"),
    ];
    for (name, kind) in accounts {
        let account = NewAccount {
            vault: None,
            name: name.into(),
            kind: dochiya_domain::AccountKind::parse(kind).expect("kind"),
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        };
        ledger.create_account(&who, account).await.expect("account");
    }
    let lines = [
        ("카카오뱅크", "식비", "점심 김밥"),
        ("신한카드", "식비", "마트 장보기"),
        ("카카오뱅크", "교통비", "버스"),
        ("신한카드", "생활용품", "다이소"),
        ("월급", "카카오뱅크", "급여"),
    ];
    for batch in 0..ENTRIES / 100 {
        let entries = (0..100)
            .map(|i| {
                let n = batch * 100 + i;
                let (from, to, memo) = lines[n % lines.len()];
                let day = LocalDate::from_ymd(
                    2024 + (n / 4000) as i16,
                    1 + ((n / 334) % 12) as i16,
                    1 + (n % 28) as i16,
                );
                Ok(BatchEntry {
                    from: from.into(),
                    to: to.into(),
                    amount: Decimal::parse(&(1000 + n % 9000).to_string()).expect("amount"),
                    date: day,
                    memo: Some(format!("{memo} #{n}")),
                    external_ref: None,
                    lines: None,
                    tags: vec![],
                    installments: None,
                    for_whom: None,
                })
            })
            .collect();
        let input = NewBatch {
            vault: None,
            entries,
            idempotency_key: format!("bench-{batch}"),
            allow_duplicate: true,
            dry_run: false,
        };
        ledger.record_transactions(&who, input).await.expect("batch");
    }
    println!("| format | pages | bytes | ms (best of 3) |\n|---|---|---|---|");
    for format in ExportFormat::ALL {
        let mut best = u128::MAX;
        let (mut pages, mut bytes) = (0, 0);
        for _ in 0..3 {
            let started = Instant::now();
            (pages, bytes) = (0, 0);
            let mut cursor = None;
            loop {
                let request = ExportRequest {
                    vault: None,
                    from: None,
                    to: None,
                    format,
                    cursor,
                };
                let page = ledger.export_transactions(&who, request).await.expect("export");
                pages += 1;
                bytes += page.text.len();
                cursor = page.next_cursor;
                if cursor.is_none() {
                    break;
                }
            }
            best = best.min(started.elapsed().as_millis());
        }
        println!("| {} | {pages} | {bytes} | {best} |", format.as_str());
    }
    let mut best = u128::MAX;
    let mut size = 0;
    let mut items = 0;
    for _ in 0..3 {
        let started = Instant::now();
        let backup = ledger.backup(&who, None).await.expect("backup");
        let mut out = Vec::new();
        backup.write_jsonl(&mut out).expect("jsonl");
        best = best.min(started.elapsed().as_millis());
        (size, items) = (out.len(), backup.items.len());
    }
    println!("| backup (JSON lines, {items} items) | 1 | {size} | {best} |");
}
