//! The assembled MCP handler in process, for the tool tests (`tools*.rs`, `household.rs`).
//!
//! Every call is a real HTTP request into `Server::handle`: the gate, the JSON-RPC
//! envelope, negotiation, a real dev HS256 token checked by the dev authenticator,
//! scope checks, the tool, and per-era shaping. [`Harness::new`] runs the ledger over
//! the embedded store in memory with a manual clock, so dates and `today` are fixed;
//! [`Harness::assembled`] is the app exactly as `dochiya-mcp` builds it from its
//! configuration (embedded store on disk, system clock, its own dev secret). Each
//! successful result is validated against the `outputSchema` published in
//! `tools/list` with the `jsonschema` crate; each error result is checked to carry
//! no `structuredContent`.
// Without the moto feature the modules that need moto are left out, and with them the
// only users of some helpers.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use dochiya_app::{AppConfig, Assembled, Config};
use dochiya_auth::{BearerAuthenticator, DevSecret, DevTokenIssuer};
use dochiya_domain::{ManualClock, SeededEntropy, TWO_POW_53};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_protocol::{Server, ServerConfig};
use dochiya_store_embedded::EmbeddedStore;
use http::Request;
use serde_json::{Value, json};

/// The resource URL tokens are minted for (the local default).
pub const RESOURCE: &str = "http://127.0.0.1:8080/mcp";

/// 2026-03-31T03:00:00Z = 12:00 on 2026-03-31 in Asia/Seoul: "today" for every vault in Seoul.
pub const NOW_UNIX: i64 = 1_774_926_000;

/// The version the tool tests speak: structuredContent as an object, no `_meta` needed.
pub const LEGACY: &str = "2025-11-25";

/// How the harness gets real dev tokens for its server.
enum Minter {
    /// A dev token issuer over the harness's own secret.
    Issuer(DevTokenIssuer),
    /// The app's own minting, with its configuration.
    App(Box<Config>),
}

/// The server, its dev token minting, the clock, and the published output schemas.
pub struct Harness {
    server: Arc<Server>,
    minter: Minter,
    /// The ledger's clock (manual-clock harness only); each tool call advances it by
    /// one second so ids are time-ordered.
    clock: Option<Arc<ManualClock>>,
    validators: HashMap<String, jsonschema::Validator>,
    /// The `tools/list` result as published.
    pub tools_list: Value,
}

/// The outcome of one `tools/call`.
#[derive(Debug)]
pub struct Outcome {
    /// `result.isError`.
    pub is_error: bool,
    /// `result.structuredContent`, if any.
    pub structured: Option<Value>,
    /// `result.content[0].text`.
    pub text: String,
}

impl Harness {
    /// A fresh server over an empty in-memory store.
    pub async fn new() -> Harness {
        Harness::over(Arc::new(EmbeddedStore::in_memory().expect("in-memory store"))).await
    }

    /// The same server over another store (the DynamoDB one, for stories run on both).
    pub async fn over(store: Arc<dyn dochiya_store::Store>) -> Harness {
        let clock = Arc::new(ManualClock::at_unix_seconds(NOW_UNIX));
        let ledger = Ledger::with_entropy(
            store,
            clock.clone(),
            Arc::new(SeededEntropy::new(7)),
            LedgerConfig::default(),
        );
        let secret = DevSecret::new("tool-tests-dev-secret-0123456789abcdef").expect("dev secret");
        let auth =
            BearerAuthenticator::dev(RESOURCE, &[], &secret, Duration::from_secs(30)).expect("dev auth");
        let issuer = DevTokenIssuer::new(&secret, RESOURCE).expect("issuer");
        let config = ServerConfig {
            instructions: dochiya_tools::INSTRUCTIONS.to_owned(),
            ..ServerConfig::default()
        };
        let server =
            Server::new(config, dochiya_tools::all(Arc::new(ledger)), Arc::new(auth)).expect("server");
        Harness::with(Arc::new(server), Minter::Issuer(issuer), Some(clock)).await
    }

