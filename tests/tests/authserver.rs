//! The built-in authorization server in the built binary, over HTTP like a client and a
//! browser: the protected-resource metadata names it, its metadata answers at the origin,
//! and register → authorize → sign in → consent → token → tools/call → refresh → revoke
//! works on the embedded store, with the printed dev token still accepted beside.

use std::collections::HashMap;

use base64::Engine as _;
use crate::e2e::{Response, Server, send};
use serde_json::{Value, json};

const PROTOCOL: (&str, &str) = ("mcp-protocol-version", "2025-06-18");

fn form(pairs: &[(&str, &str)]) -> String {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        s.append_pair(k, v);
    }
    s.finish()
}

fn query(url: &str) -> HashMap<String, String> {
    let q = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(q.as_bytes()).into_owned().collect()
}

fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no {name}: {html}")) + marker.len();
    html[start..].split('"').next().unwrap_or("").to_owned()
}

fn path_of(url: &str, port: u16) -> String {
    url.strip_prefix(&format!("http://127.0.0.1:{port}"))
        .unwrap_or(url)
        .to_owned()
}

fn text(r: &Response) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

fn rpc(port: u16, token: &str, body: &Value) -> Response {
    let bearer = format!("Bearer {token}");
    send(
        port,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            PROTOCOL,
            ("authorization", &bearer),
        ],
        body.to_string().as_bytes(),
    )
    .expect("rpc")
}

