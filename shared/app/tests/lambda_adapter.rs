//! API Gateway HTTP API v2 events (text and base64 bodies) through the Lambda adapter
//! give exactly the answer the local server gives to the same HTTP request. Each adapter
//! serves the router it serves in production (`App::lambda_router`, `App::local_router`:
//! what `serve_lambda` and `serve_local` hand them), over a test authenticator and tool.

use std::sync::Arc;

use async_trait::async_trait;
use dochiya_app::{App, lambda};
use dochiya_protocol::{
    AuthFailure, Authenticator, Challenge, Credentials, Principal, ServerConfig, Tool, ToolAnnotations,
    ToolError, ToolSpec,
};
use serde_json::value::RawValue;
use serde_json::{Value, json};

/// Test-only: `Bearer read` is a ledger:read token, anything else is refused.
struct TestAuth(Value);

#[async_trait]
impl Authenticator for TestAuth {
    async fn authenticate(&self, credentials: Credentials<'_>) -> Result<Principal, AuthFailure> {
        match credentials.authorization {
            None => Err(AuthFailure::Missing),
            Some("Bearer read") => Ok(Principal {
                person: "p1".into(),
                scopes: vec!["ledger:read".into()],
                name: None,
                roster_hint: None,
                issued_at: None,
            }),
            Some(_) => Err(AuthFailure::InvalidToken {
                reason: "test".into(),
            }),
        }
    }
    fn challenge(&self, _: &Challenge<'_>) -> String {
        "Bearer resource_metadata=\"https://mcp.example.test/.well-known/oauth-protected-resource/mcp\""
            .into()
    }
    fn resource_metadata(&self) -> &Value {
        &self.0
    }
}

/// Test-only: echoes the exact argument text.
struct Echo(ToolSpec);

#[async_trait]
impl Tool for Echo {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    async fn call(&self, _: &Principal, arguments: Option<&RawValue>) -> Result<Box<RawValue>, ToolError> {
        serde_json::value::to_raw_value(&json!({ "arguments": arguments.map(RawValue::get) }))
            .map_err(|e| ToolError::Internal(Box::new(e)))
    }
}