    /// The app as `dochiya-mcp` assembles it from configuration, with its data in `data_dir`.
    pub async fn assembled(data_dir: &std::path::Path) -> Harness {
        let dir = data_dir.to_string_lossy().into_owned();
        let lookup = move |k: &str| match k {
            "DOCHIYA_DATA_DIR" => Some(dir.clone()),
            "DOCHIYA_AUTH" => Some("dev".to_owned()),
            _ => None,
        };
        let app_config = AppConfig::from_lookup(lookup.clone()).expect("app config");
        let config = Config::complete(app_config, &lookup, 8080).expect("config");
        let Assembled { app, .. } = dochiya_app::build(&config).await.expect("assembled app");
        assert_eq!(config.auth.resource_url, RESOURCE);
        Harness::with(app.server, Minter::App(Box::new(config)), None).await
    }

    async fn with(server: Arc<Server>, minter: Minter, clock: Option<Arc<ManualClock>>) -> Harness {
        let mut harness = Harness {
            server,
            minter,
            clock,
            validators: HashMap::new(),
            tools_list: Value::Null,
        };
        let (status, list) = harness
            .post(
                None,
                LEGACY,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            )
            .await;
        assert_eq!(status, 200, "tools/list: {list}");
        harness.tools_list = list["result"].clone();
        for tool in harness.tools_list["tools"].as_array().expect("tools array") {
            let name = tool["name"].as_str().expect("tool name").to_owned();
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&tool["outputSchema"])
                .unwrap_or_else(|e| panic!("{name}: output schema does not compile: {e}"));
            harness.validators.insert(name, validator);
        }
        harness
    }

    /// A client signed in as `sub` with both scopes.
    pub fn person(&self, sub: &str) -> Client<'_> {
        self.client(sub, &["ledger:read", "ledger:write"])
    }

    /// A client signed in as `sub` with exactly `scopes`.
    pub fn client(&self, sub: &str, scopes: &[&str]) -> Client<'_> {
        self.named_client(sub, sub, scopes)
    }

    /// A client signed in as `sub` whose token names them `name` (both scopes).
    pub fn person_named(&self, sub: &str, name: &str) -> Client<'_> {
        self.named_client(sub, name, &["ledger:read", "ledger:write"])
    }

    fn named_client(&self, sub: &str, name: &str, scopes: &[&str]) -> Client<'_> {
        let token = match &self.minter {
            Minter::Issuer(issuer) => issuer
                .mint_named(sub, name, scopes, Duration::from_secs(3600))
                .expect("mint"),
            Minter::App(config) => {
                dochiya_app::assemble::mint_named(&config.auth, &config.app, sub, name, scopes).expect("mint")
            }
        };
        Client { harness: self, token }
    }

    /// Moves the manual clock on (no-op for the assembled app, which runs on the system clock).
    pub fn advance(&self, seconds: i64) {
        if let Some(clock) = &self.clock {
            clock.advance_seconds(seconds);
        }
    }

    /// POST `body` to `/mcp` as protocol `version`, with an optional bearer token.
    pub async fn post(&self, token: Option<&str>, version: &str, body: &str) -> (u16, Value) {
        let mut request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", version);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request
            .body(Bytes::copy_from_slice(body.as_bytes()))
            .expect("request");
        let response = self.server.handle(request).await;
        let status = response.status().as_u16();
        let json = if response.body().is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(response.body()).expect("JSON body")
        };
        (status, json)
    }

    /// POST `body` with exactly `headers` (plus host and content type) and an optional
    /// token; the status and the body's bytes as sent.
    pub async fn post_raw(&self, token: Option<&str>, headers: &[(&str, &str)], body: &str) -> (u16, Bytes) {
        let mut request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request
            .body(Bytes::copy_from_slice(body.as_bytes()))
            .expect("request");
        let response = self.server.handle(request).await;
        (response.status().as_u16(), response.body().clone())
    }

    /// `tools/call` as a stateless 2026-07-28 client sends it (headers and `_meta`);
    /// returns the result after validating its `structuredContent`.
    pub async fn modern_call(&self, token: &str, tool: &str, arguments: &str) -> Value {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        );
        let request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .header("authorization", format!("Bearer {token}"))
            .body(Bytes::from(body))
            .expect("request");
        let response = self.server.handle(request).await;
        assert_eq!(response.status().as_u16(), 200);
        let json: Value = serde_json::from_slice(response.body()).expect("JSON body");
        let result = json["result"].clone();
        if result["isError"] != Value::Bool(true) {
            self.check_output(tool, &result["structuredContent"]);
        }
        result
    }

    /// Validates a successful result against the tool's published output schema.
    fn check_output(&self, tool: &str, structured: &Value) {
        let validator = self
            .validators
            .get(tool)
            .unwrap_or_else(|| panic!("no tool {tool}"));
        let errors: Vec<String> = validator
            .iter_errors(structured)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{tool}: structuredContent does not match its outputSchema: {errors:?}\n{structured:#}"
        );
        check_ids(structured);
    }
}

