//! One tool = one [`Operation`]: typed arguments in, typed output out.
//!
//! [`LedgerTool`] turns an operation into a protocol [`Tool`]: it publishes the
//! schemas derived from the types, reads the arguments (model-friendly errors),
//! runs the operation for the caller and maps ledger failures to tool errors.

use std::borrow::Cow;
use std::sync::Arc;

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError};
use dochiya_protocol::{Principal, Tool, ToolAnnotations, ToolError, ToolSpec};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::output_check::OutputCheck;
use crate::{args, errors, schema};

/// What a tool does to the ledger; its scope and its annotations both follow from it
/// (docs/tools.md, "Annotations", justifies each tool's hints).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Reads only: `ledger:read`, `readOnlyHint`.
    Read,
    /// Changes the ledger: `ledger:write`.
    Write {
        /// Takes something away from what reads show (void, archive, delete, remove).
        destructive: bool,
        /// The same arguments (idempotencyKey included) a second time have no further effect.
        idempotent: bool,
    },
}

/// A read tool.
pub(crate) const READ: Kind = Kind::Read;

/// A write tool that only adds or updates (never destroys).
pub(crate) const fn write(idempotent: bool) -> Kind {
    Kind::Write {
        destructive: false,
        idempotent,
    }
}

/// A write tool that takes something away (void, archive, delete, remove).
pub(crate) const fn destructive(idempotent: bool) -> Kind {
    Kind::Write {
        destructive: true,
        idempotent,
    }
}

impl Kind {
    /// The OAuth scope a caller needs (the scope names are defined once, by the auth crate).
    pub(crate) const fn scope(self) -> &'static str {
        match self {
            Kind::Read => dochiya_domain::scopes::SCOPE_READ,
            Kind::Write { .. } => dochiya_domain::scopes::SCOPE_WRITE,
        }
    }

    /// The MCP annotations: never open-world; a read is idempotent and not destructive.
    pub(crate) const fn annotations(self) -> ToolAnnotations {
        match self {
            Kind::Read => ToolAnnotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false,
            },
            Kind::Write {
                destructive,
                idempotent,
            } => ToolAnnotations {
                read_only: false,
                destructive,
                idempotent,
                open_world: false,
            },
        }
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
    /// Read or write, and the write's hints: gives the scope and the annotations.
    const KIND: Kind;

    /// Arguments the published schema and the parser both accept, then ones both refuse
    /// (checked for every tool by `check_examples`).
    #[cfg(test)]
    const EXAMPLES: Examples = (&[], &[]);

    /// Runs the operation for `who`.
    async fn run(ledger: &Ledger, who: &PersonId, args: Self::Args) -> Result<Self::Output, LedgerError>;

    /// How this tool spells the ledger's input fields as its arguments (in its error messages).
    fn argument(field: Field) -> Cow<'static, str> {
        errors::argument(field)
    }

    /// The spelling for one call: a tool that takes two forms picks by the form sent.
    fn spelling(_args: &Self::Args) -> errors::Spelling {
        Self::argument
    }
}

/// Good argument texts, then bad ones.
#[cfg(test)]
pub(crate) type Examples = (&'static [&'static str], &'static [&'static str]);

/// The published input schema and the deserializer agree on `O::EXAMPLES`: each good
/// text is accepted by both, each bad one refused by both.
#[cfg(test)]
pub(crate) fn check_examples<O: Operation>() {
    use serde_json::Value;
    let spec = spec::<O>();
    let validator =
        jsonschema::validator_for(&spec.input_schema).unwrap_or_else(|e| panic!("{}: {e}", O::NAME));
    let (good, bad) = O::EXAMPLES;
    for (text, want) in good
        .iter()
        .map(|t| (t, true))
        .chain(bad.iter().map(|t| (t, false)))
    {
        let value: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(validator.is_valid(&value), want, "{}: schema on {text}", O::NAME);
        let raw = RawValue::from_string((*text).to_owned()).ok();
        let parsed = args::parse::<O::Args>(raw.as_deref());
        assert_eq!(
            parsed.is_ok(),
            want,
            "{}: parser on {text}: {:?}",
            O::NAME,
            parsed.err()
        );
    }
}

/// An [`Operation`] bound to the ledger, as the protocol layer calls it.
pub(crate) struct LedgerTool<O: Operation> {
    ledger: Arc<Ledger>,
    spec: ToolSpec,
    /// Each result against `spec.output_schema`, in builds that run tests (decision 049).
    output_check: OutputCheck,
    _operation: std::marker::PhantomData<fn() -> O>,
}

impl<O: Operation> LedgerTool<O> {
    /// The tool, with its schemas generated once and its MCP Apps view, if it has one.
    pub(crate) fn new(ledger: Arc<Ledger>, view: Option<&'static str>) -> Self {
        Self {
            ledger,
            spec: ToolSpec { view, ..spec::<O>() },
            output_check: OutputCheck::new(),
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
        annotations: O::KIND.annotations(),
        scope: O::KIND.scope(),
        view: None,
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
            .with_name(principal.name.clone())
            .with_issued_at(principal.issued_at);
        // A new instance learns the caller's vaults from their token (decision 044).
        if let Some(hint) = &principal.roster_hint {
            self.ledger.take_roster_hint(&who, hint);
        }
        let args: O::Args = match args::parse_or_refused(arguments) {
            Ok(args) => args,
            Err(refused) => return Err(against_vault_currency(&self.ledger, &who, arguments, refused).await),
        };
        let spell = O::spelling(&args);
        let output = O::run(&self.ledger, &who, args)
            .await
            .map_err(|e| errors::tool_error(e, spell))?;
        // Straight from the response type to text: no `Value` tree in between.
        let raw = serde_json::value::to_raw_value(&output).map_err(|e| ToolError::Internal(Box::new(e)))?;
        self.output_check.check(O::NAME, &self.spec.output_schema, &raw)?;
        Ok(raw)
    }
}

/// An argument error about an amount written in another currency than the vault's
/// ("¥1,200" in a won vault), reworded against the vault's currency with no number to
/// send: the generic advice ("send \"1200\"") would record yen as won. Judged from the
/// amount sent, never from the sentence: any other error, or one the vault cannot be
/// read for, is returned as it is.
async fn against_vault_currency(
    ledger: &Ledger,
    who: &PersonId,
    arguments: Option<&RawValue>,
    refused: args::Refused,
) -> ToolError {
    let e = refused.error;
    let Some((path, text)) = refused.amount else {
        return e;
    };
    let vault = arguments
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|v| v.get("vault").and_then(|n| n.as_str()).map(str::to_owned));
    match ledger.vault_currency(who, vault.as_deref()).await {
        Ok(currency) => match dochiya_domain::other_currency(&text, currency.code()) {
            Some(refusal) => ToolError::Invalid(format!(
                "Argument {}: {refusal}.",
                dochiya_quote::quote_name(&path)
            )),
            None => e,
        },
        Err(_) => e,
    }
}
