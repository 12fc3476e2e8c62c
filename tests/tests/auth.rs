//! Authorization end to end: the built `dochiya-mcp` in jwt mode, pointed at a JWKS served
//! from 127.0.0.1 by this test, spoken to over HTTP like a real client (docs/design.md §3).
//!
//! Keys are the test-only fixtures of `shared/auth/tests/fixtures`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::e2e::{Response, binary_path, send};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

const ISSUER: &str = "https://auth.example.test/";
const PROTOCOL: (&str, &str) = ("mcp-protocol-version", "2025-06-18");
const RSA_A: &[u8] = include_bytes!("../../shared/auth/tests/fixtures/test-only-rsa-a.private.pem");
const RSA_B: &[u8] = include_bytes!("../../shared/auth/tests/fixtures/test-only-rsa-b.private.pem");

/// A signing key and the kid it is published under.
struct Key {
    kid: &'static str,
    key: EncodingKey,
}

impl Key {
    fn new(kid: &'static str, pem: &[u8]) -> Key {
        Key {
            kid,
            key: EncodingKey::from_rsa_pem(pem).expect("fixture key"),
        }
    }

    fn jwk(&self) -> Value {
        let mut jwk = serde_json::to_value(Jwk::from_encoding_key(&self.key, Algorithm::RS256).expect("jwk"))
            .expect("json");
        jwk["kid"] = json!(self.kid);
        jwk["use"] = json!("sig");
        jwk
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(self.kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.key).expect("sign")
    }
}

fn jwks(keys: &[&Key]) -> Value {
    json!({ "keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>() })
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs()
}

fn claims(audience: &str, sub: &str, scope: &str) -> Value {
    let now = now();
    json!({ "iss": ISSUER, "aud": audience, "sub": sub, "scope": scope, "iat": now, "nbf": now, "exp": now + 600 })
}

/// A JWKS endpoint on 127.0.0.1 that counts its fetches; the document can be swapped live.
struct JwksServer {
    url: String,
    hits: Arc<AtomicUsize>,
    document: Arc<Mutex<String>>,
}

impl JwksServer {
    fn start(document: Value) -> JwksServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let url = format!("http://{}/jwks.json", listener.local_addr().expect("addr"));
        let hits = Arc::new(AtomicUsize::new(0));
        let doc = Arc::new(Mutex::new(document.to_string()));
        let (h, d) = (hits.clone(), doc.clone());
        // Lives until the test process ends; it only ever answers on loopback.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                h.fetch_add(1, Ordering::SeqCst);
                let body = d.lock().expect("lock").clone();
                let response = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes());
            }
        });
        JwksServer {
            url,
            hits,
            document: doc,
        }
    }

    fn serve(&self, document: Value) {
        *self.document.lock().expect("lock") = document.to_string();
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// `dochiya-mcp` in jwt mode (the shared helper expects dev mode's printed token).
struct JwtServer {
    child: Child,
    data_dir: PathBuf,
    port: u16,
}

impl JwtServer {
    fn start(jwks_url: &str, name: &str) -> JwtServer {
        let binary = binary_path();
        let data_dir = std::env::temp_dir().join(format!("dochiya-e2e-auth-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data_dir);
        let mut command = Command::new(&binary);
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if key.starts_with("DOCHIYA_") || key.starts_with("AWS_") || key == "LAMBDA_TASK_ROOT" {
                command.env_remove(&*key);
            }
        }
        let mut child = command
            .env("DOCHIYA_PORT", "0")
            .env("DOCHIYA_DATA_DIR", &data_dir)
            .env("DOCHIYA_AUTH", "jwt")
            .env("DOCHIYA_ISSUER", ISSUER)
            .env("DOCHIYA_JWKS_URL", jwks_url)
            .env("DOCHIYA_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn dochiya-mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let port = loop {
            let line = match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => line,
                Err(e) => {
                    let _ = child.kill();
                    panic!(
                        "dochiya-mcp did not announce its port ({e}); status {:?}",
                        child.try_wait()
                    );
                }
            };
            if let Some(rest) = line.strip_prefix("dochiya: listening on http://127.0.0.1:") {
                break rest.trim_end_matches("/mcp").parse::<u16>().expect("port");
            }
        };
        JwtServer {
            child,
            data_dir,
            port,
        }
    }

    fn resource(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    fn metadata_url(&self) -> String {
        format!(
            "http://127.0.0.1:{}/.well-known/oauth-protected-resource/mcp",
            self.port
        )
    }

    fn rpc(&self, token: Option<&str>, body: &Value) -> Response {
        self.rpc_at("/mcp", token, body)
    }

    fn rpc_at(&self, path: &str, token: Option<&str>, body: &Value) -> Response {
        let bearer = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("content-type", "application/json"), PROTOCOL];
        if let Some(bearer) = &bearer {
            headers.push(("authorization", bearer));
        }
        send(self.port, "POST", path, &headers, body.to_string().as_bytes()).expect("request")
    }
}

impl Drop for JwtServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
}

