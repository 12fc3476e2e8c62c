//! A household month through the tools, checked against hand-computed values.
//!
//! Vault 우리집 (KRW, Asia/Seoul). 카카오뱅크 opens with 500,000 won on
//! 2026-02-28; one lunch in February; in March: lunches, a card purchase, a
//! bus ride entered by mistake and voided, a split receipt, a refund, the
//! card bill, the salary; then a snapshot that matches, one that does not,
//! the forgotten entry found and recorded, and the snapshot matching again.
//!
//! Hand computation (won):
//! - 카카오뱅크: 500,000 − 7,000 (Feb) = 493,000 at Feb end; March −9,000 −11,000
//!   −1,500 −54,000 +3,000,000 (the voided 1,400 does not count) = 3,417,500.
//! - 신한카드 (owed): +54,000 +38,000 −4,000 −54,000 = 34,000; +3,000 coffee = 37,000.
//! - 식비: 7,000 (Feb); March 9,000 + 11,000 + 54,000 + 30,000 − 4,000 + 3,000 = 103,000.
//! - 교통비: 1,500 + 8,000 = 9,500.
//! - Net worth at March end: 3,417,500 − 37,000 = 3,380,500
//!   (= equity 500,000 + income 3,000,000 − expenses 119,500).

#[path = "tools_harness.rs"]
mod harness;

use harness::{Client, Harness, balances_by_name};
use serde_json::{Value, json};

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

async fn balances(p: &Client<'_>, as_of: Option<&str>) -> Value {
    let args = match as_of {
        Some(d) => json!({"asOf": d}),
        None => json!({}),
    };
    p.ok("get_balances", &args.to_string()).await
}

