//! The one handler: `handle(http::Request) -> http::Response`, used by every adapter.
//!
//! Path of a request: gate → JSON-RPC envelope → negotiation → "does the method (and the
//! tool) exist" → authentication, only for methods off the allowlist → scope → tool →
//! per-era encoding. Nothing here is per-process mutable; everything reusable is built
//! in [`Server::new`].

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use dochiya_quote::cut;
use futures::FutureExt as _;
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode, header};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tracing::Instrument as _;

use crate::auth::{AuthFailure, Authenticator, Challenge, Credentials};
use crate::config::ServerConfig;
use crate::encode::{Reply, ResultKind, ResultObject, Shaper, empty_response, error_response, json_response};
use crate::error::RpcError;
use crate::gate::{self, Admitted};
use crate::jsonrpc::{self, Body, Message};
use crate::negotiation::{self, ParamsHead, Policy};
use crate::principal::Principal;
use crate::prompt::{PromptArguments, PromptSpec};
use crate::registry::{Registry, RegistryError};
use crate::tool::{Tool, ToolError};
use crate::version::Version;
use crate::view::{self, ViewSpec};

/// Methods answered without a token (docs/design.md §2), and only these. `logging/setLevel`
/// (legacy leg only) changes nothing here, and the conformance suite sends it without one.
/// `prompts/list` says what the server offers, the same for everyone, like `tools/list`
/// (`prompts/get` needs a token: decision 034).
pub const TOKENLESS_METHODS: [&str; 7] = [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "ping",
    "tools/list",
    "prompts/list",
    "logging/setLevel",
];

/// RFC 5424 severities, the values of `logging/setLevel`'s `level`.
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// `Cache-Control` of the protected resource metadata: it changes only with a deploy.
const RESOURCE_METADATA_CACHE: &str = "public, max-age=3600";

/// The MCP server: configuration, tools and authenticator, assembled once per process.
pub struct Server {
    config: ServerConfig,
    registry: Registry,
    auth: Arc<dyn Authenticator>,
    shaper: Shaper,
    capabilities: Box<RawValue>,
    /// `capabilities` with the MCP Apps extension, for a client that declares it.
    capabilities_ui: Box<RawValue>,
    instructions: Box<RawValue>,
    server_info: Box<RawValue>,
    supported_versions: Box<RawValue>,
    resource_metadata: Bytes,
    /// The `prompts` array of `prompts/list`: 2025-03-26 (no titles), then later revisions.
    prompt_lists: [Box<RawValue>; 2],
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// A server that cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A tool declaration is invalid.
    #[error("invalid tool registry")]
    Registry(#[from] RegistryError),
    /// Pre-rendering a start-up document failed.
    #[error("rendering {0} failed")]
    Render(&'static str, #[source] serde_json::Error),
    /// A tool links a view the configuration does not serve (it serves others).
    #[error("tool {tool:?} links view {uri:?}, which is not among the served views")]
    UnknownView {
        /// The tool.
        tool: &'static str,
        /// The view it names.
        uri: &'static str,
    },
}

/// What one message turned into before authentication.
enum Step<'s> {
    /// Decided without a token: a tokenless method's result, or an error.
    Done(Reply<'s>),
    /// A notification; 202 once authenticated when it is off the allowlist.
    Notify { needs_token: bool },
    /// A `prompts/get` waiting for authentication and scope.
    Prompt {
        id: Box<RawValue>,
        version: Version,
        prompt: &'s PromptSpec,
        arguments: PromptArguments,
    },
    /// A tool call waiting for authentication and scope.
    Call {
        id: Box<RawValue>,
        version: Version,
        tool: &'s Arc<dyn Tool>,
        arguments: Option<Box<RawValue>>,
        /// The tool's view, when the client declared the MCP Apps extension.
        view: Option<&'static str>,
    },
    /// A `resources/read` of a view waiting for authentication (any valid token).
    Read {
        id: Box<RawValue>,
        version: Version,
        view: &'s ViewSpec,
    },
}

impl Step<'_> {
    fn needs_token(&self) -> bool {
        matches!(
            self,
            Step::Call { .. } | Step::Prompt { .. } | Step::Read { .. } | Step::Notify { needs_token: true }
        )
    }

    /// The scope the step needs beyond a valid token.
    fn scope(&self) -> Option<&'static str> {
        match self {
            Step::Call { tool, .. } => Some(tool.spec().scope),
            Step::Prompt { prompt, .. } => Some(prompt.scope),
            _ => None,
        }
    }