/// A successful tool result's structured content.
fn structured(r: &Response) -> Value {
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let body = r.json();
    assert_eq!(body["result"]["isError"], json!(false), "{body}");
    body["result"]["structuredContent"].clone()
}

#[test]
fn allowlisted_methods_answer_without_a_token() {
    let jwks_server = JwksServer::start(jwks(&[&Key::new("rsa-a", RSA_A)]));
    let s = JwtServer::start(&jwks_server.url, "allowlist");
    let ping = s.rpc(None, &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
    assert_eq!((ping.status, ping.json()["result"].clone()), (200, json!({})));
    let init = s.rpc(
        None,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}}),
    );
    assert_eq!(init.status, 200);
    assert_eq!(init.json()["result"]["protocolVersion"], "2025-06-18");
    let initialized = s.rpc(
        None,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!(initialized.status, 202);
    let list = s.rpc(None, &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}));
    assert_eq!(list.status, 200);
    assert!(
        list.json()["result"]["tools"]
            .as_array()
            .is_some_and(|t| t.len() == dochiya_tools::specs().len()),
        "{}",
        list.json()
    );
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let discover = send(
        s.port,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "server/discover"),
        ],
        json!({"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": {"_meta": meta}})
            .to_string()
            .as_bytes(),
    )
    .expect("discover");
    assert_eq!(
        discover.status,
        200,
        "{}",
        String::from_utf8_lossy(&discover.body)
    );
    assert_eq!(jwks_server.hits(), 0, "no token, no key fetch");
}

#[test]
fn protected_methods_are_challenged_with_the_exact_header() {
    let key = Key::new("rsa-a", RSA_A);
    let jwks_server = JwksServer::start(jwks(&[&key]));
    let s = JwtServer::start(&jwks_server.url, "challenge");
    let list = call(7, "list_vaults", json!({}));

    let r = s.rpc(None, &list);
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some(
            format!(
                "Bearer resource_metadata=\"{}\", scope=\"ledger:read ledger:write\"",
                s.metadata_url()
            )
            .as_str()
        )
    );
    assert_eq!(r.json()["id"], json!(7));
    assert!(r.json()["error"]["code"].is_i64());

    let invalid = format!(
        "Bearer resource_metadata=\"{}\", scope=\"ledger:read ledger:write\", error=\"invalid_token\"",
        s.metadata_url()
    );
    // Expired, wrong audience, wrong issuer, alg none, garbage: all 401 invalid_token.
    let mut expired = claims(&s.resource(), "person-a", "ledger:read");
    expired["exp"] = json!(now() - 3600);
    let wrong_aud = claims("https://elsewhere.example.test/mcp", "person-a", "ledger:read");
    let mut wrong_iss = claims(&s.resource(), "person-a", "ledger:read");
    wrong_iss["iss"] = json!("https://evil.example.test/");
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(json!({"alg": "none", "kid": "rsa-a"}).to_string()),
        URL_SAFE_NO_PAD.encode(claims(&s.resource(), "person-a", "ledger:read ledger:write").to_string())
    );
    for token in [
        key.sign(&expired),
        key.sign(&wrong_aud),
        key.sign(&wrong_iss),
        none,
        "not-a-jwt".to_owned(),
    ] {
        let r = s.rpc(Some(&token), &list);
        assert_eq!(r.status, 401, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.header("www-authenticate"), Some(invalid.as_str()));
        assert_eq!(r.json()["id"], json!(7));
    }

    // A valid token in the query string is refused, too.
    let good = key.sign(&claims(&s.resource(), "person-a", "ledger:read"));
    let r = s.rpc_at(&format!("/mcp?access_token={good}"), None, &list);
    assert_eq!(r.status, 401, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("www-authenticate"), Some(invalid.as_str()));
}

