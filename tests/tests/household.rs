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

use crate::harness::{Client, Harness, balances_by_name};
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
            "record_transaction",
            r#"{"lines": {"from": [{"account": "신한카드", "amount": "38000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": "8000"}]}, "date": "2026-03-10", "memo": "마트 + 교통카드 충전", "idempotencyKey": "mar-split"}"#,
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
            ("기초잔액", "500000"),
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
            ("기초잔액", "500000"),
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
            json!(["기초잔액", "500000"]),
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

    // Every March entry is listed, newest first by date; the voided one is kept and
    // marked, shown only when asked for (by default a listing leaves it out).
    let listed = p
        .ok(
            "list_transactions",
            r#"{"from": "2026-03-01", "to": "2026-03-31", "includeVoided": true}"#,
        )
        .await;
    let live = p
        .ok(
            "list_transactions",
            r#"{"from": "2026-03-01", "to": "2026-03-31"}"#,
        )
        .await;
    assert_eq!(
        live["transactions"].as_array().map(Vec::len),
        listed["transactions"].as_array().map(|t| t.len() - 1),
        "all but the voided one"
    );
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

// ==================================================================== budgets
//
// A budget month, on the embedded store and on DynamoDB. Vault 가계부 (KRW,
// Asia/Seoul), today 2026-03-31. Budgets from March: 식비 600,000, 교통비 100,000
// (set without a month: this month). Hand computation (won):
// - 식비: 9,000 + 54,000 + 30,000 (split) − 4,000 (refund) = 89,000; the February
//   7,000 is another month. Remaining 511,000; 89,000 × 100 ÷ 600,000 = 14.83… → 14.
// - 교통비: 1,500 + 8,000 (split) + 95,000 = 104,500 (the voided 1,400 does not
//   count). Remaining −4,500; 104.5 % → 104; over.
// - Totals: budget 700,000, spent 193,500, remaining 506,500; 27.64… % → 27.
// - 쇼핑 has no budget: unbudgetedSpent 120,000.
// - Today is the last day: daysLeft 1, dailyAllowance 506,500 ÷ 1 = 506,500.

