//! Every tool of docs/tools.md through the full handler: an HTTP request into the
//! assembled server with a real dev token, the result validated against the
//! published `outputSchema`, for success and for each error path.
//!
//! The `tools/list` snapshot lives in `tools_list.snapshot.json` beside this file.
//! After an intended change to a tool's declaration, regenerate it with
//! `DOCHIYA_UPDATE_SNAPSHOTS=1 cargo test -p dochiya-mcp --test e2e tools::tools_list_is_stable`
//! and review the diff.

use crate::harness::{Client, Harness, LEGACY, balances_by_name};
use serde_json::{Value, json};

/// The household of docs/tools.md: 우리집 with its accounts; 카카오뱅크 opens with 1,000,000 won on 2026-02-28.
async fn household(p: &Client<'_>) {
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "1000000", "openingDate": "2026-02-28"}"#,
    )
    .await;
    for (name, kind) in [
        ("신한카드", "liability"),
        ("월급", "income"),
        ("식비", "expense"),
        ("교통비", "expense"),
    ] {
        p.ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

// ---- list_vaults ----

#[tokio::test]
async fn list_vaults_shows_currency_zone_today_and_count() {
    let h = Harness::new().await;
    let p = h.person("list-vaults");
    assert_eq!(p.ok("list_vaults", "{}").await, json!({"vaults": []}));
    household(&p).await;
    p.ok(
        "create_vault",
        r#"{"name": "Travel", "currency": "usd", "timeZone": "America/New_York"}"#,
    )
    .await;
    let r = p.ok("list_vaults", "{}").await;
    let vaults = r["vaults"].as_array().cloned().unwrap_or_default();
    let summary: Vec<Value> = vaults
        .iter()
        .map(|v| {
            json!([
                v["name"],
                v["currency"],
                v["timeZone"],
                v["today"],
                v["accountCount"]
            ])
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            json!(["Travel", "USD", "America/New_York", "2026-03-30", 0]),
            json!(["우리집", "KRW", "Asia/Seoul", "2026-03-31", 6]),
        ]
    );
    // Another person sees none of it.
    assert_eq!(
        h.person("someone-else").ok("list_vaults", "{}").await,
        json!({"vaults": []})
    );
}

#[tokio::test]
async fn list_vaults_refuses_arguments() {
    let h = Harness::new().await;
    assert_eq!(
        h.person("a").err("list_vaults", r#"{"vault": "우리집"}"#).await,
        "Unknown argument `vault`. This tool takes no arguments."
    );
}

// ---- list_accounts ----

#[tokio::test]
async fn list_accounts_with_kinds_balances_and_archived() {
    let h = Harness::new().await;
    let p = h.person("list-accounts");
    household(&p).await;
    p.ok("update_account", r#"{"account": "교통비", "archive": true}"#)
        .await;
    let rows = |r: &Value| -> Vec<Value> {
        r["accounts"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|a| json!([a["name"], a["kind"], a["balance"], a["archived"]]))
            .collect()
    };
    let live = p.ok("list_accounts", "{}").await;
    assert_eq!(live["vault"]["name"], "우리집");
    assert_eq!(live["currency"], "KRW");
    assert_eq!(
        rows(&live),
        vec![
            json!(["카카오뱅크", "asset", "1000000", false]),
            json!(["신한카드", "liability", "0", false]),
            json!(["월급", "income", "0", false]),
            json!(["식비", "expense", "0", false]),
            json!(["기초잔액", "equity", "1000000", false]),
        ]
    );
    let all = p
        .ok("list_accounts", r#"{"vault": "우리집", "includeArchived": true}"#)
        .await;
    assert_eq!(rows(&all).len(), 6);
    assert!(rows(&all).contains(&json!(["교통비", "expense", "0", true])));
}

#[tokio::test]
async fn list_accounts_without_a_vault_or_with_a_wrong_one() {
    let h = Harness::new().await;
    let p = h.person("list-accounts-errors");
    assert_eq!(
        p.err("list_accounts", "{}").await,
        "You have no vault yet. Call create_vault to make one (for example name \"가계부\", currency KRW)."
    );
    household(&p).await;
    p.ok(
        "create_vault",
        r#"{"name": "여행", "currency": "USD", "timeZone": "America/New_York"}"#,
    )
    .await;
    assert_eq!(
        p.err("list_accounts", "{}").await,
        "No vault was named and there are several: \"여행\" (USD, America/New_York), \"우리집\" (KRW, Asia/Seoul). Pass `vault` with one of these names."
    );
    assert_eq!(
        p.err("list_accounts", r#"{"vault": "우리 집"}"#).await,
        "No vault named \"우리 집\". Closest names: \"우리집\". Use one of them exactly, call list_vaults to see every name or create_vault to make it."
    );
    assert_eq!(
        p.err(
            "list_accounts",
            r#"{"vault": "우리집", "includeArchived": "yes"}"#
        )
        .await,
        "Argument `includeArchived` has the wrong type: it is string \"yes\", but it must be a boolean."
    );
}

// ---- record_transaction ----

#[tokio::test]
async fn record_transaction_moves_money_from_to() {
    let h = Harness::new().await;
    let p = h.person("record");
    household(&p).await;
    let r = p
        .ok(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "date": "2026-03-02", "memo": "점심 김밥", "idempotencyKey": "lunch-0302"}"#,
        )
        .await;
    assert_eq!(r["replayed"], false);
    assert_eq!(r["dryRun"], false);
    assert_eq!(r["currency"], "KRW");
    let t = &r["transaction"];
    assert_eq!(t["date"], "2026-03-02");
    assert_eq!(t["memo"], "점심 김밥");
    assert_eq!(t["voided"], false);
    let postings: Vec<Value> = t["postings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|p| json!([p["account"], p["amount"]]))
        .collect();
    assert_eq!(
        postings,
        vec![json!(["식비", "12000"]), json!(["카카오뱅크", "-12000"])]
    );
    let balances: Vec<Value> = r["balances"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|b| json!([b["account"], b["balance"]]))
        .collect();
    assert_eq!(
        balances,
        vec![json!(["식비", "12000"]), json!(["카카오뱅크", "988000"])]
    );
}

#[tokio::test]
async fn record_transaction_reads_a_json_number_amount_exactly() {
    let h = Harness::new().await;
    let p = h.person("record-number");
    p.ok(
        "create_vault",
        r#"{"name": "Travel", "currency": "USD", "timeZone": "America/New_York"}"#,
    )
    .await;
    p.ok("create_account", r#"{"name": "Checking", "kind": "asset"}"#)
        .await;
    p.ok("create_account", r#"{"name": "Food", "kind": "expense"}"#)
        .await;
    // 0.1 + 0.2 style amounts and 2^53 + 1 cents would change through f64.
    let r = p
        .ok(
            "record_transaction",
            r#"{"from": "Checking", "to": "Food", "amount": 90071992547409.93, "idempotencyKey": "n1"}"#,
        )
        .await;
    assert_eq!(r["transaction"]["postings"][0]["amount"], "90071992547409.93");
    let r = p
        .ok(
            "record_transaction",
            r#"{"from": "Checking", "to": "Food", "amount": 12.5, "idempotencyKey": "n2"}"#,
        )
        .await;
    assert_eq!(r["transaction"]["postings"][0]["amount"], "12.50");
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "Checking", "to": "Food", "amount": 0.125, "idempotencyKey": "n3"}"#
        )
        .await,
        "Invalid amount: 0.125 has more decimals than the currency allows: USD allows at most 2 decimals; amounts are never rounded, so send the exact amount."
    );
}

#[tokio::test]
async fn record_transaction_previews_with_dry_run() {
    let h = Harness::new().await;
    let p = h.person("dry-run");
    household(&p).await;
    let r = p
        .ok(
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "30000", "memo": "장보기", "idempotencyKey": "dry", "dryRun": true}"#,
        )
        .await;
    assert_eq!(r["dryRun"], true);
    assert_eq!(r["transaction"]["date"], "2026-03-31");
    assert_eq!(
        r["balances"],
        json!([
            {"accountId": r["balances"][0]["accountId"], "account": "식비", "balance": "30000"},
            {"accountId": r["balances"][1]["accountId"], "account": "신한카드", "balance": "30000"},
        ])
    );
    // Nothing was written.
    let b = p.ok("get_balances", "{}").await;
    assert!(balances_by_name(&b).contains(&("식비".to_owned(), "0".to_owned())));
    assert_eq!(
        p.ok("list_transactions", r#"{"account": "식비"}"#).await["transactions"],
        json!([])
    );
}

#[tokio::test]
async fn record_transaction_refuses_bad_amounts_and_accounts() {
    let h = Harness::new().await;
    let p = h.person("record-errors");
    household(&p).await;
    let call = |amount: &str, from: &str, to: &str| {
        format!(r#"{{"from": "{from}", "to": "{to}", "amount": {amount}, "idempotencyKey": "bad"}}"#)
    };
    let cases = [
        (
            call("\"0\"", "카카오뱅크", "식비"),
            "Invalid amount: the amount is zero; record only amounts that moved.",
        ),
        (
            call("\"-5000\"", "카카오뱅크", "식비"),
            "Invalid amount: amounts are positive; the direction is given by `from` (money leaves) and `to` (money arrives), so swap them instead of using a minus sign.",
        ),
        (
            call("\"12000.5\"", "카카오뱅크", "식비"),
            "Invalid amount: 12000.5 has more decimals than the currency allows: KRW has no minor unit, so amounts are whole numbers; amounts are never rounded, so send the exact amount.",
        ),
        (
            call("\"10000000000000000\"", "카카오뱅크", "식비"),
            "Invalid amount: 10000000000000000 is out of range: an amount may be at most 9999999999999999 KRW.",
        ),
        (
            call("\"12,000\"", "카카오뱅크", "식비"),
            "Argument `amount`: \"12,000\" has thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12000\".",
        ),
        (
            call("\"5\"", "카카오뱅쿠", "식비"),
            "No account named \"카카오뱅쿠\" in vault \"우리집\". Closest names: \"카카오뱅크\". Use one of them exactly, call list_accounts to see every name or create_account to add it.",
        ),
        (
            call("\"5\"", "카카오뱅크", "카카오뱅크"),
            "Invalid to: \"카카오뱅크\" is on both sides; a transaction moves money between different accounts.",
        ),
        (
            call("\"5\"", "카카오뱅크", "2026-03-30"),
            "No account named \"2026-03-30\" in vault \"우리집\". Call list_accounts to see what exists or create_account to add it.",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(p.err("record_transaction", &args).await, expected, "{args}");
    }
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "5"}"#
        )
        .await,
        "Missing required argument `idempotencyKey`."
    );
    assert_eq!(
        p.err("record_transaction", r#"{"from": "카카오뱅크", "to": "식비", "amount": "5", "date": "2026-02-29", "idempotencyKey": "d"}"#)
            .await,
        "Argument `date`: 2026-02-29 is not a real calendar date."
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "5", "idempotency_key": "d"}"#
        )
        .await,
        "Unknown argument `idempotency_key`. The accepted arguments are `vault`, `from`, `to`, `amount`, `lines`, `date`, `memo`, `idempotencyKey`, `allowDuplicate`, `futureDate`, `dryRun`, `externalRef`, `tags`, `installments`, `for`; check the spelling against the input schema."
    );
    // Nothing above was written.
    assert_eq!(
        p.ok("list_transactions", r#"{"account": "식비"}"#).await["transactions"],
        json!([])
    );
}

#[tokio::test]
async fn record_transaction_refuses_a_reused_key_and_a_probable_duplicate() {
    let h = Harness::new().await;
    let p = h.person("duplicates");
    household(&p).await;
    let lunch = r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "date": "2026-03-03", "memo": "점심", "idempotencyKey": "k-1"}"#;
    let first = p.ok("record_transaction", lunch).await;
    let id = s(&first["transaction"]["transactionId"]).to_owned();
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9500", "date": "2026-03-03", "memo": "점심", "idempotencyKey": "k-1"}"#
        )
        .await,
        "idempotencyKey \"k-1\" was already used for a different entry. If this is a retry of that entry, resend exactly the same arguments; if it is a new entry, make up a new idempotencyKey."
    );
    // A model that minted a fresh key on retry is stopped by the duplicate guard.
    let again = r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "date": "2026-03-03", "memo": "점심", "idempotencyKey": "k-2"}"#;
    let refusal = format!(
        "An entry with the same date, accounts and amount was recorded 0 minute(s) ago as transactionId \"{id}\" (dated 2026-03-03, memo \"점심\", recorded at 2026-03-31T03:00:07Z). It is probably a duplicate of that one, even with another memo: check it with get_transaction. If this really is a second, separate transaction, call again with allowDuplicate: true."
    );
    assert_eq!(p.err("record_transaction", again).await, refusal);
    // Reworded (the memo does not decide): the same refusal, on the modern leg too.
    let reworded = h
        .modern_call(
            &p.token,
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "date": "2026-03-03", "memo": "국밥 점심", "idempotencyKey": "k-3"}"#,
        )
        .await;
    assert_eq!(reworded["isError"], true);
    assert_eq!(reworded["content"][0]["text"], refusal);
    let second = p
        .ok(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "date": "2026-03-03", "memo": "점심", "idempotencyKey": "k-2", "allowDuplicate": true}"#,
        )
        .await;
    assert_ne!(
        second["transaction"]["transactionId"],
        first["transaction"]["transactionId"]
    );
    assert_eq!(second["balances"][0]["balance"], "18000");
}

