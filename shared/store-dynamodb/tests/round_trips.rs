//! DynamoDB calls per ledger operation (docs/design.md §10), counted on the wire by
//! the SDK interceptor and compared with the Store calls the ledger made: on
//! DynamoDB every Store call is exactly one HTTP call (no hidden retries, no
//! batch split below 100 keys). Run with `--nocapture` to see the table.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use dochiya_domain::{AccountKind, Decimal, LocalDate, YearMonth};
use dochiya_ledger::api::{
    FlowKind, NewAccount, NewTransaction, NewVault, ReportBy, ReportRequest, SnapshotInput, TransactionQuery,
};
use dochiya_testkit::contract::ledger_suite::{fresh_person, ledger_over};
use dochiya_testkit::contract::store_suite::block_on;
use dochiya_testkit::testing::CountingStore;

fn d(text: &str) -> Decimal {
    Decimal::parse(text).expect("a test amount")
}

fn date(text: &str) -> LocalDate {
    LocalDate::parse(text).expect("a test date")
}

fn month(text: &str) -> YearMonth {
    YearMonth::parse(text).expect("a test month")
}

fn account(name: &str, kind: AccountKind, opening: Option<&str>) -> NewAccount {
    NewAccount {
        vault: None,
        name: name.into(),
        kind,
        opening_balance: opening.map(d),
        opening_date: None,
        parent: None,
        billing: None,
        owner: None,
    }
}

fn lunch(key: &str) -> NewTransaction {
    NewTransaction {
        vault: None,
        from: "카카오뱅크".into(),
        to: "식비".into(),
        amount: d("12500"),
        date: Some(date("2026-03-15")),
        memo: Some("점심".into()),
        idempotency_key: key.into(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
        tags: vec![],
        for_whom: None,
    }
}

#[test]
fn dynamodb_calls_per_ledger_operation() {
    block_on(async {
        let (store, counter, _) = common::fresh_store("trips").await;
        let counting = Arc::new(CountingStore::new(store));
        let (l, _) = ledger_over(counting.clone());
        let me = fresh_person("trips");
        // (operation, DynamoDB calls by kind, Store round trips)
        let mut rows: Vec<(&str, BTreeMap<String, u64>, u64)> = Vec::new();
        macro_rules! measure {
            ($name:expr, $op:expr) => {{
                counting.reset();
                counter.take();
                let out = $op.await.expect($name);
                let sdk = counter.take();
                let trips = counting.take().round_trips();
                assert_eq!(sdk.values().sum::<u64>(), trips, "{}: {sdk:?}", $name);
                rows.push(($name, sdk, trips));
                out
            }};
        }

        measure!(
            "create_vault",
            l.create_vault(
                &me,
                NewVault {
                    name: "가계부".into(),
                    currency: None,
                    time_zone: None
                }
            )
        );
        measure!(
            "create_account",
            l.create_account(&me, account("카카오뱅크", AccountKind::Asset, Some("1000000")))
        );
        measure!(
            "create_account",
            l.create_account(&me, account("식비", AccountKind::Expense, None))
        );
        let recorded = measure!("record_transaction", l.record_transaction(&me, lunch("k1")));
        measure!(
            "record_transaction (replay)",
            l.record_transaction(&me, lunch("k1"))
        );
        let id = recorded.transaction.transaction_id;
        measure!(
            "upsert_snapshot",
            l.upsert_snapshot(
                &me,
                SnapshotInput {
                    vault: None,
                    account: "카카오뱅크".into(),
                    date: date("2026-03-15"),
                    balance: d("987500")
                }
            )
        );
        measure!("list_vaults", l.list_vaults(&me));
        measure!("list_accounts", l.list_accounts(&me, None, false));
        measure!("get_transaction", l.get_transaction(&me, None, id));
        measure!(
            "list_transactions",
            l.list_transactions(&me, TransactionQuery::default())
        );
        measure!("get_balances", l.get_balances(&me, None, None));
        measure!(
            "spending_report",
            l.spending_report(
                &me,
                ReportRequest {
                    vault: None,
                    from: date("2026-03-01"),
                    to: date("2026-03-31"),
                    by: ReportBy::Account,
                    kind: FlowKind::Expense,
                    tag: None
                }
            )
        );
        measure!(
            "net_worth_history",
            l.net_worth_history(&me, None, month("2026-01"), month("2026-03"))
        );
        measure!("reconcile", l.reconcile(&me, None, None));
        measure!("rename_account", l.rename_account(&me, None, "식비", "외식"));
        measure!("void_transaction", l.void_transaction(&me, None, id, None));
        measure!("archive_account", l.archive_account(&me, None, "외식", true));
        measure!("rename_vault", l.rename_vault(&me, "가계부", "우리집"));

        println!("{:<28} {:>5}  DynamoDB calls", "operation", "total");
        for (name, sdk, trips) in &rows {
            let detail: Vec<String> = sdk.iter().map(|(op, n)| format!("{op}×{n}")).collect();
            println!("{name:<28} {trips:>5}  {}", detail.join(" "));
        }
        // Writes: at most one TransactWriteItems (or one plain write) each.
        for (name, sdk, _) in &rows {
            let writes: u64 = ["TransactWriteItems", "PutItem", "UpdateItem", "DeleteItem"]
                .iter()
                .map(|op| sdk.get(*op).copied().unwrap_or(0))
                .sum();
            assert!(writes <= 1, "{name} wrote {writes} times: {sdk:?}");
        }
    });
}
