//! The table's definition (the same as the SAM template's) and start-up checks.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType, TableDescription,
    TableStatus, TimeToLiveSpecification,
};
use dochiya_store::TTL_ATTRIBUTE;

use crate::convert::{PK, SK};
use crate::error::{DynamoError, fatal};

/// What [`create_table`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableCreation {
    /// The table was created (and its TTL enabled).
    Created,
    /// A table of that name existed already; it was left as it was.
    AlreadyExists,
}

/// Create the table exactly as the SAM template defines it: `PK` (S, hash),
/// `SK` (S, range), on-demand billing, TTL on `expiresAt`, no indexes. For local
/// runs against a DynamoDB-compatible server and for tests.
pub async fn create_table(client: &Client, table: &str) -> Result<TableCreation, DynamoError> {
    let key = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
    };
    let attr = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
    };
    let unexpected = |e: aws_sdk_dynamodb::error::BuildError| DynamoError::Unexpected {
        operation: "CreateTable",
        detail: e.to_string(),
    };
    let created = client
        .create_table()
        .table_name(table)
        .key_schema(key(PK, KeyType::Hash).map_err(unexpected)?)
        .key_schema(key(SK, KeyType::Range).map_err(unexpected)?)
        .attribute_definitions(attr(PK).map_err(unexpected)?)
        .attribute_definitions(attr(SK).map_err(unexpected)?)
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await;
    if let Err(err) = created {
        let code = err.code().map(str::to_owned);
        if code.as_deref() == Some("ResourceInUseException") {
            return Ok(TableCreation::AlreadyExists);
        }
        return Err(fatal(table, "CreateTable", code.as_deref(), err));
    }
    wait_until_active(client, table).await?;
    let ttl = TimeToLiveSpecification::builder()
        .attribute_name(TTL_ATTRIBUTE)
        .enabled(true)
        .build()
        .map_err(|e| DynamoError::Unexpected {
            operation: "UpdateTimeToLive",
            detail: e.to_string(),
        })?;
    client
        .update_time_to_live()
        .table_name(table)
        .time_to_live_specification(ttl)
        .send()
        .await
        .map_err(|err| {
            let code = err.code().map(str::to_owned);
            fatal(table, "UpdateTimeToLive", code.as_deref(), err)
        })?;
    Ok(TableCreation::Created)
}

/// A new table takes a few seconds to become usable on DynamoDB (none on moto).
async fn wait_until_active(client: &Client, table: &str) -> Result<(), DynamoError> {
    for _ in 0..120 {
        if describe(client, table).await?.table_status() == Some(&TableStatus::Active) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Err(DynamoError::Unexpected {
        operation: "CreateTable",
        detail: format!("table {table:?} not active after 60 s"),
    })
}

async fn describe(client: &Client, table: &str) -> Result<TableDescription, DynamoError> {
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|err| {
            let code = err.code().map(str::to_owned);
            fatal(table, "DescribeTable", code.as_deref(), err)
        })?;
    out.table.ok_or_else(|| DynamoError::Unexpected {
        operation: "DescribeTable",
        detail: "no table description".into(),
    })
}

/// Check that the table exists, may be used, and has the PK/SK string key
/// schema, so a misconfiguration is one clear error at start-up.
pub async fn check_table(client: &Client, table: &str) -> Result<(), DynamoError> {
    let description = describe(client, table).await?;
    let schema: Vec<(String, String)> = description
        .key_schema()
        .iter()
        .map(|k| (k.attribute_name().to_owned(), k.key_type().as_str().to_owned()))
        .collect();
    let types: Vec<(String, String)> = description
        .attribute_definitions()
        .iter()
        .map(|a| {
            (
                a.attribute_name().to_owned(),
                a.attribute_type().as_str().to_owned(),
            )
        })
        .collect();
    let expected_schema = [
        (PK.to_owned(), "HASH".to_owned()),
        (SK.to_owned(), "RANGE".to_owned()),
    ];
    let is_string = |name: &str| types.iter().any(|(n, t)| n == name && t == "S");
    if schema != expected_schema || !is_string(PK) || !is_string(SK) {
        return Err(DynamoError::WrongSchema {
            table: table.to_owned(),
            found: format!("key schema {schema:?}, attribute types {types:?}"),
        });
    }
    Ok(())
}
