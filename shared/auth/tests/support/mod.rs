//! Test support: signing keys from the committed test-only fixtures, token minting, and a tiny
//! JWKS server on 127.0.0.1 that counts how often it is fetched.

#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

pub const ISSUER: &str = "https://auth.example.test/";
pub const RESOURCE: &str = "https://mcp.example.test/mcp";

/// A private key from the fixtures with the kid and alg it signs with.
pub struct SigningKey {
    pub kid: String,
    pub alg: Algorithm,
    pub key: EncodingKey,
}

impl SigningKey {
    fn load(kid: &str, alg: Algorithm, pem: &[u8]) -> SigningKey {
        let key = match alg {
            Algorithm::ES256 | Algorithm::ES384 => EncodingKey::from_ec_pem(pem),
            Algorithm::EdDSA => EncodingKey::from_ed_pem(pem),
            _ => EncodingKey::from_rsa_pem(pem),
        }
        .expect("fixture key parses");
        SigningKey {
            kid: kid.to_owned(),
            alg,
            key,
        }
    }

    pub fn rsa_a() -> SigningKey {
        Self::load(
            "rsa-a",
            Algorithm::RS256,
            include_bytes!("../fixtures/test-only-rsa-a.private.pem"),
        )
    }
    pub fn rsa_b() -> SigningKey {
        Self::load(
            "rsa-b",
            Algorithm::RS256,
            include_bytes!("../fixtures/test-only-rsa-b.private.pem"),
        )
    }
    pub fn ec() -> SigningKey {
        Self::load(
            "ec-p256",
            Algorithm::ES256,
            include_bytes!("../fixtures/test-only-ec-p256.private.pem"),
        )
    }
    pub fn ed() -> SigningKey {
        Self::load(
            "ed25519",
            Algorithm::EdDSA,
            include_bytes!("../fixtures/test-only-ed25519.private.pem"),
        )
    }

    /// The public JWK, with `kid` and `use: sig`.
    pub fn jwk(&self) -> Value {
        let jwk = Jwk::from_encoding_key(&self.key, self.alg).expect("public JWK");
        let mut value = serde_json::to_value(jwk).expect("JWK serializes");
        value["kid"] = json!(self.kid);
        value["use"] = json!("sig");
        value
    }

    /// Sign `claims` with this key, naming its kid.
    pub fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.key).expect("signing works")
    }

    /// Sign with another header `alg` or `kid` than the key's own.
    pub fn sign_with(&self, alg: Algorithm, kid: Option<&str>, claims: &Value) -> String {
        let mut header = Header::new(alg);
        header.kid = kid.map(str::to_owned);
        jsonwebtoken::encode(&header, claims, &self.key).expect("signing works")
    }
}

/// The public JWK of the 1024-bit fixture key (`test-only-rsa-1024-weak`), spelled out:
/// aws-lc-rs, our signature library, refuses RSA keys under 2048 bits, so it can neither
/// sign with that key nor derive its JWK.
pub fn rsa_weak_jwk() -> Value {
    json!({
        "kty": "RSA", "kid": "rsa-weak", "use": "sig", "alg": "RS256", "e": "AQAB",
        "n": "0A1xwcKAL8nCAEql_QZOjiU6Q42JAKRx7UBNOoSJqZsJhF-DHh4IgSRH4uafOGStj5Bf_i8dHYBUkyhOXlUeoH3Wx8AeYbNJUWlIaoHlwp9WUvF6-CPKSF3SskYL2gDc_u3s-JXy5h5pInK4hza1VMBUOkOCeKgqD1rmhB-KBDc"
    })
}

pub fn jwks(keys: &[&SigningKey]) -> Value {
    json!({ "keys": keys.iter().map(|k| k.jwk()).collect::<Vec<_>>() })
}

pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// Claims that pass every rule: right iss and aud, valid now for five minutes.
pub fn good_claims(sub: &str, scope: &str) -> Value {
    let now = now();
    json!({ "iss": ISSUER, "aud": RESOURCE, "sub": sub, "scope": scope, "iat": now, "nbf": now, "exp": now + 300 })
}

/// A compact JWS with any header, unsigned content and signature given as is.
pub fn raw_token(header: &Value, claims: &Value, signature: &str) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        signature
    )
}

/// A JWKS endpoint on 127.0.0.1 whose document and status can change while it runs.
pub struct JwksServer {
    pub url: String,
    hits: Arc<AtomicUsize>,
    body: Arc<Mutex<(u16, String)>>,
    task: tokio::task::JoinHandle<()>,
}

impl JwksServer {
    pub async fn start(document: Value) -> JwksServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1");
        let url = format!(
            "http://{}/.well-known/jwks.json",
            listener.local_addr().expect("local addr")
        );
        let hits = Arc::new(AtomicUsize::new(0));
        let body = Arc::new(Mutex::new((200, document.to_string())));
        let (h, b) = (hits.clone(), body.clone());
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (h, b) = (h.clone(), b.clone());
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 1024];
                    while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 16 * 1024 {
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    h.fetch_add(1, Ordering::SeqCst);
                    let (status, text) = b.lock().expect("lock").clone();
                    let response = format!(
                        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                        text.len()
                    );
                    let _ = stream.write_all(response.as_bytes()).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        JwksServer {
            url,
            hits,
            body,
            task,
        }
    }

    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }

    pub fn serve(&self, document: Value) {
        *self.body.lock().expect("lock") = (200, document.to_string());
    }

    pub fn fail_with(&self, status: u16) {
        self.body.lock().expect("lock").0 = status;
    }
}

impl Drop for JwksServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
