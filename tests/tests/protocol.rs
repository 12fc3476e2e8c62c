//! The built `dochiya-mcp` over raw HTTP: every HTTP and negotiation rule of the protocol
//! layer as a client sees it (docs/design.md §2, docs/protocol.md §12).

use crate::e2e::{Response, Server};
use serde_json::{Value, json};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"e2e","version":"1"}}"#;

fn modern(id: u32, method: &str, extra: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{extra}{META}}}}}"#)
}

fn assert_error(r: &Response, status: u16, code: i64, id: Option<Value>) -> Value {
    assert_eq!(r.status, status, "{:?}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let body = r.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert_eq!(body.get("id").cloned(), id);
    body
}

#[test]
fn discover_is_complete_and_cacheable() {
    let s = Server::start();
    eprintln!("debug binary: process start to first answer {:?}", s.startup);
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "server/discover"),
        ],
        &modern(1, "server/discover", ""),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("mcp-session-id"), None);
    let result = &r.json()["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(result["capabilities"], json!({"tools": {}, "prompts": {}}));
    assert!(
        result["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("idempotencyKey"))
    );
    assert!(result["ttlMs"].as_u64().is_some());
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "dochiya"
    );
}

#[test]
fn initialize_counter_offers_ping_is_empty_notification_is_202() {
    let s = Server::start();
    for (asked, offered) in [
        ("2025-03-26", "2025-03-26"),
        ("2026-07-28", "2025-11-25"),
        ("2024-11-05", "2025-11-25"),
    ] {
        let r = s.post_json(
            &[],
            &format!(r#"{{"jsonrpc":"2.0","id":"i","method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"e2e","version":"1"}}}}}}"#),
        );
        assert_eq!(r.status, 200, "{asked}");
        let body = r.json();
        assert_eq!(body["id"], "i");
        assert_eq!(body["result"]["protocolVersion"], offered);
        assert_eq!(body["result"]["serverInfo"]["name"], "dochiya");
        assert_eq!(body["result"].get("resultType"), None);
        assert_eq!(r.header("mcp-session-id"), None);
    }
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#,
    );
    assert_eq!(r.json(), json!({"jsonrpc": "2.0", "id": 5, "result": {}}));
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(r.status, 202);
    assert!(r.body.is_empty());
}

