//! Every rule of the handler, asserted on the HTTP answer: status, headers, JSON-RPC code, data.

use std::sync::Arc;

use bytes::Bytes;
use http::{Method, Request, Response};
use serde_json::{Value, json};

use crate::config::ServerConfig;
use crate::server::Server;
use crate::testing::{Behaviour, METADATA_URL, TestAuth, TestTool, spec};
use crate::tool::{Tool, ToolSpec};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn server_with(config: ServerConfig) -> Server {
    let tools: Vec<Arc<dyn Tool>> = vec![
        Arc::new(TestTool::echo(spec("echo"))),
        Arc::new(TestTool::new(
            ToolSpec {
                scope: "ledger:write",
                ..spec("write_echo")
            },
            Behaviour::Echo,
        )),
        Arc::new(TestTool::new(spec("invalid"), Behaviour::Invalid)),
        Arc::new(TestTool::new(spec("internal"), Behaviour::Internal)),
        Arc::new(TestTool::new(spec("panics"), Behaviour::Panic)),
        Arc::new(TestTool::new(spec("scalar"), Behaviour::Scalar)),
    ];
    match Server::new(config, tools, Arc::new(TestAuth::new())) {
        Ok(s) => s,
        Err(e) => panic!("server: {e}"),
    }
}

/// The instructions the test server carries (the real ones are the tools crate's).
const INSTRUCTIONS: &str = "Call list_vaults first.";

fn server() -> Server {
    server_with(ServerConfig {
        cache_ttl_ms: 5000,
        instructions: INSTRUCTIONS.to_owned(),
        ..ServerConfig::default()
    })
}

struct Answer {
    status: u16,
    response: Response<Bytes>,
    json: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.response.headers().get(name).and_then(|v| v.to_str().ok())
    }
    fn code(&self) -> &Value {
        &self.json["error"]["code"]
    }
}

async fn send(server: &Server, method: Method, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut b = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    let req = b.body(Bytes::copy_from_slice(body)).unwrap();
    let response = server.handle(req).await;
    let json = if response.body().is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(response.body()).unwrap()
    };
    Answer {
        status: response.status().as_u16(),
        response,
        json,
    }
}

async fn post(server: &Server, headers: &[(&str, &str)], body: &str) -> Answer {
    send(server, Method::POST, "/mcp", headers, body.as_bytes()).await
}

/// Headers of a well-formed modern request for `method` (and `Mcp-Name` when given).
fn modern_headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'static str, &'a str)> {
    let mut h = vec![
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ];
    if let Some(n) = name {
        h.push(("mcp-name", n));
    }
    h
}

fn modern_call(id: &str, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
    )
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "dochiya", "version": env!("CARGO_PKG_VERSION")}})
}

// ---- discovery and handshake ----

#[tokio::test]
async fn server_discover_has_every_required_field() {
    let s = server();
    let a = post(
        &s,
        &modern_headers("server/discover", None),
        &format!(r#"{{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{{{META}}}}}"#),
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    assert_eq!(a.json["id"], "d1");
    let r = &a.json["result"];
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(r["capabilities"], json!({"tools": {}}));
    assert_eq!(r["instructions"], INSTRUCTIONS);
    assert_eq!(r["ttlMs"], 5000);
    assert_eq!(r["cacheScope"], "public");
    assert_eq!(r["_meta"], server_info());
    assert_eq!(a.header("mcp-session-id"), None);
}

#[tokio::test]
async fn legacy_initialize_counter_offers_and_never_errors() {
    let s = server();
    for (asked, offered) in [
        ("2025-06-18", "2025-06-18"),
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
    ] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
        );
        let a = post(&s, &[], &body).await;
        assert_eq!(a.status, 200, "{asked}");
        let r = &a.json["result"];
        assert_eq!(r["protocolVersion"], offered);
        assert_eq!(r["capabilities"], json!({"tools": {}}));
        assert_eq!(
            r["serverInfo"],
            json!({"name": "dochiya", "version": env!("CARGO_PKG_VERSION")})
        );
        assert_eq!(r["instructions"], INSTRUCTIONS);
        assert_eq!(r.get("resultType"), None);
        assert_eq!(r.get("_meta"), None);
        assert_eq!(a.header("mcp-session-id"), None);
    }
}

#[tokio::test]
async fn ping_is_exactly_empty_object() {
    let a = post(&server(), &[], r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json, json!({"jsonrpc": "2.0", "id": 9, "result": {}}));
}

