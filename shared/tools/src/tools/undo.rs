//! `undo`: take back one operation (a recording, a batch, an edit, a void) whole.

use std::borrow::Cow;
use std::fmt;

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::{OperationId, UndoRequest};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use crate::args::{NameArg, TRANSACTION_ID_PATTERN, sentence};
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{OperationIdOut, TransactionIdOut, VaultOut};

/// An operation id argument: a decimal string, never a JSON number (it may be rounded).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OperationIdArg(OperationId);

impl<'de> Deserialize<'de> for OperationIdArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        const AS_NUMBER: &str = "it was sent as a JSON number. Send operationId as a string, with the digits exactly as a tool returned them; ids are larger than 2^53, and a JSON number that large may already have been rounded.";

        impl Visitor<'_> for IdVisitor {
            type Value = OperationIdArg;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string of decimal digits")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                OperationId::parse(v)
                    .map(OperationIdArg)
                    .map_err(|e| E::custom(sentence(e.message())))
            }

            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Err(E::custom(AS_NUMBER))
            }

            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Err(E::custom(AS_NUMBER))
            }

            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Err(E::custom(AS_NUMBER))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

impl JsonSchema for OperationIdArg {
    fn schema_name() -> Cow<'static, str> {
        "OperationId".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": TRANSACTION_ID_PATTERN })
    }
}

/// Arguments of `undo`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// From a write's result or list_transactions; omit for your latest.
    operation_id: Option<OperationIdArg>,
    #[schemars(description = text::DRY_RUN)]
    dry_run: Option<bool>,
}

/// One entry the undo took back.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UndoneOut {
    /// The entry's id.
    transaction_id: TransactionIdOut,
    /// voided (a recorded entry), restored (an edit reversed: a new version with the content before), unvoided (a void reversed).
    action: String,
}

/// Result of `undo`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The operation taken back.
    operation_id: OperationIdOut,
    /// Every entry of the operation and what the undo did (or, on a dry run, would do) to it.
    undone: Vec<UndoneOut>,
    /// Balances of the accounts those entries touch, after the undo, as of today (entries dated later apart, as scheduled).
    balances: Vec<BalanceOut>,
    /// True when it had been undone already: nothing changed now.
    already_undone: bool,
    /// True when dryRun was set: nothing was written.
    dry_run: bool,
}

/// The `undo` tool.
pub(crate) struct Undo;

#[async_trait]
impl Operation for Undo {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "undo";
    const TITLE: &'static str = "Undo a change";
    const DESCRIPTION: &'static str = "Takes back one whole write (방금 거 취소): a recording or batch is voided, an edit reversed, a void brought back. Refused, changing nothing, if its entries changed since. Twice is a no-op. Owners may undo anyone's. Confirm first (dryRun shows it).";
    // Undoing an undone operation changes nothing and says so.
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{}"#, r#"{"operationId": "4818349038087529260", "dryRun": true}"#],
        &[r#"{"operationId": 4818349038087529260}"#, r#"{"transactionId": "4818349038087529260"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let u = ledger
            .undo(
                who,
                UndoRequest {
                    vault: args.vault.map(String::from),
                    operation_id: args.operation_id.map(|a| a.0),
                    dry_run: args.dry_run.unwrap_or(false),
                },
            )
            .await?;
        Ok(Output {
            vault: u.vault.into(),
            currency: u.currency.code().to_owned(),
            operation_id: u.operation_id.into(),
            undone: u
                .undone
                .into_iter()
                .map(|e| UndoneOut {
                    transaction_id: e.transaction_id.into(),
                    action: e.action.as_str().to_owned(),
                })
                .collect(),
            balances: u.balances.into_iter().map(BalanceOut::from).collect(),
            already_undone: u.already_undone,
            dry_run: u.dry_run,
        })
    }
}