#[test]
fn http_surface_405_404_trailing_slash() {
    let s = Server::start();
    for method in ["GET", "DELETE"] {
        let r = s.send(method, "/mcp", &[("accept", "text/event-stream")], b"");
        assert_error(&r, 405, -32600, None);
        assert_eq!(r.header("allow"), Some("POST"));
    }
    let r = s.send(
        "POST",
        "/mcp/",
        &[("content-type", "application/json")],
        br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"], json!({}));
    assert_eq!(r.header("location"), None);
    let r = s.send("POST", "/other", &[("content-type", "application/json")], b"{}");
    assert_error(&r, 404, -32600, None);
}

#[test]
fn accept_never_matters_answers_are_json() {
    let s = Server::start();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    for accept in [
        None,
        Some("*/*"),
        Some("text/event-stream"),
        Some("application/json, text/event-stream"),
    ] {
        let mut headers = vec![("content-type", "application/json")];
        if let Some(a) = accept {
            headers.push(("accept", a));
        }
        let r = s.post(&headers, ping);
        assert_eq!(r.status, 200, "Accept {accept:?}");
        assert_eq!(
            r.header("content-type"),
            Some("application/json"),
            "Accept {accept:?}"
        );
        assert_eq!(r.json()["result"], json!({}));
    }
}

#[test]
fn content_type_charset_missing_and_415() {
    let s = Server::start();
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!(
        s.post(&[("content-type", "application/json; charset=utf-8")], ping)
            .status,
        200
    );
    assert_eq!(
        s.post(&[], ping).status,
        200,
        "missing Content-Type is read as JSON"
    );
    let r = s.post(&[("content-type", "text/plain")], ping);
    assert_error(&r, 415, -32600, Some(json!(1)));
}

#[test]
fn body_limits_encoding_and_parse_errors() {
    let s = Server::start();
    let mut big = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#.to_vec();
    big.resize(1024 * 1024 + 1, b'a');
    let r = s.post(&[("content-type", "application/json")], &big);
    assert_error(&r, 413, -32600, None);
    let r = s.post(
        &[("content-type", "application/json")],
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}",
    );
    assert_error(&r, 400, -32700, None);
    let r = s.post_json(&[], r#"{"jsonrpc":"2.0","id":1,"#);
    assert_error(&r, 400, -32700, None);
    let r = s.post_json(&[], r#"{"jsonrpc":"2.0","id":1}"#);
    assert_error(&r, 400, -32600, Some(json!(1)));
}

#[test]
fn batch_2025_03_26_is_answered_as_an_array() {
    let s = Server::start();
    let r = s.post_json(
        &[],
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},
            {"jsonrpc":"2.0","method":"notifications/initialized"},
            {"jsonrpc":"2.0","id":2,"method":"tools/list"},
            {"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}]"#,
    );
    assert_eq!(r.status, 200);
    let items = r.json();
    let items = items.as_array().expect("array");
    assert_eq!(items.len(), 3);
    assert_eq!(items[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(items[1]["id"], 2);
    assert!(
        items[1]["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    assert_eq!(
        items[1]["result"]["tools"][0].get("outputSchema"),
        None,
        "2025-03-26 has no outputSchema"
    );
    assert_eq!(items[2]["id"], 3);
    assert_eq!(items[2]["error"]["code"], -32600);
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    );
    assert_error(&r, 400, -32600, None);
}

#[test]
fn a_batch_over_100_messages_is_one_short_error_and_a_full_one_is_served() {
    let s = Server::start();
    // Just under the 1 MB body limit: about 500,000 members. Before the limit this was
    // answered member by member (a 51 MB answer); now it is one error of a few hundred bytes.
    let ones = vec!["1"; 500_000].join(",");
    let r = s.post_json(&[], &format!("[{ones}]"));
    assert_eq!(r.status, 400);
    assert!(r.body.len() < 300, "{} bytes", r.body.len());
    assert_eq!(
        r.json(),
        json!({"jsonrpc": "2.0", "error": {"code": -32600, "message":
            "Invalid request: a batch may hold at most 100 messages; send the rest in further requests"}})
    );
    let pings: Vec<String> = (0..100)
        .map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#))
        .collect();
    let r = s.post_json(&[], &format!("[{}]", pings.join(",")));
    assert_eq!(r.status, 200);
    assert_eq!(r.json().as_array().map(Vec::len), Some(100));
    let r = s.post_json(&[], &format!("[{},{}]", pings.join(","), pings[0]));
    assert_error(&r, 400, -32600, None);
}

#[test]
fn modern_header_mismatches_are_32020() {
    let s = Server::start();
    let list = modern(7, "tools/list", "");
    // Missing MCP-Protocol-Version.
    let r = s.post_json(&[("mcp-method", "tools/list")], &list);
    assert_error(&r, 400, -32020, Some(json!(7)));
    // Missing and wrong Mcp-Method (values are case-sensitive, names are not).
    let r = s.post_json(&[("mcp-protocol-version", "2026-07-28")], &list);
    assert_error(&r, 400, -32020, Some(json!(7)));
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "TOOLS/LIST"),
        ],
        &list,
    );
    assert_error(&r, 400, -32020, Some(json!(7)));
    let r = s.post_json(
        &[
            ("MCP-PROTOCOL-VERSION", "2026-07-28"),
            ("MCP-METHOD", " tools/list "),
        ],
        &list,
    );
    assert_eq!(r.status, 200);
    // Mcp-Name: missing, different, and base64-encoded (accepted).
    let call = modern(8, "tools/call", r#""name":"list_vaults","arguments":{},"#);
    let base = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
    ];
    let r = s.post_json(&base, &call);
    assert_error(&r, 400, -32020, Some(json!(8)));
    let r = s.post_json(&[base[0], base[1], ("mcp-name", "list_accounts")], &call);
    assert_error(&r, 400, -32020, Some(json!(8)));
    let bearer = s.bearer();
    let r = s.post_json(
        &[
            base[0],
            base[1],
            ("mcp-name", "=?base64?bGlzdF92YXVsdHM=?="),
            ("authorization", &bearer),
        ],
        &call,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["resultType"], "complete");
}

#[test]
fn unsupported_versions_are_32022_with_data() {
    let s = Server::start();
    let body = r#"{"jsonrpc":"2.0","id":"v","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2099-01-01"),
            ("mcp-method", "tools/list"),
        ],
        body,
    );
    let e = assert_error(&r, 400, -32022, Some(json!("v")));
    assert_eq!(
        e["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2099-01-01"})
    );
    // An unsupported header beats a mismatch.
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "1999-01-01"),
            ("mcp-method", "tools/list"),
        ],
        &modern(2, "tools/list", ""),
    );
    let e = assert_error(&r, 400, -32022, Some(json!(2)));
    assert_eq!(e["error"]["data"]["requested"], "1999-01-01");
    // Legacy: an unsupported header is 400.
    let r = s.post_json(
        &[("mcp-protocol-version", "2024-11-05")],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    );
    assert_error(&r, 400, -32600, Some(json!(3)));
}