/// The claims of a compact JWT, read without checking it (the server checked it).
fn claims_of(token: &str) -> Value {
    let part = token.split('.').nth(1).unwrap_or_default();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .unwrap_or_default();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

fn list_vaults(port: u16, token: &str) -> Response {
    rpc(
        port,
        token,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_vaults", "arguments": {}}}),
    )
}

#[test]
fn a_client_connects_through_the_builtin_authorization_server() {
    let s = Server::start_with(&[("DOCHIYA_AUTH", "builtin")]);
    connect_through(&s);
    assert!(
        s.data_dir().join("as-signing-key.p8").exists(),
        "the local key file"
    );
}

/// On DynamoDB (moto) with the signing key in KMS (moto): the same flow, no key on disk.
#[test]
fn on_dynamodb_with_the_signing_key_in_kms() {
    let mut env = crate::e2e::dynamodb_env();
    let endpoint = env[0].1.clone();
    env.push((
        "AWS_ENDPOINT_URL_KMS",
        std::env::var("AWS_ENDPOINT_URL_KMS").unwrap_or(endpoint),
    ));
    let key_id = tokio::runtime::Runtime::new().expect("runtime").block_on(async {
        let mut config = aws_config::defaults(aws_config::BehaviorVersion::latest());
        for (k, v) in &env {
            if *k == "AWS_ENDPOINT_URL_KMS" {
                config = config.endpoint_url(v.as_str());
            }
        }
        let config = config
            .region(aws_config::Region::new("us-east-1"))
            .credentials_provider(aws_sdk_kms::config::Credentials::new(
                "test", "test", None, None, "e2e",
            ))
            .load()
            .await;
        let kms = aws_sdk_kms::Client::new(&config);
        let key = kms
            .create_key()
            .key_spec(aws_sdk_kms::types::KeySpec::EccNistP256)
            .key_usage(aws_sdk_kms::types::KeyUsageType::SignVerify)
            .send()
            .await
            .expect("create a KMS key on moto");
        key.key_metadata()
            .map(|m| m.key_id().to_owned())
            .unwrap_or_default()
    });
    assert!(!key_id.is_empty(), "moto returned a key id");
    let table = format!(
        "e2e-as-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    env.push(("DOCHIYA_TABLE", table));
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let created = crate::e2e::run(&["create-table"], &pairs);
    assert!(
        created.status.success(),
        "{}",
        String::from_utf8_lossy(&created.stderr)
    );
    let mut with_auth = pairs.clone();
    with_auth.push(("DOCHIYA_AUTH", "builtin"));
    with_auth.push(("DOCHIYA_SIGNING_KEY_ID", &key_id));
    let s = Server::start_with(&with_auth);
    connect_through(&s);
    assert!(!s.data_dir().join("as-signing-key.p8").exists(), "no key on disk");
}

/// 401 → PRM → AS metadata → DCR → authorize → sign in → consent → token → tools/call →
/// dev token beside → refresh → revoke → refused.
fn connect_through(s: &Server) {
    let port = s.port;
    let issuer = format!("http://127.0.0.1:{port}");

    // 401 → PRM → AS metadata.
    let r = list_vaults(port, "not-a-token");
    assert_eq!(r.status, 401);
    let prm = s
        .send("GET", "/.well-known/oauth-protected-resource/mcp", &[], b"")
        .json();
    assert_eq!(prm["authorization_servers"], json!([issuer]));
    let meta = s
        .send("GET", "/.well-known/oauth-authorization-server", &[], b"")
        .json();
    assert_eq!(meta["issuer"], json!(issuer));
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));

    // DCR.
    let redirect = "http://127.0.0.1:9/callback";
    let reg = s.send(
        "POST",
        "/oauth/register",
        &[("content-type", "application/json")],
        json!({"redirect_uris": [redirect], "client_name": "e2e"})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(reg.status, 201, "{}", text(&reg));
    let client_id = reg.json()["client_id"].as_str().unwrap_or_default().to_owned();

    // The browser: authorize → sign-in page → consent page → back with a code.
    let verifier = "e2e-verifier-0123456789-abcdefghijklmnopqrstuvwxyz";
    let digest = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, verifier.as_bytes());
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest);
    let authorize = format!(
        "/oauth/authorize?{}",
        form(&[
            ("response_type", "code"),
            ("client_id", &client_id),
            ("redirect_uri", redirect),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("scope", "ledger:read ledger:write"),
            ("resource", &format!("{issuer}/mcp")),
            ("state", "e2e-state"),
        ])
    );
    let r = s.send("GET", &authorize, &[], b"");
    assert_eq!(r.status, 302, "{}", text(&r));
    let cookie = r
        .header("set-cookie")
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or("")
        .to_owned();
    let page = s.send(
        "GET",
        &path_of(r.header("location").unwrap_or_default(), port),
        &[("cookie", &cookie)],
        b"",
    );
    assert_eq!(page.status, 200, "{}", text(&page));
    let html = text(&page);
    let post = |path: &str, pairs: &[(&str, &str)]| {
        s.send(
            "POST",
            path,
            &[
                ("content-type", "application/x-www-form-urlencoded"),
                ("cookie", &cookie),
                ("origin", &issuer),
            ],
            form(pairs).as_bytes(),
        )
    };
    assert!(
        html.contains("name=\"code\""),
        "the page asks for the code: {html}"
    );
    // Reaching 127.0.0.1 is not enough: without the code, or with a wrong one, no sign-in.
    let (request, csrf) = (hidden(&html, "request"), hidden(&html, "csrf"));
    for code in [None, Some("0000-0000-0000")] {
        let mut pairs = vec![
            ("request", request.as_str()),
            ("csrf", csrf.as_str()),
            ("name", "local"),
        ];
        pairs.extend(code.map(|c| ("code", c)));
        let r = post("/oauth/signin", &pairs);
        assert_eq!(r.status, 403, "{}", text(&r));
        assert!(text(&r).contains("the sign-in code is not right"), "{}", text(&r));
    }
    // The code is the one printed at start, kept private in the data directory.
    let code_file = s.data_dir().join("signin-code");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&code_file)
            .expect("signin-code")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let code = std::fs::read_to_string(&code_file).expect("signin-code");
    let r = post(
        "/oauth/signin",
        &[
            ("request", &request),
            ("csrf", &csrf),
            ("name", "e2e-person"),
            ("code", code.trim()),
        ],
    );
    assert_eq!(r.status, 303, "{}", text(&r));
    let page = s.send(
        "GET",
        &path_of(r.header("location").unwrap_or_default(), port),
        &[("cookie", &cookie)],
        b"",
    );
    let html = text(&page);
    assert!(html.contains("e2e"), "{html}");
    let r = post(
        "/oauth/consent",
        &[
            ("request", &hidden(&html, "request")),
            ("csrf", &hidden(&html, "csrf")),
            ("decision", "allow"),
        ],
    );
    assert_eq!(r.status, 303, "{}", text(&r));
    let back = query(r.header("location").unwrap_or_default());
    assert_eq!(back.get("state").map(String::as_str), Some("e2e-state"));

    // Token → tools/call.
    let r = s.send(
        "POST",
        "/oauth/token",
        &[("content-type", "application/x-www-form-urlencoded")],
        form(&[
            ("grant_type", "authorization_code"),
            ("client_id", &client_id),
            ("code", back.get("code").map(String::as_str).unwrap_or("")),
            ("redirect_uri", redirect),
            ("code_verifier", verifier),
        ])
        .as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", text(&r));
    let tokens = r.json();
    let access = tokens["access_token"].as_str().unwrap_or_default().to_owned();
    // Decision 044: the token carries the roster read when it was minted (none yet).
    assert_eq!(claims_of(&access)["rh"], json!({"v": null, "m": []}));
    let r = list_vaults(port, &access);
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(r.json()["result"]["isError"], json!(false), "{}", text(&r));
    let r = rpc(
        port,
        &access,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "create_vault", "arguments": {"name": "가계부"}}}),
    );
    assert_eq!(r.json()["result"]["isError"], json!(false), "{}", text(&r));

    // The printed dev token still works beside (curl).
    assert_eq!(list_vaults(port, &s.token).status, 200);

    // Refresh → revoke → refused.
    let refresh = |rt: &str| {
        s.send(
            "POST",
            "/oauth/token",
            &[("content-type", "application/x-www-form-urlencoded")],
            form(&[
                ("grant_type", "refresh_token"),
                ("client_id", &client_id),
                ("refresh_token", rt),
            ])
            .as_bytes(),
        )
    };
    let r = refresh(tokens["refresh_token"].as_str().unwrap_or_default());
    assert_eq!(r.status, 200, "{}", text(&r));
    // The refreshed token carries the roster as it is now: the vault, the version moved on.
    let hint = claims_of(r.json()["access_token"].as_str().unwrap_or_default())["rh"].clone();
    assert_eq!(
        (&hint["v"], &hint["m"][0][1], &hint["m"][0][3], &hint["m"][0][5]),
        (&json!(1), &json!("가계부"), &json!("KRW"), &json!("owner")),
        "{hint}"
    );
    let rt = r.json()["refresh_token"].as_str().unwrap_or_default().to_owned();
    let r = s.send(
        "POST",
        "/oauth/revoke",
        &[("content-type", "application/x-www-form-urlencoded")],
        form(&[("token", &rt), ("client_id", &client_id)]).as_bytes(),
    );
    assert_eq!(r.status, 200);
    let r = refresh(&rt);
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (400, json!("invalid_grant"))
    );
}