    fn id(&self) -> Option<&RawValue> {
        match self {
            Step::Done(Reply::Result { id, .. })
            | Step::Call { id, .. }
            | Step::Prompt { id, .. }
            | Step::Read { id, .. } => Some(id),
            Step::Done(Reply::Error { id, .. }) => id.as_deref(),
            Step::Done(Reply::Accepted) | Step::Notify { .. } => None,
        }
    }
}

/// Why a request was not authorized: the JSON-RPC error and the header that goes with it
/// (`WWW-Authenticate` for a challenge, `Retry-After` when the token could not be checked).
struct Denied {
    error: RpcError,
    header: (header::HeaderName, String),
}

fn render(what: &'static str, value: &impl serde::Serialize) -> Result<Box<RawValue>, ServerError> {
    serde_json::value::to_raw_value(value).map_err(|e| ServerError::Render(what, e))
}

impl Server {
    /// Check the tools and pre-render everything that does not depend on a request.
    pub fn new(
        config: ServerConfig,
        tools: Vec<Arc<dyn Tool>>,
        auth: Arc<dyn Authenticator>,
    ) -> Result<Self, ServerError> {
        let registry = Registry::new(tools)?;
        // A server given no views links none (decision 042); one given views serves every link.
        for spec in registry.specs().filter(|_| !config.views.is_empty()) {
            if let Some(uri) = spec
                .view
                .filter(|uri| !config.views.iter().any(|v| v.uri == *uri))
            {
                return Err(ServerError::UnknownView { tool: spec.name, uri });
            }
        }
        let resource_metadata = serde_json::to_vec(auth.resource_metadata())
            .map_err(|e| ServerError::Render("resource metadata", e))?;
        let icons = serde_json::to_value(&config.icons).map_err(|e| ServerError::Render("icons", e))?;
        let mut server_info = json!({ "name": config.server_name, "version": config.server_version });
        if !config.icons.is_empty() {
            server_info["icons"] = icons.clone();
        }
        // No push on Lambda: no listChanged, no subscriptions, no logging.
        let capabilities = if config.prompts.is_empty() {
            json!({ "tools": {} })
        } else {
            json!({ "tools": {}, "prompts": {} })
        };
        let mut capabilities_ui = capabilities.clone();
        capabilities_ui["extensions"] = view::server_extension();
        let prompt_list = |with_title: bool| {
            let list: Vec<Value> = config.prompts.iter().map(|p| p.describe(with_title)).collect();
            render("prompts", &list)
        };
        Ok(Server {
            shaper: Shaper::with_info(
                &config.server_name,
                &config.server_version,
                config.cache_ttl_ms,
                &icons,
            ),
            capabilities: render("capabilities", &capabilities)?,
            capabilities_ui: render("capabilities", &capabilities_ui)?,
            instructions: render("instructions", &config.instructions)?,
            server_info: render("serverInfo", &server_info)?,
            prompt_lists: [prompt_list(false)?, prompt_list(true)?],
            supported_versions: render("supportedVersions", &Version::MODERN)?,
            resource_metadata: Bytes::from(resource_metadata),
            registry,
            auth,
            config,
        })
    }

