//! MCP Apps views through the app as `dochiya-mcp` assembles it: a client without the
//! extension gets what it got before views existed, byte for byte; one that declares it
//! gets `_meta.ui` on `spending_report`, `budget_report` and `card_bill` (in `tools/list` and on their
//! results) and the views by `resources/read` (decision 042).

use crate::harness::{DataDir, Harness};
use dochiya_tools::views;
use serde_json::{Value, json};

const UI: &str =
    r#"{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}"#;

fn body(id: u32, method: &str, params: &str, caps: &str) -> String {
    let comma = if params.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{comma}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}}}}}"#
    )
}

fn modern<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'static str, &'a str)> {
    let mut h = vec![("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)];
    if let Some(n) = name {
        h.push(("mcp-name", n));
    }
    h
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("JSON body")
}

#[tokio::test]
async fn tools_list_without_the_extension_is_byte_for_byte_the_list_without_views() {
    let dir = DataDir::new("views-list");
    let app = Harness::assembled(&dir.0).await;
    // The tool tests' server has no views at all: its list is the committed snapshot's.
    let bare = Harness::new().await;
    let requests = [
        (modern("tools/list", None), body(1, "tools/list", "", "{}")),
        (
            vec![("mcp-protocol-version", "2025-11-25")],
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#.to_owned(),
        ),
        (
            vec![("mcp-protocol-version", "2025-03-26")],
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#.to_owned(),
        ),
    ];
    for (headers, request) in &requests {
        let (status, with) = app.post_raw(None, headers, request).await;
        assert_eq!(status, 200);
        assert_eq!(with, bare.post_raw(None, headers, request).await.1, "{request}");
        assert!(!String::from_utf8_lossy(&with).contains("ui://"));
    }
    // With the extension: the same list plus `_meta.ui` on the two report tools.
    let (_, linked) = app
        .post_raw(None, &modern("tools/list", None), &body(4, "tools/list", "", UI))
        .await;
    let mut tools = json(&linked)["result"]["tools"].clone();
    let text = tools.to_string();
    assert!(!text.contains("anyOf") && !text.contains("oneOf"));
    let mut links = Vec::new();
    for tool in tools.as_array_mut().expect("tools") {
        if let Some(meta) = tool.as_object_mut().and_then(|t| t.remove("_meta")) {
            links.push((tool["name"].clone(), meta));
        }
    }
    assert_eq!(
        links,
        vec![
            (
                json!("spending_report"),
                json!({"ui": {"resourceUri": views::SPENDING}})
            ),
            (
                json!("budget_report"),
                json!({"ui": {"resourceUri": views::BUDGET}})
            ),
            (
                json!("card_bill"),
                json!({"ui": {"resourceUri": views::CARD_BILL}})
            ),
        ]
    );
    let (_, plain) = app.post_raw(None, &requests[0].0, &requests[0].1).await;
    assert_eq!(tools, json(&plain)["result"]["tools"]);
}

#[tokio::test]
async fn discovery_declares_the_extension_only_to_a_client_that_declares_it() {
    let dir = DataDir::new("views-discover");
    let app = Harness::assembled(&dir.0).await;
    let headers = modern("server/discover", None);
    let (_, plain) = app
        .post_raw(None, &headers, &body(1, "server/discover", "", "{}"))
        .await;
    let (_, told) = app
        .post_raw(None, &headers, &body(1, "server/discover", "", UI))
        .await;
    let (plain, mut told) = (json(&plain), json(&told));
    assert_eq!(plain["result"]["capabilities"].get("extensions"), None);
    let extensions = told["result"]["capabilities"]
        .as_object_mut()
        .and_then(|c| c.remove("extensions"));
    assert_eq!(
        extensions,
        Some(json!({"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}))
    );
    assert_eq!(told, plain, "nothing else differs");
}

#[tokio::test]
async fn report_results_link_their_view_only_for_the_extension_and_are_otherwise_unchanged() {
    let dir = DataDir::new("views-results");
    let app = Harness::assembled(&dir.0).await;
    let p = app.person("views-person");
    p.ok("create_vault", r#"{"name": "우리집"}"#).await;
    p.ok(
        "create_account",
        r#"{"name": "카카오뱅크", "kind": "asset", "openingBalance": "1000000", "openingDate": "2026-02-28"}"#,
    )
    .await;
    p.ok("create_account", r#"{"name": "식비", "kind": "expense"}"#)
        .await;
    p.ok(
        "set_budget",
        r#"{"account": "식비", "amount": "600000", "month": "2026-03"}"#,
    )
    .await;
    p.record("카카오뱅크", "식비", "12500", "2026-03-02", "점심", "views-1")
        .await;
    for (tool, arguments, view) in [
        (
            "spending_report",
            r#"{"from": "2026-03", "to": "2026-03"}"#,
            views::SPENDING,
        ),
        ("budget_report", r#"{"month": "2026-03"}"#, views::BUDGET),
        ("list_accounts", "{}", ""),
    ] {
        let call = |caps| {
            body(
                7,
                "tools/call",
                &format!(r#""name":"{tool}","arguments":{arguments}"#),
                caps,
            )
        };
        let headers = modern("tools/call", Some(tool));
        let (_, plain) = app.post_raw(Some(&p.token), &headers, &call("{}")).await;
        let (_, linked) = app.post_raw(Some(&p.token), &headers, &call(UI)).await;
        assert!(!String::from_utf8_lossy(&plain).contains("ui://"), "{tool}");
        let (plain, mut linked) = (json(&plain), json(&linked));
        assert_eq!(plain["result"]["isError"], false, "{tool}: {plain}");
        let ui = linked["result"]["_meta"]
            .as_object_mut()
            .and_then(|m| m.remove("ui"));
        if view.is_empty() {
            assert_eq!(ui, None, "{tool}");
        } else {
            assert_eq!(ui, Some(json!({"resourceUri": view})), "{tool}");
        }
        assert_eq!(linked, plain, "{tool}: nothing else differs");
    }
}

#[tokio::test]
async fn resources_read_serves_each_view_with_a_token() {
    let dir = DataDir::new("views-read");
    let app = Harness::assembled(&dir.0).await;
    let p = app.client("views-reader", &["ledger:read"]);
    let served = views::all();
    assert_eq!(
        served.iter().map(|v| v.uri).collect::<Vec<_>>(),
        vec![views::SPENDING, views::BUDGET, views::CARD_BILL]
    );
    for view in served {
        let read = body(1, "resources/read", &format!(r#""uri":"{}""#, view.uri), "{}");
        let headers = modern("resources/read", Some(view.uri));
        let (status, _) = app.post_raw(None, &headers, &read).await;
        assert_eq!(status, 401, "{}", view.uri);
        let (status, answer) = app.post_raw(Some(&p.token), &headers, &read).await;
        assert_eq!(status, 200);
        let contents = &json(&answer)["result"]["contents"][0];
        assert_eq!(contents["uri"], view.uri);
        assert_eq!(contents["mimeType"], "text/html;profile=mcp-app");
        assert_eq!(contents["text"], view.html);
    }
}
