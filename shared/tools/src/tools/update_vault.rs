//! `update_vault`: rename a vault, or set how its members share the household's spending.

use std::borrow::Cow;
use std::fmt;

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError, VaultUpdate};
use dochiya_ledger::ledger::{MAX_MEMBERS, MAX_WEIGHT};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::args::NameArg;
use crate::operation::{Kind, Operation, write};
use crate::text;
use crate::wire::UuidOut;

/// `{ "<member name>": weight }` in the order sent, at most [`MAX_MEMBERS`] names.
#[derive(Debug)]
pub(crate) struct SharesArg(Vec<(String, i64)>);

impl<'de> Deserialize<'de> for SharesArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Shares;
        impl<'de> Visitor<'de> for Shares {
            type Value = SharesArg;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of member names to whole-number weights")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SharesArg, A::Error> {
                let mut out = Vec::new();
                while let Some((name, weight)) = map.next_entry::<NameArg, i64>()? {
                    if out.len() == MAX_MEMBERS {
                        return Err(de::Error::custom(format!(
                            "a vault has at most {MAX_MEMBERS} members to weigh."
                        )));
                    }
                    out.push((String::from(name), weight));
                }
                Ok(SharesArg(out))
            }
        }
        deserializer.deserialize_map(Shares)
    }
}

impl JsonSchema for SharesArg {
    fn schema_name() -> Cow<'static, str> {
        "Shares".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "additionalProperties": { "type": "integer", "minimum": 0, "maximum": MAX_WEIGHT },
            "maxProperties": MAX_MEMBERS,
        })
    }
}

/// Arguments of `update_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// New name, unique among your vaults.
    new_name: Option<NameArg>,
    /// Members' weights for shared spending from this month on, e.g. {"하은": 6, "지훈": 4}; unnamed members keep theirs (default 1 each).
    shares: Option<SharesArg>,
}

/// One member's weight.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ShareOut {
    /// The member.
    member: String,
    /// Their weight now.
    weight: u64,
}

/// Result of `update_vault`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    /// The vault's id (unchanged).
    vault_id: UuidOut,
    /// The vault's name now; pass it as `vault` from now on.
    name: String,
    /// Every member's weight now.
    shares: Vec<ShareOut>,
    /// False when it already was so.
    changed: bool,
}

/// The `update_vault` tool.
pub(crate) struct UpdateVault;

#[async_trait]
impl Operation for UpdateVault {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "update_vault";
    const TITLE: &'static str = "Update a vault";
    const DESCRIPTION: &'static str = "Renames a vault (newName) or sets how members split shared spending (shares; 6:4 by income is common; settle_up uses them). Owner only.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"vault": "a", "newName": "b"}"#,
            r#"{"shares": {"하은": 6, "지훈": 4}}"#,
            // Refused by the ledger with what to send, not by the schema.
            r#"{"vault": "a"}"#,
        ],
        &[r#"{"name": "b"}"#, r#"{"shares": {"하은": "6"}}"#],
    );

    fn argument(field: Field) -> Cow<'static, str> {
        match field {
            Field::Entries => "arguments".into(),
            other => crate::errors::argument(other),
        }
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let v = ledger
            .update_vault(
                who,
                VaultUpdate {
                    vault: args.vault.map(String::from),
                    new_name: args.new_name.map(String::from),
                    shares: args.shares.map(|s| s.0),
                },
            )
            .await?;
        Ok(Output {
            vault_id: v.vault_id.into(),
            name: v.name,
            shares: v
                .shares
                .into_iter()
                .map(|s| ShareOut {
                    member: s.member,
                    weight: s.weight,
                })
                .collect(),
            changed: v.changed,
        })
    }
}
