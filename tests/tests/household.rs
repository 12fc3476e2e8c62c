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

// ---------------------------------------------------------------- sharing (issue 16)
//
// Two people, two tokens, one book: 민지's token creates 우리집 and shares it, 준호's
// token joins (he already has a 우리집 of his own, so he names it 같이), both record,
// both see both entries with who recorded each, the report adds them up, and once
// 민지 removes him, 준호's very next calls are refused.

#[tokio::test]
async fn two_people_keep_one_book() {
    let h = Harness::new().await;
    let minji = h.person("household-minji");
    let junho = h.person("household-junho");

    minji
        .ok("create_vault", r#"{"name": "우리집", "currency": "KRW"}"#)
        .await;
    for (name, kind) in [("카카오뱅크", "asset"), ("식비", "expense")] {
        minji
            .ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
    junho.ok("create_vault", r#"{"name": "우리집"}"#).await;

    let invite = minji.ok("share_vault", r#"{"vault": "우리집"}"#).await;
    assert_eq!(invite["role"], "member");
    let code = invite["inviteCode"].as_str().expect("inviteCode").to_owned();
    let clash = junho
        .err("join_vault", &json!({"inviteCode": code}).to_string())
        .await;
    assert!(clash.contains("`name`"), "{clash}");
    let joined = junho
        .ok(
            "join_vault",
            &json!({"inviteCode": code, "name": "같이"}).to_string(),
        )
        .await;
    assert_eq!(
        (joined["vault"]["name"].as_str(), joined["role"].as_str()),
        (Some("같이"), Some("member"))
    );
    let names: Vec<&str> = joined["members"]
        .as_array()
        .expect("members")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.iter().all(|n| n.starts_with("member-")), "{names:?}");

    minji
        .record("카카오뱅크", "식비", "12000", "2026-03-20", "장보기", "shared-1")
        .await;
    // The same idempotencyKey string from the other person is a separate entry.
    let args = json!({"vault": "같이", "from": "카카오뱅크", "to": "식비", "amount": "8000", "date": "2026-03-21", "memo": "점심", "idempotencyKey": "shared-1"});
    let r = junho.ok("record_transaction", &args.to_string()).await;
    assert_eq!(r["replayed"], false);

    let listed_by_minji = minji.ok("list_transactions", r#"{"vault": "우리집"}"#).await;
    let listed_by_junho = junho.ok("list_transactions", r#"{"vault": "같이"}"#).await;
    let who = |v: &Value| -> Vec<(String, String)> {
        v["transactions"]
            .as_array()
            .unwrap_or(&vec![])
            .iter()
            .map(|t| {
                (
                    t["memo"].as_str().unwrap_or("").to_owned(),
                    t["recordedBy"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    };
    assert_eq!(who(&listed_by_minji), who(&listed_by_junho));
    let recorders: Vec<String> = who(&listed_by_minji).into_iter().map(|(_, by)| by).collect();
    assert_eq!(recorders.len(), 2);
    assert_ne!(recorders[0], recorders[1], "each entry names its own recorder");

    let report = junho
        .ok(
            "spending_report",
            r#"{"vault": "같이", "from": "2026-03-01", "to": "2026-03-31"}"#,
        )
        .await;
    assert_eq!(report["total"], "20000");
    let vaults = minji.ok("list_vaults", "{}").await;
    assert_eq!(
        (
            vaults["vaults"][0]["role"].as_str(),
            vaults["vaults"][0]["memberCount"].as_u64()
        ),
        (Some("owner"), Some(2))
    );

    // Members may not do what owners do; the refusal names the role.
    let refused = junho
        .err(
            "rename_account",
            r#"{"vault": "같이", "account": "식비", "newName": "외식"}"#,
        )
        .await;
    assert!(refused.contains("Only an owner"), "{refused}");

    let partner = names
        .iter()
        .find(|n| **n != names[0])
        .expect("partner")
        .to_string();
    let removed = minji
        .ok(
            "remove_member",
            &json!({"vault": "우리집", "member": partner}).to_string(),
        )
        .await;
    assert_eq!(removed["removed"], true);
    let after = junho.err("list_transactions", r#"{"vault": "같이"}"#).await;
    assert!(after.starts_with("No vault named \"같이\""), "{after}");
    let write = junho.err("record_transaction", &json!({"vault": "같이", "from": "카카오뱅크", "to": "식비", "amount": "1000", "idempotencyKey": "after"}).to_string()).await;
    assert!(write.starts_with("No vault named \"같이\""), "{write}");
    // His own 우리집 is untouched.
    assert_eq!(
        junho.ok("list_vaults", "{}").await["vaults"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}
