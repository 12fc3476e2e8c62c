//! OAuth 2.1 protected resource (docs/design.md §3): metadata, challenges, JWT verification, dev tokens.
//!
//! The app parses [`AuthConfig`] once at startup and calls [`build`]; the protocol layer then
//! calls the returned [`Authenticator`] for every method that needs a token, checks scopes
//! itself, and serves [`Authenticator::resource_metadata`] at both well-known paths.

pub mod bearer;
pub mod config;
pub mod dev;
pub mod jwks;
pub mod metadata;
pub mod verified;
pub mod verify;

use std::path::Path;
use std::sync::Arc;

use dochiya_protocol::Authenticator;

pub use config::{
    AuthConfig, AuthConfigError, AuthMode, BuiltinConfig, DevConfig, DevSecret, JwtConfig, RuntimeEnvironment,
};
pub use dev::{DevTokenError, DevTokenIssuer};
pub use metadata::{ProtectedResource, metadata_url_for};
pub use verify::{BearerAuthenticator, BuiltinKey, DEV_ISSUER, MAX_ROSTER_HINT_BYTES};

/// Build the authenticator the configuration asks for. `data_dir` is where dev mode keeps its
/// generated secret; jwt mode does not touch it. Nothing is fetched here: the JWKS is fetched
/// on the first token and cached for the life of the process.
pub fn build(config: &AuthConfig, data_dir: &Path) -> Result<Arc<dyn Authenticator>, AuthConfigError> {
    let authenticator = match &config.mode {
        AuthMode::Builtin(_) => return Err(AuthConfigError::BuiltinNeedsKey),
        AuthMode::Jwt(jwt) => {
            BearerAuthenticator::jwt(&config.resource_url, &config.authorization_servers, jwt)?
        }
        AuthMode::Dev(dev) => {
            if config.runtime.is_real_lambda() {
                return Err(AuthConfigError::DevModeInLambda);
            }
            let secret = dev::load_dev_secret(dev, data_dir)?;
            BearerAuthenticator::dev(
                &config.resource_url,
                &config.authorization_servers,
                &secret,
                dev.leeway,
            )?
        }
    };
    Ok(Arc::new(authenticator))
}

/// The authenticator for builtin mode: tokens signed by our own authorization server with
/// `key` (handed over in process, so our own JWKS is never fetched over HTTP), plus dev
/// tokens when the configuration allows them (local runs).
pub fn build_builtin(
    config: &AuthConfig,
    data_dir: &Path,
    key: &BuiltinKey,
) -> Result<Arc<dyn Authenticator>, AuthConfigError> {
    let AuthMode::Builtin(builtin) = &config.mode else {
        return build(config, data_dir);
    };
    let dev_secret = match &builtin.dev {
        Some(dev) if !config.runtime.is_real_lambda() => Some(dev::load_dev_secret(dev, data_dir)?),
        _ => None,
    };
    Ok(Arc::new(BearerAuthenticator::builtin(
        &config.resource_url,
        &config.authorization_servers,
        &builtin.issuer,
        key,
        builtin.leeway,
        dev_secret.as_ref(),
    )?))
}

/// The dev token minter for this configuration (for the startup token and the `token`
/// subcommand); an error unless the mode is dev.
pub fn dev_token_issuer(config: &AuthConfig, data_dir: &Path) -> Result<DevTokenIssuer, AuthConfigError> {
    match &config.mode {
        AuthMode::Dev(dev) | AuthMode::Builtin(BuiltinConfig { dev: Some(dev), .. })
            if !config.runtime.is_real_lambda() =>
        {
            let secret = dev::load_dev_secret(dev, data_dir)?;
            DevTokenIssuer::new(&secret, &config.resource_url)
        }
        AuthMode::Dev(_) => Err(AuthConfigError::DevModeInLambda),
        AuthMode::Jwt(_) | AuthMode::Builtin(_) => Err(AuthConfigError::NotDevMode),
    }
}
