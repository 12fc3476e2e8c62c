//! The tools through the app exactly as `dochiya-mcp` assembles it from configuration:
//! embedded store in a data directory, system clock, dev auth with the app's own
//! generated secret, and a token minted the way `dochiya-mcp token` mints one.

use crate::harness::{DataDir, Harness};
use serde_json::json;

#[tokio::test]
async fn the_assembled_app_serves_the_same_tools_end_to_end() {
    let dir = DataDir::new("tools-app");
    let h = Harness::assembled(&dir.0).await;
    // The app publishes exactly the declarations the other tests check, and links its
    // three views in `_meta` (decision 042; tests/tests/views.rs checks the links).
    let mut published = h.tools_list.clone();
    let mut linked = Vec::new();
    for tool in published["tools"].as_array_mut().expect("tools") {
        if tool.as_object_mut().and_then(|t| t.remove("_meta")).is_some() {
            linked.push(tool["name"].clone());
        }
    }
    assert_eq!(linked, vec!["spending_report", "budget_report", "card_bill"]);
    assert_eq!(published, Harness::new().await.tools_list);

    // The server instructions a model reads first are the tools' own.
    let (status, init) = h
        .post(
            None,
            "2025-11-25",
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(init["result"]["instructions"], dochiya_tools::INSTRUCTIONS);

    let p = h.person("app-person");
    assert_eq!(p.ok("list_vaults", "{}").await, json!({"vaults": []}));
    let vault = p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    let today = vault["today"].as_str().unwrap_or_default().to_owned();
    assert_eq!(today.len(), 10, "{today}");
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "100000"}"#,
    )
    .await;
    p.ok("create_account", r#"{"name": "식비", "kind": "expense"}"#)
        .await;
    let args = r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "memo": "점심", "idempotencyKey": "app-lunch"}"#;
    let first = p.ok("record_transaction", args).await;
    assert_eq!(first["transaction"]["date"], today.as_str());
    let id = first["transaction"]["transactionId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let replay = p.ok("record_transaction", args).await;
    assert_eq!(replay["replayed"], true);
    assert_eq!(replay["transaction"], first["transaction"]);
    let got = p
        .ok("get_transaction", &json!({"transactionId": id}).to_string())
        .await;
    assert_eq!(got["transaction"], first["transaction"]);
    assert!(
        p.err("get_transaction", &format!(r#"{{"transactionId": {id}}}"#))
            .await
            .starts_with("Argument `transactionId`: it was sent as a JSON number.")
    );
    let balances = p.ok("get_balances", "{}").await;
    assert_eq!(
        balances["totals"],
        json!({"assets": "88000", "liabilities": "0", "netWorth": "88000"})
    );
}
