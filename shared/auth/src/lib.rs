//! OAuth 2.1 protected resource (DESIGN.md §3): metadata, challenges, JWT verification, dev tokens.
//!
//! The app parses [`AuthConfig`] once at startup and calls [`build`]; the protocol layer then
//! calls the returned [`Authenticator`] for every method that needs a token, checks scopes
//! itself, and serves [`Authenticator::resource_metadata`] at both well-known paths.

pub mod bearer;
pub mod config;
pub mod dev;
pub mod jwks;
pub mod metadata;
pub mod verify;

use std::path::Path;
use std::sync::Arc;

use dochiya_protocol::Authenticator;

pub use config::{
    AuthConfig, AuthConfigError, AuthMode, DevConfig, DevSecret, JwtConfig, RuntimeEnvironment,
};
pub use dev::{DevTokenError, DevTokenIssuer};
pub use metadata::{ProtectedResource, SCOPE_READ, SCOPE_WRITE, SCOPES_SUPPORTED, metadata_url_for};
pub use verify::{BearerAuthenticator, DEV_ISSUER};

/// Build the authenticator the configuration asks for. `data_dir` is where dev mode keeps its
/// generated secret; jwt mode does not touch it. Nothing is fetched here: the JWKS is fetched
/// on the first token and cached for the life of the process.
pub fn build(config: &AuthConfig, data_dir: &Path) -> Result<Arc<dyn Authenticator>, AuthConfigError> {
    let authenticator = match &config.mode {
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

/// The dev token minter for this configuration (for the startup token and the `token`
/// subcommand); an error unless the mode is dev.
pub fn dev_token_issuer(config: &AuthConfig, data_dir: &Path) -> Result<DevTokenIssuer, AuthConfigError> {
    match &config.mode {
        AuthMode::Dev(dev) if !config.runtime.is_real_lambda() => {
            let secret = dev::load_dev_secret(dev, data_dir)?;
            DevTokenIssuer::new(&secret, &config.resource_url)
        }
        AuthMode::Dev(_) => Err(AuthConfigError::DevModeInLambda),
        AuthMode::Jwt(_) => Err(AuthConfigError::NotDevMode),
    }
}