fn app() -> App {
    let echo = Echo(ToolSpec {
        name: "echo",
        title: "Echo",
        description: "Echoes its arguments.",
        input_schema: json!({"type": "object"}),
        output_schema: json!({"type": "object"}),
        annotations: ToolAnnotations {
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
        scope: "ledger:read",
        view: None,
    });
    let auth = TestAuth(
        json!({"resource": "https://mcp.example.test/mcp", "authorization_servers": ["https://issuer.test"]}),
    );
    // HostPolicy::Any (the default): the fixtures carry the gateway's host, the local client 127.0.0.1.
    let tools: Vec<Arc<dyn Tool>> = vec![Arc::new(echo)];
    match App::from_parts(ServerConfig::default(), tools, Arc::new(auth)) {
        Ok(app) => app,
        Err(e) => panic!("{e}"),
    }
}

/// The parts of an answer both adapters must agree on.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

const COMPARED_HEADERS: [&str; 4] = ["content-type", "allow", "www-authenticate", "cache-control"];

fn compared(headers: &http::HeaderMap) -> Vec<(String, String)> {
    COMPARED_HEADERS
        .iter()
        .filter_map(|h| {
            headers
                .get(*h)
                .map(|v| ((*h).to_owned(), v.to_str().unwrap_or("?").to_owned()))
        })
        .collect()
}

async fn via_lambda(app: &App, event: &str) -> Answer {
    let request = lambda_http::request::from_str(event).expect("fixture is an API Gateway v2 event");
    let response = lambda::answer(&app.lambda_router(), request)
        .await
        .unwrap_or_else(|never| match never {});
    let status = response.status().as_u16();
    let headers = compared(response.headers());
    Answer {
        status,
        headers,
        body: response.body().as_ref().to_vec(),
    }
}

async fn via_local(base: &str, event: &Value) -> Answer {
    let method = event["requestContext"]["http"]["method"]
        .as_str()
        .unwrap_or("POST");
    let path = event["rawPath"].as_str().unwrap_or("/");
    let client = reqwest::Client::new();
    let mut request = client.request(method.parse().expect("method"), format!("{base}{path}"));
    if let Some(headers) = event["headers"].as_object() {
        for (name, value) in headers {
            if name != "host" {
                request = request.header(name, value.as_str().unwrap_or(""));
            }
        }
    }
    if let Some(body) = event["body"].as_str() {
        let bytes = if event["isBase64Encoded"] == true {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(body)
                .expect("base64 fixture body")
        } else {
            body.as_bytes().to_vec()
        };
        request = request.body(bytes);
    }
    let response = request.send().await.expect("local server answers");
    let status = response.status().as_u16();
    let headers = compared(response.headers());
    Answer {
        status,
        headers,
        body: response.bytes().await.expect("body").to_vec(),
    }
}

async fn start_local(app: &App) -> (String, tokio::sync::oneshot::Sender<()>) {
    let listener = dochiya_app::bind_local(0).await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = Arc::new(app.local_router());
    let limit = app.body_limit;
    tokio::spawn(async move {
        let _ = dochiya_app::local::serve(
            listener,
            server,
            limit,
            dochiya_app::local::ConnectionLimits::default(),
            async move { drop(stopped.await) },
        )
        .await;
    });
    (format!("http://127.0.0.1:{port}"), stop)
}

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/events/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

async fn same_answer(name: &str) -> Answer {
    let app = app();
    let (base, stop) = start_local(&app).await;
    let text = fixture(name);
    let event: Value = serde_json::from_str(&text).expect("fixture JSON");
    let lambda = via_lambda(&app, &text).await;
    let local = via_local(&base, &event).await;
    let _ = stop.send(());
    assert_eq!(lambda, local, "{name}: Lambda and local answers differ");
    lambda
}

fn json_of(a: &Answer) -> Value {
    serde_json::from_slice(&a.body).expect("JSON body")
}

#[tokio::test]
async fn initialize_text_body() {
    let a = same_answer("initialize_text.json").await;
    assert_eq!(a.status, 200);
    assert_eq!(json_of(&a)["result"]["protocolVersion"], "2025-06-18");
}

#[tokio::test]
async fn tools_call_base64_body_reaches_the_tool_byte_for_byte() {
    let a = same_answer("tools_call_base64.json").await;
    assert_eq!(a.status, 200);
    assert_eq!(
        json_of(&a)["result"]["structuredContent"]["arguments"],
        r#"{"amount":12345678901234567890.10,"memo":"점심 식비"}"#
    );
}

#[tokio::test]
async fn tools_call_without_token_on_trailing_slash_is_401_with_challenge() {
    let a = same_answer("tools_call_no_token.json").await;
    assert_eq!(a.status, 401);
    assert!(a.headers.iter().any(|(k, _)| k == "www-authenticate"));
    assert_eq!(json_of(&a)["id"], "c-7");
}

#[tokio::test]
async fn modern_discover_base64_body() {
    let a = same_answer("discover_modern_base64.json").await;
    assert_eq!(a.status, 200);
    assert_eq!(json_of(&a)["result"]["resultType"], "complete");
}

#[tokio::test]
async fn get_is_405_with_allow() {
    let a = same_answer("get_mcp.json").await;
    assert_eq!(a.status, 405);
    assert!(a.headers.contains(&("allow".to_owned(), "POST".to_owned())));
}

#[tokio::test]
async fn notification_is_202_empty() {
    let a = same_answer("notification.json").await;
    assert_eq!(a.status, 202);
    assert!(a.body.is_empty());
}

#[tokio::test]
async fn resource_metadata_is_served() {
    let a = same_answer("resource_metadata.json").await;
    assert_eq!(a.status, 200);
    assert_eq!(json_of(&a)["resource"], "https://mcp.example.test/mcp");
}

#[tokio::test]
async fn parse_error_base64_body() {
    let a = same_answer("parse_error_base64.json").await;
    assert_eq!(a.status, 400);
    assert_eq!(json_of(&a)["error"]["code"], -32700);
}

#[tokio::test]
async fn the_router_answers_the_icon_before_the_mcp_server() {
    // The MCP server alone answers this path 404: a 200 proves the router is in the path.
    let a = same_answer("favicon.json").await;
    assert_eq!(a.status, 200);
    assert_eq!(
        a.headers,
        [
            ("content-type".to_owned(), "image/x-icon".to_owned()),
            ("cache-control".to_owned(), "public, max-age=86400".to_owned()),
        ]
    );
    assert_eq!(a.body, dochiya_app::favicon::ico());
}

#[tokio::test]
async fn lambda_response_body_is_text_not_base64() {
    let app = app();
    let request = lambda_http::request::from_str(&fixture("initialize_text.json")).expect("event");
    let response = lambda::answer(&app.lambda_router(), request)
        .await
        .unwrap_or_else(|never| match never {});
    assert!(matches!(response.body(), lambda_http::Body::Text(_)));
}
