//! Local development mode: an HS256 secret (from `DOCHIYA_DEV_SECRET`, else generated once and
//! kept in `<data_dir>/dev-secret`, mode 0600) and minting of ready-to-use tokens.

use std::io::ErrorKind;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Serialize;

use crate::config::{AuthConfigError, DevConfig, DevSecret, MIN_DEV_SECRET_LEN};
use crate::verify::DEV_ISSUER;

/// The file in the data dir that keeps the generated dev secret.
pub const DEV_SECRET_FILE: &str = "dev-secret";

/// The dev secret: the configured one, or the one kept in (or newly generated into) `data_dir`.
pub fn load_dev_secret(config: &DevConfig, data_dir: &Path) -> Result<DevSecret, AuthConfigError> {
    if let Some(secret) = &config.secret {
        return Ok(secret.clone());
    }
    let path = data_dir.join(DEV_SECRET_FILE);
    let file_error = |source: std::io::Error| AuthConfigError::DevSecretFile {
        path: path.display().to_string(),
        source,
    };
    create_private_dir(data_dir).map_err(file_error)?;
    let secret = generate_secret().map_err(file_error)?;
    // Whole from its first instant: a temporary file, then a link to the name (which
    // fails if another start got there first; then theirs is used).
    match dochiya_outbound::private_file::create(&path, secret.as_bytes()) {
        Ok(()) => {
            tracing::info!(path = ?path.display(), "generated a new dev secret");
            DevSecret::new(secret)
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => read_secret(&path),
        Err(e) => Err(file_error(e)),
    }
}

fn read_secret(path: &Path) -> Result<DevSecret, AuthConfigError> {
    let file_error = |source: std::io::Error| AuthConfigError::DevSecretFile {
        path: path.display().to_string(),
        source,
    };
    let text = std::fs::read_to_string(path).map_err(file_error)?;
    if text.trim().is_empty() {
        // Left by an older version's start that crashed between creating and writing it.
        tracing::warn!(path = ?path.display(), "the dev secret file is empty (an interrupted first start); generating a new secret");
        let secret = generate_secret().map_err(file_error)?;
        dochiya_outbound::private_file::replace(path, secret.as_bytes()).map_err(file_error)?;
        return DevSecret::new(secret);
    }
    make_private(path);
    DevSecret::new(text.trim()).map_err(|e| match e {
        AuthConfigError::DevSecretTooShort { .. } => file_error(std::io::Error::new(
            ErrorKind::InvalidData,
            format!("it holds a secret shorter than {MIN_DEV_SECRET_LEN} characters; delete it to generate a new one"),
        )),
        other => other,
    })
}

/// Make the secret file 0600 whatever mode an older version or a umask left it with.
#[cfg(unix)]
fn make_private(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => tracing::info!(path = %path.display(), "made the dev secret file private (0600)"),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = ?e.to_string(), "the dev secret file is readable by other users and cannot be made private; chmod 600 it")
            }
        }
    }
}

#[cfg(not(unix))]
fn make_private(_path: &Path) {}

/// Create the data directory (new ones 0700) and make it 0700: it holds the secret and the ledger.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
        builder.mode(0o700);
        builder.create(dir)?;
        if std::fs::metadata(dir)?.permissions().mode() & 0o777 != 0o700 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

/// 32 random bytes from the OS, base64url: 43 characters.
fn generate_secret() -> std::io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// Why a dev token could not be minted.
#[derive(Debug, thiserror::Error)]
pub enum DevTokenError {
    /// The subject is empty or not a usable identifier.
    #[error("the subject must be 1 to {max} characters without control characters")]
    InvalidSubject {
        /// Maximum length.
        max: usize,
    },
    /// Signing failed.
    #[error("cannot sign the dev token: {0}")]
    Signing(String),
}

/// Mints dev-mode tokens that this server's dev authenticator accepts.
#[derive(Clone)]
pub struct DevTokenIssuer {
    key: EncodingKey,
    audience: String,
}

impl std::fmt::Debug for DevTokenIssuer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DevTokenIssuer")
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

#[derive(Serialize)]
struct DevClaims<'a> {
    iss: &'a str,
    aud: &'a str,
    sub: &'a str,
    /// The display name other members of a shared vault see.
    name: &'a str,
    scope: String,
    iat: u64,
    nbf: u64,
    exp: u64,
}

impl DevTokenIssuer {
    /// An issuer for tokens whose audience is `resource_url`, signed with `secret`.
    pub fn new(secret: &DevSecret, resource_url: &str) -> Result<Self, AuthConfigError> {
        // `from_secret` refuses only an empty key, which `DevSecret` already rules out.
        let key =
            EncodingKey::from_secret(secret.as_bytes()).map_err(|_| AuthConfigError::DevSecretTooShort {
                min: crate::config::MIN_DEV_SECRET_LEN,
                len: secret.as_bytes().len(),
            })?;
        Ok(DevTokenIssuer {
            key,
            audience: resource_url.to_owned(),
        })
    }

