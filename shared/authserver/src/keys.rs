//! The ES256 signing key and compact JWS signing of access tokens (RFC 9068 `at+jwt`).
//!
//! Two custodies (decision 020): locally the key is generated once and kept in the data
//! dir (mode 0600); in AWS it is an asymmetric KMS key (`ECC_NIST_P256`) that never leaves
//! KMS: its public half is read once at start-up, every signature is a KMS `Sign` call.

use std::io::ErrorKind;
use std::path::Path;

use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair as _};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

/// The file in the data dir that keeps the generated key (PKCS#8 DER).
pub const KEY_FILE: &str = "as-signing-key.p8";

/// Why the key could not be loaded, generated or used.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The key file could not be read or written.
    #[error("signing key file {path}: {source}")]
    File {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not a P-256 PKCS#8 key.
    #[error("the signing key is not a P-256 PKCS#8 key")]
    Malformed,
    /// The crypto library refused to generate or sign.
    #[error("signing failed")]
    Crypto,
    /// KMS refused or failed (GetPublicKey at start, Sign per token).
    #[error("KMS: {0}")]
    Kms(String),
}

/// The public half, for the JWKS and the in-process verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    /// RFC 7638 thumbprint, the JWS `kid`.
    pub kid: String,
    /// Curve point x, base64url.
    pub x: String,
    /// Curve point y, base64url.
    pub y: String,
}

impl PublicKey {
    /// The JWK (RFC 7517).
    pub fn jwk(&self) -> Value {
        json!({ "kty": "EC", "crv": "P-256", "x": self.x, "y": self.y, "kid": self.kid, "alg": "ES256", "use": "sig" })
    }
}

/// Where the private key is.
enum Custody {
    /// In process (local mode).
    Local(EcdsaKeyPair),
    /// In KMS; we only hold its id.
    Kms {
        client: aws_sdk_kms::Client,
        key_id: String,
    },
}

/// A P-256 private key that signs access tokens.
pub struct SigningKey {
    custody: Custody,
    /// Uncompressed SEC1 public point (65 bytes), for verifying our own tokens.
    point: Vec<u8>,
    public: PublicKey,
}

/// The DER prefix of a P-256 SubjectPublicKeyInfo (id-ecPublicKey, prime256v1, an
/// uncompressed point follows): what KMS GetPublicKey returns for ECC_NIST_P256.
const P256_SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86,
    0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];

/// A DER ECDSA signature (SEQUENCE of two INTEGERs, what KMS returns) as JWS r || s.
pub fn der_to_fixed(der: &[u8]) -> Option<[u8; 64]> {
    fn integer(input: &[u8]) -> Option<(&[u8], &[u8])> {
        let (&tag, rest) = input.split_first()?;
        let (&len, rest) = rest.split_first()?;
        let len = usize::from(len);
        if tag != 0x02 || len == 0 || len > 33 || rest.len() < len {
            return None;
        }
        Some(rest.split_at(len))
    }
    let (&tag, rest) = der.split_first()?;
    let (&len, body) = rest.split_first()?;
    if tag != 0x30 || usize::from(len) != body.len() {
        return None;
    }
    let (r, rest) = integer(body)?;
    let (s, rest) = integer(rest)?;
    if !rest.is_empty() {
        return None;
    }
    let mut out = [0u8; 64];
    for (value, offset) in [(r, 0), (s, 32)] {
        let value = match value {
            [0, tail @ ..] => tail,
            v => v,
        };
        if value.len() > 32 {
            return None;
        }
        out[offset + 32 - value.len()..offset + 32].copy_from_slice(value);
    }
    Some(out)
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.public.kid)
            .finish()
    }
}

impl SigningKey {
    /// A fresh key and its PKCS#8 bytes (to keep).
    pub fn generate() -> Result<(Self, Vec<u8>), KeyError> {
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .map_err(|_| KeyError::Crypto)?;
        let der = doc.as_ref().to_vec();
        Ok((Self::from_pkcs8(&der)?, der))
    }

