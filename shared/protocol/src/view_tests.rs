//! MCP Apps views through the handler: every client, in both eras, gets the links in
//! `_meta.ui` and otherwise exactly the bytes a server without views sends; one that
//! declares the extension is also told so in its capabilities, and `resources/read`
//! serves the views (decision 042).

use std::sync::Arc;

use bytes::Bytes;
use http::Request;
use serde_json::{Value, json};

use crate::config::ServerConfig;
use crate::server::{Server, ServerError};
use crate::testing::{TestAuth, TestTool, spec};
use crate::tool::{Tool, ToolSpec};
use crate::view::{UI_EXTENSION, VIEW_MIME_TYPE, ViewSpec};

const VIEW: ViewSpec = ViewSpec {
    uri: "ui://test/echo.html",
    name: "echo",
    html: "<!doctype html><title>echo</title>",
};
const UI: &str =
    r#"{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}"#;

fn tools(linked: bool) -> Vec<Arc<dyn Tool>> {
    let view = linked.then_some(VIEW.uri);
    vec![
        Arc::new(TestTool::echo(ToolSpec { view, ..spec("echo") })),
        Arc::new(TestTool::echo(spec("plain"))),
    ]
}

/// With views: `echo` links [`VIEW`]. Without: the same tools (the link included), no
/// views, so no link is ever shown.
fn server(with_views: bool) -> Server {
    let config = ServerConfig {
        views: if with_views { vec![VIEW] } else { Vec::new() },
        ..ServerConfig::default()
    };
    match Server::new(config, tools(true), Arc::new(TestAuth::new())) {
        Ok(s) => s,
        Err(e) => panic!("server: {e}"),
    }
}

/// POST `body`; `modern` adds the 2026-07-28 headers for `method` (and `Mcp-Name`).
async fn post(
    s: &Server,
    modern: Option<(&str, Option<&str>)>,
    token: Option<&str>,
    body: &str,
) -> (u16, Bytes) {
    let mut b = Request::builder()
        .method("POST")
        .uri("/mcp")
        .header("content-type", "application/json");
    if let Some((method, name)) = modern {
        b = b
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method);
        if let Some(name) = name {
            b = b.header("mcp-name", name);
        }
    } else {
        b = b.header("mcp-protocol-version", "2025-11-25");
    }
    if let Some(token) = token {
        b = b.header("authorization", format!("Bearer {token}"));
    }
    let response = s
        .handle(b.body(Bytes::copy_from_slice(body.as_bytes())).unwrap())
        .await;
    (response.status().as_u16(), response.body().clone())
}

fn json(bytes: &Bytes) -> Value {
    serde_json::from_slice(bytes).unwrap()
}

fn modern(id: u32, method: &str, params: &str, caps: &str) -> String {
    let comma = if params.is_empty() { "" } else { "," };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{comma}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}}}}}"#
    )
}

/// The modern headers of a request: its method and `Mcp-Name`; `None` for a legacy one.
type Modern = Option<(&'static str, Option<&'static str>)>;