#[test]
fn the_authorization_server_answers_only_loopback_hosts_locally() {
    let s = Server::start_with(&[("DOCHIYA_AUTH", "builtin")]);
    // One Host check for the MCP gate and the authorization server: a "port" that is
    // not digits is refused on both (it was 200 on /oauth/* and 403 on /mcp).
    for host in [
        "evil.example",
        "127.0.0.1:x.evil.example",
        "localhost:80.evil.example",
        "[::1]evil",
    ] {
        for path in ["/.well-known/oauth-authorization-server", "/oauth/jwks"] {
            let r = s.send("GET", path, &[("host", host)], b"");
            assert_eq!(r.status, 403, "{host} {path}");
        }
        let r = s.send(
            "POST",
            "/mcp",
            &[("host", host), ("content-type", "application/json")],
            b"{}",
        );
        assert_eq!(r.status, 403, "{host} /mcp");
    }
    let r = s.send(
        "GET",
        "/.well-known/oauth-authorization-server",
        &[("host", "127.0.0.1:8080")],
        b"",
    );
    assert_eq!(r.status, 200);
}

/// Client documents at addresses that are not public are refused before any connection,
/// in local mode too, whatever the spelling. A listener on loopback stands for the inside
/// of the network: had the server dialled any of these, it would have seen a connection.
#[test]
fn client_documents_at_non_public_addresses_are_refused_without_a_connection() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    let inside = listener.local_addr().expect("addr").port();
    listener.set_nonblocking(true).expect("nonblocking");
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopping = Arc::clone(&stop);
    let watcher = std::thread::spawn(move || {
        while !stopping.load(Ordering::Relaxed) {
            if listener.accept().is_ok() {
                counter.fetch_add(1, Ordering::Relaxed);
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    let s = Server::start_with(&[("DOCHIYA_AUTH", "builtin")]);
    // `https://127.0.0.1` itself is the local allowance (decision 033), so it is not here.
    let variants = [
        format!("https://localhost:{inside}/client.json"),
        format!("https://2130706433:{inside}/client.json"),
        format!("https://0x7f000001:{inside}/client.json"),
        format!("https://0177.0.0.1:{inside}/client.json"),
        format!("https://[::ffff:127.0.0.1]:{inside}/client.json"),
        format!("https://[::1]:{inside}/client.json"),
        format!("http://localhost:{inside}/client.json"),
        format!("http://2130706433:{inside}/client.json"),
        "https://169.254.169.254/latest/meta-data/".to_owned(),
        "https://2852039166/latest/meta-data/".to_owned(),
        "https://10.0.0.1/client.json".to_owned(),
        "https://[fd00::1]/client.json".to_owned(),
        "https://100.64.0.1/client.json".to_owned(),
    ];
    for client_id in &variants {
        let query = form(&[
            ("client_id", client_id),
            ("redirect_uri", "http://127.0.0.1:7777/callback"),
            ("response_type", "code"),
            ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
            ("code_challenge_method", "S256"),
        ]);
        let r = s.send("GET", &format!("/oauth/authorize?{query}"), &[], b"");
        assert_eq!(r.status, 400, "{client_id}: {}", text(&r));
        let page = text(&r);
        assert!(
            page.contains("not public") || page.contains("not https"),
            "{client_id}: {page}"
        );
    }
    std::thread::sleep(std::time::Duration::from_millis(50));
    stop.store(true, Ordering::Relaxed);
    watcher.join().expect("watcher");
    assert_eq!(
        accepted.load(Ordering::Relaxed),
        0,
        "the server dialled a refused address"
    );
}