/// An amount in another currency than the vault's is refused naming the vault's
/// currency, with no number to send; the vault's own sign still gets the string to send.
#[tokio::test]
async fn an_amount_in_another_currency_is_refused_without_a_number() {
    let h = Harness::new().await;
    let p = h.person("other-currency");
    household(&p).await;
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "¥1,200", "memo": "라멘", "idempotencyKey": "yen"}"#
        )
        .await,
        "Argument `amount`: \"¥1,200\" is an amount in JPY, but this vault keeps KRW: send the amount actually charged in KRW (as the card statement or receipt shows it), as plain digits; do not convert it yourself."
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "₩9,000", "idempotencyKey": "won"}"#
        )
        .await,
        "Argument `amount`: \"₩9,000\" has a currency sign (₩) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"9000\"."
    );
    let r = p
        .ok(
            "record_transactions",
            r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "$12", "date": "2026-03-02"}], "idempotencyKey": "usd"}"#,
        )
        .await;
    assert_eq!(
        r["results"][0]["message"],
        "Invalid amount: \"$12\" is an amount in USD, but this vault keeps KRW: send the amount actually charged in KRW (as the card statement or receipt shows it), as plain digits; do not convert it yourself."
    );
}

#[tokio::test]
async fn record_transaction_refuses_an_archived_account() {
    let h = Harness::new().await;
    let p = h.person("archived");
    household(&p).await;
    p.ok("update_account", r#"{"account": "교통비", "archive": true}"#)
        .await;
    // The archived name no longer resolves among live accounts.
    let message = p
        .err(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "교통비", "amount": "1400", "idempotencyKey": "bus"}"#,
        )
        .await;
    assert_eq!(message, ARCHIVED_MESSAGE);
}

const ARCHIVED_MESSAGE: &str = "Account \"교통비\" is archived, so new transactions cannot use it. Use another account (list_accounts shows the live ones), or create a new account.";

// ---- record_transaction with lines (a split) ----

#[tokio::test]
async fn record_transaction_with_lines_balances_both_sides() {
    let h = Harness::new().await;
    let p = h.person("split");
    household(&p).await;
    let r = p
        .ok(
            "record_transaction",
            r#"{"lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": 15000}]}, "date": "2026-03-10", "memo": "마트", "idempotencyKey": "split-1"}"#,
        )
        .await;
    let postings: Vec<Value> = r["transaction"]["postings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|p| json!([p["account"], p["amount"]]))
        .collect();
    assert_eq!(
        postings,
        vec![
            json!(["식비", "30000"]),
            json!(["교통비", "15000"]),
            json!(["신한카드", "-45000"])
        ]
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": "10000"}]}, "idempotencyKey": "split-2"}"#
        )
        .await,
        "The split does not balance: the `from` lines sum to 45000 and the `to` lines sum to 40000, so the `from` side is 5000 more. Make both sides add up to the same total."
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"lines": {"from": [], "to": [{"account": "식비", "amount": "1"}]}, "idempotencyKey": "split-3"}"#
        )
        .await,
        "Invalid lines.from: a transaction needs at least one `from` line and one `to` line."
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"lines": {"from": [{"account": "신한카드"}], "to": [{"account": "식비", "amount": "1"}]}, "idempotencyKey": "split-4"}"#
        )
        .await,
        "Missing `amount` in `lines.from[0]`."
    );
    assert_eq!(
        p.err(
            "record_transaction",
            r#"{"lines": {"from": [{"account": "신한카드", "amount": "1"}], "to": [{"account": "식비", "amount": "1", "memo": "x"}]}, "idempotencyKey": "split-5"}"#
        )
        .await,
        "Unknown argument `memo` in `lines.to[0]`. The accepted arguments are `account` or `amount`; check the spelling against the input schema."
    );
}

// ---- get_transaction, void_transaction and big ids ----