#[tokio::test]
async fn notifications_are_202_with_empty_body() {
    let s = server();
    let a = post(
        &s,
        &[],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(a.status, 202);
    assert!(a.response.body().is_empty());
    assert_eq!(a.header("content-type"), None);
    // A client posting a response is accepted and dropped.
    let a = post(&s, &[], r#"{"jsonrpc":"2.0","id":"srv-1","result":{}}"#).await;
    assert_eq!(a.status, 202);
}

#[tokio::test]
async fn notifications_off_the_allowlist_need_a_token() {
    let s = server();
    let body = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
    let a = post(&s, &[], body).await;
    assert_eq!(a.status, 401);
    assert_eq!(a.json["error"]["code"], -32600);
    assert_eq!(a.json.get("id"), None);
    let a = post(&s, &[("authorization", "Bearer read")], body).await;
    assert_eq!(a.status, 202);
}

#[tokio::test]
async fn id_is_echoed_as_exact_text() {
    let a = post(&server(), &[], r#"{"jsonrpc":"2.0","id":1.50,"method":"ping"}"#).await;
    assert!(
        std::str::from_utf8(a.response.body())
            .unwrap()
            .contains(r#""id":1.50"#)
    );
    let a = post(
        &server(),
        &[],
        r#"{"jsonrpc":"2.0","id":"x\u0041","method":"ping"}"#,
    )
    .await;
    assert!(
        std::str::from_utf8(a.response.body())
            .unwrap()
            .contains(r#""id":"x\u0041""#)
    );
}

// ---- tools/list ----

#[tokio::test]
async fn tools_list_modern_has_cache_hints_legacy_has_none() {
    let s = server();
    let modern = post(
        &s,
        &modern_headers("tools/list", None),
        &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#),
    )
    .await;
    let r = &modern.json["result"];
    assert_eq!(modern.status, 200);
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["ttlMs"], 5000);
    assert_eq!(r["cacheScope"], "public");
    assert_eq!(r["_meta"], server_info());
    let names: Vec<&str> = r["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["echo", "write_echo", "invalid", "internal", "panics", "scalar"]
    );
    assert_eq!(r["tools"][0]["outputSchema"], json!({"type": "object"}));

    let legacy = post(
        &s,
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    )
    .await;
    let r = &legacy.json["result"];
    assert_eq!(r.as_object().map(|o| o.len()), Some(1), "only `tools`: {r}");
    assert_eq!(r["tools"][0]["title"], "echo title");

    let oldest = post(&s, &[], r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#).await;
    assert_eq!(oldest.json["result"]["tools"][0].get("outputSchema"), None);
    assert_eq!(oldest.json["result"]["tools"][0].get("title"), None);
}

#[tokio::test]
async fn tools_list_with_a_cursor_is_in_band_32602() {
    let a = post(
        &server(),
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}"#,
    )
    .await;
    assert_eq!((a.status, a.code()), (200, &json!(-32602)));
}

// ---- tools/call ----

#[tokio::test]
async fn tool_arguments_reach_the_tool_as_exact_text() {
    let s = server();
    let args = r#"{"amount": 12345678901234567890.10, "n": 1e400}"#;
    let a = post(&s, &[("authorization", "Bearer read"), ("mcp-protocol-version", "2025-06-18")],
        &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{args}}}}}"#)).await;
    assert_eq!(a.status, 200);
    let r = &a.json["result"];
    assert_eq!(r["structuredContent"]["arguments"], args);
    assert_eq!(r["structuredContent"]["person"], "tester");
    assert_eq!(r["isError"], false);
    assert_eq!(r["content"][0]["type"], "text");
    let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, r["structuredContent"]);
}

#[tokio::test]
async fn modern_tool_call_is_shaped_with_result_type_and_meta() {
    let s = server();
    let mut h = modern_headers("tools/call", Some("echo"));
    h.push(("authorization", "Bearer read"));
    let a = post(&s, &h, &modern_call("7", "echo", "{}")).await;
    assert_eq!(a.status, 200);
    let r = &a.json["result"];
    assert_eq!(r["resultType"], "complete");
    assert_eq!(r["_meta"], server_info());
    assert_eq!(r["structuredContent"]["arguments"], "{}");
    assert_eq!(r.get("ttlMs"), None);
}