#[test]
fn missing_meta_keys_are_400_32602() {
    let s = Server::start();
    let h = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "server/discover"),
    ];
    let r = s.post_json(&h, r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#);
    let e = assert_error(&r, 400, -32602, Some(json!(1)));
    assert!(
        e["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("clientCapabilities"))
    );
    // A modern header without any claim in the body.
    let r = s.post_json(
        &[("mcp-protocol-version", "2026-07-28")],
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    );
    assert_error(&r, 400, -32602, Some(json!(2)));
    // Unknown tool: in-band -32602.
    let r = s.post_json(
        &[],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool"}}"#,
    );
    assert_error(&r, 200, -32602, Some(json!(3)));
}

#[test]
fn removed_and_unknown_methods_are_32601() {
    let s = Server::start();
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/list",
    ] {
        let r = s.post_json(
            &[("mcp-protocol-version", "2026-07-28"), ("mcp-method", method)],
            &modern(4, method, ""),
        );
        assert_error(&r, 404, -32601, Some(json!(4)));
    }
    let r = s.post_json(&[], r#"{"jsonrpc":"2.0","id":5,"method":"resources/list"}"#);
    assert_error(&r, 200, -32601, Some(json!(5)));
}

#[test]
fn version_header_tolerance_default_on() {
    let s = Server::start();
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/list"),
        ],
        &modern(1, "tools/list", ""),
    );
    assert_eq!(r.status, 200);
    let result = &r.json()["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["cacheScope"], "public");
}

#[test]
fn version_header_tolerance_off_in_strict_mode() {
    let s = Server::start_with(&[("DOCHIYA_STRICT_VERSION_HEADER", "true")]);
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/list"),
        ],
        &modern(1, "tools/list", ""),
    );
    assert_error(&r, 400, -32020, Some(json!(1)));
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ],
        &modern(2, "tools/list", ""),
    );
    assert_eq!(r.status, 200);
}

#[test]
fn tokens_challenges_and_resource_metadata() {
    let s = Server::start();
    let call =
        r#"{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"list_vaults","arguments":{}}}"#;
    let r = s.post_json(&[("mcp-protocol-version", "2025-06-18")], call);
    assert_error(&r, 401, -32600, Some(json!("t")));
    let challenge = r.header("www-authenticate").expect("challenge");
    let metadata_url = format!(
        "http://127.0.0.1:{}/.well-known/oauth-protected-resource/mcp",
        s.port
    );
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains(&format!("resource_metadata=\"{metadata_url}\"")),
        "{challenge}"
    );
    let r = s.post_json(
        &[
            ("mcp-protocol-version", "2025-06-18"),
            ("authorization", "Bearer not-a-jwt"),
        ],
        call,
    );
    assert_eq!(r.status, 401);
    assert!(
        r.header("www-authenticate")
            .is_some_and(|c| c.contains("invalid_token"))
    );
    let bearer = s.bearer();
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-06-18"), ("authorization", &bearer)],
        call,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["result"]["structuredContent"], json!({"vaults": []}));
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let r = s.send("GET", path, &[], b"");
        assert_eq!(r.status, 200, "{path}");
        assert!(r.header("cache-control").is_some());
        assert_eq!(r.json()["resource"], format!("http://127.0.0.1:{}/mcp", s.port));
    }
}

#[test]
fn origin_and_host_are_checked() {
    let s = Server::start_with(&[("DOCHIYA_ALLOWED_ORIGINS", "http://localhost:6274")]);
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let json = ("content-type", "application/json");
    assert_eq!(
        s.post(&[json, ("origin", "http://localhost:6274")], ping).status,
        200
    );
    assert_error(
        &s.post(&[json, ("origin", "https://evil.example")], ping),
        403,
        -32600,
        Some(json!(1)),
    );
    assert_error(
        &s.post(&[json, ("host", "evil.example")], ping),
        403,
        -32600,
        Some(json!(1)),
    );
    assert_eq!(s.post(&[json, ("host", "localhost")], ping).status, 200);
    // The server's own origin is never a rebinding attack (conformance dns-rebinding-protection).
    let own = format!("http://127.0.0.1:{}", s.port);
    assert_eq!(s.post(&[json, ("origin", &own)], ping).status, 200);
    let r = s.post(&[json, ("origin", "http://127.0.0.1:1")], ping);
    assert_error(&r, 403, -32600, Some(json!(1)));
}

#[test]
fn legacy_logging_set_level_is_an_empty_result() {
    let s = Server::start();
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}"#,
    );
    assert_eq!(r.json(), json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
}