#[tokio::test]
async fn transaction_ids_are_big_strings_and_numbers_are_refused() {
    let h = Harness::new().await;
    let p = h.person("big-ids");
    household(&p).await;
    let id = p
        .record(
            "월급",
            "카카오뱅크",
            "3000000",
            "2026-03-25",
            "3월 월급",
            "salary-03",
        )
        .await;
    let n: u64 = id.parse().unwrap_or(0);
    assert!(n > 1 << 53, "{id}");
    let got = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(got["transaction"]["transactionId"], id.as_str());
    assert_eq!(got["transaction"]["memo"], "3월 월급");
    assert_eq!(got["vault"]["name"], "우리집");
    // The same id as a JSON number: refused with the reason, whether or not it would round.
    let as_number = p
        .err("get_transaction", &format!(r#"{{"transactionId": {id}}}"#))
        .await;
    assert_eq!(as_number, ID_AS_NUMBER);
    assert_eq!(
        p.err("void_transaction", &format!(r#"{{"transactionId": {id}}}"#))
            .await,
        ID_AS_NUMBER
    );
    assert_eq!(
        p.err("get_transaction", r#"{"transactionId": "4611686018427387905"}"#)
            .await,
        "No transaction with id \"4611686018427387905\" in vault \"우리집\". Call list_transactions to see what exists."
    );
    assert_eq!(
        p.err("get_transaction", r#"{"transactionId": "12345"}"#).await,
        "Argument `transactionId`: \"12345\" is not a transaction id: every id is above 2^53 (9007199254740992); copy transactionId exactly from list_transactions."
    );
    assert_eq!(
        p.err("get_transaction", r#"{"transactionId": "0042"}"#).await,
        "Argument `transactionId`: \"0042\" is not a transaction id: ids have no leading zeros."
    );
    assert_eq!(
        p.err("get_transaction", "{}").await,
        "Missing required argument `transactionId`."
    );
}

const ID_AS_NUMBER: &str = "Argument `transactionId`: it was sent as a JSON number. Send transactionId as a string, with the decimal digits exactly as a tool returned them (e.g. \"7263012345678901234\"). Transaction ids are larger than 2^53 (9007199254740992), and a JSON number that large may already have been rounded by the client to a different id, so a number is never used.";

#[tokio::test]
async fn void_transaction_reverses_once() {
    let h = Harness::new().await;
    let p = h.person("void");
    household(&p).await;
    let id = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-04", "버스", "bus-1")
        .await;
    let args = json!({"transactionId": id, "reason": "entered twice"}).to_string();
    let r = p.ok("void_transaction", &args).await;
    assert_eq!(r["alreadyVoided"], false);
    assert_eq!(r["transaction"]["voided"], true);
    assert_eq!(r["transaction"]["transactionId"], id.as_str());
    let again = p.ok("void_transaction", &args).await;
    assert_eq!(again["alreadyVoided"], true);
    let b = p.ok("get_balances", "{}").await;
    assert!(balances_by_name(&b).contains(&("교통비".to_owned(), "0".to_owned())));
    assert!(balances_by_name(&b).contains(&("카카오뱅크".to_owned(), "1000000".to_owned())));
    assert_eq!(
        p.err("void_transaction", r#"{"transactionId": "4611686018427387905"}"#)
            .await,
        "No transaction with id \"4611686018427387905\" in vault \"우리집\". Call list_transactions to see what exists."
    );
}

#[tokio::test]
async fn undo_takes_back_the_latest_write_and_refuses_bad_ids() {
    let h = Harness::new().await;
    let p = h.person("undo");
    household(&p).await;
    let before = p.ok("get_balances", "{}").await;
    let args = json!({"from": "카카오뱅크", "to": "교통비", "amount": "1400", "date": "2026-03-01",
                      "memo": "버스", "idempotencyKey": "bus-undo"});
    let r = p.ok("record_transaction", &args.to_string()).await;
    let (id, op) = (
        s(&r["transaction"]["transactionId"]).to_owned(),
        s(&r["operationId"]).to_owned(),
    );
    assert_eq!(r["transaction"]["operationId"], op.as_str());
    assert!(
        r["transaction"]["recordedAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')),
        "{r}"
    );
    // The one just entered comes first by recording, though dated before the others.
    let latest = p
        .ok("list_transactions", r#"{"order": "recorded", "limit": 1}"#)
        .await;
    assert_eq!(latest["transactions"][0]["transactionId"], id.as_str());
    let u = p.ok("undo", "{}").await;
    assert_eq!(u["operationId"], op.as_str());
    assert_eq!(u["undone"], json!([{"transactionId": id, "action": "voided"}]));
    assert_eq!(
        (u["alreadyUndone"].clone(), u["dryRun"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(p.ok("get_balances", "{}").await["accounts"], before["accounts"]);
    let again = p.ok("undo", &json!({"operationId": op}).to_string()).await;
    assert_eq!(again["alreadyUndone"], true);
    assert_eq!(
        p.err("undo", &format!(r#"{{"operationId": {op}}}"#)).await,
        "Argument `operationId`: it was sent as a JSON number. Send operationId as a string, with the digits exactly as a tool returned them; ids are larger than 2^53, and a JSON number that large may already have been rounded."
    );
    assert_eq!(
        p.err("undo", r#"{"operationId": "12"}"#).await,
        "Argument `operationId`: \"12\" is not an operation id; ids are decimal strings of digits as a write returned them (operationId), e.g. \"4818349038087529260\"."
    );
    assert_eq!(
        p.err("undo", r#"{"operationId": "4611686018427387905"}"#).await,
        "There is no operation 4611686018427387905 in vault \"우리집\"; nothing was changed. Pass operationId exactly as a write returned it or list_transactions shows it, or leave it out to undo your own latest change."
    );
    assert_eq!(
        p.err("list_transactions", r#"{"order": "newest"}"#).await,
        "Argument `order` is `newest`, which is not allowed; use one of `date` or `recorded`."
    );
}

#[tokio::test]
async fn edit_transaction_corrects_in_place_and_keeps_history() {
    let h = Harness::new().await;
    let p = h.person("edit");
    household(&p).await;
    let id = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-04", "버스", "bus-1")
        .await;
    let args =
        json!({"transactionId": id, "idempotencyKey": "fix-1", "amount": "1500", "memo": "버스 (정정)"});
    let r = p.ok("edit_transaction", &args.to_string()).await;
    assert_eq!(r["transaction"]["transactionId"], id.as_str());
    assert_eq!(r["transaction"]["version"], 2);
    assert_eq!(
        (r["changed"].clone(), r["replayed"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(r["balances"][0]["balance"], "1500");
    assert_eq!(r["balances"][1]["balance"], "998500");
    let again = p.ok("edit_transaction", &args.to_string()).await;
    assert_eq!(again["replayed"], true);
    let got = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(got["transaction"]["memo"], "버스 (정정)");
    assert_eq!(got["transaction"]["history"][0]["version"], 1);
    assert_eq!(got["transaction"]["history"][0]["postings"][0]["amount"], "1400");
    assert!(
        got["transaction"]["history"][0]["changedAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );
    assert_eq!(
        p.err(
            "edit_transaction",
            &json!({"transactionId": id, "idempotencyKey": "fix-2", "expectedVersion": 1, "memo": "x"})
                .to_string()
        )
        .await,
        format!(
            "Transaction {id} changed since it was read: it is at version 2, not 1. Call get_transaction to see it, then edit again with expectedVersion 2 if the correction still applies."
        )
    );
    assert_eq!(
        p.err(
            "edit_transaction",
            &json!({"transactionId": id, "idempotencyKey": "fix-3"}).to_string()
        )
        .await,
        "Nothing to change: give at least one of amount, date, memo, from, to or lines."
    );
    p.ok(
        "void_transaction",
        &json!({"transactionId": id, "reason": "중복"}).to_string(),
    )
    .await;
    let voided = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(voided["transaction"]["voidReason"], "중복");
    assert_eq!(
        p.err(
            "edit_transaction",
            &json!({"transactionId": id, "idempotencyKey": "fix-4", "memo": "x"}).to_string()
        )
        .await,
        format!("Transaction {id} is voided, so it cannot be edited; record a new entry instead.")
    );
}

// ---- list_transactions ----

#[tokio::test]
async fn list_transactions_filters_and_pages() {
    let h = Harness::new().await;
    let p = h.person("list-transactions");
    household(&p).await;
    let a = p
        .record("카카오뱅크", "식비", "8000", "2026-03-02", "점심 김밥", "t1")
        .await;
    let b = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-03", "버스", "t2")
        .await;
    let c = p
        .record("신한카드", "식비", "23000", "2026-03-05", "저녁 치킨", "t3")
        .await;
    let ids = |r: &Value| -> Vec<String> {
        r["transactions"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|t| s(&t["transactionId"]).to_owned())
            .collect()
    };
    let food = p.ok("list_transactions", r#"{"account": "식비"}"#).await;
    assert_eq!(ids(&food), vec![c.clone(), a.clone()]);
    assert_eq!(food.get("nextCursor"), None);
    let window = p
        .ok(
            "list_transactions",
            r#"{"from": "2026-03-03", "to": "2026-03-04"}"#,
        )
        .await;
    assert_eq!(ids(&window), vec![b.clone()]);
    let text = p.ok("list_transactions", r#"{"text": "치킨"}"#).await;
    assert_eq!(ids(&text), vec![c.clone()]);
    // Pages of one, newest first, following nextCursor; the opening balance is last.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let args = match &cursor {
            Some(c) => json!({"limit": 1, "cursor": c}),
            None => json!({"limit": 1}),
        };
        let page = p.ok("list_transactions", &args.to_string()).await;
        seen.extend(ids(&page));
        match page.get("nextCursor") {
            Some(next) => cursor = Some(s(next).to_owned()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert_eq!(&seen[..3], &[c, b, a]);
    assert_eq!(
        p.err(
            "list_transactions",
            r#"{"from": "2026-03-05", "to": "2026-03-01"}"#
        )
        .await,
        "Invalid from: `from` (2026-03-05) is later than `to` (2026-03-01); `from` is the first day of the range and `to` the last, so swap them."
    );
    assert_eq!(
        p.err("list_transactions", r#"{"limit": 0}"#).await,
        "Invalid limit: 0 is outside 1–200; leave it out for 50 per page, and use nextCursor for more."
    );
    assert_eq!(
        p.err("list_transactions", r#"{"limit": 500}"#).await,
        "Invalid limit: 500 is outside 1–200; leave it out for 50 per page, and use nextCursor for more."
    );
    assert_eq!(
        p.err("list_transactions", r#"{"from": "3/1"}"#).await,
        "Argument `from`: \"3/1\" is not a date; write it as YYYY-MM-DD, like \"2026-03-01\"."
    );
    assert_eq!(
        p.err("list_transactions", r#"{"account": "식대"}"#).await,
        "No account named \"식대\" in vault \"우리집\". Closest names: \"식비\". Use one of them exactly, call list_accounts to see every name or create_account to add it."
    );
}

// ---- get_balances ----

#[tokio::test]
async fn get_balances_as_of_a_day_with_totals() {
    let h = Harness::new().await;
    let p = h.person("balances");
    household(&p).await;
    p.record("신한카드", "식비", "50000", "2026-03-05", "장보기", "b1")
        .await;
    p.record("카카오뱅크", "식비", "10000", "2026-03-20", "점심", "b2")
        .await;
    let r = p.ok("get_balances", r#"{"asOf": "2026-03-10"}"#).await;
    assert_eq!(r["asOf"], "2026-03-10");
    assert_eq!(
        balances_by_name(&r),
        [
            ("카카오뱅크", "1000000"),
            ("신한카드", "50000"),
            ("월급", "0"),
            ("교통비", "0"),
            ("식비", "50000"),
            ("기초잔액", "1000000"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    assert_eq!(
        r["totals"],
        json!({"assets": "1000000", "liabilities": "50000", "netWorth": "950000"})
    );
    let today = p.ok("get_balances", "{}").await;
    assert_eq!(today["asOf"], "2026-03-31");
    assert_eq!(
        today["totals"],
        json!({"assets": "990000", "liabilities": "50000", "netWorth": "940000"})
    );
    assert_eq!(
        p.err("get_balances", r#"{"asOf": "2026-04-31"}"#).await,
        "Argument `asOf`: 2026-04-31 is not a real calendar date."
    );
}

// ---- spending_report ----

#[tokio::test]
async fn spending_report_by_account_and_month() {
    let h = Harness::new().await;
    let p = h.person("report");
    household(&p).await;
    p.record("카카오뱅크", "식비", "8000", "2026-02-27", "점심", "r1")
        .await;
    p.record("카카오뱅크", "식비", "12000", "2026-03-02", "점심", "r2")
        .await;
    p.record(
        "카카오뱅크",
        "교통비",
        "30000",
        "2026-03-03",
        "교통카드 충전",
        "r3",
    )
    .await;
    p.record("월급", "카카오뱅크", "3000000", "2026-03-25", "월급", "r4")
        .await;
    let r = p
        .ok("spending_report", r#"{"from": "2026-03-01", "to": "2026-03-31"}"#)
        .await;
    assert_eq!(
        (s(&r["kind"]), s(&r["by"]), s(&r["total"])),
        ("expense", "account", "42000")
    );
    let rows: Vec<Value> = r["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|x| json!([x["account"], x["amount"]]))
        .collect();
    assert_eq!(rows, vec![json!(["교통비", "30000"]), json!(["식비", "12000"])]);
    let m = p
        .ok(
            "spending_report",
            r#"{"from": "2026-02-01", "to": "2026-03-31", "by": "month"}"#,
        )
        .await;
    let rows: Vec<Value> = m["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|x| json!([x["month"], x["amount"]]))
        .collect();
    assert_eq!(
        rows,
        vec![json!(["2026-02", "8000"]), json!(["2026-03", "42000"])]
    );
    assert_eq!(m["total"], "50000");
    let income = p
        .ok(
            "spending_report",
            r#"{"from": "2026-03-01", "to": "2026-03-31", "kind": "income"}"#,
        )
        .await;
    assert_eq!(income["total"], "3000000");
    assert_eq!(income["rows"][0]["account"], "월급");
    assert_eq!(
        p.err("spending_report", r#"{"from": "2026-03-31", "to": "2026-03-01"}"#)
            .await,
        "Invalid from: `from` (2026-03-31) is later than `to` (2026-03-01); `from` is the first day of the range and `to` the last, so swap them."
    );
    assert_eq!(
        p.err(
            "spending_report",
            r#"{"from": "2026-03-01", "to": "2026-03-31", "by": "week"}"#
        )
        .await,
        "Argument `by` is `week`, which is not allowed; use one of `account`, `month`, `group`, `tag`, `member`."
    );
    assert_eq!(
        p.err("spending_report", r#"{"from": "2026-03-01"}"#).await,
        "Missing required argument `to`."
    );
}

// ---- net_worth_history ----

#[tokio::test]
async fn net_worth_history_month_ends() {
    let h = Harness::new().await;
    let p = h.person("net-worth");
    household(&p).await;
    p.record("신한카드", "식비", "200000", "2026-03-05", "장보기", "n1")
        .await;
    let r = p
        .ok("net_worth_history", r#"{"from": "2026-01", "to": "2026-03"}"#)
        .await;
    assert_eq!(
        r["points"],
        json!([
            {"month": "2026-01", "assets": "0", "liabilities": "0", "netWorth": "0"},
            {"month": "2026-02", "assets": "1000000", "liabilities": "0", "netWorth": "1000000"},
            {"month": "2026-03", "assets": "1000000", "liabilities": "200000", "netWorth": "800000"},
        ])
    );
    assert_eq!(
        p.err("net_worth_history", r#"{"from": "2026-03", "to": "2026-01"}"#)
            .await,
        "Invalid from: `from` (2026-03) is later than `to` (2026-01); `from` is the first day of the range and `to` the last, so swap them."
    );
    assert_eq!(
        p.err("net_worth_history", r#"{"from": "2026-13", "to": "2026-12"}"#)
            .await,
        "Argument `from`: \"2026-13\" is not a month; write it as YYYY-MM, like \"2026-03\"."
    );
}

#[tokio::test]
async fn month_arguments_mean_the_whole_month_everywhere() {
    let h = Harness::new().await;
    let p = h.person("months");
    household(&p).await;
    p.record("카카오뱅크", "식비", "9000", "2026-03-31", "저녁", "m-1")
        .await;
    let b = p.ok("get_balances", r#"{"asOf": "2026-03"}"#).await;
    assert_eq!(b["asOf"], "2026-03-31");
    let r = p
        .ok("spending_report", r#"{"from": "2026-03", "to": "2026-03"}"#)
        .await;
    assert_eq!(
        (r["from"].clone(), r["to"].clone(), r["total"].clone()),
        (json!("2026-03-01"), json!("2026-03-31"), json!("9000"))
    );
    let l = p
        .ok("list_transactions", r#"{"from": "2026-03", "to": "2026-03"}"#)
        .await;
    assert_eq!(l["transactions"].as_array().map(Vec::len), Some(1));
}

// ---- list_snapshots and delete_snapshot ----

#[tokio::test]
async fn snapshots_are_listed_deleted_and_bounded() {
    let h = Harness::new().await;
    let p = h.person("snapshot-list");
    household(&p).await;
    p.ok(
        "upsert_snapshot",
        r#"{"account": "카카오뱅크", "date": "2026-03-30", "balance": "1000000"}"#,
    )
    .await;
    assert_eq!(
        p.err(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2027-11-30", "balance": "1"}"#
        )
        .await,
        "The snapshot date 2027-11-30 is after today (2026-03-31) in the vault's time zone; a snapshot records a balance already seen."
    );
    assert_eq!(
        p.err(
            "upsert_snapshot",
            r#"{"account": "식비", "date": "2026-03-30", "balance": "1"}"#
        )
        .await,
        "\"식비\" is an expense account; snapshots are balances seen for asset or liability accounts (a bank account, a card)."
    );
    let list = p.ok("list_snapshots", r#"{"account": "카카오뱅크"}"#).await;
    assert_eq!(list["snapshots"][0]["date"], "2026-03-30");
    assert_eq!(list["snapshots"][0]["balance"], "1000000");
    let args = r#"{"account": "카카오뱅크", "date": "2026-03-30"}"#;
    assert_eq!(p.ok("delete_snapshot", args).await["deleted"], true);
    assert_eq!(p.ok("delete_snapshot", args).await["deleted"], false);
    assert_eq!(p.ok("list_snapshots", "{}").await["snapshots"], json!([]));
}

// ---- upsert_snapshot and reconcile ----

#[tokio::test]
async fn snapshots_upsert_and_reconcile() {
    let h = Harness::new().await;
    let p = h.person("snapshots");
    household(&p).await;
    p.record("카카오뱅크", "식비", "12000", "2026-03-02", "점심", "s1")
        .await;
    let r = p
        .ok(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-03-02", "balance": "990000"}"#,
        )
        .await;
    assert_eq!(
        (s(&r["balance"]), s(&r["ledgerBalance"]), s(&r["difference"])),
        ("990000", "988000", "2000")
    );
    // Same account and date again: replaced.
    let r = p
        .ok(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-03-02", "balance": 988000}"#,
        )
        .await;
    assert_eq!(r["difference"], "0");
    p.ok(
        "upsert_snapshot",
        r#"{"account": "신한카드", "date": "2026-03-10", "balance": "15000"}"#,
    )
    .await;
    let rec = p.ok("reconcile", "{}").await;
    let rows: Vec<Value> = rec["accounts"]
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
        .collect();
    assert_eq!(
        rows,
        vec![
            json!(["신한카드", "2026-03-10", "15000", "0", "15000", "mismatch"]),
            json!(["카카오뱅크", "2026-03-02", "988000", "988000", "0", "matched"]),
        ]
    );
    let one = p.ok("reconcile", r#"{"account": "카카오뱅크"}"#).await;
    assert_eq!(one["accounts"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        p.err("reconcile", r#"{"account": "국민은행"}"#).await,
        "No account named \"국민은행\" in vault \"우리집\". Call list_accounts to see what exists or create_account to add it."
    );
    assert_eq!(
        p.err(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-3-2", "balance": "1"}"#
        )
        .await,
        "Argument `date`: \"2026-3-2\" is not a date; write it as YYYY-MM-DD, like \"2026-03-01\"."
    );
    assert_eq!(
        p.err(
            "upsert_snapshot",
            r#"{"account": "카카오뱅크", "date": "2026-03-02"}"#
        )
        .await,
        "Missing required argument `balance`."
    );
}

// ---- create_vault and update_vault ----

#[tokio::test]
async fn create_vault_is_idempotent_and_checks_settings() {
    let h = Harness::new().await;
    let p = h.person("create-vault");
    let first = p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    assert_eq!(
        (
            s(&first["currency"]),
            s(&first["timeZone"]),
            first["created"].clone()
        ),
        ("KRW", "Asia/Seoul", json!(true))
    );
    let again = p
        .ok("create_vault", r#"{"name": "우리집", "currency": "KRW"}"#)
        .await;
    assert_eq!(again["created"], false);
    assert_eq!(again["vaultId"], first["vaultId"]);
    assert_eq!(
        p.err("create_vault", r#"{"name": "우리집", "currency": "USD"}"#)
            .await,
        "A vault named \"우리집\" already exists as a vault in KRW with time zone Asia/Seoul. Use that vault as it is, or choose a different name (update_vault with newName renames)."
    );
    assert_eq!(
        p.err("create_vault", r#"{"name": "x", "currency": "WON"}"#).await,
        "Invalid currency: \"WON\" is not a supported ISO 4217 currency code; use one of KRW, JPY, USD, EUR, GBP, CNY, HKD, TWD, SGD, AUD, NZD, CAD, CHF, SEK, NOK, DKK, THB, PHP, MYR, IDR, INR, MXN, BRL, VND, CLP, ISK, BHD, KWD, JOD, OMR."
    );
    assert_eq!(
        p.err("create_vault", r#"{"name": "x", "timeZone": "Seoul"}"#)
            .await,
        "Invalid timeZone: \"Seoul\" is not a known IANA time zone; use a name like \"Asia/Seoul\" or \"America/New_York\"."
    );
    assert_eq!(
        p.err("create_vault", "{}").await,
        "Missing required argument `name`."
    );
}

#[tokio::test]
async fn update_vault_renames_by_name() {
    let h = Harness::new().await;
    let p = h.person("rename-vault");
    p.ok("create_vault", r#"{"name": "가계부"}"#).await;
    p.ok("create_vault", r#"{"name": "여행"}"#).await;
    let r = p
        .ok("update_vault", r#"{"vault": "가계부", "newName": "우리집"}"#)
        .await;
    assert_eq!(r["name"], "우리집");
    assert_eq!(r["changed"], json!(true));
    assert_eq!(r["shares"], json!([{"member": "rename-vault", "weight": 1}]));
    let again = p
        .ok("update_vault", r#"{"vault": "우리집", "newName": "우리집"}"#)
        .await;
    assert_eq!(again["changed"], json!(false));
    let names: Vec<Value> = p.ok("list_vaults", "{}").await["vaults"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|v| v["name"].clone())
        .collect();
    assert_eq!(names, vec![json!("여행"), json!("우리집")]);
    assert_eq!(
        p.err("update_vault", r#"{"vault": "가계부", "newName": "x"}"#)
            .await,
        "No vault named \"가계부\". Call list_vaults to see what exists or create_vault to make it."
    );
    assert_eq!(
        p.err("update_vault", r#"{"vault": "우리집", "newName": "여행"}"#)
            .await,
        RENAME_VAULT_TAKEN
    );
    assert_eq!(
        p.err("update_vault", r#"{"vault": "우리집"}"#).await,
        "Invalid arguments: nothing to change: send newName, shares, or both."
    );
}

const RENAME_VAULT_TAKEN: &str = "A vault named \"여행\" already exists as another of your vaults (KRW). Use that vault as it is, or choose a different name (update_vault with newName renames).";

// ---- create_account, update_account ----

#[tokio::test]
async fn create_account_with_opening_balance_and_idempotent_repeat() {
    let h = Harness::new().await;
    let p = h.person("create-account");
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    let card = p
        .ok("create_account", r#"{"name": "신한카드", "kind": "liability", "openingBalance": "300000", "openingDate": "2026-03-01"}"#)
        .await;
    assert_eq!(
        (s(&card["kind"]), s(&card["balance"]), card["created"].clone()),
        ("liability", "300000", json!(true))
    );
    let opening = s(&card["openingTransactionId"]).to_owned();
    let t = p
        .ok("get_transaction", &json!({"transactionId": opening}).to_string())
        .await;
    assert_eq!(t["transaction"]["date"], "2026-03-01");
    let again = p
        .ok("create_account", r#"{"name": "신한카드", "kind": "liability"}"#)
        .await;
    assert_eq!(
        (again["created"].clone(), again["accountId"].clone()),
        (json!(false), card["accountId"].clone())
    );
    assert_eq!(
        p.err("create_account", r#"{"name": "신한카드", "kind": "asset"}"#)
            .await,
        "Account \"신한카드\" already exists in vault \"우리집\" as a liability account with opening balance 300000; this call asked for an asset account, so nothing was changed. To use the existing account, call again with its kind and without openingBalance; to change its balance, record a transaction; for a separate account, choose another name."
    );
    assert_eq!(
        p.err(
            "create_account",
            r#"{"name": "신한카드", "kind": "liability", "openingBalance": "250000"}"#
        )
        .await,
        "Account \"신한카드\" already exists in vault \"우리집\" as a liability account with opening balance 300000; this call asked for a liability account with opening balance 250000, so nothing was changed. To use the existing account, call again with its kind and without openingBalance; to change its balance, record a transaction; for a separate account, choose another name."
    );
    assert_eq!(
        p.err("create_account", r#"{"name": "월급", "kind": "salary"}"#)
            .await,
        "Argument `kind` is `salary`, which is not allowed; use one of `asset`, `liability`, `income`, `expense`, `equity`."
    );
    assert_eq!(
        p.err(
            "create_account",
            r#"{"name": "식비", "kind": "expense", "openingBalance": "100"}"#
        )
        .await,
        "Invalid openingBalance: an opening balance applies to asset, liability and equity accounts only; income and expense accounts start at zero."
    );
    assert_eq!(
        p.err(
            "create_account",
            r#"{"name": "현금", "kind": "asset", "openingBalance": "100.5"}"#
        )
        .await,
        "Invalid openingBalance: 100.5 has more decimals than the currency allows: KRW has no minor unit, so amounts are whole numbers; amounts are never rounded, so send the exact amount."
    );
    assert_eq!(
        p.err("create_account", r#"{"name": "현금"}"#).await,
        "Missing required argument `kind`."
    );
}

#[tokio::test]
async fn rename_and_archive_accounts_keep_history() {
    let h = Harness::new().await;
    let p = h.person("rename-archive");
    household(&p).await;
    let id = p
        .record("카카오뱅크", "교통비", "1400", "2026-03-04", "버스", "bus")
        .await;
    let r = p
        .ok("update_account", r#"{"account": "교통비", "newName": "교통"}"#)
        .await;
    assert_eq!(
        (
            s(&r["account"]["name"]),
            s(&r["account"]["kind"]),
            r["changed"].clone()
        ),
        ("교통", "expense", json!(true))
    );
    // Past transactions show the new name.
    let t = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(t["transaction"]["postings"][0]["account"], "교통");
    assert_eq!(
        p.err("update_account", r#"{"account": "교통", "newName": "식비"}"#)
            .await,
        "An account named \"식비\" already exists as another account (expense) in vault \"우리집\". Use that account as it is, or choose a different name (update_account with newName renames)."
    );
    assert_eq!(
        p.err("update_account", r#"{"account": "교통비", "newName": "x"}"#)
            .await,
        "No account named \"교통비\" in vault \"우리집\". Closest names: \"교통\". Use one of them exactly, call list_accounts to see every name or create_account to add it."
    );
    // A spending category with history archives without force: its balance is what was spent.
    let a = p
        .ok("update_account", r#"{"account": "교통", "archive": true}"#)
        .await;
    assert_eq!(
        (
            s(&a["account"]["name"]),
            a["account"]["archived"].clone(),
            s(&a["balance"])
        ),
        ("교통", json!(true), "1400")
    );
    // History stays: the balance still counts, shown apart from the live accounts.
    let b = p.ok("get_balances", "{}").await;
    assert!(!balances_by_name(&b).iter().any(|(name, _)| name == "교통"));
    assert_eq!(
        (s(&b["archived"][0]["name"]), s(&b["archived"][0]["balance"])),
        ("교통", "1400")
    );
    assert_eq!(b["archived"].as_array().map(Vec::len), Some(1));
    // The name is free again.
    let fresh = p
        .ok("create_account", r#"{"name": "교통", "kind": "expense"}"#)
        .await;
    assert_eq!(fresh["created"], true);
    assert_ne!(fresh["accountId"], a["account"]["accountId"]);
    assert_eq!(
        p.err("update_account", r#"{"account": "없음", "archive": true}"#)
            .await,
        "No account named \"없음\" in vault \"우리집\". Call list_accounts to see what exists or create_account to add it."
    );
    // What to send instead, before any work.
    assert_eq!(
        p.err("update_account", r#"{"account": "교통"}"#).await,
        "Invalid arguments: nothing to change: send newName, archive (true to archive, false to bring back), parent, billing or owner."
    );
    assert_eq!(
        p.err(
            "update_account",
            r#"{"account": "교통", "newName": "x", "archive": true}"#
        )
        .await,
        "Invalid newName: an account cannot be renamed and archived in one call: rename it first, then archive it."
    );
}

#[tokio::test]
async fn an_archived_account_comes_back() {
    let h = Harness::new().await;
    let p = h.person("unarchive");
    household(&p).await;
    p.record("카카오뱅크", "교통비", "1400", "2026-03-04", "버스", "bus")
        .await;
    p.ok(
        "update_account",
        r#"{"account": "교통비", "archive": true, "force": true}"#,
    )
    .await;
    let listed = p.ok("list_accounts", r#"{"includeArchived": true}"#).await;
    let handle = listed["accounts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .find(|a| a["name"] == "교통비")
        .map(|a| s(&a["handle"]).to_owned())
        .unwrap_or_default();
    assert_eq!(handle, "교통비 (archived 2026-03-31)");
    // A new account took the name meanwhile: bringing the old one back under it is refused.
    p.ok("create_account", r#"{"name": "교통비", "kind": "expense"}"#)
        .await;
    assert_eq!(
        p.err(
            "update_account",
            &json!({"account": handle, "archive": false}).to_string()
        )
        .await,
        "An account named \"교통비\" already exists as a live account (expense) in vault \"우리집\"; bring this one back under another name with newName. Use that account as it is, or choose a different name (update_account with newName renames)."
    );
    let back = p
        .ok(
            "update_account",
            &json!({"account": handle, "archive": false, "newName": "옛 교통비"}).to_string(),
        )
        .await;
    assert_eq!(
        (
            s(&back["account"]["name"]),
            back["account"]["archived"].clone(),
            back["changed"].clone()
        ),
        ("옛 교통비", json!(false), json!(true))
    );
    // Live again, with its history: new entries may use it, its balance is back in the list.
    p.record("카카오뱅크", "옛 교통비", "600", "2026-03-05", "버스", "bus-2")
        .await;
    let b = p.ok("get_balances", "{}").await;
    assert!(balances_by_name(&b).contains(&("옛 교통비".to_owned(), "2000".to_owned())));
    // The same call again has no further effect.
    let again = p
        .ok("update_account", r#"{"account": "옛 교통비", "archive": false}"#)
        .await;
    assert_eq!(again["changed"], false);
}

// ---- retry safety ----

#[tokio::test]
async fn the_same_key_twice_records_once_and_replays() {
    let h = Harness::new().await;
    let p = h.person("retry");
    household(&p).await;
    let args = r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "date": "2026-03-02", "memo": "점심", "idempotencyKey": "7b0c1d9e-retry"}"#;
    let first = p.ok("record_transaction", args).await;
    // The response was "lost": the client calls again, later, with the same key.
    h.advance(120);
    let second = p.ok("record_transaction", args).await;
    assert_eq!(first["replayed"], false);
    assert_eq!(second["replayed"], true);
    let mut second_unmarked = second.clone();
    second_unmarked["replayed"] = json!(false);
    assert_eq!(second_unmarked, first);
    let listed = p.ok("list_transactions", r#"{"account": "식비"}"#).await;
    assert_eq!(listed["transactions"].as_array().map(Vec::len), Some(1));
    let b = p.ok("get_balances", "{}").await;
    assert!(balances_by_name(&b).contains(&("카카오뱅크".to_owned(), "988000".to_owned())));
    // Same for a split.
    let split = r#"{"lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "교통비", "amount": "15000"}]}, "date": "2026-03-10", "idempotencyKey": "split-retry"}"#;
    let s1 = p.ok("record_transaction", split).await;
    let s2 = p.ok("record_transaction", split).await;
    assert_eq!(
        (s1["replayed"].clone(), s2["replayed"].clone()),
        (json!(false), json!(true))
    );
    assert_eq!(s1["transaction"], s2["transaction"]);
}

// ---- scopes, eras, tools/list ----

#[tokio::test]
async fn a_read_only_token_cannot_write() {
    let h = Harness::new().await;
    household(&h.person("scopes")).await;
    let reader = h.client("scopes", &["ledger:read"]);
    assert_eq!(
        reader.ok("list_vaults", "{}").await["vaults"][0]["name"],
        "우리집"
    );
    let body = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"record_transaction","arguments":{"from":"카카오뱅크","to":"식비","amount":"1","idempotencyKey":"r"}}}"#;
    let (status, response) = h.post(Some(&reader.token), LEGACY, body).await;
    assert_eq!(status, 403, "{response}");
    assert_eq!(response["id"], 9);
}

#[tokio::test]
async fn a_2025_03_26_client_gets_the_same_json_as_text_only() {
    let h = Harness::new().await;
    let p = h.person("old-client");
    household(&p).await;
    let body =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_vaults","arguments":{}}}"#;
    let (status, response) = h.post(Some(&p.token), "2025-03-26", body).await;
    assert_eq!(status, 200);
    let result = &response["result"];
    assert_eq!(result.get("structuredContent"), None);
    let text: Value = serde_json::from_str(s(&result["content"][0]["text"])).unwrap_or(Value::Null);
    assert_eq!(text["vaults"][0]["name"], "우리집");
    assert_eq!(text["vaults"][0]["today"], "2026-03-31");
}

#[tokio::test]
async fn a_2026_07_28_client_gets_structured_content() {
    let h = Harness::new().await;
    let p = h.person("modern-client");
    household(&p).await;
    let r = h
        .modern_call(
            &p.token,
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "8000", "date": "2026-03-02", "idempotencyKey": "modern"}"#,
        )
        .await;
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["isError"], false);
    assert_eq!(r["structuredContent"]["balances"][1]["balance"], "992000");
    let e = h
        .modern_call(
            &p.token,
            "get_transaction",
            r#"{"transactionId": 4611686018427387905}"#,
        )
        .await;
    assert_eq!(e["isError"], true);
    assert_eq!(e.get("structuredContent"), None);
    assert_eq!(e["content"][0]["text"], ID_AS_NUMBER);
}

#[tokio::test]
async fn tools_list_is_stable() {
    let h = Harness::new().await;
    let list = &h.tools_list;
    let tools = list["tools"].as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap_or_default())
        .collect();
    let declared: Vec<&str> = dochiya_tools::specs().iter().map(|s| s.name).collect();
    assert_eq!(names, declared, "tools/list shows every declared tool, in order");
    for tool in &tools {
        let name = s(&tool["name"]);
        assert!(!name.is_empty() && name.len() <= 64, "{name}");
        assert!(!s(&tool["description"]).is_empty(), "{name}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{name}");
        let text = tool.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs"), "{name}");
    }
    // This file belongs to the dochiya-mcp package (functions/mcp); the snapshot sits beside it.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tests/tools_list.snapshot.json");
    let rendered = format!("{}\n", serde_json::to_string_pretty(list).unwrap_or_default());
    if std::env::var_os("DOCHIYA_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &rendered).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }
    let committed =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    assert!(
        committed == rendered,
        "tools/list changed; if intended, regenerate with DOCHIYA_UPDATE_SNAPSHOTS=1 (see the top of tests/tests/tools.rs) and review the diff"
    );
}

// ==================================================================== budgets

/// set_budget and budget_report answer both generations the same way; errors are
/// isError results without structuredContent; a negative amount is refused as read.
#[tokio::test]
async fn budgets_answer_both_generations() {
    let h = Harness::new().await;
    let p = h.person("budgets-eras");
    household(&p).await;
    let set = p
        .ok("set_budget", r#"{"account": "식비", "amount": "600000"}"#)
        .await;
    assert_eq!((s(&set["month"]), s(&set["amount"])), ("2026-03", "600000"));
    p.record("카카오뱅크", "식비", "150000", "2026-03-02", "장보기", "eras-1")
        .await;
    let modern = h.modern_call(&p.token, "budget_report", "{}").await;
    assert_eq!(modern["isError"], false);
    let legacy = p.ok("budget_report", "{}").await;
    assert_eq!(modern["structuredContent"], legacy);
    assert_eq!(
        legacy["rows"][0],
        json!({"accountId": set["accountId"], "account": "식비", "budget": "600000", "spent": "150000", "remaining": "450000", "percentUsed": 25, "over": false})
    );
    let refused = h
        .modern_call(&p.token, "set_budget", r#"{"account": "식비", "amount": "-1"}"#)
        .await;
    assert_eq!(refused["isError"], true);
    assert_eq!(refused.get("structuredContent"), None);
    assert_eq!(
        refused["content"][0]["text"],
        "Invalid amount: a budget cannot be negative; \"0\" clears it."
    );
    assert_eq!(
        p.err(
            "set_budget",
            r#"{"account": "식비", "amount": "1", "month": "2026-13"}"#
        )
        .await,
        p.err("budget_report", r#"{"month": "2026-13"}"#).await
    );
}

// ---- record_transactions ----

#[tokio::test]
async fn record_transactions_reports_each_entry_in_both_generations() {
    let h = Harness::new().await;
    let p = h.person("batch-tool");
    household(&p).await;
    // Four lines: one good (its amount a JSON number), a bad amount, an unknown
    // account, and a repeat of the first line's approval number. Errors are the
    // entries' results, worded as record_transaction words them.
    let args = r#"{"entries": [
        {"from": "신한카드", "to": "식비", "amount": 8000, "date": "2026-03-02", "memo": "점심", "externalRef": "30001"},
        {"from": "신한카드", "to": "식비", "amount": "8,000", "date": "2026-03-02"},
        {"from": "신한카드", "to": "외식", "amount": "9000", "date": "2026-03-02"},
        {"from": "신한카드", "to": "교통비", "amount": "1500", "date": "2026-03-03", "externalRef": "30001"}
    ], "idempotencyKey": "statement-march"}"#;
    let r = p.ok("record_transactions", args).await;
    let id = r["results"][0]["transactionId"].clone();
    assert!(id.is_string());
    assert_eq!(
        r["results"],
        json!([
            {"index": 0, "status": "recorded", "transactionId": id},
            {"index": 1, "status": "error", "message": "Invalid amount: \"8,000\" has thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"8000\"."},
            {"index": 2, "status": "error", "message": "No account named \"외식\" in vault \"우리집\". Call list_accounts to see what exists or create_account to add it."},
            {"index": 3, "status": "duplicate", "transactionId": id, "matchedBy": "externalRef"}
        ])
    );
    assert_eq!(
        r["counts"],
        json!({"recorded": 1, "replayed": 0, "duplicate": 1, "error": 2})
    );
    let balances: Vec<(&str, &str)> = r["balances"]
        .as_array()
        .map(|b| b.iter().map(|x| (s(&x["account"]), s(&x["balance"]))).collect())
        .unwrap_or_default();
    assert_eq!(balances, [("식비", "8000"), ("신한카드", "8000")]);

    // A 2026-07-28 client retrying the same call: everything replays, nothing new.
    let again = h.modern_call(&p.token, "record_transactions", args).await;
    assert_eq!(again["isError"], false);
    assert_eq!(
        again["structuredContent"]["counts"],
        json!({"recorded": 0, "replayed": 1, "duplicate": 1, "error": 2})
    );
    assert_eq!(again["structuredContent"]["results"][0]["transactionId"], id);

    // The same key with other entries is refused as a whole.
    let other = r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "100", "date": "2026-03-02", "memo": "다른 것"}], "idempotencyKey": "statement-march"}"#;
    assert_eq!(
        p.err("record_transactions", other).await,
        "idempotencyKey \"statement-march\" was already used for a different entry. If this is a retry of that entry, resend exactly the same arguments; if it is a new entry, make up a new idempotencyKey."
    );
    // record_transaction with a reference a batch recorded says where it is.
    let single = r#"{"from": "신한카드", "to": "식비", "amount": "8000", "date": "2026-03-02", "externalRef": "30001", "idempotencyKey": "one"}"#;
    assert_eq!(
        p.err("record_transaction", single).await,
        format!(
            "externalRef \"30001\" was already recorded in this vault as transactionId \"{}\", so nothing was recorded: this statement line is in the ledger. Check it with get_transaction; leave externalRef out only if this really is another entry.",
            s(&id)
        )
    );
    // Bounds come before any work: 101 entries are refused before anything is read.
    let many: Vec<Value> = (0..101)
        .map(|i| json!({"from": "신한카드", "to": "식비", "amount": "1", "memo": i.to_string()}))
        .collect();
    let e = p
        .err(
            "record_transactions",
            &json!({"entries": many, "idempotencyKey": "too-many"}).to_string(),
        )
        .await;
    assert_eq!(
        e,
        "Invalid entries: send 1–100 entries in one call; this call has 101. Split a longer statement into several calls, each with its own idempotency key."
    );
}

// ---- sharing ----

#[tokio::test]
async fn sharing_answers_both_generations() {
    let h = Harness::new().await;
    let owner = h.person("share-eras-owner");
    let partner = h.person("share-eras-partner");
    household(&owner).await;
    let shared = h.modern_call(&owner.token, "share_vault", "{}").await;
    assert_eq!(shared["isError"], false);
    let invite = &shared["structuredContent"];
    assert_eq!(
        (s(&invite["vault"]["name"]), s(&invite["role"])),
        ("우리집", "member")
    );
    // 28 characters in seven groups of four.
    let code = s(&invite["inviteCode"]).to_owned();
    assert_eq!(code.split('-').map(str::len).collect::<Vec<_>>(), [4; 7]);

    let joined = partner
        .ok("join_vault", &json!({"inviteCode": code}).to_string())
        .await;
    assert_eq!(
        (s(&joined["vault"]["name"]), s(&joined["role"])),
        ("우리집", "member")
    );
    // The same members on both generations.
    let modern = h.modern_call(&owner.token, "list_vaults", "{}").await;
    let legacy = owner.ok("list_vaults", "{}").await;
    assert_eq!(modern["structuredContent"], legacy);
    let members = legacy["vaults"][0]["members"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let seen: Vec<(&str, bool, &str)> = members
        .iter()
        .map(|m| (s(&m["role"]), m["you"] == true, s(&m["joinedAt"])))
        .collect();
    assert_eq!(
        seen,
        [("owner", true, "2026-03-31"), ("member", false, "2026-03-31")]
    );
    let partner_name = s(&members[1]["name"]).to_owned();

    // A used code is an actionable error on the modern leg too.
    let again = h
        .modern_call(
            &partner.token,
            "join_vault",
            &json!({"inviteCode": code}).to_string(),
        )
        .await;
    assert_eq!(again["isError"], true);
    assert_eq!(
        again["content"][0]["text"],
        "That invite code has already been used; each code works once. Ask for a new code made with share_vault."
    );

    // Leaving (legacy), joining again with a new code, then removed by the owner (modern).
    assert_eq!(partner.ok("leave_vault", "{}").await["left"], true);
    let second = h.modern_call(&owner.token, "share_vault", "{}").await;
    let code = s(&second["structuredContent"]["inviteCode"]).to_owned();
    partner
        .ok("join_vault", &json!({"inviteCode": code}).to_string())
        .await;
    let removed = h
        .modern_call(
            &owner.token,
            "remove_member",
            &json!({"member": partner_name}).to_string(),
        )
        .await;
    assert_eq!(removed["isError"], false);
    assert_eq!(
        (
            &removed["structuredContent"]["member"],
            &removed["structuredContent"]["removed"]
        ),
        (&json!(partner_name), &json!(true))
    );
    // Refused at once: the vault is gone from the partner's list.
    assert_eq!(partner.ok("list_vaults", "{}").await["vaults"], json!([]));
}

/// The member nobody could remove: `alice` joining beside the owner `Alice` made every
/// `remove_member` ambiguous, and `Bob\u{200B}` beside Bob let "Bob" mean either. Now
/// names are unique after folding, invisible characters are refused, and each listed
/// name removes exactly that member.
#[tokio::test]
async fn every_member_can_be_named_and_removed() {
    async fn invite(owner: &Client<'_>) -> String {
        s(&owner.ok("share_vault", "{}").await["inviteCode"]).to_owned()
    }
    fn names(v: &Value) -> Vec<String> {
        v["members"]
            .as_array()
            .expect("members")
            .iter()
            .map(|m| s(&m["name"]).to_owned())
            .collect()
    }
    let h = Harness::new().await;
    let owner = h.person_named("unremovable-owner", "Alice");
    household(&owner).await;
    let twin = h.person_named("unremovable-twin", "alice");
    let joined = twin
        .ok(
            "join_vault",
            &json!({"inviteCode": invite(&owner).await}).to_string(),
        )
        .await;
    assert_eq!(names(&joined), ["Alice", "alice (2)"]);
    let bob = h.person_named("unremovable-bob", "Bob");
    let code = invite(&owner).await;
    let refused = bob
        .err(
            "join_vault",
            &json!({"inviteCode": code, "displayName": "Bob\u{200B}"}).to_string(),
        )
        .await;
    assert_eq!(
        refused,
        "Invalid displayName: a name may not contain U+200B (zero width space): it is invisible, so the name would look like another one; remove it."
    );
    bob.ok("join_vault", &json!({"inviteCode": code}).to_string())
        .await;
    assert_eq!(
        names(&owner.ok("list_vaults", "{}").await["vaults"][0]),
        ["Alice", "alice (2)", "Bob"]
    );
    let removed = owner
        .ok("remove_member", &json!({"member": "alice (2)"}).to_string())
        .await;
    assert_eq!(
        (s(&removed["member"]), &removed["removed"]),
        ("alice (2)", &json!(true))
    );
    let removed = owner
        .ok("remove_member", &json!({"member": "bob"}).to_string())
        .await;
    assert_eq!(s(&removed["member"]), "Bob");
    assert_eq!(
        names(&owner.ok("list_vaults", "{}").await["vaults"][0]),
        ["Alice"]
    );
}

// ---- names: archived handles, amounts, ids where names belong, suggestions ----

#[tokio::test]
async fn archived_accounts_are_named_by_their_handles_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("handles");
    household(&p).await;
    p.record(
        "신한카드",
        "식비",
        "9000",
        "2026-03-05",
        "옛 카드 점심",
        "old-lunch",
    )
    .await;
    p.record(
        "카카오뱅크",
        "신한카드",
        "9000",
        "2026-03-06",
        "옛 카드 대금",
        "old-bill",
    )
    .await;
    p.ok("update_account", r#"{"account": "신한카드", "archive": true}"#)
        .await;
    p.ok("create_account", r#"{"name": "신한카드", "kind": "liability"}"#)
        .await;
    p.record(
        "신한카드",
        "식비",
        "4000",
        "2026-03-20",
        "새 카드 커피",
        "new-coffee",
    )
    .await;
    let handle = "신한카드 (archived 2026-03-31)";
    let listed = p.ok("list_accounts", r#"{"includeArchived": true}"#).await;
    let cards: Vec<Value> = listed["accounts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a["name"] == "신한카드")
        .map(|a| json!([a["archived"], a.get("handle"), a["balance"]]))
        .collect();
    assert_eq!(
        cards,
        vec![json!([false, null, "4000"]), json!([true, handle, "0"])]
    );
    let memos = |r: &Value| -> Vec<String> {
        r["transactions"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|t| s(&t["memo"]).to_owned())
            .collect()
    };
    let note = format!(
        "\"신한카드\" means the active account ({}); archived accounts had that name too: pass \"{handle}\" as `account` to see one instead.",
        s(&listed["accounts"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .find(|a| a["name"] == "신한카드" && a["archived"] == false)
            .unwrap_or_default()["accountId"])
    );
    // Legacy generation: the plain name means the live card and the result says so.
    let plain = p.ok("list_transactions", r#"{"account": "신한카드"}"#).await;
    assert_eq!(
        (memos(&plain), plain["accountNote"].clone()),
        (vec!["새 카드 커피".to_owned()], json!(note))
    );
    // Modern generation: the handle means the archived card, with no note.
    let by_handle = h
        .modern_call(
            &p.token,
            "list_transactions",
            &json!({"account": handle}).to_string(),
        )
        .await;
    assert_eq!(by_handle["isError"], false);
    assert_eq!(
        (
            memos(&by_handle["structuredContent"]),
            by_handle["structuredContent"].get("accountNote")
        ),
        (vec!["옛 카드 대금".to_owned(), "옛 카드 점심".to_owned()], None)
    );
    let refused = h
        .modern_call(
            &p.token,
            "record_transaction",
            &json!({"from": handle, "to": "식비", "amount": "1000", "idempotencyKey": "to-archived"})
                .to_string(),
        )
        .await;
    assert_eq!(
        (refused["isError"].clone(), refused["content"][0]["text"].clone()),
        (
            json!(true),
            json!(format!(
                "Account \"{handle}\" is archived, so new transactions cannot use it. Use another account (list_accounts shows the live ones), or create a new account."
            ))
        )
    );
    assert_eq!(
        p.err(
            "create_account",
            &json!({"name": handle, "kind": "liability"}).to_string()
        )
        .await,
        format!(
            "Invalid name: \"{handle}\" has the form of an archived account's handle (name (archived YYYY-MM-DD)), which always means that archived account; choose a name without the \"(archived …)\" part."
        )
    );
}

#[tokio::test]
async fn amounts_as_people_write_them_get_one_message_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("amount-text");
    household(&p).await;
    let args = |amount: &str| {
        json!({"from": "카카오뱅크", "to": "식비", "amount": amount, "idempotencyKey": "text"}).to_string()
    };
    assert_eq!(
        p.err("record_transaction", &args("₩9,000")).await,
        "Argument `amount`: \"₩9,000\" has a currency sign (₩) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"9000\"."
    );
    let modern = h
        .modern_call(&p.token, "record_transaction", &args("3만 5천원"))
        .await;
    assert_eq!(
        (modern["isError"].clone(), modern["content"][0]["text"].clone()),
        (
            json!(true),
            json!(
                "Argument `amount`: \"3만 5천원\" has a currency word (원) and unit words (만, 천); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"35000\"."
            )
        )
    );
    let split = h
        .modern_call(
            &p.token,
            "record_transaction",
            r#"{"lines": {"from": [{"account": "카카오뱅크", "amount": "10000"}], "to": [{"account": "식비", "amount": "12,5"}]}, "idempotencyKey": "split-text"}"#,
        )
        .await;
    assert_eq!(
        split["content"][0]["text"],
        "Argument `lines.to[0].amount`: \"12,5\" has a comma that may be a decimal comma or a thousands separator (write \"12.5\" if it is a decimal point); an amount is plain digits in the vault's currency, with \".\" for decimals, like \"12500\" or \"12.50\"."
    );
    // Nothing was written.
    assert_eq!(
        p.ok("list_transactions", r#"{"account": "식비"}"#).await["transactions"],
        json!([])
    );
}

#[tokio::test]
async fn an_id_where_a_name_belongs_says_names_are_expected_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("id-for-name");
    // No opening balance: the names listed are exactly these three.
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    for (name, kind) in [
        ("카카오뱅크", "asset"),
        ("식비", "expense"),
        ("교통비", "expense"),
    ] {
        p.ok("create_account", &json!({"name": name, "kind": kind}).to_string())
            .await;
    }
    let accounts = p.ok("list_accounts", "{}").await;
    let food_id = accounts["accounts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .find(|a| a["name"] == "식비")
        .map(|a| s(&a["accountId"]).to_owned())
        .unwrap_or_default();
    let expected = format!(
        "\"{food_id}\" is an id (a UUID), but names are expected, not ids: pass the account's name. That id is account \"식비\". Names in vault \"우리집\": \"교통비\", \"식비\", \"카카오뱅크\". Call list_accounts to see every name."
    );
    let args =
        json!({"from": "카카오뱅크", "to": food_id, "amount": "9000", "idempotencyKey": "by-id"}).to_string();
    assert_eq!(p.err("record_transaction", &args).await, expected);
    let modern = h.modern_call(&p.token, "record_transaction", &args).await;
    assert_eq!(
        (modern["isError"].clone(), modern["content"][0]["text"].clone()),
        (json!(true), json!(expected))
    );
    let by_tx = h
        .modern_call(
            &p.token,
            "list_transactions",
            r#"{"account": "4818349030747375096"}"#,
        )
        .await;
    assert_eq!(
        by_tx["content"][0]["text"],
        "\"4818349030747375096\" is a transaction id, but names are expected, not ids: pass the account's name. Names in vault \"우리집\": \"교통비\", \"식비\", \"카카오뱅크\". Call list_accounts to see every name."
    );
}

// ---- what writes tell a model: voided entries, replays, notes, duplicates, previews ----

#[tokio::test]
async fn list_transactions_leaves_voided_entries_out_unless_asked_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("list-voided");
    household(&p).await;
    let kept = p
        .record("카카오뱅크", "식비", "9000", "2026-03-30", "점심", "k-1")
        .await;
    let wrong = p
        .record("카카오뱅크", "식비", "15000", "2026-03-31", "회식", "k-2")
        .await;
    p.ok(
        "void_transaction",
        &json!({"transactionId": wrong, "reason": "잘못 입력"}).to_string(),
    )
    .await;
    let ids = |r: &Value| -> Vec<String> {
        r["transactions"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|t| s(&t["transactionId"]).to_owned())
            .collect()
    };
    let food = p.ok("list_transactions", r#"{"account": "식비"}"#).await;
    assert_eq!(ids(&food), vec![kept.clone()]);
    let modern = h
        .modern_call(&p.token, "list_transactions", r#"{"account": "식비"}"#)
        .await;
    assert_eq!(ids(&modern["structuredContent"]), vec![kept.clone()]);
    let all = p
        .ok(
            "list_transactions",
            r#"{"account": "식비", "includeVoided": true}"#,
        )
        .await;
    assert_eq!(ids(&all), vec![wrong.clone(), kept]);
    let t = &all["transactions"][0];
    assert_eq!(
        (&t["voided"], &t["voidReason"], &t["voidedBy"]),
        (&json!(true), &json!("잘못 입력"), &t["recordedBy"])
    );
    assert!(t["voidedBy"].is_string(), "{t}");
    assert!(s(&t["voidedAt"]).starts_with("2026-03-"), "{t}");
    let got = p
        .ok("get_transaction", &json!({"transactionId": wrong}).to_string())
        .await;
    assert_eq!(
        &got["transaction"], t,
        "the listing shows what get_transaction shows"
    );
    let modern = h
        .modern_call(
            &p.token,
            "list_transactions",
            r#"{"account": "식비", "includeVoided": true}"#,
        )
        .await;
    assert_eq!(&modern["structuredContent"]["transactions"][0], t);
}

#[tokio::test]
async fn a_replay_after_a_void_shows_the_entry_as_it_is_now_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("replay-now");
    household(&p).await;
    let args = r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "memo": "점심", "idempotencyKey": "lunch-1"}"#;
    let first = p.ok("record_transaction", args).await;
    assert_eq!(first.get("current"), None);
    let id = s(&first["transaction"]["transactionId"]).to_owned();
    p.ok(
        "void_transaction",
        &json!({"transactionId": id, "reason": "취소"}).to_string(),
    )
    .await;
    let again = p.ok("record_transaction", args).await;
    assert_eq!(again["replayed"], true);
    assert_eq!(again["transaction"], first["transaction"], "the stored result");
    assert_eq!(
        (
            &again["current"]["transactionId"],
            &again["current"]["voided"],
            &again["current"]["voidReason"]
        ),
        (&json!(id), &json!(true), &json!("취소"))
    );
    let modern = h.modern_call(&p.token, "record_transaction", args).await;
    assert_eq!(modern["structuredContent"]["current"], again["current"]);
}

#[tokio::test]
async fn an_unusual_direction_is_recorded_with_a_note_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("direction-note");
    household(&p).await;
    let lunch = p
        .ok(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "idempotencyKey": "n-1"}"#,
        )
        .await;
    assert_eq!(lunch.get("note"), None);
    let salary = r#"{"from": "카카오뱅크", "to": "월급", "amount": "3000000", "idempotencyKey": "n-2"}"#;
    let backwards = p.ok("record_transaction", salary).await;
    assert_eq!(
        backwards["note"],
        "Reads as 월급 income paid back out of 카카오뱅크; if this is income received, swap from and to."
    );
    let modern = h
        .modern_call(
            &p.token,
            "record_transaction",
            r#"{"from": "식비", "to": "카카오뱅크", "amount": "3000", "idempotencyKey": "n-3"}"#,
        )
        .await;
    assert_eq!(
        modern["structuredContent"]["note"],
        "Reads as a refund of 식비 into 카카오뱅크; if this is spending, swap from and to."
    );
    let batch = p
        .ok(
            "record_transactions",
            r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000"}, {"from": "식비", "to": "신한카드", "amount": "8000", "memo": "취소"}], "idempotencyKey": "n-4", "allowDuplicate": true}"#,
        )
        .await;
    assert_eq!(
        (batch["results"][0].get("note"), &batch["results"][1]["note"]),
        (
            None,
            &json!("Reads as a refund of 식비 into 신한카드; if this is spending, swap from and to.")
        )
    );
}

#[tokio::test]
async fn a_dry_run_is_a_preview_without_an_id_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("preview");
    household(&p).await;
    let args = r#"{"from": "신한카드", "to": "식비", "amount": "30000", "memo": "장보기", "idempotencyKey": "pv-1", "dryRun": true}"#;
    let dry = p.ok("record_transaction", args).await;
    assert_eq!(
        (
            &dry["dryRun"],
            &dry["transaction"]["preview"],
            dry["transaction"].get("transactionId")
        ),
        (&json!(true), &json!(true), None)
    );
    let modern = h.modern_call(&p.token, "record_transaction", args).await;
    assert_eq!(modern["structuredContent"]["transaction"], dry["transaction"]);
    // The real write with the same key is stored, with an id get_transaction finds.
    let real = p
        .ok(
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "30000", "memo": "장보기", "idempotencyKey": "pv-1"}"#,
        )
        .await;
    assert_eq!(real["transaction"].get("preview"), None);
    let id = s(&real["transaction"]["transactionId"]).to_owned();
    let got = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(got["transaction"]["memo"], "장보기");
    // An edit's preview keeps the entry's id and changes nothing.
    let fix = p
        .ok(
            "edit_transaction",
            &json!({"transactionId": id, "idempotencyKey": "pv-2", "amount": "31000", "dryRun": true})
                .to_string(),
        )
        .await;
    assert_eq!(
        (
            &fix["transaction"]["transactionId"],
            &fix["transaction"]["preview"],
            &fix["transaction"]["version"]
        ),
        (&json!(id), &json!(true), &json!(2))
    );
}

// ---- balances as of today in write results; archiving with money left ----

/// (account, balance, scheduled) of a write result's `balances`; `scheduled` must be
/// absent, not null, when nothing is scheduled.
fn write_balances(result: &Value) -> Vec<(String, String, Option<String>)> {
    result["balances"]
        .as_array()
        .expect("balances")
        .iter()
        .map(|b| {
            let scheduled = b
                .as_object()
                .and_then(|o| o.get("scheduled"))
                .map(|v| s(v).to_owned());
            (
                s(&b["account"]).to_owned(),
                s(&b["balance"]).to_owned(),
                scheduled,
            )
        })
        .collect()
}

fn bal(account: &str, balance: &str, scheduled: Option<&str>) -> (String, String, Option<String>) {
    (account.into(), balance.into(), scheduled.map(Into::into))
}

/// Write results show balances as of today with later entries apart, on both
/// generations; archiving an account that holds money is refused the same way on
/// both, and a forced archive's money shows apart in get_balances, still in totals.
#[tokio::test]
async fn write_balances_are_as_of_today_on_both_generations() {
    let h = Harness::new().await;
    let p = h.person("write-today-eras");
    household(&p).await;
    // Today is 2026-03-31; rent for April is entered ahead.
    let rent = p
        .ok(
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "650000", "date": "2026-04-01", "idempotencyKey": "rent-04"}"#,
        )
        .await;
    assert_eq!(
        write_balances(&rent),
        [
            bal("식비", "0", Some("650000")),
            bal("카카오뱅크", "1000000", Some("-650000"))
        ]
    );
    let bus = h
        .modern_call(
            &p.token,
            "record_transaction",
            r#"{"from": "신한카드", "to": "교통비", "amount": "1400", "idempotencyKey": "bus-1"}"#,
        )
        .await;
    assert_eq!(bus["isError"], false);
    assert_eq!(
        write_balances(&bus["structuredContent"]),
        [bal("교통비", "1400", None), bal("신한카드", "1400", None)]
    );
    let voided = h
        .modern_call(
            &p.token,
            "void_transaction",
            &json!({"transactionId": rent["transaction"]["transactionId"]}).to_string(),
        )
        .await;
    assert_eq!(
        write_balances(&voided["structuredContent"]),
        [bal("식비", "0", None), bal("카카오뱅크", "1000000", None)]
    );

    let legacy = p
        .err("update_account", r#"{"account": "신한카드", "archive": true}"#)
        .await;
    assert_eq!(
        legacy,
        "Account \"신한카드\" still holds 1400 as of today, so it was not archived. Bring it to zero first with record_transaction (move the money to another account, or pay off what it owes), or call update_account again with archive: true and force: true to archive it anyway (its balance keeps counting in get_balances)."
    );
    let modern = h
        .modern_call(
            &p.token,
            "update_account",
            r#"{"account": "신한카드", "archive": true}"#,
        )
        .await;
    assert_eq!(modern["isError"], true);
    assert_eq!(modern.get("structuredContent"), None);
    assert_eq!(modern["content"][0]["text"], legacy.as_str());
    let forced = h
        .modern_call(
            &p.token,
            "update_account",
            r#"{"account": "신한카드", "archive": true, "force": true}"#,
        )
        .await;
    assert_eq!(
        (
            forced["structuredContent"]["account"]["archived"].clone(),
            s(&forced["structuredContent"]["balance"])
        ),
        (json!(true), "1400")
    );
    let modern = h.modern_call(&p.token, "get_balances", "{}").await;
    let legacy = p.ok("get_balances", "{}").await;
    assert_eq!(modern["structuredContent"], legacy);
    assert_eq!(
        (
            s(&legacy["archived"][0]["name"]),
            s(&legacy["archived"][0]["balance"])
        ),
        ("신한카드", "1400")
    );
    assert!(!balances_by_name(&legacy).iter().any(|(n, _)| n == "신한카드"));
    assert_eq!(s(&legacy["totals"]["liabilities"]), "1400");
}

// ---- card bills (decision 040) ----

/// Billing on a card, a 3-part purchase beside a one-time charge, a payment after the
/// close, the bill with its parts; each refusal says what to send, and nothing is stored.
#[tokio::test]
async fn card_bill_with_billing_installments_and_refusals() {
    let h = Harness::new().await;
    let p = h.person("card-bill");
    household(&p).await;
    let set = p
        .ok(
            "update_account",
            r#"{"account": "신한카드", "billing": {"closingDay": 31, "paymentDay": 14}}"#,
        )
        .await;
    assert_eq!(
        (&set["account"]["billing"], &set["changed"]),
        (&json!({"closingDay": 31, "paymentDay": 14}), &json!(true))
    );
    let tv = p
        .ok(
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "100000", "date": "2026-10-20", "memo": "TV", "installments": 3, "idempotencyKey": "tv"}"#,
        )
        .await;
    assert_eq!(tv["transaction"]["installments"], json!({"count": 3}));
    let tv_id = s(&tv["transaction"]["transactionId"]).to_owned();
    let lunch = p
        .ok(
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "12000", "date": "2026-10-05", "memo": "점심", "idempotencyKey": "lunch"}"#,
        )
        .await;
    let lunch_id = s(&lunch["transaction"]["transactionId"]).to_owned();
    p.ok(
        "record_transaction",
        r#"{"from": "카카오뱅크", "to": "신한카드", "amount": "20000", "date": "2026-11-10", "memo": "카드값", "idempotencyKey": "pay"}"#,
    )
    .await;
    let bill = p
        .ok("card_bill", r#"{"account": "신한카드", "month": "2026-11"}"#)
        .await;
    assert_eq!(
        bill,
        json!({
            "vault": bill["vault"],
            "currency": "KRW",
            "account": "신한카드",
            "period": {"from": "2026-10-01", "to": "2026-10-31"},
            "dueDate": "2026-11-14",
            "items": [
                {"transactionId": lunch_id, "date": "2026-10-05", "memo": "점심", "amount": "12000"},
                {"transactionId": tv_id, "date": "2026-10-20", "memo": "TV", "amount": "33334", "part": 1, "of": 3},
            ],
            "total": "45334",
            "paid": "20000",
            "remaining": "25334",
            "installmentsLeft": {"amount": "66666", "count": 1},
        })
    );
    let listed = p.ok("list_accounts", "{}").await;
    let card = listed["accounts"]
        .as_array()
        .and_then(|a| a.iter().find(|a| a["name"] == "신한카드"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(card["billing"], json!({"closingDay": 31, "paymentDay": 14}));
    // Today is 2026-03-31: April's bill holds nothing; all three TV parts come after it.
    assert_eq!(
        (&card["nextBill"], &card["installmentsLeft"]),
        (
            &json!({"dueDate": "2026-04-14", "amount": "0", "remaining": "0"}),
            &json!({"amount": "100000", "count": 1})
        ),
        "{card}"
    );
    p.ok("create_account", r#"{"name": "국민카드", "kind": "liability"}"#)
        .await;
    let cases = [
        (
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "9000", "installments": 1, "idempotencyKey": "i1"}"#,
            "Invalid installments: 1 is not a number of installments; send 2–36 (months), or leave it out for a one-time charge.",
        ),
        (
            "record_transaction",
            r#"{"from": "신한카드", "to": "식비", "amount": "9000", "installments": 37, "idempotencyKey": "i37"}"#,
            "Invalid installments: 37 is not a number of installments; send 2–36 (months), or leave it out for a one-time charge.",
        ),
        (
            "record_transaction",
            r#"{"from": "식비", "to": "신한카드", "amount": "9000", "installments": 3, "idempotencyKey": "refund"}"#,
            "Invalid installments: money back onto \"신한카드\" (a refund) is one-time: leave installments out; a refund of a whole installment purchase is voiding that purchase.",
        ),
        (
            "record_transaction",
            r#"{"from": "카카오뱅크", "to": "식비", "amount": "9000", "installments": 3, "idempotencyKey": "bank"}"#,
            "Invalid installments: installments are for a purchase paid by card: `from` must be one liability account (the card) with billing set.",
        ),
        (
            "record_transaction",
            r#"{"from": "국민카드", "to": "식비", "amount": "9000", "installments": 3, "idempotencyKey": "nobilling"}"#,
            "Invalid installments: \"국민카드\" has no billing cycle, so its parts would have no bills: set it first with update_account (billing: {closingDay, paymentDay}), then record the purchase.",
        ),
        (
            "update_account",
            r#"{"account": "신한카드", "billing": {"closingDay": 32, "paymentDay": 14}}"#,
            "Invalid billing: closingDay 32 is not a day of the month; send 1–31 (31 means the month's last day, as in 전월 1일 ~ 전월 말일).",
        ),
        (
            "update_account",
            r#"{"account": "신한카드", "billing": {"closingDay": 31}}"#,
            "Invalid billing: send both closingDay and paymentDay (e.g. {\"closingDay\": 31, \"paymentDay\": 14}), or {} to clear it.",
        ),
        (
            "update_account",
            r#"{"account": "식비", "billing": {"closingDay": 31, "paymentDay": 14}}"#,
            "Invalid billing: \"식비\" is an expense account; billing is for a card, a liability account (create the card with kind liability).",
        ),
        (
            "create_account",
            r#"{"name": "적금", "kind": "asset", "billing": {"closingDay": 31, "paymentDay": 14}}"#,
            "Invalid billing: \"적금\" is an asset account; billing is for a card, a liability account (create the card with kind liability).",
        ),
        (
            "card_bill",
            r#"{"account": "국민카드"}"#,
            "Invalid account: \"국민카드\" has no billing cycle yet: set it with update_account (billing: {closingDay, paymentDay}, e.g. closingDay 31 and paymentDay 14 for 전월 1일 ~ 전월 말일 paid on the 14th), then ask again.",
        ),
    ];
    for (tool, args, expected) in cases {
        assert_eq!(p.err(tool, args).await, expected, "{tool} {args}");
    }
    // Nothing above was written: three entries and the opening balance, no 적금.
    let all = p.ok("list_transactions", "{}").await;
    assert_eq!(all["transactions"].as_array().map(Vec::len), Some(4));
    let names: Vec<Value> = p.ok("list_accounts", "{}").await["accounts"]
        .as_array()
        .map(|a| a.iter().map(|a| a["name"].clone()).collect())
        .unwrap_or_default();
    assert!(!names.contains(&json!("적금")), "{names:?}");
    // The statement lists a split receipt of the book and the TV's second part: both
    // come back duplicate, saying how, in the dry run as in the real call.
    let split = r#"{"lines": {"from": [{"account": "신한카드", "amount": "112800"}], "to": [{"account": "식비", "amount": "62800"}, {"account": "교통비", "amount": "50000"}]}, "date": "2026-10-06", "memo": "이마트", "idempotencyKey": "emart"}"#;
    let emart = p.ok("record_transaction", split).await;
    let statement = r#"{"entries": [
        {"from": "신한카드", "to": "식비", "amount": "112800", "date": "2026-10-06", "memo": "이마트"},
        {"from": "신한카드", "to": "식비", "amount": "33333", "date": "2026-12-14", "memo": "TV 할부 2/3"}
    ], "idempotencyKey": "nov-statement"}"#;
    let mut dry: Value = serde_json::from_str(statement).expect("json");
    dry["dryRun"] = json!(true);
    for r in [
        p.ok("record_transactions", &dry.to_string()).await,
        p.ok("record_transactions", statement).await,
    ] {
        assert_eq!(
            r["results"],
            json!([
                {"index": 0, "status": "duplicate", "transactionId": emart["transaction"]["transactionId"], "matchedBy": "split"},
                {"index": 1, "status": "duplicate", "transactionId": tv_id, "matchedBy": "installment"}
            ])
        );
    }
}