#[tokio::test]
async fn tool_call_2025_03_26_is_text_only() {
    let a = post(
        &server(),
        &[("authorization", "Bearer read")],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
    )
    .await;
    let r = &a.json["result"];
    assert_eq!(r.get("structuredContent"), None);
    assert_eq!(r["content"][0]["text"], r#"{"arguments":null,"person":"tester"}"#);
}

#[tokio::test]
async fn invalid_tool_input_is_an_is_error_result_without_structured_content() {
    for version in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let a = post(
            &server(),
            &[
                ("authorization", "Bearer read"),
                ("mcp-protocol-version", version),
            ],
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"invalid","arguments":{}}}"#,
        )
        .await;
        assert_eq!(a.status, 200);
        assert_eq!(
            a.json["result"],
            json!({"content": [{"type": "text", "text": "amount must be positive"}], "isError": true})
        );
    }
}

#[tokio::test]
async fn internal_tool_failure_is_500_32603_with_reference() {
    let a = post(
        &server(),
        &[("authorization", "Bearer read")],
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"internal"}}"#,
    )
    .await;
    assert_eq!(a.status, 500);
    assert_eq!(a.json["id"], 4);
    assert_eq!(a.code(), &json!(-32603));
    let reference = a.json["error"]["data"]["reference"].as_str().unwrap();
    assert!(uuid::Uuid::parse_str(reference).is_ok());
    assert_eq!(
        a.json["error"]["message"],
        format!("Internal error (reference {reference})")
    );
}

#[tokio::test]
async fn a_panicking_tool_is_500_32603_and_the_server_keeps_serving() {
    let s = server();
    let a = post(
        &s,
        &[("authorization", "Bearer read")],
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"panics"}}"#,
    )
    .await;
    assert_eq!(a.status, 500);
    assert_eq!(a.code(), &json!(-32603));
    assert!(a.json["error"]["data"]["reference"].is_string());
    let again = post(&s, &[], r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#).await;
    assert_eq!(again.status, 200);
}

#[tokio::test]
async fn scalar_output_is_text_only_on_legacy_structured_revisions() {
    let a = post(
        &server(),
        &[
            ("authorization", "Bearer read"),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"scalar"}}"#,
    )
    .await;
    assert_eq!(a.json["result"].get("structuredContent"), None);
    assert_eq!(a.json["result"]["content"][0]["text"], "\"just text\"");
}

#[tokio::test]
async fn unknown_tool_is_32602_before_authentication() {
    let s = server();
    let a = post(
        &s,
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#,
    )
    .await;
    assert_eq!((a.status, a.code()), (200, &json!(-32602)));
    assert_eq!(a.json["error"]["message"], "Unknown tool: nope");
    let long = "n".repeat(100_000);
    let a = post(
        &s,
        &[],
        &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{long}"}}}}"#),
    )
    .await;
    assert_eq!(
        a.json["error"]["message"],
        format!("Unknown tool: {}… (100000 characters)", "n".repeat(64))
    );
    let a = post(
        &s,
        &modern_headers("tools/call", Some("nope")),
        &modern_call("1", "nope", "{}"),
    )
    .await;
    assert_eq!((a.status, a.code()), (200, &json!(-32602)));
}

#[tokio::test]
async fn malformed_call_params_are_32602() {
    let s = server();
    let a = post(
        &s,
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}"#,
    )
    .await;
    assert_eq!(
        a.json["error"]["message"],
        "Invalid params: name must be a string"
    );
    let a = post(
        &s,
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":[1]}}"#,
    )
    .await;
    assert_eq!(
        a.json["error"]["message"],
        "Invalid params: arguments must be an object"
    );
}

// ---- authorization ----

#[tokio::test]
async fn tool_call_without_token_is_401_with_challenge_and_json_rpc_body() {
    let a = post(
        &server(),
        &[],
        r#"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"echo"}}"#,
    )
    .await;
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("www-authenticate"),
        Some(
            format!("Bearer resource_metadata=\"{METADATA_URL}\", scope=\"ledger:read ledger:write\"")
                .as_str()
        )
    );
    assert_eq!(a.json["id"], "c1");
    assert_eq!(
        a.json["error"],
        json!({"code": -32600, "message": "Unauthorized: a valid Bearer token is required"})
    );
}

#[tokio::test]
async fn invalid_token_is_401_invalid_token() {
    let a = post(
        &server(),
        &[("authorization", "Bearer forged")],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#,
    )
    .await;
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("www-authenticate"),
        Some(format!("Bearer error=\"invalid_token\", resource_metadata=\"{METADATA_URL}\"").as_str())
    );
}