    /// Answer one HTTP request. Never panics: a panic below is caught and answered with
    /// 500/-32603 carrying a logged reference.
    pub async fn handle(&self, req: Request<Bytes>) -> Response<Bytes> {
        let started = Instant::now();
        let span = tracing::info_span!(
            "request",
            method = tracing::field::Empty,
            tool = tracing::field::Empty
        );
        let answer = AssertUnwindSafe(self.handle_unguarded(&req))
            .catch_unwind()
            .instrument(span.clone())
            .await;
        let response = answer.unwrap_or_else(|panic| {
            let reference = uuid::Uuid::new_v4().to_string();
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_owned());
            span.in_scope(|| tracing::error!(%reference, panic = ?message, "request handler panicked"));
            error_response(None, &RpcError::internal(&reference))
        });
        span.in_scope(|| {
            tracing::info!(
                status = response.status().as_u16(),
                micros = started.elapsed().as_micros() as u64,
                "answered"
            );
        });
        response
    }

    async fn handle_unguarded(&self, req: &Request<Bytes>) -> Response<Bytes> {
        let (text, authorization) = match gate::admit(&self.config, req) {
            Ok(Admitted::Mcp { body, authorization }) => (body, authorization),
            Ok(Admitted::ResourceMetadata) => return self.resource_metadata_response(),
            Err(refusal) => {
                // Echo the id when the refused body still names one (not for an oversized body).
                let id = match refusal.error.status {
                    StatusCode::PAYLOAD_TOO_LARGE => None,
                    _ if gate::MCP_PATHS.contains(&req.uri().path()) => jsonrpc::peek_id(req.body()),
                    _ => None,
                };
                let mut response = error_response(id.as_deref(), &refusal.error);
                if let Some(allow) = refusal.allow {
                    response
                        .headers_mut()
                        .insert(header::ALLOW, HeaderValue::from_static(allow));
                }
                if let Some(challenge) = refusal.challenge {
                    response
                        .headers_mut()
                        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
                }
                return response;
            }
        };
        let credentials = Credentials {
            authorization,
            query: req.uri().query(),
        };
        match jsonrpc::parse_body(text) {
            Err(error) => error_response(None, &error),
            Ok(Body::Single(raw)) => self.single(raw, req.headers(), credentials).await,
            Ok(Body::Batch(items)) => self.batch(&items, req.headers(), credentials).await,
        }
    }

    fn resource_metadata_response(&self) -> Response<Bytes> {
        let mut response = json_response(StatusCode::OK, self.resource_metadata.to_vec());
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(RESOURCE_METADATA_CACHE),
        );
        response
    }

    async fn single(
        &self,
        raw: &RawValue,
        headers: &HeaderMap,
        credentials: Credentials<'_>,
    ) -> Response<Bytes> {
        let step = self.prepare(raw, headers, false);
        if !step.needs_token() {
            return self.finish(step, None).await.into_response();
        }
        let scope = step.scope();
        match self.authorize(credentials, scope.as_slice()).await {
            Ok(principal) => self.finish(step, Some(&principal)).await.into_response(),
            Err(denied) => denied_response(&denied, step.id().map(|id| vec![id]), false),
        }
    }

    async fn batch(
        &self,
        items: &[&RawValue],
        headers: &HeaderMap,
        credentials: Credentials<'_>,
    ) -> Response<Bytes> {
        if let Some(error) = batch_refusal(items, headers) {
            return error_response(None, &error);
        }
        // Each member's method and tool go on its own span: recorded on the request
        // span they would repeat on every later line (logs quadratic in the batch).
        let spans: Vec<tracing::Span> = (0..items.len())
            .map(|index| {
                tracing::info_span!(
                    "item",
                    index,
                    method = tracing::field::Empty,
                    tool = tracing::field::Empty
                )
            })
            .collect();
        let steps: Vec<Step<'_>> = items
            .iter()
            .zip(&spans)
            .map(|(raw, span)| span.in_scope(|| self.prepare(raw, headers, true)))
            .collect();
        let mut principal = None;
        if steps.iter().any(Step::needs_token) {
            let mut scopes: Vec<&str> = Vec::new();
            for scope in steps.iter().filter_map(Step::scope) {
                if !scopes.contains(&scope) {
                    scopes.push(scope);
                }
            }
            match self.authorize(credentials, &scopes).await {
                Ok(p) => principal = Some(p),
                Err(denied) => {
                    return denied_response(&denied, Some(steps.iter().filter_map(Step::id).collect()), true);
                }
            }
        }
        let mut bodies = Vec::with_capacity(steps.len());
        // In order: a batch's writes happen in the order the client listed them.
        for (step, span) in steps.into_iter().zip(spans) {
            if let Some(body) = self
                .finish(step, principal.as_ref())
                .instrument(span)
                .await
                .to_json()
            {
                bodies.push(body);
            }
        }
        if bodies.is_empty() {
            return empty_response(StatusCode::ACCEPTED);
        }
        json_response(StatusCode::OK, join_array(&bodies))
    }

    /// Envelope, negotiation, and every decision that needs no token.
    fn prepare(&self, raw: &RawValue, headers: &HeaderMap, in_batch: bool) -> Step<'_> {
        let message = match jsonrpc::parse_message(raw) {
            Ok(m) => m,
            Err(invalid) => {
                return Step::Done(Reply::Error {
                    id: invalid.id,
                    error: invalid.error,
                });
            }
        };
        if let Some(method) = message.method() {
            tracing::Span::current().record("method", method);
        }
        match message {
            Message::Response => {
                tracing::debug!("dropped a JSON-RPC response posted by the client");
                Step::Done(Reply::Accepted)
            }
            Message::Notification { method, params } => {
                if tracing::enabled!(tracing::Level::DEBUG) {
                    let head = ParamsHead::parse(params.as_deref()).unwrap_or_default();
                    let version = negotiation::notification_version(&head, headers);
                    tracing::debug!(
                        ?method,
                        version = version.as_str(),
                        "notification accepted and dropped"
                    );
                }
                Step::Notify {
                    needs_token: !TOKENLESS_METHODS.contains(&method.as_str()),
                }
            }
            Message::Request { id, method, params } => {
                let fail = |id, error| Step::Done(Reply::Error { id: Some(id), error });
                let head = match ParamsHead::parse(params.as_deref()) {
                    Ok(h) => h,
                    Err(e) => return fail(id, e),
                };
                let policy = Policy {
                    strict_version_header: self.config.strict_version_header,
                };
                let version = if in_batch {
                    // Batches are 2025-03-26 only (checked by `batch_refusal`); members carry no claim.
                    if method == "initialize" {
                        return fail(
                            id,
                            RpcError::invalid_request("initialize is not allowed in a batch"),
                        );
                    }
                    Version::V2025_03_26
                } else {
                    match negotiation::negotiate(&method, &head, headers, policy) {
                        Ok(v) => v,
                        Err(e) => return fail(id, e),
                    }
                };
                self.dispatch(id, &method, version, head)
            }
        }
    }

    /// Method dispatch for one negotiated request.
    fn dispatch(&self, id: Box<RawValue>, method: &str, version: Version, head: ParamsHead) -> Step<'_> {
        let fail = |id, error| Step::Done(Reply::Error { id: Some(id), error });
        let done = |id, result| Step::Done(Reply::Result { id, result });
        // Tools and their results link their views for every client, in both eras: a host
        // without MCP Apps ignores `_meta`, and on the legacy leg nothing after
        // `initialize` could say a host has it. Only the capabilities answer the
        // extension's declaration in kind (decision 042).
        let link = !self.config.views.is_empty();
        let declares = link && view::declares_ui(head.client_capabilities(version, method));
        match (method, version.is_modern()) {
            ("server/discover", true) => done(id, self.discover(declares)),
            ("initialize", false) => done(id, self.initialize(version, declares)),
            ("ping", false) => done(id, ResultObject::new()),
            // Accepted and answered `{}` on the legacy leg: we never send log notifications,
            // so there is nothing to filter (removed in 2026-07-28, where it is -32601).
            ("logging/setLevel", false) => match head.level.as_ref().and_then(Value::as_str) {
                Some(level) if LOG_LEVELS.contains(&level) => done(id, ResultObject::new()),
                _ => fail(
                    id,
                    RpcError::invalid_params(format!("Invalid params: level must be one of {LOG_LEVELS:?}")),
                ),
            },
            ("tools/list", _) => match head.cursor {
                Some(cursor) if !cursor.is_null() => fail(
                    id,
                    RpcError::invalid_params("Invalid params: unknown cursor (tools/list has one page)"),
                ),
                _ => {
                    let result = ResultObject::new().raw("tools", self.registry.list(version, link));
                    done(id, self.shaper.shape(version, ResultKind::Cacheable, result))
                }
            },
            ("prompts/list", _) if !self.config.prompts.is_empty() => match head.cursor {
                Some(cursor) if !cursor.is_null() => fail(
                    id,
                    RpcError::invalid_params("Invalid params: unknown cursor (prompts/list has one page)"),
                ),
                _ => {
                    let list = &self.prompt_lists[usize::from(version.has_structured_content())];
                    let result = ResultObject::new().raw("prompts", list);
                    done(id, self.shaper.shape(version, ResultKind::Cacheable, result))
                }
            },
            ("prompts/get", _) if !self.config.prompts.is_empty() => self.prompt_step(id, version, head),
            ("tools/call", _) => {
                let Some(Value::String(name)) = head.name else {
                    return fail(
                        id,
                        RpcError::invalid_params("Invalid params: name must be a string"),
                    );
                };
                let Some(tool) = self.registry.get(&name) else {
                    let message = format!("Unknown tool: {}", cut(&name));
                    return fail(id, RpcError::invalid_params(message));
                };
                tracing::Span::current().record("tool", tool.spec().name);
                let arguments = match head.arguments {
                    Some(a) if a.get() == "null" => None,
                    Some(a) if !a.get().starts_with('{') => {
                        return fail(
                            id,
                            RpcError::invalid_params("Invalid params: arguments must be an object"),
                        );
                    }
                    other => other,
                };
                Step::Call {
                    id,
                    version,
                    tool,
                    arguments,
                    // A view shows structuredContent, which 2025-03-26 has not: no link there.
                    view: tool
                        .spec()
                        .view
                        .filter(|_| link && version.has_structured_content()),
                }
            }
            ("resources/read", _) if !self.config.views.is_empty() => match head.uri {
                Some(Value::String(uri)) => match self.config.views.iter().find(|v| v.uri == uri) {
                    // Which views exist is public (tools/list names them): decided before any token.
                    Some(view) => Step::Read { id, version, view },
                    None => fail(id, RpcError::resource_not_found(version, &uri)),
                },
                _ => fail(
                    id,
                    RpcError::invalid_params("Invalid params: uri must be a string"),
                ),
            },
            _ => fail(id, RpcError::method_not_found(version, method)),
        }
    }

    /// A `prompts/get`: the prompt exists and its arguments are readable, before any token.
    fn prompt_step(&self, id: Box<RawValue>, version: Version, head: ParamsHead) -> Step<'_> {
        let fail = |id, message: String| {
            Step::Done(Reply::Error {
                id: Some(id),
                error: RpcError::invalid_params(message),
            })
        };
        let Some(Value::String(name)) = head.name else {
            return fail(id, "Invalid params: name must be a string".to_owned());
        };
        let Some(prompt) = self.config.prompts.iter().find(|p| p.name == name) else {
            let known: Vec<&str> = self.config.prompts.iter().map(|p| p.name).collect();
            return fail(
                id,
                format!("Unknown prompt: {}; the prompts are {known:?}", cut(&name)),
            );
        };
        match prompt.arguments_from(head.arguments.as_deref().map(RawValue::get)) {
            Ok(arguments) => Step::Prompt {
                id,
                version,
                prompt,
                arguments,
            },
            Err(message) => fail(id, format!("Invalid params: {message}")),
        }
    }

    /// The capabilities a client is told: with the MCP Apps extension if it declared it.
    fn capabilities(&self, ui: bool) -> &RawValue {
        if ui {
            &self.capabilities_ui
        } else {
            &self.capabilities
        }
    }

    fn discover(&self, ui: bool) -> ResultObject<'_> {
        let result = ResultObject::new()
            .raw("supportedVersions", &self.supported_versions)
            .raw("capabilities", self.capabilities(ui))
            .raw("instructions", &self.instructions);
        self.shaper.shape_discover(result)
    }

    fn initialize(&self, offered: Version, ui: bool) -> ResultObject<'_> {
        ResultObject::new()
            .value("protocolVersion", json!(offered.as_str()))
            .raw("capabilities", self.capabilities(ui))
            .raw("serverInfo", &self.server_info)
            .raw("instructions", &self.instructions)
    }

    /// Authenticate, then check that the principal holds every scope in `scopes`.
    async fn authorize(&self, credentials: Credentials<'_>, scopes: &[&str]) -> Result<Principal, Denied> {
        let principal = match self.auth.authenticate(credentials).await {
            Ok(p) => p,
            Err(failure) => {
                let invalid_token = match &failure {
                    AuthFailure::Missing => false,
                    AuthFailure::InvalidToken { reason } => {
                        tracing::info!(?reason, "rejected a bearer token");
                        true
                    }
                    AuthFailure::Unavailable {
                        reason,
                        retry_after_secs,
                    } => {
                        tracing::warn!(?reason, "cannot check bearer tokens now");
                        return Err(Denied {
                            error: RpcError::auth_unavailable(),
                            header: (header::RETRY_AFTER, retry_after_secs.to_string()),
                        });
                    }
                };
                return Err(Denied {
                    error: RpcError::unauthorized(),
                    header: (
                        header::WWW_AUTHENTICATE,
                        self.auth.challenge(&Challenge::Unauthorized { invalid_token }),
                    ),
                });
            }
        };
        if scopes.iter().all(|s| principal.has_scope(s)) {
            return Ok(principal);
        }
        // All scopes the operation needs, in one challenge (docs/protocol.md §5.2).
        let scope = scopes.join(" ");
        Err(Denied {
            error: RpcError::insufficient_scope(&scope),
            header: (
                header::WWW_AUTHENTICATE,
                self.auth
                    .challenge(&Challenge::InsufficientScope { scope: &scope }),
            ),
        })
    }

    /// Run what is left of a step once it is authorized.
    async fn finish<'s>(&'s self, step: Step<'s>, principal: Option<&Principal>) -> Reply<'s> {
        match (step, principal) {
            (Step::Done(reply), _) => reply,
            (Step::Notify { .. }, _) => Reply::Accepted,
            (
                Step::Call {
                    id,
                    version,
                    tool,
                    arguments,
                    view,
                },
                Some(principal),
            ) => {
                let name = tool.spec().name;
                match tool.call(principal, arguments.as_deref()).await {
                    Ok(output) => Reply::Result {
                        id,
                        result: self.shaper.tool_success(version, name, output, view),
                    },
                    Err(ToolError::Internal(cause)) => {
                        let error = RpcError::unexpected(&format!("tool {name}"), cause.as_ref());
                        Reply::Error { id: Some(id), error }
                    }
                    Err(e) => {
                        tracing::debug!(tool = name, kind = e.kind(), "tool answered isError");
                        Reply::Result {
                            id,
                            result: self
                                .shaper
                                .tool_error(version, e.model_message().unwrap_or_default()),
                        }
                    }
                }
            }
            (
                Step::Prompt {
                    id,
                    version,
                    prompt,
                    arguments,
                },
                Some(_),
            ) => match (prompt.render)(&arguments) {
                Ok(text) => {
                    let result = ResultObject::new()
                        .value("description", json!(prompt.description))
                        .value(
                            "messages",
                            json!([{ "role": "user", "content": { "type": "text", "text": text } }]),
                        );
                    Reply::Result {
                        id,
                        result: self.shaper.shape(version, ResultKind::Plain, result),
                    }
                }
                Err(message) => Reply::Error {
                    id: Some(id),
                    error: RpcError::invalid_params(format!("Invalid params: {message}")),
                },
            },
            (Step::Read { id, version, view }, Some(_)) => {
                let result = ResultObject::new().value("contents", view::contents(view));
                Reply::Result {
                    id,
                    result: self.shaper.shape(version, ResultKind::Cacheable, result),
                }
            }
            (Step::Call { id, .. } | Step::Prompt { id, .. } | Step::Read { id, .. }, None) => {
                // `single`/`batch` authorize every call first; reaching here is a bug, not a client error.
                let error = RpcError::unexpected("dispatch", &MissingPrincipal);
                Reply::Error { id: Some(id), error }
            }
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("a tool call reached execution without a principal")]
struct MissingPrincipal;

/// A batch is served only as 2025-03-26 and only when non-empty and free of modern claims.
fn batch_refusal(items: &[&RawValue], headers: &HeaderMap) -> Option<RpcError> {
    if items.is_empty() {
        return Some(RpcError::invalid_request("empty batch"));
    }
    let header = headers
        .get(negotiation::PROTOCOL_VERSION_HEADER)
        .map(|v| v.to_str().map(str::trim));
    if !matches!(header, None | Some(Ok("2025-03-26"))) {
        return Some(RpcError::invalid_request(
            "JSON-RPC batches exist only in protocol version 2025-03-26",
        ));
    }
    let claims_modern = items.iter().any(|raw| {
        jsonrpc::parse_message(raw)
            .ok()
            .and_then(|m| m.params().and_then(|p| ParamsHead::parse(Some(p)).ok()))
            .is_some_and(|head| head.version_claim().is_some())
    });
    claims_modern.then(|| RpcError::invalid_request("a 2026-07-28 message cannot be part of a batch"))
}

fn denied_response(denied: &Denied, ids: Option<Vec<&RawValue>>, as_array: bool) -> Response<Bytes> {
    let ids = ids.unwrap_or_default();
    let mut response = if as_array && !ids.is_empty() {
        let bodies: Vec<Vec<u8>> = ids
            .iter()
            .map(|id| {
                Reply::Error {
                    id: Some((*id).to_owned()),
                    error: denied.error.clone(),
                }
                .to_json()
                .unwrap_or_default()
            })
            .collect();
        json_response(denied.error.status, join_array(&bodies))
    } else {
        error_response(ids.first().copied(), &denied.error)
    };
    let (name, value) = &denied.header;
    match HeaderValue::from_str(value) {
        Ok(v) => {
            response.headers_mut().insert(name.clone(), v);
        }
        Err(e) => {
            let error = RpcError::unexpected("authorization header value", &e);
            return error_response(ids.first().copied(), &error);
        }
    }
    response
}

fn join_array(bodies: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bodies.iter().map(|b| b.len() + 1).sum::<usize>() + 2);
    out.push(b'[');
    for (i, body) in bodies.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(body);
    }
    out.push(b']');
    out
}
