//! One tool = one [`Operation`]: typed arguments in, typed output out.
//!
//! [`LedgerTool`] turns an operation into a protocol [`Tool`]: it publishes the
//! schemas derived from the types, reads the arguments (model-friendly errors),
//! runs the operation for the caller and maps ledger failures to tool errors.

use std::borrow::Cow;
use std::sync::Arc;

use async_trait::async_trait;
use dochiya_ledger::domain::PersonId;
use dochiya_ledger::{Field, Ledger, LedgerError};
use dochiya_protocol::{Principal, Tool, ToolAnnotations, ToolError, ToolSpec};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::{args, errors, schema};

/// Scope of the read tools (the scope names are defined once, by the auth crate).
pub(crate) const READ: &str = dochiya_auth::SCOPE_READ;
/// Scope of the write tools.
pub(crate) const WRITE: &str = dochiya_auth::SCOPE_WRITE;

/// Annotations of a read tool.
pub(crate) const READ_ONLY: ToolAnnotations = ToolAnnotations {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

/// Annotations of a write tool that only adds or updates (never destroys).
pub(crate) const fn write(idempotent: bool) -> ToolAnnotations {
    ToolAnnotations {
        read_only: false,
        destructive: false,
        idempotent,
        open_world: false,
    }
}

/// Annotations of a write tool that takes something away (void, archive).
pub(crate) const fn destructive(idempotent: bool) -> ToolAnnotations {
    ToolAnnotations {
        read_only: false,
        destructive: true,
        idempotent,
        open_world: false,
    }
}

/// What a tool is: its declaration and its handler.
#[async_trait]
pub(crate) trait Operation: Send + Sync + 'static {
    /// The arguments, with `deny_unknown_fields` and a description on every field.
    type Args: DeserializeOwned + JsonSchema + Send;
    /// The `structuredContent`, an explicit response type.
    type Output: Serialize + JsonSchema + Send;

    /// `snake_case` tool name from docs/tools.md.
    const NAME: &'static str;
    /// Display name.
    const TITLE: &'static str;
    /// Written for a model: what it does, units, what to call next.
    const DESCRIPTION: &'static str;
    /// `ledger:read` or `ledger:write`.
    const SCOPE: &'static str;
    /// Behaviour hints (docs/design.md §6b).
    const ANNOTATIONS: ToolAnnotations;

    /// Runs the operation for `who`.
    async fn run(ledger: &Ledger, who: &PersonId, args: Self::Args) -> Result<Self::Output, LedgerError>;

    /// How this tool spells the ledger's input fields as its arguments (in its error messages).
    fn argument(field: Field) -> Cow<'static, str> {
        errors::argument(field)
    }
}

/// An [`Operation`] bound to the ledger, as the protocol layer calls it.
pub(crate) struct LedgerTool<O: Operation> {
    ledger: Arc<Ledger>,
    spec: ToolSpec,
    _operation: std::marker::PhantomData<fn() -> O>,
}

impl<O: Operation> LedgerTool<O> {
    /// The tool, with its schemas generated once.
    pub(crate) fn new(ledger: Arc<Ledger>) -> Self {
        Self {
            ledger,
            spec: spec::<O>(),
            _operation: std::marker::PhantomData,
        }
    }
}

/// The published declaration of an operation.
pub(crate) fn spec<O: Operation>() -> ToolSpec {
    ToolSpec {
        name: O::NAME,
        title: O::TITLE,
        description: O::DESCRIPTION,
        input_schema: schema::input_schema::<O::Args>(),
        output_schema: schema::output_schema::<O::Output>(),
        annotations: O::ANNOTATIONS,
        scope: O::SCOPE,
    }
}

#[async_trait]
impl<O: Operation> Tool for LedgerTool<O> {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn call(
        &self,
        principal: &Principal,
        arguments: Option<&RawValue>,
    ) -> Result<Box<RawValue>, ToolError> {
        let who = PersonId::new(principal.person.clone())
            .map_err(|e| ToolError::Internal(Box::new(e)))?
            .with_name(principal.name.clone());
        let args: O::Args = match args::parse(arguments) {
            Ok(args) => args,
            Err(e) => return Err(against_vault_currency(&self.ledger, &who, arguments, e).await),
        };
        let output = O::run(&self.ledger, &who, args)
            .await
            .map_err(|e| errors::tool_error(e, O::argument))?;
        // Straight from the response type to text: no `Value` tree in between.
        serde_json::value::to_raw_value(&output).map_err(|e| ToolError::Internal(Box::new(e)))
    }
}

/// An argument error about an amount written in another currency than the vault's
/// ("¥1,200" in a won vault), reworded against the vault's currency with no number to
/// send: the generic advice ("send \"1200\"") would record yen as won. Any other
/// error, or one the vault cannot be read for, is returned as it is.
async fn against_vault_currency(
    ledger: &Ledger,
    who: &PersonId,
    arguments: Option<&RawValue>,
    e: ToolError,
) -> ToolError {
    let ToolError::Invalid(message) = &e else {
        return e;
    };
    // "Argument `amount`: \"¥1,200\" has a currency sign (¥) …"
    let Some((argument, rest)) = message.split_once("`: \"") else {
        return e;
    };
    let Some(text) = rest.find("\" has ").map(|end| &rest[..end]) else {
        return e;
    };
    if !rest.contains("a currency") {
        return e;
    }
    let vault = arguments
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| v.get("vault").and_then(|n| n.as_str()).map(str::to_owned));
    match ledger.vault_currency(who, vault.as_deref()).await {
        Ok(currency) => match dochiya_ledger::domain::other_currency(text, currency.code()) {
            Some(refusal) => ToolError::Invalid(format!("{argument}`: {refusal}.")),
            None => e,
        },
        Err(_) => e,
    }
}