#[tokio::test]
async fn a_token_that_cannot_be_checked_now_is_503_with_retry_after_not_401() {
    let a = post(
        &server(),
        &[("authorization", "Bearer unverifiable")],
        r#"{"jsonrpc":"2.0","id":"u1","method":"tools/call","params":{"name":"echo"}}"#,
    )
    .await;
    assert_eq!(a.status, 503);
    assert_eq!(a.header("retry-after"), Some("7"));
    // No challenge: the client must not be sent back through sign-in.
    assert_eq!(a.header("www-authenticate"), None);
    assert_eq!(a.json["id"], "u1");
    assert_eq!(
        a.json["error"],
        json!({"code": -32603, "message": "Temporarily unavailable: the token could not be checked now (the authorization server's keys are unreachable); retry shortly with the same token"})
    );
}

#[tokio::test]
async fn missing_scope_is_403_insufficient_scope() {
    let a = post(
        &server(),
        &[("authorization", "Bearer read")],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_echo"}}"#,
    )
    .await;
    assert_eq!(a.status, 403);
    assert_eq!(a.header("www-authenticate"), Some(format!("Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\"{METADATA_URL}\"").as_str()));
    assert_eq!(a.json["id"], 1);
    assert_eq!(a.json["error"]["data"], json!({"requiredScope": "ledger:write"}));
    let ok = post(
        &server(),
        &[("authorization", "Bearer write")],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_echo"}}"#,
    )
    .await;
    assert_eq!(ok.status, 200);
}

#[tokio::test]
async fn allowlisted_methods_need_no_token_and_unknown_methods_are_not_401() {
    let s = server();
    for body in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
    ] {
        assert_eq!(post(&s, &[], body).await.status, 200, "{body}");
    }
    let a = post(&s, &[], r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#).await;
    assert_eq!((a.status, a.code()), (200, &json!(-32601)));
    let a = post(
        &s,
        &modern_headers("prompts/list", None),
        &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{{{META}}}}}"#),
    )
    .await;
    assert_eq!((a.status, a.code()), (404, &json!(-32601)));
}

#[tokio::test]
async fn resource_metadata_is_served_with_cache_control() {
    let s = server();
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let a = send(&s, Method::GET, path, &[], b"").await;
        assert_eq!(a.status, 200);
        assert_eq!(a.header("cache-control"), Some("public, max-age=3600"));
        assert_eq!(a.header("content-type"), Some("application/json"));
        assert_eq!(a.json["resource"], "https://mcp.example/mcp");
    }
}

// ---- gate, through the handler ----

#[tokio::test]
async fn get_and_delete_are_405_with_allow_and_json_rpc_body() {
    for m in [Method::GET, Method::DELETE] {
        let a = send(&server(), m, "/mcp", &[("accept", "text/event-stream")], b"").await;
        assert_eq!(a.status, 405);
        assert_eq!(a.header("allow"), Some("POST"));
        assert_eq!(a.json["jsonrpc"], "2.0");
        assert_eq!(a.code(), &json!(-32600));
    }
}

#[tokio::test]
async fn trailing_slash_is_served_identically() {
    let a = send(
        &server(),
        Method::POST,
        "/mcp/",
        &[],
        br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json["result"], json!({}));
    assert_eq!(a.header("location"), None);
}

#[tokio::test]
async fn parse_error_is_400_32700_without_id() {
    let a = post(&server(), &[], r#"{"jsonrpc":"2.0","id":1,"method":"ping""#).await;
    assert_eq!(a.status, 400);
    assert_eq!(a.code(), &json!(-32700));
    assert_eq!(a.json.get("id"), None);
}

#[tokio::test]
async fn invalid_envelope_is_400_32600() {
    let a = post(
        &server(),
        &[],
        r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}"#,
    )
    .await;
    assert_eq!(
        (a.status, a.code(), &a.json["id"]),
        (400, &json!(-32600), &json!(3))
    );
}