    /// The audience (resource URL) minted tokens carry.
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// A token for `subject` with `scopes`, valid from now for `lifetime`.
    pub fn mint(&self, subject: &str, scopes: &[&str], lifetime: Duration) -> Result<String, DevTokenError> {
        self.mint_named(subject, subject, scopes, lifetime)
    }

    /// [`DevTokenIssuer::mint`] with a display name (`name` claim) other than the subject.
    pub fn mint_named(
        &self,
        subject: &str,
        name: &str,
        scopes: &[&str],
        lifetime: Duration,
    ) -> Result<String, DevTokenError> {
        if !dochiya_domain::is_usable_subject(subject) {
            return Err(DevTokenError::InvalidSubject {
                max: crate::verify::MAX_SUBJECT_LEN,
            });
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let claims = DevClaims {
            iss: DEV_ISSUER,
            aud: &self.audience,
            sub: subject,
            name,
            scope: scopes.join(" "),
            iat: now,
            nbf: now,
            exp: now.saturating_add(lifetime.as_secs()),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.key)
            .map_err(|e| DevTokenError::Signing(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dochiya-auth-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_generated_secret_is_kept_private_and_reused() {
        let dir = temp_dir("secret");
        let config = DevConfig {
            secret: None,
            leeway: Duration::from_secs(60),
        };
        let first = load_dev_secret(&config, &dir).unwrap();
        let second = load_dev_secret(&config, &dir).unwrap();
        assert_eq!(first, second);
        assert_eq!(first.as_bytes().len(), 43);
        let on_disk = std::fs::read_to_string(dir.join(DEV_SECRET_FILE)).unwrap();
        assert_eq!(on_disk.as_bytes(), first.as_bytes());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(dir.join(DEV_SECRET_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_shared_secret_and_data_dir_are_made_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = temp_dir("shared");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(DEV_SECRET_FILE);
        std::fs::write(&file, "s".repeat(43)).unwrap();
        // What a 022 umask (or an older version) left behind.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let config = DevConfig {
            secret: None,
            leeway: Duration::from_secs(60),
        };
        assert_eq!(
            load_dev_secret(&config, &dir).unwrap().as_bytes(),
            "s".repeat(43).as_bytes()
        );
        assert_eq!((mode(&dir), mode(&file)), (0o700, 0o600));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_configured_secret_wins_and_writes_nothing() {
        let dir = temp_dir("configured");
        let secret = DevSecret::new("x".repeat(40)).unwrap();
        let config = DevConfig {
            secret: Some(secret.clone()),
            leeway: Duration::from_secs(60),
        };
        assert_eq!(load_dev_secret(&config, &dir).unwrap(), secret);
        assert!(!dir.exists());
    }

    #[test]
    fn a_short_secret_file_is_a_startup_error() {
        let dir = temp_dir("short");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(DEV_SECRET_FILE), "short\n").unwrap();
        let config = DevConfig {
            secret: None,
            leeway: Duration::from_secs(60),
        };
        let err = load_dev_secret(&config, &dir).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "dev secret file {}: it holds a secret shorter than 32 characters; delete it to generate a new one",
                dir.join(DEV_SECRET_FILE).display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_empty_secret_file_is_regenerated_and_no_temporary_file_stays() {
        let dir = temp_dir("empty");
        std::fs::create_dir_all(&dir).unwrap();
        // What an interrupted first start of an older version left.
        std::fs::write(dir.join(DEV_SECRET_FILE), "").unwrap();
        let config = DevConfig {
            secret: None,
            leeway: Duration::from_secs(60),
        };
        let first = load_dev_secret(&config, &dir).unwrap();
        let again = load_dev_secret(&config, &dir).unwrap();
        assert!(first == again, "the regenerated secret is kept");
        let text = std::fs::read_to_string(dir.join(DEV_SECRET_FILE)).unwrap();
        assert_eq!(text.len(), 43, "a new 32-byte secret, base64url");
        assert_eq!(first.as_bytes(), text.as_bytes());
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(DEV_SECRET_FILE)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn minting_refuses_an_empty_subject() {
        let issuer = DevTokenIssuer::new(
            &DevSecret::new("k".repeat(32)).unwrap(),
            "http://127.0.0.1:8080/mcp",
        )
        .unwrap();
        let err = issuer
            .mint("", &["ledger:read"], Duration::from_secs(60))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the subject must be 1 to 255 characters without control characters"
        );
    }

    #[test]
    fn minting_refuses_a_blank_subject() {
        let issuer = DevTokenIssuer::new(
            &DevSecret::new("k".repeat(32)).unwrap(),
            "http://127.0.0.1:8080/mcp",
        )
        .unwrap();
        assert!(matches!(
            issuer.mint("   ", &["ledger:read"], Duration::from_secs(60)),
            Err(DevTokenError::InvalidSubject { max: 255 })
        ));
    }
}
