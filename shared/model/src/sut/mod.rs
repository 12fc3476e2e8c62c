//! The system under test: the assembled MCP handler in process, exactly what a client
//! calls (JSON in, JSON out), over one of the stores.
//!
//! Every call is a real HTTP request into `Server::handle`: the gate, the JSON-RPC
//! envelope, a real dev token per person, the scope check, the tool, the encoding. Each
//! successful `structuredContent` is validated against the output schema the server
//! publishes in `tools/list`, and must equal the JSON of the text block; an error result
//! must carry none. The ledger runs on a [`ManualClock`] the model moves.

mod stores;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use dochiya_auth::{BearerAuthenticator, DevSecret, DevTokenIssuer};
use dochiya_domain::{Clock, ManualClock, SeededEntropy};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_protocol::{Server, ServerConfig};
use http::Request;
use serde_json::Value;

pub use stores::Backend;

/// The resource URL the dev tokens are minted for.
const RESOURCE: &str = "http://127.0.0.1:8080/mcp";

/// The protocol revision the calls speak (structuredContent as an object).
const VERSION: &str = "2025-11-25";

/// What one `tools/call` answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A result with its `structuredContent` (already checked against the schema).
    Ok(Value),
    /// A tool error (`isError: true`) and its message.
    Refused(String),
}

impl Answer {
    /// The structured content of a success, or a panic naming the call.
    pub fn ok(self, what: &str) -> Value {
        match self {
            Answer::Ok(v) => v,
            Answer::Refused(m) => panic!("{what} was refused: {m}"),
        }
    }
}

/// The server over one store, the clock it runs on, and each person's token.
pub struct Sut {
    server: Arc<Server>,
    clock: Arc<ManualClock>,
    issuer: DevTokenIssuer,
    tokens: HashMap<String, String>,
    validators: HashMap<String, jsonschema::Validator>,
    _backend: stores::Held,
}

impl Sut {
    /// A fresh server over an empty store of `backend`, its clock at `now` (Unix seconds).
    pub async fn new(backend: Backend, now: i64, seed: u64) -> Sut {
        let (store, held) = stores::open(backend).await;
        let clock = Arc::new(ManualClock::at_unix_seconds(now));
        let ledger = Ledger::with_entropy(
            store,
            clock.clone(),
            Arc::new(SeededEntropy::new(seed)),
            LedgerConfig::default(),
        );
        let secret = DevSecret::new("model-tests-dev-secret-0123456789abcdef").expect("dev secret");
        let auth =
            BearerAuthenticator::dev(RESOURCE, &[], &secret, Duration::from_secs(30)).expect("dev auth");
        let issuer = DevTokenIssuer::new(&secret, RESOURCE).expect("issuer");
        let config = ServerConfig {
            instructions: dochiya_tools::INSTRUCTIONS.to_owned(),
            ..ServerConfig::default()
        };
        let server =
            Server::new(config, dochiya_tools::all(Arc::new(ledger)), Arc::new(auth)).expect("server");
        let mut sut = Sut {
            server: Arc::new(server),
            clock,
            issuer,
            tokens: HashMap::new(),
            validators: HashMap::new(),
            _backend: held,
        };
        sut.load_schemas().await;
        sut
    }

    async fn load_schemas(&mut self) {
        let list = self
            .post(
                None,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#,
            )
            .await;
        for tool in list["result"]["tools"].as_array().expect("tools/list has tools") {
            let name = tool["name"].as_str().expect("tool name").to_owned();
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&tool["outputSchema"])
                .unwrap_or_else(|e| panic!("{name}: output schema does not compile: {e}"));
            self.validators.insert(name, validator);
        }
    }

    /// Sets the ledger's clock to `now` (Unix seconds): the model's time, moved by the model.
    pub fn set_clock(&self, now: i64) {
        let at = self.clock.now().as_second();
        self.clock.advance_seconds(now - at);
    }

    /// `tools/call` of `tool` with `arguments` as person `sub` (named `name` in their token).
    pub async fn call(&mut self, sub: &str, name: &str, tool: &str, arguments: &Value) -> Answer {
        let token = self.token(sub, name);
        let body = serde_json::json!({
            "jsonrpc": "2.0", "id": "m", "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        })
        .to_string();
        let response = self.post(Some(&token), &body).await;
        let result = &response["result"];
        assert!(result.is_object(), "{tool} {arguments}: no result but {response}");
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let structured = result.get("structuredContent").cloned();
        if result["isError"].as_bool().unwrap_or(false) {
            assert_eq!(
                structured, None,
                "{tool}: an error result carries structuredContent"
            );
            return Answer::Refused(text);
        }
        let structured = structured.unwrap_or_else(|| panic!("{tool}: success without structuredContent"));
        self.check_output(tool, &structured);
        let from_text: Value = serde_json::from_str(&text).expect("the text block is JSON");
        assert_eq!(
            from_text, structured,
            "{tool}: the text block differs from structuredContent"
        );
        Answer::Ok(structured)
    }

    fn token(&mut self, sub: &str, name: &str) -> String {
        let issuer = &self.issuer;
        self.tokens
            .entry(sub.to_owned())
            .or_insert_with(|| {
                issuer
                    .mint_named(
                        sub,
                        name,
                        &["ledger:read", "ledger:write"],
                        Duration::from_secs(24 * 3600),
                    )
                    .expect("mint a dev token")
            })
            .clone()
    }

    /// Every successful result conforms to the output schema the server publishes.
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
            "{tool}: structuredContent does not match its published outputSchema: {errors:?}\n{structured:#}"
        );
    }

    async fn post(&self, token: Option<&str>, body: &str) -> Value {
        let mut request = Request::builder()
            .method("POST")
            .uri("/mcp")
            .header("host", "127.0.0.1:8080")
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", VERSION);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request
            .body(Bytes::copy_from_slice(body.as_bytes()))
            .expect("request");
        let response = self.server.handle(request).await;
        let status = response.status().as_u16();
        let json: Value = serde_json::from_slice(response.body()).unwrap_or(Value::Null);
        assert_eq!(status, 200, "HTTP {status}: {json}");
        json
    }
}
