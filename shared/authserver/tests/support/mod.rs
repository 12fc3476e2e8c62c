//! Test support: the authorization server in process on the embedded store (in memory),
//! a browser that keeps its cookie, and a tiny HTTP/1.1 server on loopback for client
//! documents and the stand-in upstream OpenID provider.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use dochiya_authserver::{AuthServer, AuthServerConfig, Clock as _, ManualClock, SigningKey, SystemClock};
use dochiya_store::Store;
use http::{Request, Response, StatusCode};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

pub const MCP: &str = "http://127.0.0.1:8080/mcp";
pub const ISSUER: &str = "http://127.0.0.1:8080";
pub const REDIRECT: &str = "http://127.0.0.1:7777/callback";

pub struct Harness {
    pub server: Arc<AuthServer>,
    pub clock: Arc<ManualClock>,
    pub store: Arc<dyn Store>,
    /// A twin of the server's signing key (same PKCS#8), to forge tokens with our key.
    pub key: SigningKey,
}

pub fn store() -> Arc<dyn Store> {
    Arc::new(dochiya_store_embedded::EmbeddedStore::in_memory().expect("in-memory store"))
}

impl Harness {
    pub fn new() -> Self {
        Self::with(AuthServerConfig::local(MCP).expect("config"), store())
    }

    pub fn with(config: AuthServerConfig, store: Arc<dyn Store>) -> Self {
        let policy = dochiya_outbound::Policy::new(config.deployment.outbound_allowance());
        Self::with_policy(config, store, policy)
    }

    /// With an outbound address policy of the test's (an injected resolver).
    pub fn with_policy(
        config: AuthServerConfig,
        store: Arc<dyn Store>,
        policy: dochiya_outbound::Policy,
    ) -> Self {
        // Real time to start with: the verifier checks `exp`/`nbf` against the system clock.
        let clock = Arc::new(ManualClock::at(SystemClock.now()));
        let (key, der) = SigningKey::generate().expect("key");
        let server =
            AuthServer::with_policy(config, Arc::clone(&store), key, clock.clone(), policy).expect("server");
        Harness {
            server: Arc::new(server),
            clock,
            store,
            key: SigningKey::from_pkcs8(&der).expect("twin key"),
        }
    }

    /// The same harness, its tokens carrying the roster hints `hints` gives.
    pub fn with_hints(mut self, hints: Arc<dyn dochiya_authserver::TokenHints>) -> Self {
        let server = Arc::try_unwrap(self.server).unwrap_or_else(|_| panic!("the server is shared"));
        self.server = Arc::new(server.with_hints(hints));
        self
    }

    /// The same harness with an account page over `data`.
    pub fn with_account(mut self, data: Arc<dyn dochiya_authserver::account::AccountData>) -> Self {
        let server = Arc::try_unwrap(self.server).unwrap_or_else(|_| panic!("the server is shared"));
        self.server = Arc::new(server.with_account(data));
        self
    }

    /// The local sign-in code of this server (what the terminal shows at start).
    pub fn code(&self) -> String {
        self.server.sign_in_code().expect("local sign-in has a code")
    }

    pub async fn sign_access_token(&self, claims: &serde_json::Value) -> String {
        self.key.sign_access_token(claims).await.expect("sign")
    }

    pub async fn sign_jwt(&self, typ: &str, claims: &serde_json::Value) -> String {
        self.key.sign_jwt(typ, claims).await.expect("sign")
    }

    pub async fn send(&self, req: Request<Bytes>) -> Response<Bytes> {
        self.server.handle(req).await
    }

    pub async fn register(&self, redirect: &str) -> String {
        let body = serde_json::json!({ "redirect_uris": [redirect], "client_name": "Test client" });
        let response = self
            .send(
                Request::post("/oauth/register")
                    .header("content-type", "application/json")
                    .body(Bytes::from(body.to_string()))
                    .unwrap(),
            )
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{}", text(&response));
        json(&response)["client_id"].as_str().unwrap().to_owned()
    }
}

pub fn text(r: &Response<Bytes>) -> String {
    String::from_utf8_lossy(r.body()).into_owned()
}

pub fn json(r: &Response<Bytes>) -> serde_json::Value {
    serde_json::from_slice(r.body()).unwrap_or_else(|_| panic!("not JSON: {}", text(r)))
}

pub fn location(r: &Response<Bytes>) -> String {
    r.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no Location ({}): {}", r.status(), text(r)))
        .to_owned()
}

/// The query parameters of a URL.
pub fn query_of(url: &str) -> Vec<(String, String)> {
    let q = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(q.as_bytes()).into_owned().collect()
}

pub fn param(url: &str, name: &str) -> Option<String> {
    query_of(url).into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

/// A hidden input's value in a page.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].split('"').next().unwrap().to_owned()
}

pub fn pkce() -> (String, String) {
    let verifier = "v".repeat(20) + &URL_SAFE_NO_PAD.encode(rand_bytes());
    let challenge = URL_SAFE_NO_PAD.encode(sha256(verifier.as_bytes()));
    (verifier, challenge)
}

fn rand_bytes() -> [u8; 24] {
    let mut b = [0u8; 24];
    aws_lc_rs::rand::fill(&mut b).unwrap();
    b
}

pub fn sha256(data: &[u8]) -> Vec<u8> {
    aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, data)
        .as_ref()
        .to_vec()
}

pub fn form(pairs: &[(&str, &str)]) -> Bytes {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        s.append_pair(k, v);
    }
    Bytes::from(s.finish())
}

/// A browser: one cookie jar entry (ours), `Origin` on posts like Chromium.
#[derive(Default)]
pub struct Browser {
    pub cookie: Option<String>,
    pub lang: Option<&'static str>,
}