/// Every request a client without the extension sends, on both legs: (modern headers, body).
fn without_extension() -> Vec<(Modern, String)> {
    vec![
        (Some(("server/discover", None)), modern(1, "server/discover", "", "{}")),
        (Some(("tools/list", None)), modern(2, "tools/list", "", "{}")),
        (
            Some(("tools/call", Some("echo"))),
            modern(3, "tools/call", r#""name":"echo","arguments":{"a":1}"#, "{}"),
        ),
        // Another extension declared is still not this one.
        (
            Some(("tools/list", None)),
            modern(4, "tools/list", "", r#"{"extensions":{"io.example/other":{}}}"#),
        ),
        (
            None,
            r#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#.to_owned(),
        ),
        (None, r#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#.to_owned()),
        (
            None,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#.to_owned(),
        ),
    ]
}

/// `value` without any `_meta.ui`, and without a `_meta` left empty by that.
fn without_links(mut value: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(meta)) = map.get_mut("_meta") {
                    meta.remove("ui");
                    if meta.is_empty() {
                        map.remove("_meta");
                    }
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

#[tokio::test]
async fn without_the_extension_a_client_gets_the_links_and_nothing_else_changes() {
    let (with, without) = (server(true), server(false));
    for (headers, body) in without_extension() {
        let a = post(&with, headers, Some("read"), &body).await;
        let b = post(&without, headers, Some("read"), &body).await;
        assert_eq!((a.0, b.0), (200, 200), "{body}");
        let text = String::from_utf8_lossy(&a.1);
        // The capabilities never name the extension to a client that did not declare it.
        assert!(!text.contains(UI_EXTENSION), "{text}");
        let (a, b) = (json(&a.1), json(&b.1));
        assert_eq!(without_links(a.clone()), b, "{body}");
        // The links are there, on the linked tool and its results only.
        if body.contains("tools/list") {
            let tools = &a["result"]["tools"];
            assert_eq!(
                tools[0]["_meta"],
                json!({"ui": {"resourceUri": VIEW.uri}}),
                "{body}"
            );
            assert_eq!(tools[1].get("_meta"), None, "{body}");
        } else if body.contains("tools/call") {
            assert_eq!(
                a["result"]["_meta"]["ui"],
                json!({"resourceUri": VIEW.uri}),
                "{body}"
            );
        } else {
            assert_eq!(a, b, "{body}");
        }
    }
}

#[tokio::test]
async fn a_modern_client_with_the_extension_is_told_and_gets_the_links() {
    let s = server(true);
    let (_, d) = post(
        &s,
        Some(("server/discover", None)),
        None,
        &modern(1, "server/discover", "", UI),
    )
    .await;
    assert_eq!(
        json(&d)["result"]["capabilities"],
        json!({"tools": {}, "extensions": {UI_EXTENSION: {"mimeTypes": [VIEW_MIME_TYPE]}}})
    );
    let (_, l) = post(
        &s,
        Some(("tools/list", None)),
        None,
        &modern(2, "tools/list", "", UI),
    )
    .await;
    let list = json(&l)["result"]["tools"].clone();
    assert_eq!(list[0]["_meta"], json!({"ui": {"resourceUri": VIEW.uri}}));
    assert_eq!(list[1].get("_meta"), None, "a tool without a view links nothing");
    // The list is the one a client without the extension gets.
    let (_, plain) = post(
        &s,
        Some(("tools/list", None)),
        None,
        &modern(2, "tools/list", "", "{}"),
    )
    .await;
    assert_eq!(list, json(&plain)["result"]["tools"]);
    // A result of the linked tool names its view beside the serverInfo.
    let call = modern(3, "tools/call", r#""name":"echo","arguments":{}"#, UI);
    let (_, r) = post(&s, Some(("tools/call", Some("echo"))), Some("read"), &call).await;
    let meta = &json(&r)["result"]["_meta"];
    assert_eq!(meta["ui"], json!({"resourceUri": VIEW.uri}));
    assert_eq!(meta["io.modelcontextprotocol/serverInfo"]["name"], "dochiya");
    let call = modern(4, "tools/call", r#""name":"plain","arguments":{}"#, UI);
    let (_, r) = post(&s, Some(("tools/call", Some("plain"))), Some("read"), &call).await;
    assert_eq!(json(&r)["result"]["_meta"].get("ui"), None);
}

#[tokio::test]
async fn a_legacy_client_is_told_in_initialize_and_later_requests_still_link() {
    let s = server(true);
    let init = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{UI},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
    );
    let (_, i) = post(&s, None, None, &init).await;
    assert_eq!(
        json(&i)["result"]["capabilities"]["extensions"],
        json!({UI_EXTENSION: {"mimeTypes": [VIEW_MIME_TYPE]}})
    );
    // Later legacy requests carry no capabilities and there is no session to remember
    // them: the links are there anyway.
    let (_, l) = post(
        &s,
        None,
        None,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    )
    .await;
    assert_eq!(
        json(&l)["result"]["tools"][0]["_meta"],
        json!({"ui": {"resourceUri": VIEW.uri}})
    );
}

#[tokio::test]
async fn resources_read_serves_a_view_to_any_token_and_says_which_uri_is_unknown() {
    let s = server(true);
    let read = |uri: &str, caps: &str| modern(1, "resources/read", &format!(r#""uri":"{uri}""#), caps);
    let headers = Some(("resources/read", Some(VIEW.uri)));
    // A token is needed, as for every method outside the token-free ones.
    let (status, _) = post(&s, headers, None, &read(VIEW.uri, "{}")).await;
    assert_eq!(status, 401);
    let (status, r) = post(&s, headers, Some("read"), &read(VIEW.uri, "{}")).await;
    assert_eq!(status, 200);
    let r = json(&r)["result"].clone();
    assert_eq!(
        r["contents"],
        json!([{"uri": VIEW.uri, "mimeType": VIEW_MIME_TYPE, "text": VIEW.html,
                "_meta": {"ui": {"csp": {"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []},
                               "prefersBorder": true}}}])
    );
    assert_eq!(
        (&r["resultType"], &r["cacheScope"]),
        (&json!("complete"), &json!("public"))
    );
    assert!(r["ttlMs"].is_u64());
    // Unknown: decided before any token, -32602 (modern) or -32002 (legacy), naming the URI.
    let (status, e) = post(
        &s,
        Some(("resources/read", Some("ui://test/nope"))),
        None,
        &read("ui://test/nope", "{}"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        json(&e)["error"],
        json!({"code": -32602, "message": "Resource not found: ui://test/nope", "data": {"uri": "ui://test/nope"}})
    );
    // The legacy leg reads the views too.
    let legacy_view = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{{"uri":"{}"}}}}"#,
        VIEW.uri
    );
    let (status, lv) = post(&s, None, Some("read"), &legacy_view).await;
    assert_eq!(status, 200);
    assert_eq!(json(&lv)["result"]["contents"], r["contents"]);
    let legacy =
        r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://static-text"}}"#;
    let (_, e) = post(&s, None, None, legacy).await;
    assert_eq!(json(&e)["error"]["code"], -32002);
    assert_eq!(json(&e)["error"]["data"], json!({"uri": "test://static-text"}));
    let (_, e) = post(
        &s,
        None,
        None,
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":7}}"#,
    )
    .await;
    assert_eq!(
        json(&e)["error"]["message"],
        "Invalid params: uri must be a string"
    );
    // A server without views has no resources/read at all, and links nothing even when asked.
    let (_, e) = post(&server(false), None, Some("read"), legacy).await;
    assert_eq!(json(&e)["error"]["code"], -32601);
    let (_, l) = post(
        &server(false),
        Some(("tools/list", None)),
        None,
        &modern(2, "tools/list", "", UI),
    )
    .await;
    assert!(!String::from_utf8_lossy(&l).contains("ui://"));
}

#[test]
fn a_tool_linking_a_view_that_is_not_served_stops_the_start() {
    let other = ViewSpec {
        uri: "ui://test/other.html",
        ..VIEW
    };
    let config = ServerConfig {
        views: vec![other],
        ..ServerConfig::default()
    };
    let err = Server::new(config, tools(true), Arc::new(TestAuth::new())).err();
    assert!(
        matches!(
            err,
            Some(ServerError::UnknownView {
                tool: "echo",
                uri: "ui://test/echo.html"
            })
        ),
        "{err:?}"
    );
}