#[test]
fn valid_tokens_work_and_a_read_only_token_cannot_write() {
    let key = Key::new("rsa-a", RSA_A);
    let jwks_server = JwksServer::start(jwks(&[&key]));
    let s = JwtServer::start(&jwks_server.url, "scopes");
    let full = key.sign(&claims(&s.resource(), "person-a", "ledger:read ledger:write"));
    let read_only = key.sign(&claims(&s.resource(), "person-a", "ledger:read"));
    let other_person = key.sign(&claims(&s.resource(), "person-b", "ledger:read ledger:write"));

    let created = structured(&s.rpc(Some(&full), &call(1, "create_vault", json!({"name": "Home"}))));
    assert_eq!(created["name"], "Home");
    let vaults = structured(&s.rpc(Some(&read_only), &call(2, "list_vaults", json!({}))));
    assert_eq!(vaults["vaults"].as_array().map(Vec::len), Some(1), "{vaults}");
    assert_eq!(vaults["vaults"][0]["name"], "Home");

    // The same read-only token again: verified from the server's token cache this time
    // (decision 029), and its scopes are still checked for this request.
    let r = s.rpc(
        Some(&read_only),
        &call(3, "create_vault", json!({"name": "Travel"})),
    );
    assert_eq!(r.status, 403, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        r.header("www-authenticate"),
        Some(
            format!(
                "Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\"{}\"",
                s.metadata_url()
            )
            .as_str()
        )
    );
    assert_eq!(r.json()["id"], json!(3));
    // Nothing was written by the refused call.
    let vaults = structured(&s.rpc(Some(&full), &call(4, "list_vaults", json!({}))));
    assert_eq!(vaults["vaults"].as_array().map(Vec::len), Some(1), "{vaults}");

    // The token's `sub` is the person: another person sees none of person-a's vaults.
    let theirs = structured(&s.rpc(Some(&other_person), &call(5, "list_vaults", json!({}))));
    assert_eq!(theirs["vaults"], json!([]));
    assert_eq!(jwks_server.hits(), 1, "one JWKS fetch serves every request");
}

#[test]
fn a_rotated_signing_key_is_accepted_without_restart() {
    let (old, new) = (Key::new("rsa-a", RSA_A), Key::new("rsa-b", RSA_B));
    let jwks_server = JwksServer::start(jwks(&[&old]));
    let s = JwtServer::start(&jwks_server.url, "rotation");
    let list = call(1, "list_vaults", json!({}));
    assert_eq!(
        structured(&s.rpc(Some(&old.sign(&claims(&s.resource(), "p", "ledger:read"))), &list))["vaults"],
        json!([])
    );
    assert_eq!(jwks_server.hits(), 1);

    // The issuer rotates: the JWKS now has only the new key.
    jwks_server.serve(jwks(&[&new]));
    let r = s.rpc(Some(&new.sign(&claims(&s.resource(), "p", "ledger:read"))), &list);
    assert_eq!(structured(&r)["vaults"], json!([]));
    assert_eq!(jwks_server.hits(), 2, "one refetch for the new kid");

    // A flood of made-up kids does not reach the issuer again (rate limit).
    for i in 0..10 {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(format!("ghost-{i}"));
        let token = jsonwebtoken::encode(&header, &claims(&s.resource(), "p", "ledger:read"), &new.key)
            .expect("sign");
        assert_eq!(s.rpc(Some(&token), &list).status, 401);
    }
    assert_eq!(jwks_server.hits(), 2);
}

#[test]
fn an_unreachable_issuer_is_503_with_retry_after_not_a_sign_in_challenge() {
    // A port nobody listens on: the JWKS cannot be fetched.
    let closed = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/jwks.json", closed.local_addr().expect("addr"));
    drop(closed);
    let s = JwtServer::start(&url, "outage");
    let key = Key::new("rsa-a", RSA_A);
    let r = s.rpc(
        Some(&key.sign(&claims(&s.resource(), "p", "ledger:read"))),
        &call(7, "list_vaults", json!({})),
    );
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("retry-after"), Some("30"));
    assert_eq!(r.header("www-authenticate"), None);
    assert_eq!(r.json()["id"], 7);
    assert_eq!(r.json()["error"]["code"], -32603);
}

#[test]
fn the_protected_resource_metadata_is_served_at_both_paths() {
    let jwks_server = JwksServer::start(jwks(&[&Key::new("rsa-a", RSA_A)]));
    let s = JwtServer::start(&jwks_server.url, "prm");
    let expected = json!({
        "resource": s.resource(),
        "authorization_servers": [ISSUER],
        "scopes_supported": ["ledger:read", "ledger:write"],
        "bearer_methods_supported": ["header"],
        "resource_name": "dochiya",
    });
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let r = send(s.port, "GET", path, &[], b"").expect("GET metadata");
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type")
                .is_some_and(|t| t.starts_with("application/json")),
            "{path}"
        );
        assert_eq!(r.json(), expected, "{path}");
    }
}