impl Browser {
    fn keep_cookie(&mut self, r: &Response<Bytes>) {
        if let Some(c) = r.headers().get("set-cookie").and_then(|v| v.to_str().ok()) {
            self.cookie = Some(c.split(';').next().unwrap().to_owned());
        }
    }

    pub async fn get(&mut self, h: &Harness, url: &str) -> Response<Bytes> {
        let path = url.strip_prefix(ISSUER).unwrap_or(url);
        let mut b = Request::get(path);
        if let Some(c) = &self.cookie {
            b = b.header("cookie", c);
        }
        if let Some(l) = self.lang {
            b = b.header("accept-language", l);
        }
        let r = h.send(b.body(Bytes::new()).unwrap()).await;
        self.keep_cookie(&r);
        r
    }

    pub async fn post(&mut self, h: &Harness, path: &str, pairs: &[(&str, &str)]) -> Response<Bytes> {
        let mut b = Request::post(path)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", ISSUER);
        if let Some(c) = &self.cookie {
            b = b.header("cookie", c);
        }
        let r = h.send(b.body(form(pairs)).unwrap()).await;
        self.keep_cookie(&r);
        r
    }
}

/// What a client asks for at /authorize.
pub struct Ask<'a> {
    pub client_id: &'a str,
    pub redirect: &'a str,
    pub challenge: &'a str,
    pub scope: Option<&'a str>,
    pub resource: Option<&'a str>,
    pub state: &'a str,
}

impl Ask<'_> {
    pub fn url(&self) -> String {
        let mut s = form_urlencoded::Serializer::new(String::new());
        s.append_pair("response_type", "code")
            .append_pair("client_id", self.client_id)
            .append_pair("redirect_uri", self.redirect)
            .append_pair("code_challenge", self.challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", self.state);
        if let Some(scope) = self.scope {
            s.append_pair("scope", scope);
        }
        s.append_pair("resource", self.resource.unwrap_or(MCP));
        format!("/oauth/authorize?{}", s.finish())
    }
}

/// Run the local flow (authorize → sign in as `name` → consent Allow) and return the
/// client's redirect URL with the code.
pub async fn sign_in_and_allow(h: &Harness, browser: &mut Browser, ask: &Ask<'_>, name: &str) -> String {
    let r = browser.get(h, &ask.url()).await;
    assert_eq!(r.status(), StatusCode::FOUND, "{}", text(&r));
    let signin = location(&r);
    let page = browser.get(h, &signin).await;
    assert_eq!(page.status(), StatusCode::OK, "{}", text(&page));
    let html = text(&page);
    let (request, csrf) = (hidden(&html, "request"), hidden(&html, "csrf"));
    let r = browser
        .post(
            h,
            "/oauth/signin",
            &[
                ("request", &request),
                ("csrf", &csrf),
                ("name", name),
                ("code", &h.code()),
            ],
        )
        .await;
    let next = location(&r);
    if next.starts_with(ask.redirect.split('?').next().unwrap()) {
        return next; // a remembered consent
    }
    let page = browser.get(h, &next).await;
    assert_eq!(page.status(), StatusCode::OK, "{}", text(&page));
    let html = text(&page);
    let r = browser
        .post(
            h,
            "/oauth/consent",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("decision", "allow"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER, "{}", text(&r));
    location(&r)
}

pub async fn token(h: &Harness, pairs: &[(&str, &str)]) -> Response<Bytes> {
    h.send(
        Request::post("/oauth/token")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form(pairs))
            .unwrap(),
    )
    .await
}

pub async fn redeem(h: &Harness, client_id: &str, code: &str, verifier: &str) -> Response<Bytes> {
    token(
        h,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", client_id),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", verifier),
            ("resource", MCP),
        ],
    )
    .await
}

pub async fn refresh(
    h: &Harness,
    client_id: &str,
    refresh_token: &str,
    scope: Option<&str>,
) -> Response<Bytes> {
    let mut pairs = vec![
        ("grant_type", "refresh_token"),
        ("client_id", client_id),
        ("refresh_token", refresh_token),
    ];
    if let Some(s) = scope {
        pairs.push(("scope", s));
    }
    token(h, &pairs).await
}

/// One canned answer of the loopback test server.
#[derive(Clone)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
}

impl Canned {
    pub fn json(body: &serde_json::Value) -> Self {
        Canned {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
            delay: Duration::ZERO,
        }
    }
}

/// A request the loopback server saw.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub body: String,
}

/// Serve on 127.0.0.1 (a free port) with `answer`, until the test ends; returns the port.
pub async fn serve<F>(answer: F) -> u16
where
    F: Fn(&Seen, u16) -> Canned + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let answer = Arc::clone(&answer);
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let head_end = loop {
                    let Ok(n) = stream.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i + 4;
                    }
                };
                let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
                let length: usize = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse().ok())?
                    })
                    .unwrap_or(0);
                while buf.len() < head_end + length {
                    let Ok(n) = stream.read(&mut chunk).await else {
                        return;
                    };
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let mut first = head.lines().next().unwrap_or("").split(' ');
                let seen = Seen {
                    method: first.next().unwrap_or("").to_owned(),
                    path: first.next().unwrap_or("").to_owned(),
                    body: String::from_utf8_lossy(&buf[head_end..]).into_owned(),
                };
                let canned = answer(&seen, port);
                tokio::time::sleep(canned.delay).await;
                let mut out = format!(
                    "HTTP/1.1 {} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                    canned.status,
                    canned.body.len()
                );
                for (k, v) in &canned.headers {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                let _ = stream.write_all(out.as_bytes()).await;
                let _ = stream.write_all(&canned.body).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    port
}
