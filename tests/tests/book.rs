//! The two-month household the export and backup tests share: vault 우리집 (KRW), January and February 2026, with an opening
//! balance, a split, a refund, voids, edits, an archived account, memos that
//! quote, comma, semicolon, start with a parenthesis or look like a formula, a
//! snapshot and a budget.
//!
//! Hand computation at the end of February (won):
//! - 카카오뱅크: 1,000,000 + 3,000,000 − 9,000 − 45,000 − 8,500 = 3,937,500
//! - 현금: 50,000 − 50,000 = 0 (archived)
//! - 신한카드 (owed): 45,000 − 45,000 − 4,000 + 3,500 = −500
//! - 식비: 9,000 + 30,000 + 50,000 − 4,000 + 8,500 + 3,500 = 97,000
//! - 생활용품: 15,000; 교통비: 0 (its only entry voided)
//! - 월급: 3,000,000; 기초잔액 (equity): 1,050,000
#![allow(dead_code)]

use crate::harness::Client;
use serde_json::{Value, json};

/// The vault's name.
pub const VAULT: &str = "우리집";

/// The expected balances at 2026-02-28, natural sign, as get_balances names them.
pub const FEBRUARY_END: &[(&str, &str)] = &[
    ("카카오뱅크", "3937500"),
    ("신한카드", "-500"),
    ("식비", "97000"),
    ("생활용품", "15000"),
    ("교통비", "0"),
    ("월급", "3000000"),
];

async fn tx(p: &Client<'_>, args: Value) -> String {
    let r = p.ok("record_transaction", &args.to_string()).await;
    r["transaction"]["transactionId"]
        .as_str()
        .expect("transactionId")
        .to_owned()
}

/// Record the household as `p`; returns the ids of every entry recorded.
pub async fn record(p: &Client<'_>) -> Vec<String> {
    p.ok(
        "create_vault",
        &json!({"name": VAULT, "currency": "KRW"}).to_string(),
    )
    .await;
    for (name, kind, opening) in [
        ("카카오뱅크", "asset", Some("1000000")),
        ("현금", "asset", Some("50000")),
        ("신한카드", "liability", None),
        ("월급", "income", None),
        ("식비", "expense", None),
        ("생활용품", "expense", None),
        ("교통비", "expense", None),
    ] {
        let mut args = json!({"name": name, "kind": kind});
        if let Some(o) = opening {
            args["openingBalance"] = json!(o);
            args["openingDate"] = json!("2026-01-01");
        }
        p.ok("create_account", &args.to_string()).await;
    }
    let mut ids = Vec::new();
    let simple = |from: &str, to: &str, amount: &str, date: &str, memo: &str, key: &str| json!({"from": from, "to": to, "amount": amount, "date": date, "memo": memo, "idempotencyKey": key});
    ids.push(
        tx(
            p,
            simple(
                "카카오뱅크",
                "식비",
                "9000",
                "2026-01-05",
                "점심 \"김밥\", 2인분",
                "b-1",
            ),
        )
        .await,
    );
    let split = json!({
        "lines": {
            "from": [{"account": "신한카드", "amount": "45000"}],
            "to": [{"account": "식비", "amount": "30000"}, {"account": "생활용품", "amount": "15000"}],
        },
        "date": "2026-01-10", "memo": "마트; 장보기", "idempotencyKey": "b-2",
    });
    let r = p.ok("record_transaction", &split.to_string()).await;
    ids.push(r["transaction"]["transactionId"].as_str().expect("id").to_owned());
    let bus = tx(
        p,
        simple(
            "카카오뱅크",
            "교통비",
            "1400",
            "2026-01-12",
            "버스 (잘못 입력)",
            "b-3",
        ),
    )
    .await;
    p.ok(
        "void_transaction",
        &json!({"transactionId": bus, "reason": "잘못 입력"}).to_string(),
    )
    .await;
    ids.push(bus);
    ids.push(tx(p, simple("현금", "식비", "50000", "2026-01-20", "시장", "b-4")).await);
    p.ok("update_account", r#"{"account": "현금", "archive": true}"#)
        .await;
    ids.push(
        tx(
            p,
            simple("월급", "카카오뱅크", "3000000", "2026-01-25", "1월 급여", "b-5"),
        )
        .await,
    );
    ids.push(
        tx(
            p,
            simple("카카오뱅크", "신한카드", "45000", "2026-01-31", "카드값", "b-6"),
        )
        .await,
    );
    ids.push(
        tx(
            p,
            simple("식비", "신한카드", "4000", "2026-02-03", "(주)쿠팡 환불", "b-7"),
        )
        .await,
    );
    let lunch = tx(
        p,
        simple("카카오뱅크", "식비", "8000", "2026-02-10", "점심", "b-8"),
    )
    .await;
    let edit = json!({"transactionId": lunch, "idempotencyKey": "b-8-edit", "amount": "8500", "date": "2026-02-11", "memo": "점심 (정정)"});
    p.ok("edit_transaction", &edit.to_string()).await;
    ids.push(lunch);
    ids.push(
        tx(
            p,
            simple("신한카드", "식비", "3500", "2026-02-14", "=SUM(A1:A9)", "b-9"),
        )
        .await,
    );
    let mut again = simple("신한카드", "식비", "3500", "2026-02-15", "커피 두 번", "b-10");
    again["allowDuplicate"] = json!(true);
    let twice = tx(p, again).await;
    p.ok("void_transaction", &json!({"transactionId": twice}).to_string())
        .await;
    ids.push(twice);
    p.ok(
        "upsert_snapshot",
        r#"{"account": "카카오뱅크", "date": "2026-02-28", "balance": "3937500"}"#,
    )
    .await;
    p.ok(
        "set_budget",
        r#"{"account": "식비", "amount": "300000", "month": "2026-02"}"#,
    )
    .await;
    ids
}