/// Run the binary to completion in exactly `env` (nothing inherited) and return its exit
/// code and standard error; it is killed if it has not exited within 20 s.
fn run_to_exit(args: &[&str], env: &[(String, String)]) -> (Option<i32>, String) {
    let mut child = Command::new(binary_path())
        .args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn dochiya-mcp");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dochiya-mcp did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    (status.code(), stderr)
}

/// A real provided.al2023 Lambda environment (fixture) plus `extra`.
fn lambda_env(extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let fixture = include_str!("../../shared/auth/tests/fixtures/env-lambda-provided-al2023.env");
    let mut env: Vec<(String, String)> = fixture
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    env.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
    env
}

#[test]
fn in_a_real_lambda_dev_mode_is_refused_and_jwt_mode_needs_its_settings() {
    let dir = std::env::temp_dir().join(format!("dochiya-e2e-auth-lambda-{}", std::process::id()));
    let dir = dir.to_string_lossy().into_owned();
    let (code, stderr) = run_to_exit(
        &[],
        &lambda_env(&[
            ("DOCHIYA_AUTH", "dev"),
            ("DOCHIYA_RESOURCE_URL", "https://ledger.example.test/mcp"),
            ("DOCHIYA_DATA_DIR", &dir),
        ]),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("DOCHIYA_AUTH=dev is refused in a real AWS Lambda"),
        "{stderr}"
    );
    assert!(
        !std::path::Path::new(&dir).join("dev-secret").exists(),
        "no dev secret was written"
    );

    // The built-in authorization server is the default there; without an upstream
    // OpenID provider it does not start.
    let (code, stderr) = run_to_exit(
        &[],
        &lambda_env(&[("DOCHIYA_RESOURCE_URL", "https://ledger.example.test/mcp")]),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("DOCHIYA_AUTH=builtin in AWS needs an upstream OpenID provider"),
        "{stderr}"
    );
    // jwt mode without an issuer does not start either.
    let (code, stderr) = run_to_exit(
        &[],
        &lambda_env(&[
            ("DOCHIYA_AUTH", "jwt"),
            ("DOCHIYA_RESOURCE_URL", "https://ledger.example.test/mcp"),
        ]),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("DOCHIYA_AUTH=jwt needs DOCHIYA_ISSUER"),
        "{stderr}"
    );
}

#[test]
fn the_token_subcommand_mints_tokens_the_dev_server_accepts() {
    const SECRET: &str = "e2e-dev-secret-0123456789-abcdefghij";
    let s = crate::e2e::Server::start_with(&[("DOCHIYA_DEV_SECRET", SECRET)]);
    let mint = |sub: &str, scopes: &str, port: u16| {
        let output = Command::new(binary_path())
            .args([
                "token",
                "--sub",
                sub,
                "--scopes",
                scopes,
                "--port",
                &port.to_string(),
            ])
            .env_clear()
            .env("DOCHIYA_DEV_SECRET", SECRET)
            .env("DOCHIYA_AUTH", "dev")
            .output()
            .expect("run token");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).expect("utf-8").trim().to_owned()
    };
    let rpc = |token: &str, body: &Value| {
        let bearer = format!("Bearer {token}");
        s.post_json(&[PROTOCOL, ("authorization", &bearer)], &body.to_string())
    };
    let alice = mint("alice", "ledger:read", s.port);
    assert_eq!(
        structured(&rpc(&alice, &call(1, "list_vaults", json!({}))))["vaults"],
        json!([])
    );
    let r = rpc(&alice, &call(2, "create_vault", json!({"name": "Alice"})));
    assert_eq!(r.status, 403, "{}", String::from_utf8_lossy(&r.body));
    let metadata = format!(
        "http://127.0.0.1:{}/.well-known/oauth-protected-resource/mcp",
        s.port
    );
    assert_eq!(
        r.header("www-authenticate"),
        Some(format!("Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\"{metadata}\"").as_str())
    );

    // The printed startup token (sub "local") writes; alice does not see local's vault.
    assert_eq!(
        structured(&rpc(&s.token, &call(3, "create_vault", json!({"name": "Home"}))))["name"],
        "Home"
    );
    assert_eq!(
        structured(&rpc(&alice, &call(4, "list_vaults", json!({}))))["vaults"],
        json!([])
    );

    // A token minted for another port has another audience.
    let elsewhere = mint("alice", "ledger:read", s.port.wrapping_add(1));
    let r = rpc(&elsewhere, &call(5, "list_vaults", json!({})));
    assert_eq!(r.status, 401);
    assert!(
        r.header("www-authenticate")
            .is_some_and(|c| c.ends_with(", error=\"invalid_token\"")),
        "{r:?}"
    );
}