#[tokio::test]
async fn a_household_month() {
    let h = Harness::new().await;
    let p = h.person("household-month");

    // Set-up: the vault and its accounts.
    let vault = p
        .ok(
            "create_vault",
            r#"{"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}"#,
        )
        .await;
    assert_eq!(vault["today"], "2026-03-31");
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "500000", "openingDate": "2026-02-28"}"#,
    )
    .await;
    for (name, kind) in [
        ("신한카드", "liability"),
        ("월급", "income"),
        ("식비", "expense"),
        ("교통비", "expense"),
    ] {
        let r = p
            .ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
        assert_eq!(r["balance"], "0");
    }

    // February: one lunch.
    p.record("카카오뱅크", "식비", "7000", "2026-02-27", "점심", "feb-lunch")
        .await;

    // March.
    let lunch = p
        .ok(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "date": "2026-03-02", "memo": "점심 김밥", "idempotencyKey": "mar-lunch-1"}"#,
        )
        .await;
    assert_eq!(
        lunch["balances"].as_array().map(|b| b
            .iter()
            .map(|x| json!([x["account"], x["balance"]]))
            .collect::<Vec<_>>()),
        Some(vec![json!(["식비", "16000"]), json!(["카카오뱅크", "484000"])])
    );
    p.record(
        "카카오뱅크",
        "식비",
        "11000",
        "2026-03-03",
        "점심 국밥",
        "mar-lunch-2",
    )
    .await;
    let purchase = p
        .ok(
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": 54000, "date": "2026-03-05", "memo": "마트 장보기", "idempotencyKey": "mar-card"}"#,
        )
        .await;
    assert_eq!(
        purchase["balances"][1],
        json!({"accountId": purchase["balances"][1]["accountId"], "account": "신한카드", "balance": "54000"})
    );
    let bus = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-07", "버스", "mar-bus")
        .await;
    p.record(
        "카카오뱅크",
        "교통비",
        "1500",
        "2026-03-07",
        "지하철",
        "mar-subway",
    )
    .await;
    let split = p
        .ok(
            "record_split_transaction",
            r#"{"from": [{"account": "신한카드", "amount": "38000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": "8000"}], "date": "2026-03-10", "memo": "마트 + 교통카드 충전", "idempotencyKey": "mar-split"}"#,
        )
        .await;
    assert_eq!(split["transaction"]["postings"].as_array().map(Vec::len), Some(3));
    // A refund reverses part of a purchase: money leaves 식비 and returns to the card.
    p.record(
        "식비",
        "신한카드",
        "4000",
        "2026-03-12",
        "환불 (마트)",
        "mar-refund",
    )
    .await;
    p.record(
        "카카오뱅크",
        "신한카드",
        "54000",
        "2026-03-15",
        "카드대금",
        "mar-card-bill",
    )
    .await;
    p.record(
        "월급",
        "카카오뱅크",
        "3000000",
        "2026-03-25",
        "3월 월급",
        "mar-salary",
    )
    .await;

    // The bus ride was entered by mistake.
    let voided = p
        .ok(
            "void_transaction",
            &json!({"transactionId": bus, "reason": "잘못 입력"}).to_string(),
        )
        .await;
    assert_eq!(
        (
            voided["transaction"]["voided"].clone(),
            voided["alreadyVoided"].clone()
        ),
        (json!(true), json!(false))
    );

    // Mid-month balances (end of 2026-03-10).
    let mid = balances(&p, Some("2026-03-10")).await;
    assert_eq!(
        balances_by_name(&mid),
        pairs(&[
            ("카카오뱅크", "471500"),
            ("신한카드", "92000"),
            ("월급", "0"),
            ("교통비", "9500"),
            ("식비", "111000"),
            ("Opening Balances", "500000"),
        ])
    );
    assert_eq!(
        mid["totals"],
        json!({"assets": "471500", "liabilities": "92000", "netWorth": "379500"})
    );

    // Snapshots: the bank app agrees on the 15th; the card app shows 3,000 more on the 20th.
    let bank = p
        .ok(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-03-15", "balance": "417500"}"#,
        )
        .await;
    assert_eq!(
        (bank["ledgerBalance"].clone(), bank["difference"].clone()),
        (json!("417500"), json!("0"))
    );
    let card = p
        .ok(
            "upsert_snapshot",
            r#"{"account": "신한카드", "date": "2026-03-20", "balance": "37000"}"#,
        )
        .await;
    assert_eq!(
        (card["ledgerBalance"].clone(), card["difference"].clone()),
        (json!("34000"), json!("3000"))
    );
    let reconcile_rows = |r: &Value| -> Vec<Value> {
        r["accounts"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|a| {
                json!([
                    a["name"],
                    a["snapshotDate"],
                    a["snapshotBalance"],
                    a["ledgerBalance"],
                    a["difference"],
                    a["status"]
                ])
            })
            .collect()
    };
    let before = p.ok("reconcile", "{}").await;
    assert_eq!(
        reconcile_rows(&before),
        vec![
            json!(["신한카드", "2026-03-20", "37000", "34000", "3000", "mismatch"]),
            json!(["카카오뱅크", "2026-03-15", "417500", "417500", "0", "matched"]),
        ]
    );

    // The difference was a coffee paid by card and never entered.
    p.record("신한카드", "식비", "3000", "2026-03-18", "커피", "mar-coffee")
        .await;
    let after = p.ok("reconcile", r#"{"account": "신한카드"}"#).await;
    assert_eq!(
        reconcile_rows(&after),
        vec![json!([
            "신한카드",
            "2026-03-20",
            "37000",
            "37000",
            "0",
            "matched"
        ])]
    );

    // Month-end balances (today, 2026-03-31).
    let end = balances(&p, None).await;
    assert_eq!(end["asOf"], "2026-03-31");
    assert_eq!(
        balances_by_name(&end),
        pairs(&[
            ("카카오뱅크", "3417500"),
            ("신한카드", "37000"),
            ("월급", "3000000"),
            ("교통비", "9500"),
            ("식비", "110000"),
            ("Opening Balances", "500000"),
        ])
    );
    assert_eq!(
        end["totals"],
        json!({"assets": "3417500", "liabilities": "37000", "netWorth": "3380500"})
    );
    let accounts = p.ok("list_accounts", "{}").await;
    assert_eq!(
        accounts["accounts"].as_array().map(|a| a
            .iter()
            .map(|x| json!([x["name"], x["balance"]]))
            .collect::<Vec<_>>()),
        Some(vec![
            json!(["카카오뱅크", "3417500"]),
            json!(["신한카드", "37000"]),
            json!(["월급", "3000000"]),
            json!(["교통비", "9500"]),
            json!(["식비", "110000"]),
            json!(["Opening Balances", "500000"]),
        ])
    );

    // Spending in March, by account (largest first) and by month; income.
    let march = p
        .ok("spending_report", r#"{"from": "2026-03-01", "to": "2026-03-31"}"#)
        .await;
    assert_eq!(march["total"], "112500");
    assert_eq!(
        march["rows"].as_array().map(|r| r
            .iter()
            .map(|x| json!([x["account"], x["amount"]]))
            .collect::<Vec<_>>()),
        Some(vec![json!(["식비", "103000"]), json!(["교통비", "9500"])])
    );
    let by_month = p
        .ok(
            "spending_report",
            r#"{"from": "2026-02-01", "to": "2026-03-31", "by": "month"}"#,
        )
        .await;
    assert_eq!(by_month["total"], "119500");
    assert_eq!(
        by_month["rows"].as_array().map(|r| r
            .iter()
            .map(|x| json!([x["month"], x["amount"]]))
            .collect::<Vec<_>>()),
        Some(vec![json!(["2026-02", "7000"]), json!(["2026-03", "112500"])])
    );
    let income = p
        .ok(
            "spending_report",
            r#"{"from": "2026-03-01", "to": "2026-03-31", "kind": "income"}"#,
        )
        .await;
    assert_eq!(income["total"], "3000000");
    assert_eq!(income["rows"].as_array().map(Vec::len), Some(1));

    // Net worth at each month's end.
    let history = p
        .ok("net_worth_history", r#"{"from": "2026-01", "to": "2026-03"}"#)
        .await;
    assert_eq!(
        history["points"],
        json!([
            {"month": "2026-01", "assets": "0", "liabilities": "0", "netWorth": "0"},
            {"month": "2026-02", "assets": "493000", "liabilities": "0", "netWorth": "493000"},
            {"month": "2026-03", "assets": "3417500", "liabilities": "37000", "netWorth": "3380500"},
        ])
    );

    // Every March entry is listed, newest first by date; the voided one is kept and marked.
    let listed = p
        .ok(
            "list_transactions",
            r#"{"from": "2026-03-01", "to": "2026-03-31"}"#,
        )
        .await;
    let rows: Vec<Value> = listed["transactions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|t| json!([t["date"], t["memo"], t["voided"]]))
        .collect();
    assert_eq!(
        rows,
        vec![
            json!(["2026-03-25", "3월 월급", false]),
            json!(["2026-03-18", "커피", false]),
            json!(["2026-03-15", "카드대금", false]),
            json!(["2026-03-12", "환불 (마트)", false]),
            json!(["2026-03-10", "마트 + 교통카드 충전", false]),
            json!(["2026-03-07", "지하철", false]),
            json!(["2026-03-07", "버스", true]),
            json!(["2026-03-05", "마트 장보기", false]),
            json!(["2026-03-03", "점심 국밥", false]),
            json!(["2026-03-02", "점심 김밥", false]),
        ]
    );
}

// ---- corrections: an edited entry and a deleted snapshot ----

#[tokio::test]
async fn a_household_corrects_an_entry_and_a_snapshot() {
    let h = Harness::new().await;
    let p = h.person("household-corrections");
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "500000", "openingDate": "2026-02-28"}"#,
    )
    .await;
    p.ok("create_account", r#"{"name": "식비", "kind": "expense"}"#)
        .await;
    let id = p
        .record("카카오뱅크", "식비", "12000", "2026-03-20", "점심", "fix-lunch")
        .await;
    // The receipt said 9,000: corrected in place, same id. By hand: 500,000 - 9,000.
    let fixed = p
        .ok(
            "edit_transaction",
            &json!({"transactionId": id, "amount": "9000", "idempotencyKey": "fix-lunch-amount"}).to_string(),
        )
        .await;
    assert_eq!(fixed["transaction"]["transactionId"], id.as_str());
    let b = balances(&p, None).await;
    assert!(balances_by_name(&b).contains(&("카카오뱅크".to_owned(), "491000".to_owned())));
    assert!(balances_by_name(&b).contains(&("식비".to_owned(), "9000".to_owned())));
    let march = p
        .ok("spending_report", r#"{"from": "2026-03", "to": "2026-03"}"#)
        .await;
    assert_eq!(march["total"], "9000");
    // A snapshot typed on the wrong date is deleted; reconcile then uses the right one.
    p.ok(
        "upsert_snapshot",
        r#"{"account": "카카오뱅크", "date": "2026-03-30", "balance": "491000"}"#,
    )
    .await;
    p.ok(
        "upsert_snapshot",
        r#"{"account": "카카오뱅크", "date": "2026-03-31", "balance": "1"}"#,
    )
    .await;
    let wrong = p.ok("reconcile", "{}").await;
    assert_eq!(wrong["accounts"][0]["difference"], "-490999");
    let gone = p
        .ok(
            "delete_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-03-31"}"#,
        )
        .await;
    assert_eq!(gone["deleted"], true);
    let right = p.ok("reconcile", "{}").await;
    assert_eq!(
        (
            right["accounts"][0]["snapshotDate"].clone(),
            right["accounts"][0]["difference"].clone()
        ),
        (json!("2026-03-30"), json!("0"))
    );
}