#[tokio::test]
async fn origin_and_host_rules_through_the_handler() {
    let s = server_with(ServerConfig {
        allowed_origins: vec!["https://claude.ai".into()],
        host_policy: crate::HostPolicy::Loopback,
        ..ServerConfig::default()
    });
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!(
        post(
            &s,
            &[("host", "127.0.0.1:8080"), ("origin", "https://claude.ai")],
            ping
        )
        .await
        .status,
        200
    );
    let a = post(
        &s,
        &[("host", "127.0.0.1:8080"), ("origin", "https://evil.example")],
        ping,
    )
    .await;
    assert_eq!((a.status, a.code()), (403, &json!(-32600)));
    assert_eq!(post(&s, &[("host", "rebound.example")], ping).await.status, 403);
}

// ---- modern validation through the handler ----

#[tokio::test]
async fn modern_removed_methods_are_404_32601_with_id() {
    let s = server();
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
        "subscriptions/listen",
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":"r","method":"{method}","params":{{{META}}}}}"#);
        let a = post(&s, &modern_headers(method, None), &body).await;
        assert_eq!((a.status, a.code()), (404, &json!(-32601)), "{method}");
        assert_eq!(a.json["id"], "r");
        assert_eq!(a.json["error"]["message"], format!("Method not found: {method}"));
    }
}