/// Every transaction id anywhere in a result is a decimal string above 2^53.
fn check_ids(value: &Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "transactionId" || key == "openingTransactionId" {
                    let text = v.as_str().unwrap_or_else(|| panic!("{key} is not a string: {v}"));
                    let id: u64 = text
                        .parse()
                        .unwrap_or_else(|_| panic!("{key} {text} is not a u64"));
                    assert!(id > TWO_POW_53, "{key} {id} is not above 2^53");
                    assert_eq!(id.to_string(), text, "{key} has no canonical form");
                }
                check_ids(v);
            }
        }
        Value::Array(items) => items.iter().for_each(check_ids),
        _ => {}
    }
}

/// One signed-in person talking to the server.
pub struct Client<'h> {
    harness: &'h Harness,
    /// The bearer token.
    pub token: String,
}

impl Client<'_> {
    /// `tools/call` with `arguments` given as exact JSON text.
    pub async fn call(&self, tool: &str, arguments: &str) -> Outcome {
        self.harness.advance(1);
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        );
        let (status, response) = self.harness.post(Some(&self.token), LEGACY, &body).await;
        assert_eq!(status, 200, "{tool}: HTTP {status}: {response}");
        assert_eq!(response["id"], "c");
        let result = &response["result"];
        assert!(result.is_object(), "{tool}: no result: {response}");
        let is_error = result["isError"].as_bool().unwrap_or(false);
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert_eq!(result["content"][0]["type"], "text", "{tool}: {result}");
        let structured = result.get("structuredContent").cloned();
        if is_error {
            assert_eq!(
                structured, None,
                "{tool}: an error result carries structuredContent"
            );
        } else {
            let structured = structured
                .as_ref()
                .unwrap_or_else(|| panic!("{tool}: success without structuredContent"));
            self.harness.check_output(tool, structured);
            // The same JSON as text, for clients that read only text.
            let from_text: Value = serde_json::from_str(&text).expect("text block is JSON");
            assert_eq!(
                &from_text, structured,
                "{tool}: text block differs from structuredContent"
            );
        }
        Outcome {
            is_error,
            structured,
            text,
        }
    }

    /// A call that must succeed; returns its `structuredContent`.
    pub async fn ok(&self, tool: &str, arguments: &str) -> Value {
        let outcome = self.call(tool, arguments).await;
        assert!(!outcome.is_error, "{tool} {arguments} failed: {}", outcome.text);
        outcome.structured.unwrap_or(Value::Null)
    }

    /// A call that must be a tool error; returns its message.
    pub async fn err(&self, tool: &str, arguments: &str) -> String {
        let outcome = self.call(tool, arguments).await;
        assert!(outcome.is_error, "{tool} {arguments} succeeded: {}", outcome.text);
        outcome.text
    }

    /// A simple `record_transaction`, returning the new transaction id.
    pub async fn record(
        &self,
        from: &str,
        to: &str,
        amount: &str,
        date: &str,
        memo: &str,
        key: &str,
    ) -> String {
        let args = json!({
            "from": from, "to": to, "amount": amount, "date": date, "memo": memo, "idempotencyKey": key,
        });
        let r = self.ok("record_transaction", &args.to_string()).await;
        r["transaction"]["transactionId"]
            .as_str()
            .expect("transactionId")
            .to_owned()
    }
}

/// The balances of `get_balances` as `name → balance`.
pub fn balances_by_name(result: &Value) -> Vec<(String, String)> {
    result["accounts"]
        .as_array()
        .map(|accounts| {
            accounts
                .iter()
                .map(|a| {
                    (
                        a["name"].as_str().unwrap_or_default().to_owned(),
                        a["balance"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A data directory of our own for [`Harness::assembled`], removed when the test ends.
pub struct DataDir(pub std::path::PathBuf);

impl DataDir {
    /// A fresh directory under the system's temporary directory, named after `tag`.
    pub fn new(tag: &str) -> DataDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("dochiya-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("data dir");
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