/// Prompts on both generations: listed without a token (cacheable, like tools/list),
/// fetched with one; an unknown prompt or a bad argument is -32602 before any token.
#[test]
fn prompts_on_both_generations() {
    let s = Server::start();
    let names = |v: &Value| -> Vec<String> {
        v["result"]["prompts"]
            .as_array()
            .map(|p| {
                p.iter()
                    .filter_map(|p| p["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let want = ["monthly_review", "import_statement", "start_household"];
    let modern_list = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "prompts/list"),
        ],
        &modern(1, "prompts/list", ""),
    );
    assert_eq!(modern_list.status, 200);
    let body = modern_list.json();
    assert_eq!(names(&body), want);
    assert_eq!(body["result"]["cacheScope"], "public");
    assert_eq!(
        body["result"]["prompts"][0]["title"],
        "Monthly review (월간 가계부 점검)"
    );
    let legacy_list = s.post_json(
        &[("mcp-protocol-version", "2025-03-26")],
        r#"{"jsonrpc":"2.0","id":2,"method":"prompts/list"}"#,
    );
    assert_eq!(names(&legacy_list.json()), want);
    assert_eq!(legacy_list.json()["result"]["prompts"][0].get("title"), None);

    let get = r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"monthly_review","arguments":{"language":"en","month":"2026-03"}}}"#;
    let refused = s.post_json(&[("mcp-protocol-version", "2025-06-18")], get);
    assert_error(&refused, 401, -32600, Some(json!(3)));
    let bearer = s.bearer();
    let got = s.post_json(
        &[("mcp-protocol-version", "2025-06-18"), ("authorization", &bearer)],
        get,
    );
    assert_eq!(got.status, 200);
    let message = &got.json()["result"]["messages"][0];
    assert_eq!(message["role"], "user");
    assert!(
        message["content"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Review the household book for month 2026-03.")),
        "{message}"
    );
    let modern_get = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "prompts/get"),
            ("mcp-name", "start_household"),
            ("authorization", &bearer),
        ],
        &modern(4, "prompts/get", r#""name":"start_household","#),
    );
    assert_eq!(modern_get.status, 200);
    let body = modern_get.json();
    assert_eq!(body["result"]["resultType"], "complete");
    assert!(
        body["result"]["messages"][0]["content"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("새 가계부를 시작해요.")),
        "{body}"
    );
    let unknown = s.post_json(
        &[("mcp-protocol-version", "2025-06-18")],
        r#"{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"budget"}}"#,
    );
    let e = assert_error(&unknown, 200, -32602, Some(json!(5)));
    assert_eq!(
        e["error"]["message"],
        "Unknown prompt: budget; the prompts are [\"monthly_review\", \"import_statement\", \"start_household\"]"
    );
    let bad = s.post_json(
        &[("mcp-protocol-version", "2025-06-18"), ("authorization", &bearer)],
        r#"{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"monthly_review","arguments":{"month":"March"}}}"#,
    );
    let e = assert_error(&bad, 200, -32602, Some(json!(6)));
    assert_eq!(
        e["error"]["message"],
        "Invalid params: month: \"March\" is not a month; write it as YYYY-MM, like \"2026-03\""
    );
}

/// The icon: in serverInfo (initialize, and discover's _meta) and at the origin.
#[test]
fn icons_and_the_favicon() {
    let s = Server::start();
    let init = s.post_json(
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}"#,
    );
    let icons = &init.json()["result"]["serverInfo"]["icons"];
    assert_eq!(icons[0]["mimeType"], "image/svg+xml");
    assert!(
        icons[0]["src"]
            .as_str()
            .is_some_and(|src| src.starts_with("data:image/svg+xml,"))
    );
    assert_eq!(
        init.json()["result"]["capabilities"],
        json!({"tools": {}, "prompts": {}})
    );
    let discover = s.post_json(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "server/discover"),
        ],
        &modern(2, "server/discover", ""),
    );
    assert_eq!(
        &discover.json()["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["icons"],
        icons
    );
    let favicon = s.send("GET", "/favicon.ico", &[], b"");
    assert_eq!(favicon.status, 200);
    assert_eq!(favicon.header("content-type"), Some("image/x-icon"));
    assert_eq!(&favicon.body[..6], &[0, 0, 1, 0, 1, 0]);
    assert_eq!(favicon.body.len(), 4286);
}

/// The privacy page at the origin, in the caller's language, with the operator's
/// contact; the same in every auth mode (here the default dev mode), no token needed.
#[test]
fn the_privacy_page_in_korean_with_the_contact() {
    let s = Server::start_with(&[("DOCHIYA_SUPPORT_CONTACT", "privacy@dochiya.test")]);
    let page = s.send("GET", "/privacy", &[("accept-language", "ko-KR,ko;q=0.9")], b"");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(page.header("vary"), Some("accept-language"));
    let html = String::from_utf8_lossy(&page.body);
    assert!(
        html.contains("<h1>이 dochiya 서버의 개인정보 처리</h1>"),
        "{html}"
    );
    assert!(
        html.contains("<p class=\"contact\">privacy@dochiya.test</p>"),
        "{html}"
    );
    let english = s.send("GET", "/privacy", &[], b"");
    assert!(String::from_utf8_lossy(&english.body).contains("<h2>Export and delete</h2>"));
}