#[tokio::test]
async fn modern_error_statuses_and_data() {
    let s = server();
    let discover = |meta: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{"_meta":{meta}}}}}"#)
    };
    // -32022 (the header agrees with the unsupported body claim)
    let mut unsupported = modern_headers("server/discover", None);
    unsupported[1].1 = "2030-01-01";
    let a = post(&s, &unsupported, &discover(r#"{"io.modelcontextprotocol/protocolVersion":"2030-01-01","io.modelcontextprotocol/clientCapabilities":{}}"#)).await;
    assert_eq!((a.status, a.code()), (400, &json!(-32022)));
    assert_eq!(
        a.json["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2030-01-01"})
    );
    assert_eq!(a.json["id"], 1);
    // -32602 (missing clientCapabilities)
    let a = post(
        &s,
        &modern_headers("server/discover", None),
        &discover(r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#),
    )
    .await;
    assert_eq!((a.status, a.code()), (400, &json!(-32602)));
    // -32020 (Mcp-Method mismatch)
    let a = post(&s, &modern_headers("tools/list", None), &discover(r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#)).await;
    assert_eq!((a.status, a.code()), (400, &json!(-32020)));
}

#[tokio::test]
async fn version_header_tolerance_is_configurable() {
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#);
    let h = [
        ("mcp-protocol-version", "2025-11-25"),
        ("mcp-method", "tools/list"),
    ];
    let lenient = post(&server(), &h, &body).await;
    assert_eq!(lenient.status, 200);
    assert_eq!(lenient.json["result"]["resultType"], "complete");
    let strict = post(
        &server_with(ServerConfig {
            strict_version_header: true,
            ..ServerConfig::default()
        }),
        &h,
        &body,
    )
    .await;
    assert_eq!((strict.status, strict.code()), (400, &json!(-32020)));
}

// ---- batches ----

/// Log lines written while `f` runs, as plain text.
async fn logged<F: std::future::Future<Output = ()>>(f: F) -> String {
    #[derive(Clone, Default)]
    struct Buffer(Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buffer = Buffer::default();
    let writer = buffer.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .with_writer(move || writer.clone())
        .finish();
    // tracing caches each callsite's interest for the whole process, and while one
    // dispatcher is registered a sibling test's thread (no subscriber) can cache "never"
    // for a callsite this test needs. A second, inert dispatcher makes every
    // registration ask all live ones, and the rebuild drops what was cached before.
    let anchor = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    {
        let _guard = tracing::subscriber::set_default(subscriber);
        tracing::callsite::rebuild_interest_cache();
        f.await;
    }
    drop(anchor);
    let bytes = buffer.0.lock().map(|b| b.clone()).unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test]
async fn batch_members_do_not_pile_their_fields_onto_the_request_line() {
    let s = server();
    let items: Vec<String> = (0..50)
        .map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#))
        .collect();
    let body = format!("[{}]", items.join(","));
    let log = logged(async {
        assert_eq!(post(&s, &[], &body).await.status, 200);
    })
    .await;
    // Recorded on the request span, each member's method repeated on every later line
    // (a 1,000-item batch wrote 72 MB); each member has its own span now.
    assert_eq!(log.lines().count(), 1, "{log}");
    assert_eq!(log.matches("method=").count(), 0, "{log}");
    let single = logged(async {
        assert_eq!(
            post(&s, &[], r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
                .await
                .status,
            200
        );
    })
    .await;
    assert_eq!(single.matches(r#"method="ping""#).count(), 1, "{single}");
}

#[tokio::test]
async fn batch_2025_03_26_is_answered_as_an_array_in_order() {
    let body = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},
                   {"jsonrpc":"2.0","method":"notifications/initialized"},
                   {"jsonrpc":"2.0","id":"b","method":"tools/list"},
                   {"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}},
                   {"jsonrpc":"2.0","id":4,"method":"nope"},
                   7]"#;
    let a = post(&server(), &[], body).await;
    assert_eq!(a.status, 200);
    let items = a.json.as_array().unwrap();
    assert_eq!(items.len(), 5);
    assert_eq!(items[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(items[1]["id"], "b");
    assert!(items[1]["result"]["tools"].is_array());
    assert_eq!(items[2]["id"], 3);
    assert_eq!(items[2]["error"]["code"], -32600);
    assert_eq!(
        items[2]["error"]["message"],
        "Invalid request: initialize is not allowed in a batch"
    );
    assert_eq!(items[3]["error"]["code"], -32601);
    assert_eq!(items[4]["error"]["code"], -32600);
    assert_eq!(items[4].get("id"), None);
}

#[tokio::test]
async fn batch_of_notifications_is_202() {
    let a = post(
        &server(),
        &[],
        r#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#,
    )
    .await;
    assert_eq!(a.status, 202);
    assert!(a.response.body().is_empty());
}

#[tokio::test]
async fn batch_needs_a_token_if_any_member_does() {
    let s = server();
    let body = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}]"#;
    let a = post(&s, &[], body).await;
    assert_eq!(a.status, 401);
    assert!(a.header("www-authenticate").is_some());
    let ids: Vec<&Value> = a.json.as_array().unwrap().iter().map(|e| &e["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2)]);
    let a = post(&s, &[("authorization", "Bearer read")], body).await;
    assert_eq!(a.status, 200);
    assert_eq!(
        a.json[1]["result"]["content"][0]["text"],
        r#"{"arguments":null,"person":"tester"}"#
    );
    let write = r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_echo"}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}]"#;
    let a = post(&s, &[("authorization", "Bearer read")], write).await;
    assert_eq!(a.status, 403);
    assert_eq!(a.header("www-authenticate"), Some(format!("Bearer error=\"insufficient_scope\", scope=\"ledger:write ledger:read\", resource_metadata=\"{METADATA_URL}\"").as_str()));
}

#[tokio::test]
async fn batch_refusals_are_400_32600() {
    let s = server();
    let a = post(&s, &[], "[]").await;
    assert_eq!((a.status, a.code()), (400, &json!(-32600)));
    let a = post(
        &s,
        &[("mcp-protocol-version", "2025-06-18")],
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    )
    .await;
    assert_eq!((a.status, a.code()), (400, &json!(-32600)));
    assert_eq!(
        a.json["error"]["message"],
        "Invalid request: JSON-RPC batches exist only in protocol version 2025-03-26"
    );
    let modern = format!(r#"[{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}]"#);
    let a = post(&s, &[], &modern).await;
    assert_eq!((a.status, a.code()), (400, &json!(-32600)));
}

#[tokio::test]
async fn legacy_unsupported_header_is_400() {
    let a = post(
        &server(),
        &[("mcp-protocol-version", "2024-11-05")],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    )
    .await;
    assert_eq!((a.status, a.code()), (400, &json!(-32600)));
    assert_eq!(a.json["id"], 1);
}

#[tokio::test]
async fn gate_refusals_echo_a_readable_id() {
    let s = server_with(ServerConfig {
        allowed_origins: vec![],
        ..ServerConfig::default()
    });
    let ping = r#"{"jsonrpc":"2.0","id":"g1","method":"ping"}"#;
    let a = post(&s, &[("origin", "https://evil.example")], ping).await;
    assert_eq!((a.status, &a.json["id"]), (403, &json!("g1")));
    let a = post(&s, &[("content-type", "text/plain")], ping).await;
    assert_eq!((a.status, &a.json["id"]), (415, &json!("g1")));
}

#[tokio::test]
async fn legacy_logging_set_level_is_empty_object_without_a_token() {
    let s = server();
    let a = post(
        &s,
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#,
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    let a = post(
        &s,
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"loud"}}"#,
    )
    .await;
    assert_eq!((a.status, a.code()), (200, &json!(-32602)));
}