    /// The key from PKCS#8 DER.
    pub fn from_pkcs8(der: &[u8]) -> Result<Self, KeyError> {
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, der)
            .map_err(|_| KeyError::Malformed)?;
        let point = pair.public_key().as_ref().to_vec();
        Self::with_point(Custody::Local(pair), point)
    }

    /// The KMS key `key_id` (an `ECC_NIST_P256` / `SIGN_VERIFY` key): its public half is
    /// read now, one GetPublicKey call; the private half stays in KMS.
    pub async fn kms(client: aws_sdk_kms::Client, key_id: &str) -> Result<Self, KeyError> {
        use aws_sdk_kms::types::{KeySpec, KeyUsageType};
        let out = client
            .get_public_key()
            .key_id(key_id)
            .send()
            .await
            .map_err(|e| KeyError::Kms(aws_sdk_kms::error::DisplayErrorContext(e).to_string()))?;
        // KeySpec, or the deprecated CustomerMasterKeySpec that older APIs (and moto) send;
        // the SPKI prefix below proves the curve either way.
        #[allow(deprecated)]
        let p256 = out.key_spec() == Some(&KeySpec::EccNistP256)
            || out
                .customer_master_key_spec()
                .is_some_and(|s| s.as_str() == KeySpec::EccNistP256.as_str());
        if !p256 || out.key_usage() != Some(&KeyUsageType::SignVerify) {
            return Err(KeyError::Kms(format!(
                "key {key_id} must be an ECC_NIST_P256 key for SIGN_VERIFY"
            )));
        }
        let spki = out.public_key().map(|b| b.as_ref()).unwrap_or_default();
        let point = spki
            .strip_prefix(&P256_SPKI_PREFIX[..])
            .filter(|p| p.len() == 65)
            .ok_or(KeyError::Malformed)?
            .to_vec();
        Self::with_point(
            Custody::Kms {
                client,
                key_id: key_id.to_owned(),
            },
            point,
        )
    }

    /// The KMS key `key_id` through the default AWS configuration (region, credentials,
    /// `AWS_ENDPOINT_URL_KMS` for an emulator).
    pub async fn kms_default(key_id: &str) -> Result<Self, KeyError> {
        let config = aws_config::defaults(aws_config::BehaviorVersion::latest())
            .load()
            .await;
        Self::kms(aws_sdk_kms::Client::new(&config), key_id).await
    }

    fn with_point(custody: Custody, point: Vec<u8>) -> Result<Self, KeyError> {
        // Uncompressed SEC1: 0x04 || x (32) || y (32).
        if point.len() != 65 || point[0] != 4 {
            return Err(KeyError::Malformed);
        }
        let x = URL_SAFE_NO_PAD.encode(&point[1..33]);
        let y = URL_SAFE_NO_PAD.encode(&point[33..65]);
        // RFC 7638: the members in lexicographic order, no whitespace.
        let canonical = format!(r#"{{"crv":"P-256","kty":"EC","x":"{x}","y":"{y}"}}"#);
        let kid = URL_SAFE_NO_PAD.encode(crate::web::sha256(canonical.as_bytes()));
        Ok(SigningKey {
            custody,
            point,
            public: PublicKey { kid, x, y },
        })
    }

    /// Whether the private key is in KMS.
    pub fn in_kms(&self) -> bool {
        matches!(self.custody, Custody::Kms { .. })
    }

    /// The key kept in `data_dir`, generated there (mode 0600) on the first start.
    /// The file is written whole or not at all (a temporary file, then a link to its
    /// name); an empty one, left by a start that crashed before that was so, is replaced.
    pub fn load_or_create(data_dir: &Path) -> Result<Self, KeyError> {
        let path = data_dir.join(KEY_FILE);
        let file_error = |source: std::io::Error| KeyError::File {
            path: path.display().to_string(),
            source,
        };
        let unreadable = || {
            file_error(std::io::Error::new(
                ErrorKind::InvalidData,
                "it does not hold a P-256 PKCS#8 key; move it away and start again to generate a new one",
            ))
        };
        std::fs::create_dir_all(data_dir).map_err(file_error)?;
        match std::fs::read(&path) {
            Ok(der) if !der.is_empty() => return Self::from_pkcs8(&der).map_err(|_| unreadable()),
            Ok(_) => {
                tracing::warn!(path = ?path.display(), "the signing key file is empty (an interrupted first start); generating a new key");
                let (key, der) = Self::generate()?;
                dochiya_outbound::private_file::replace(&path, &der).map_err(file_error)?;
                return Ok(key);
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(file_error(e)),
        }
        let (key, der) = Self::generate()?;
        match dochiya_outbound::private_file::create(&path, &der) {
            Ok(()) => {
                tracing::info!(path = ?path.display(), kid = %key.public.kid, "generated the authorization server's signing key");
                Ok(key)
            }
            // A concurrent first start linked its key first (whole): use that one.
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                Self::from_pkcs8(&std::fs::read(&path).map_err(file_error)?).map_err(|_| unreadable())
            }
            Err(e) => Err(file_error(e)),
        }
    }

    /// The public half.
    pub fn public(&self) -> PublicKey {
        self.public.clone()
    }

    /// A compact JWS over `claims` with header `{"alg":"ES256","typ":"at+jwt","kid":…}`.
    pub async fn sign_access_token(&self, claims: &Value) -> Result<String, KeyError> {
        self.sign_jwt("at+jwt", claims).await
    }

    /// A compact ES256 JWS over `claims` with this `typ` (access tokens use `at+jwt`).
    pub async fn sign_jwt(&self, typ: &str, claims: &Value) -> Result<String, KeyError> {
        let header = json!({ "alg": "ES256", "typ": typ, "kid": self.public.kid });
        let signing_input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature: Vec<u8> = match &self.custody {
            // FIXED signing gives r || s (64 bytes), exactly the JWS ES256 signature format.
            Custody::Local(pair) => pair
                .sign(&SystemRandom::new(), signing_input.as_bytes())
                .map_err(|_| KeyError::Crypto)?
                .as_ref()
                .to_vec(),
            Custody::Kms { client, key_id } => {
                use aws_sdk_kms::primitives::Blob;
                use aws_sdk_kms::types::{MessageType, SigningAlgorithmSpec};
                let out = client
                    .sign()
                    .key_id(key_id)
                    .message(Blob::new(signing_input.as_bytes()))
                    .message_type(MessageType::Raw)
                    .signing_algorithm(SigningAlgorithmSpec::EcdsaSha256)
                    .send()
                    .await
                    .map_err(|e| KeyError::Kms(aws_sdk_kms::error::DisplayErrorContext(e).to_string()))?;
                let der = out.signature().map(|b| b.as_ref()).unwrap_or_default();
                der_to_fixed(der).ok_or(KeyError::Malformed)?.to_vec()
            }
        };
        Ok(format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature)))
    }

    /// Verify a token this key signed and return its claims (for `/revoke`); `None` if not ours.
    pub fn verify_own(&self, token: &str) -> Option<Value> {
        use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};
        let (input, sig) = token.rsplit_once('.')?;
        let (header, payload) = input.split_once('.')?;
        let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(header).ok()?).ok()?;
        if header.get("alg")? != "ES256" || header.get("kid")? != self.public.kid.as_str() {
            return None;
        }
        let sig = URL_SAFE_NO_PAD.decode(sig).ok()?;
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, &self.point)
            .verify(input.as_bytes(), &sig)
            .ok()?;
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_generated_once_private_and_reloaded_the_same() {
        let dir = std::env::temp_dir().join(format!("dochiya-as-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = SigningKey::load_or_create(&dir).unwrap();
        let second = SigningKey::load_or_create(&dir).unwrap();
        assert_eq!(first.public(), second.public());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(dir.join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_empty_key_file_is_replaced_and_a_garbled_one_is_named() {
        let dir = std::env::temp_dir().join(format!("dochiya-as-key-empty-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(KEY_FILE);
        // What a crash between creating and writing the file used to leave.
        std::fs::write(&path, b"").unwrap();
        let key = SigningKey::load_or_create(&dir).unwrap();
        assert_eq!(SigningKey::load_or_create(&dir).unwrap().public(), key.public());
        assert!(!std::fs::read(&path).unwrap().is_empty());
        std::fs::write(&path, b"garbled").unwrap();
        let err = SigningKey::load_or_create(&dir).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "signing key file {}: it does not hold a P-256 PKCS#8 key; move it away and start again to generate a new one",
                path.display()
            )
        );
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            leftovers,
            vec![std::ffi::OsString::from(KEY_FILE)],
            "no temporary file left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn der_signatures_become_fixed_width() {
        // r with a leading zero (high bit set), s short: both padded to 32 bytes.
        let mut der = vec![0x30, 0x27, 0x02, 0x21, 0x00];
        der.extend([0x80; 32]);
        der.extend([0x02, 0x02, 0x01, 0x02]);
        let fixed = der_to_fixed(&der).unwrap();
        assert_eq!(&fixed[..32], &[0x80; 32]);
        assert_eq!(&fixed[32..62], &[0; 30]);
        assert_eq!(&fixed[62..], &[1, 2]);
        assert_eq!(der_to_fixed(&der[..der.len() - 1]), None);
        assert_eq!(der_to_fixed(&[0x30, 0x00]), None);
    }

    #[tokio::test]
    async fn a_signed_token_verifies_and_a_changed_one_does_not() {
        let (key, _) = SigningKey::generate().unwrap();
        let token = key.sign_access_token(&json!({"sub": "a"})).await.unwrap();
        assert_eq!(key.verify_own(&token), Some(json!({"sub": "a"})));
        let (other, _) = SigningKey::generate().unwrap();
        assert_eq!(other.verify_own(&token), None);
        let mut tampered = token.clone();
        tampered.insert(token.find('.').unwrap() + 2, 'A');
        assert_eq!(key.verify_own(&tampered), None);
    }

    #[test]
    fn garbage_is_not_a_key() {
        assert!(matches!(
            SigningKey::from_pkcs8(b"nope"),
            Err(KeyError::Malformed)
        ));
    }
}
