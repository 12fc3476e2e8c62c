//! MCP Apps views through the app as `dochiya-mcp` assembles it: every client from
//! 2025-06-18 on, in both eras, gets `_meta.ui` on `spending_report`, `budget_report` and
//! `card_bill` (in `tools/list` and on their results) and otherwise what it got before
//! views existed; a client that declares the extension is also told so in its
//! capabilities; `resources/read` serves the views (decision 042).

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

/// The three links, by tool, and `tools` without them.
fn links_of(mut tools: Value) -> (Vec<(Value, Value)>, Value) {
    let mut links = Vec::new();
    for tool in tools.as_array_mut().expect("tools") {
        if let Some(meta) = tool.as_object_mut().and_then(|t| t.remove("_meta")) {
            links.push((tool["name"].clone(), meta));
        }
    }
    (links, tools)
}

#[tokio::test]
async fn tools_list_links_the_three_views_for_every_client_and_is_otherwise_the_list_without_views() {
    let dir = DataDir::new("views-list");
    let app = Harness::assembled(&dir.0).await;
    // The tool tests' server has no views at all: its list is the committed snapshot's.
    let bare = Harness::new().await;
    let three = vec![
        (
            json!("spending_report"),
            json!({"ui": {"resourceUri": views::SPENDING}}),
        ),
        (
            json!("budget_report"),
            json!({"ui": {"resourceUri": views::BUDGET}}),
        ),
        (
            json!("card_bill"),
            json!({"ui": {"resourceUri": views::CARD_BILL}}),
        ),
    ];
    let requests = [
        (modern("tools/list", None), body(1, "tools/list", "", "{}"), true),
        (modern("tools/list", None), body(2, "tools/list", "", UI), true),
        (
            vec![("mcp-protocol-version", "2025-11-25")],
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#.to_owned(),
            true,
        ),
        // No structured results on 2025-03-26, so nothing for a view to show: no links.
        (
            vec![("mcp-protocol-version", "2025-03-26")],
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#.to_owned(),
            false,
        ),
    ];
    for (headers, request, linked) in &requests {
        let (status, with) = app.post_raw(None, headers, request).await;
        assert_eq!(status, 200);
        let (_, without) = bare.post_raw(None, headers, request).await;
        let (links, rest) = links_of(json(&with)["result"]["tools"].clone());
        assert_eq!(links, if *linked { three.clone() } else { vec![] }, "{request}");
        assert_eq!(rest, json(&without)["result"]["tools"], "{request}");
        assert!(!rest.to_string().contains("anyOf") && !rest.to_string().contains("oneOf"));
    }
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
async fn report_results_link_their_view_for_every_client_and_are_otherwise_unchanged() {
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
        let (_, told) = app.post_raw(Some(&p.token), &headers, &call(UI)).await;
        // The same answer whether or not the client declared the extension.
        assert_eq!(json(&plain), json(&told), "{tool}");
        let mut linked = json(&plain);
        assert_eq!(linked["result"]["isError"], false, "{tool}: {linked}");
        let ui = linked["result"]["_meta"]
            .as_object_mut()
            .and_then(|m| m.remove("ui"));
        if view.is_empty() {
            assert_eq!(ui, None, "{tool}");
        } else {
            assert_eq!(ui, Some(json!({"resourceUri": view})), "{tool}");
        }
        // On the legacy leg too: the result carries the link in `_meta`.
        let legacy = [("mcp-protocol-version", "2025-11-25")];
        let legacy_call = format!(
            r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        );
        let (_, old) = app.post_raw(Some(&p.token), &legacy, &legacy_call).await;
        let old = json(&old);
        assert_eq!(old["result"]["isError"], false, "{tool}: {old}");
        if view.is_empty() {
            assert_eq!(old["result"].get("_meta"), None, "{tool}");
        } else {
            assert_eq!(
                old["result"]["_meta"],
                json!({"ui": {"resourceUri": view}}),
                "{tool}"
            );
        }
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