async fn a_budget_month_on(h: Harness) {
    let p = h.person("household-budgets");
    p.ok("create_vault", r#"{"name": "가계부"}"#).await;
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "1000000", "openingDate": "2026-02-01"}"#,
    )
    .await;
    for (name, kind) in [
        ("신한카드", "liability"),
        ("식비", "expense"),
        ("교통비", "expense"),
        ("쇼핑", "expense"),
    ] {
        p.ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
    let food = p
        .ok(
            "set_budget",
            r#"{"account": "식비", "amount": "600000", "month": "2026-03"}"#,
        )
        .await;
    let food_id = food["accountId"].clone();
    assert_eq!(
        food,
        json!({"vault": food["vault"], "currency": "KRW", "accountId": food_id, "account": "식비", "month": "2026-03", "amount": "600000", "repeat": true, "rollover": false})
    );
    let transport = p
        .ok("set_budget", r#"{"account": "교통비", "amount": 100000}"#)
        .await;
    let transport_id = transport["accountId"].clone();
    assert_eq!(
        (
            transport["month"].clone(),
            transport["amount"].clone(),
            transport["repeat"].clone()
        ),
        (json!("2026-03"), json!("100000"), json!(true))
    );
    let refused = p
        .err("set_budget", r#"{"account": "카카오뱅크", "amount": "1000"}"#)
        .await;
    assert_eq!(
        refused,
        "Invalid account: \"카카오뱅크\" is an asset account; budgets are for expense accounts such as \"식비\" (list_accounts shows each account's kind)."
    );
    // A full date is not a month, as budget_report says too; nothing is set.
    let refused = p
        .err(
            "set_budget",
            r#"{"account": "식비", "amount": "1", "month": "2026-04-15"}"#,
        )
        .await;
    assert!(
        refused.contains("\"2026-04-15\" is a date; the month is YYYY-MM: send \"2026-04\" for that month"),
        "{refused}"
    );

    p.record("카카오뱅크", "식비", "7000", "2026-02-27", "2월 점심", "b-feb")
        .await;
    p.record("카카오뱅크", "식비", "9000", "2026-03-02", "점심", "b-lunch")
        .await;
    p.record("신한카드", "식비", "54000", "2026-03-05", "마트", "b-mart")
        .await;
    let bus = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-07", "버스", "b-bus")
        .await;
    p.record("카카오뱅크", "교통비", "1500", "2026-03-07", "지하철", "b-subway")
        .await;
    p.ok(
        "record_transaction",
        r#"{"lines": {"from": [{"account": "신한카드", "amount": "38000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": "8000"}]}, "date": "2026-03-10", "memo": "마트 + 교통카드", "idempotencyKey": "b-split"}"#,
    )
    .await;
    p.record("식비", "신한카드", "4000", "2026-03-12", "환불", "b-refund")
        .await;
    p.record("신한카드", "쇼핑", "120000", "2026-03-20", "운동화", "b-shoes")
        .await;
    p.ok(
        "record_transaction",
        r#"{"from": "카카오뱅크", "to": "교통비", "amount": "95000", "memo": "KTX", "idempotencyKey": "b-ktx"}"#,
    )
    .await;
    p.ok(
        "void_transaction",
        &json!({"transactionId": bus, "reason": "잘못 입력"}).to_string(),
    )
    .await;

    let report = p.ok("budget_report", "{}").await;
    // 104.5 % over budget reads 105: rounded up once over, so it is above 100 exactly when `over`.
    assert_eq!(
        report,
        json!({
            "vault": report["vault"],
            "currency": "KRW",
            "month": "2026-03",
            "rows": [
                {"accountId": transport_id, "account": "교통비", "budget": "100000", "spent": "104500", "remaining": "-4500", "percentUsed": 105, "over": true},
                {"accountId": food_id, "account": "식비", "budget": "600000", "spent": "89000", "remaining": "511000", "percentUsed": 14, "over": false},
            ],
            "totals": {"budget": "700000", "spent": "193500", "remaining": "506500", "percentUsed": 27, "over": false},
            "unbudgetedSpent": "120000",
            "daysLeft": 1,
            "dailyAllowance": "506500",
        })
    );
    assert_eq!(report["vault"]["name"], "가계부");
    // February had no budget yet; April (a future month) carries March's budgets.
    let february = p.ok("budget_report", r#"{"month": "2026-02"}"#).await;
    assert_eq!(
        (
            february["rows"].clone(),
            february["totals"].clone(),
            february["unbudgetedSpent"].clone(),
            february.get("daysLeft").is_some()
        ),
        (
            json!([]),
            json!({"budget": "0", "spent": "0", "remaining": "0", "over": false}),
            json!("7000"),
            false
        )
    );
    let april = p.ok("budget_report", r#"{"month": "2026-04"}"#).await;
    assert_eq!(
        (
            april["totals"].clone(),
            april["unbudgetedSpent"].clone(),
            april.get("dailyAllowance").is_some()
        ),
        (
            json!({"budget": "700000", "spent": "0", "remaining": "700000", "percentUsed": 0, "over": false}),
            json!("0"),
            false
        )
    );
    // list_accounts shows this month's budget on the budgeted expense accounts only.
    let accounts = p.ok("list_accounts", "{}").await;
    assert_eq!(
        accounts["accounts"].as_array().map(|a| a
            .iter()
            .map(|x| json!([x["name"], x.get("budget")]))
            .collect::<Vec<_>>()),
        Some(vec![
            json!(["카카오뱅크", null]),
            json!(["신한카드", null]),
            json!(["교통비", "100000"]),
            json!(["쇼핑", null]),
            json!(["식비", "600000"]),
            json!(["기초잔액", null]),
        ])
    );
}

#[tokio::test]
async fn a_budget_month() {
    a_budget_month_on(Harness::new().await).await;
}

dochiya_testkit::moto_only! {
    /// The same budget month with the ledger over DynamoDB (the local moto server).
    #[tokio::test]
    async fn a_budget_month_on_dynamodb() {
        use dochiya_store_dynamodb::{DynamoStore, TableCreation, create_table, load_client};
        assert!(
            std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB").is_some(),
            "AWS_ENDPOINT_URL_DYNAMODB is not set: this test needs the local moto server that tests/run.sh starts"
        );
        let client = load_client().await;
        let table = format!(
            "household-budgets-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        );
        assert_eq!(
            create_table(&client, &table).await.expect("create table"),
            TableCreation::Created
        );
        a_budget_month_on(Harness::over(std::sync::Arc::new(DynamoStore::new(client, table))).await).await;
    }
}

// ============================================================ record_transactions
//
// A month of one card imported from its statement, twice: 60 lines of a
// synthetic 신한카드 statement (Korean merchants, four refunds), each with its
// approval number as externalRef. The first import records all 60; the second
// (a new key: the person pasted the statement again) finds every line by its
// approval number and records nothing; balances and spending_report are exact
// and unchanged. The expected figures are summed here from the statement table.

/// (merchant, category, base amount in won) of the synthetic statement.
const MERCHANTS: [(&str, &str, i64); 12] = [
    ("스타벅스 강남역점", "식비", 5_600),
    ("김밥천국 역삼점", "식비", 8_500),
    ("배달의민족", "식비", 23_000),
    ("GS25 테헤란점", "식비", 3_200),
    ("이마트 성수점", "생활용품", 64_300),
    ("다이소 선릉점", "생활용품", 7_000),
    ("쿠팡", "쇼핑", 38_900),
    ("올리브영 강남점", "쇼핑", 27_500),
    ("무신사", "쇼핑", 89_000),
    ("카카오T 택시", "교통비", 12_800),
    ("티머니 충전", "교통비", 30_000),
    ("코레일 KTX", "교통비", 59_800),
];

/// One statement line: approval number, date, merchant, category, amount, refund.
struct Line {
    approval: String,
    date: String,
    memo: String,
    category: &'static str,
    amount: i64,
    refund: bool,
}

/// 60 lines over March 2026; every 15th line refunds the line before it.
fn card_statement() -> Vec<Line> {
    (0..60usize)
        .map(|i| {
            let refund = i % 15 == 14;
            let m = if refund { i - 1 } else { i };
            let (merchant, category, base) = MERCHANTS[m % MERCHANTS.len()];
            let amount = base + 100 * i64::try_from(m / MERCHANTS.len()).unwrap_or(0);
            Line {
                approval: format!("{:08}", 30_000_000 + i * 7_919),
                date: format!("2026-03-{:02}", 1 + i / 2),
                memo: if refund {
                    format!("{merchant} 환불")
                } else {
                    merchant.to_owned()
                },
                category,
                amount,
                refund,
            }
        })
        .collect()
}

fn statement_entries(lines: &[Line]) -> Value {
    Value::Array(
        lines
            .iter()
            .map(|l| {
                let (from, to) = if l.refund {
                    (l.category, "신한카드")
                } else {
                    ("신한카드", l.category)
                };
                json!({
                    "from": from, "to": to, "amount": l.amount.to_string(), "date": l.date,
                    "memo": l.memo, "externalRef": l.approval,
                })
            })
            .collect(),
    )
}

#[tokio::test]
async fn a_card_statement_imported_twice() {
    let h = Harness::new().await;
    let p = h.person("statement-import");
    p.ok(
        "create_vault",
        r#"{"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}"#,
    )
    .await;
    for (name, kind) in [
        ("신한카드", "liability"),
        ("식비", "expense"),
        ("생활용품", "expense"),
        ("쇼핑", "expense"),
        ("교통비", "expense"),
    ] {
        p.ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
    let lines = card_statement();
    assert_eq!(lines.iter().filter(|l| l.refund).count(), 4);
    // Expected totals, summed from the table: net spending per category, and what the card owes.
    let mut by_category: Vec<(&str, i64)> = Vec::new();
    for l in &lines {
        let signed = if l.refund { -l.amount } else { l.amount };
        match by_category.iter_mut().find(|(c, _)| *c == l.category) {
            Some((_, total)) => *total += signed,
            None => by_category.push((l.category, signed)),
        }
    }
    let owed: i64 = by_category.iter().map(|(_, t)| t).sum();
    by_category.sort_by_key(|c| std::cmp::Reverse(c.1));
    // The same sums, computed once outside this test from the same table (a fixed oracle).
    assert_eq!(
        (owed, by_category.clone()),
        (
            1_548_900,
            vec![
                ("쇼핑", 662_900),
                ("교통비", 425_400),
                ("생활용품", 286_800),
                ("식비", 173_800)
            ]
        )
    );
    let entries = statement_entries(&lines);

    // A dry run first, as the description asks: all 60 would be recorded.
    let dry = p
        .ok(
            "record_transactions",
            &json!({"entries": entries, "idempotencyKey": "shinhan-2026-03", "dryRun": true}).to_string(),
        )
        .await;
    assert_eq!(
        dry["counts"],
        json!({"recorded": 0, "wouldRecord": 60, "replayed": 0, "duplicate": 0, "error": 0})
    );
    assert_eq!(dry["dryRun"], true);

    let first = p
        .ok(
            "record_transactions",
            &json!({"entries": entries, "idempotencyKey": "shinhan-2026-03"}).to_string(),
        )
        .await;
    assert_eq!(
        first["counts"],
        json!({"recorded": 60, "replayed": 0, "duplicate": 0, "error": 0})
    );
    let ids: Vec<Value> = first["results"]
        .as_array()
        .map(|r| r.iter().map(|e| e["transactionId"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(ids.len(), 60);
    assert!(ids.iter().all(Value::is_string));
    let card_balance = first["balances"]
        .as_array()
        .and_then(|b| b.iter().find(|b| b["account"] == "신한카드"))
        .map(|b| b["balance"].clone());
    assert_eq!(card_balance, Some(json!(owed.to_string())));

    const MARCH: &str = r#"{"from": "2026-03-01", "to": "2026-03-31"}"#;
    let check = |balances: &Value, spending: &Value| {
        let expected_rows: Vec<(String, String)> = by_category
            .iter()
            .map(|(c, t)| ((*c).to_owned(), t.to_string()))
            .collect();
        let rows: Vec<(String, String)> = spending["rows"]
            .as_array()
            .map(|r| {
                r.iter()
                    .map(|row| {
                        (
                            row["account"].as_str().unwrap_or_default().to_owned(),
                            row["amount"].as_str().unwrap_or_default().to_owned(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(rows, expected_rows);
        assert_eq!(spending["total"], json!(owed.to_string()));
        let mut expected_balances: Vec<(String, String)> = expected_rows.clone();
        expected_balances.push(("신한카드".to_owned(), owed.to_string()));
        expected_balances.sort();
        let mut got = balances_by_name(balances);
        got.sort();
        assert_eq!(got, expected_balances);
    };
    let balances_1 = p.ok("get_balances", "{}").await;
    let spending_1 = p.ok("spending_report", MARCH).await;
    check(&balances_1, &spending_1);

    // The statement pasted again, under a new key: every line is found by its approval number.
    let second = p
        .ok(
            "record_transactions",
            &json!({"entries": entries, "idempotencyKey": "shinhan-2026-03-again"}).to_string(),
        )
        .await;
    assert_eq!(
        second["counts"],
        json!({"recorded": 0, "replayed": 0, "duplicate": 60, "error": 0})
    );
    for (i, r) in second["results"].as_array().into_iter().flatten().enumerate() {
        assert_eq!(r["status"], "duplicate", "line {i}");
        assert_eq!(r["matchedBy"], "externalRef", "line {i}");
        assert_eq!(r["transactionId"], ids[i], "line {i}");
    }
    let balances_2 = p.ok("get_balances", "{}").await;
    let spending_2 = p.ok("spending_report", MARCH).await;
    check(&balances_2, &spending_2);
    assert_eq!(balances_2, balances_1);
    assert_eq!(spending_2, spending_1);
}

// ---------------------------------------------------------------- sharing
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
    // Dev tokens carry a display name (the subject unless `--name` says otherwise): no
    // `member-xxxxxxxx` handles for people who never set a name.
    assert_eq!(names, vec!["household-minji", "household-junho"]);

    minji
        .record("카카오뱅크", "식비", "12000", "2026-03-20", "장보기", "shared-1")
        .await;
    // The same idempotencyKey string from the other person is a separate entry.
    let args = json!({"vault": "같이", "from": "카카오뱅크", "to": "식비", "amount": "8000", "date": "2026-03-21", "memo": "점심", "idempotencyKey": "shared-1"});
    let r = junho.ok("record_transaction", &args.to_string()).await;
    assert_eq!(r["replayed"], false);

    // "방금 거" for each: their own newest entry, not the book's newest.
    async fn just_entered(p: &Client<'_>, vault: &str) -> Value {
        let args = json!({"vault": vault, "recordedBy": "me", "order": "recorded", "limit": 1});
        p.ok("list_transactions", &args.to_string()).await["transactions"][0]["memo"].clone()
    }
    assert_eq!(just_entered(&minji, "우리집").await, "장보기");
    assert_eq!(just_entered(&junho, "같이").await, "점심");
    let by_junho = minji
        .ok(
            "list_transactions",
            r#"{"vault": "우리집", "recordedBy": "household-junho"}"#,
        )
        .await;
    assert_eq!(by_junho["transactions"][0]["memo"], "점심");
    let nobody = minji
        .err(
            "list_transactions",
            r#"{"vault": "우리집", "recordedBy": "민수"}"#,
        )
        .await;
    assert_eq!(
        nobody,
        "No member named \"민수\" in vault \"우리집\". Closest names: \"household-minji\", \"household-junho\". Use one of them exactly, call list_vaults to see every name."
    );

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
            "update_account",
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
    // Named, the shared vault says his access ended (never "no such vault").
    let ended = "Your access to vault \"같이\" ended on 2026-03-31 (an owner removed you).";
    let after = junho.err("list_transactions", r#"{"vault": "같이"}"#).await;
    assert!(after.starts_with(ended), "{after}");
    let write = junho.err("record_transaction", &json!({"vault": "같이", "from": "카카오뱅크", "to": "식비", "amount": "1000", "idempotencyKey": "after"}).to_string()).await;
    assert!(write.starts_with(ended), "{write}");
    // His own 우리집 is untouched.
    assert_eq!(
        junho.ok("list_vaults", "{}").await["vaults"]
            .as_array()
            .map(Vec::len),
        Some(1)
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

// ---- names: an archived card and a new one of the same name ----

/// The old 국민카드 is paid off and archived; a new 국민카드 is opened. By hand (won):
/// - old 국민카드: +12,000 lunch (3/3) +1,500 bus (3/5) −13,500 bill (3/10) = 0 owed;
/// - new 국민카드: 30,000 dinner (3/25) + 4,500 coffee (3/28) = 34,500 owed;
/// - 카카오뱅크: 500,000 − 13,500 = 486,500; net worth 486,500 − 34,500 = 452,000;
/// - March spending: 식비 12,000 + 30,000 + 4,500 = 46,500, 교통비 1,500; total 48,000.
#[tokio::test]
async fn a_household_reaches_an_archived_card_by_its_handle() {
    let h = Harness::new().await;
    let p = h.person("household-handles");
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "500000", "openingDate": "2026-02-28"}"#,
    )
    .await;
    for (name, kind) in [
        ("국민카드", "liability"),
        ("식비", "expense"),
        ("교통비", "expense"),
    ] {
        p.ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
    p.record("국민카드", "식비", "12000", "2026-03-03", "점심", "h-lunch")
        .await;
    p.record("국민카드", "교통비", "1500", "2026-03-05", "버스", "h-bus")
        .await;
    p.record(
        "카카오뱅크",
        "국민카드",
        "13500",
        "2026-03-10",
        "카드대금",
        "h-bill",
    )
    .await;
    p.ok(
        "upsert_snapshot",
        r#"{"account": "국민카드", "date": "2026-03-10", "balance": "0"}"#,
    )
    .await;
    let old = p
        .ok("update_account", r#"{"account": "국민카드", "archive": true}"#)
        .await;
    assert_eq!(old["balance"], "0");
    let new = p
        .ok("create_account", r#"{"name": "국민카드", "kind": "liability"}"#)
        .await;
    assert_eq!(new["created"], true);
    p.record("국민카드", "식비", "30000", "2026-03-25", "저녁", "h-dinner")
        .await;
    p.record("국민카드", "식비", "4500", "2026-03-28", "커피", "h-coffee")
        .await;

    // Archived today (2026-03-31 in Seoul): the listing shows its handle.
    let handle = "국민카드 (archived 2026-03-31)";
    let listed = p.ok("list_accounts", r#"{"includeArchived": true}"#).await;
    let cards: Vec<Value> = listed["accounts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a["name"] == "국민카드")
        .map(|a| json!([a["accountId"], a["balance"], a.get("handle")]))
        .collect();
    assert_eq!(
        cards,
        vec![
            json!([new["accountId"], "34500", null]),
            json!([old["account"]["accountId"], "0", handle]),
        ]
    );

    // Filtered by the plain name: the new card, and the note says which and how to reach the old one.
    let summary = |r: &Value, account: &Value| -> (Vec<String>, i64) {
        let txs = r["transactions"].as_array().cloned().unwrap_or_default();
        let memos = txs
            .iter()
            .map(|t| t["memo"].as_str().unwrap_or_default().to_owned())
            .collect();
        let net = txs
            .iter()
            .flat_map(|t| t["postings"].as_array().cloned().unwrap_or_default())
            .filter(|p| &p["accountId"] == account)
            .map(|p| {
                p["amount"]
                    .as_str()
                    .unwrap_or_default()
                    .parse::<i64>()
                    .unwrap_or(i64::MIN)
            })
            .sum();
        (memos, net)
    };
    let by_name = p.ok("list_transactions", r#"{"account": "국민카드"}"#).await;
    assert_eq!(
        summary(&by_name, &new["accountId"]),
        (vec!["커피".to_owned(), "저녁".to_owned()], -34500)
    );
    assert_eq!(
        by_name["accountNote"],
        format!(
            "\"국민카드\" means the active account ({}); archived accounts had that name too: pass \"{handle}\" as `account` to see one instead.",
            new["accountId"].as_str().unwrap_or_default()
        )
    );
    // Filtered by the handle: the old card's three entries, netting to zero.
    let by_handle = p
        .ok("list_transactions", &json!({"account": handle}).to_string())
        .await;
    assert_eq!(
        summary(&by_handle, &old["account"]["accountId"]),
        (
            vec!["카드대금".to_owned(), "버스".to_owned(), "점심".to_owned()],
            0
        )
    );
    assert_eq!(by_handle.get("accountNote"), None);

    // Reconcile by the handle: the old card's snapshot, matched, under its handle.
    let r = p.ok("reconcile", &json!({"account": handle}).to_string()).await;
    assert_eq!(
        r["accounts"],
        json!([{
            "accountId": old["account"]["accountId"], "name": handle, "snapshotDate": "2026-03-10",
            "snapshotBalance": "0", "ledgerBalance": "0", "difference": "0", "status": "matched",
        }])
    );

    // Totals are unchanged by the names: by hand 486,500 − 34,500 and 46,500 + 1,500.
    let b = balances(&p, None).await;
    assert_eq!(b["totals"]["netWorth"], "452000");
    assert!(balances_by_name(&b).contains(&("카카오뱅크".to_owned(), "486500".to_owned())));
    let march = p
        .ok("spending_report", r#"{"from": "2026-03", "to": "2026-03"}"#)
        .await;
    assert_eq!(march["total"], "48000");
}

// ---- a card's opening balance ----

/// An opening balance on a card is what it owed on its date: an item of the bill whose
/// period holds that date, like a charge made then (docs/tools.md, "Card bills").
#[tokio::test]
async fn a_cards_opening_balance_is_an_item_of_its_bill() {
    let h = Harness::new().await;
    let p = h.person("household-card-opening");
    p.ok("create_vault", r#"{"name": "가계부"}"#).await;
    let card = p
        .ok(
            "create_account",
            r#"{"name": "신한카드", "kind": "liability", "openingBalance": "300000", "openingDate": "2026-03-10", "billing": {"closingDay": 31, "paymentDay": 14}}"#,
        )
        .await;
    let bill = p
        .ok("card_bill", r#"{"account": "신한카드", "month": "2026-04"}"#)
        .await;
    assert_eq!(
        (&bill["period"], &bill["items"], &bill["total"]),
        (
            &json!({"from": "2026-03-01", "to": "2026-03-31"}),
            &json!([{"transactionId": card["openingTransactionId"], "date": "2026-03-10", "memo": "신한카드 기초잔액", "amount": "300000"}]),
            &json!("300000")
        )
    );
}
