//! The DynamoDB [`dochiya_store::Store`] (docs/design.md §7).
//!
//! One table, `PK`/`SK` strings, items exactly as the ledger's key code makes
//! them. Reads are strongly consistent; a write of several operations is one
//! `TransactWriteItems`, a write of one is the plain conditional call (half the
//! write units) with the same error semantics. Conditions that fail are
//! explained with the item DynamoDB returns (`ReturnValuesOnConditionCheckFailure`),
//! evaluated with the shared [`dochiya_store::eval`] rules.
//! `docs/decisions/` records why (table design, transactions, retries, consistency).

mod convert;
mod counter;
mod error;
mod expr;
mod retry;
mod table;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, KeysAndAttributes, Put, ReturnValuesOnConditionCheckFailure,
    TransactWriteItem, Update,
};
use dochiya_store::{Item, Key, Page, Query, Store, StoreError, WriteOp, eval};
use futures::future::try_join_all;

pub use crate::counter::CallCounter;
pub use crate::error::DynamoError;
pub use crate::retry::RetryPolicy;
pub use crate::table::{TableCreation, check_table, create_table};

use crate::convert::{SK, key_map};
use crate::error::{cancellation, decode, explain_condition_failure, failure};
use crate::expr::{OpRequest, Parts, QueryPlan};
use crate::retry::{Failure, Replay, jitter_seed, retrying};

/// Most keys one `BatchGetItem` may carry.
const BATCH_GET_KEYS: usize = 100;

/// Build the DynamoDB client from the standard AWS configuration chain
/// (region, credentials, and `AWS_ENDPOINT_URL_DYNAMODB` for a local server).
/// Call once per process and reuse: it holds the connection pool.
pub async fn load_client() -> Client {
    let config = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .load()
        .await;
    Client::new(&config)
}

/// The DynamoDB store over one table.
#[derive(Debug, Clone)]
pub struct DynamoStore {
    client: Client,
    table: String,
    policy: RetryPolicy,
}

impl DynamoStore {
    /// A store over `table`, sharing `client`'s connections and credentials.
    /// The SDK's own retries are turned off: the store retries by its own
    /// policy, which knows which DynamoDB failures are safe to repeat.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        let timeouts = TimeoutConfig::builder()
            .connect_timeout(Duration::from_secs(2))
            .operation_attempt_timeout(Duration::from_secs(5))
            .build();
        let config = client
            .config()
            .to_builder()
            .retry_config(RetryConfig::disabled())
            .timeout_config(timeouts)
            .build();
        Self {
            client: Client::from_conf(config),
            table: table.into(),
            policy: RetryPolicy::default(),
        }
    }

    /// The same store with every DynamoDB HTTP call (retries included) counted in `counter`.
    pub fn with_call_counter(self, counter: CallCounter) -> Self {
        let config = self
            .client
            .config()
            .to_builder()
            .interceptor(crate::counter::CountingInterceptor(counter))
            .build();
        Self {
            client: Client::from_conf(config),
            ..self
        }
    }

    /// The same store with another retry policy.
    pub fn with_retry_policy(self, policy: RetryPolicy) -> Self {
        Self { policy, ..self }
    }

    /// The table name.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// Check that the table exists, is reachable with these credentials and has
    /// the expected key schema (a clear error at start-up instead of at the first request).
    pub async fn check_table(&self) -> Result<(), DynamoError> {
        table::check_table(&self.client, &self.table).await
    }

    async fn get_chunk(&self, keys: Vec<Key>) -> Result<Vec<Item>, StoreError> {
        let mut pending: Vec<HashMap<String, AttributeValue>> = keys.iter().map(key_map).collect();
        let mut found = Vec::with_capacity(keys.len());
        let mut round = 1;
        loop {
            let request = KeysAndAttributes::builder()
                .set_keys(Some(pending.clone()))
                .consistent_read(true)
                .build()
                .map_err(|e| DynamoError::Unexpected {
                    operation: "BatchGetItem",
                    detail: e.to_string(),
                })?;
            let out = retrying(&self.policy, Replay::Safe, |_| {
                let call = self
                    .client
                    .batch_get_item()
                    .request_items(&self.table, request.clone())
                    .send();
                async move { call.await.map_err(|e| failure(&self.table, "BatchGetItem", e)) }
            })
            .await?;
            let mut out = out;
            if let Some(items) = out.responses.as_mut().and_then(|r| r.remove(&self.table)) {
                for map in &items {
                    found.push(decode(&self.table, map)?);
                }
            }
            pending = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(&self.table))
                .map(|k| k.keys)
                .unwrap_or_default();
            if pending.is_empty() {
                return Ok(found);
            }
            // DynamoDB left keys unread (throughput or the 16 MB response cap):
            // read them again after a back-off, within the same budget as retries.
            if round >= self.policy.max_attempts {
                return Err(StoreError::Transient(
                    format!(
                        "BatchGetItem left {} keys unprocessed after {round} rounds",
                        pending.len()
                    )
                    .into(),
                ));
            }
            tokio::time::sleep(self.policy.delay(round, jitter_seed())).await;
            round += 1;
        }
    }

    async fn write_one(&self, op: &WriteOp, request: OpRequest) -> Result<(), StoreError> {
        let table = self.table.as_str();
        let has_condition = eval::condition_of(op).is_some();
        // Without a condition and without an increment, repeating a write after
        // an unknown outcome leaves the same item: safe to retry.
        let replay = match op {
            WriteOp::Update { add, .. } if !add.is_empty() => Replay::Unsafe,
            _ if has_condition => Replay::Unsafe,
            _ => Replay::Safe,
        };
        let on_fail = has_condition.then_some(ReturnValuesOnConditionCheckFailure::AllOld);
        let current =
            |item: Option<&HashMap<String, AttributeValue>>| item.map(|m| decode(table, m)).transpose();
        match request {
            OpRequest::Put { item, parts } => {
                retrying(&self.policy, replay, |_| {
                    let call = self
                        .client
                        .put_item()
                        .table_name(table)
                        .set_item(Some(item.clone()))
                        .set_condition_expression(parts.condition.clone())
                        .set_expression_attribute_names(parts.names.clone())
                        .set_expression_attribute_values(parts.values.clone())
                        .set_return_values_on_condition_check_failure(on_fail.clone())
                        .send();
                    async move {
                        match call.await {
                            Ok(_) => Ok(()),
                            Err(e) => Err(match e.as_service_error() {
                                Some(PutItemError::ConditionalCheckFailedException(c)) => {
                                    match current(c.item()) {
                                        Ok(cur) => Failure::Fail(explain_condition_failure(op, 0, cur)),
                                        Err(e) => Failure::Fail(e),
                                    }
                                }
                                _ => failure(table, "PutItem", e),
                            }),
                        }
                    }
                })
                .await
            }
            OpRequest::Update { key, update, parts } => {
                retrying(&self.policy, replay, |_| {
                    let call = self
                        .client
                        .update_item()
                        .table_name(table)
                        .set_key(Some(key.clone()))
                        .update_expression(update.clone())
                        .set_condition_expression(parts.condition.clone())
                        .set_expression_attribute_names(parts.names.clone())
                        .set_expression_attribute_values(parts.values.clone())
                        .set_return_values_on_condition_check_failure(
                            parts
                                .condition
                                .as_ref()
                                .map(|_| ReturnValuesOnConditionCheckFailure::AllOld),
                        )
                        .send();
                    async move {
                        match call.await {
                            Ok(_) => Ok(()),
                            Err(e) => Err(match e.as_service_error() {
                                Some(UpdateItemError::ConditionalCheckFailedException(c)) => {
                                    match current(c.item()) {
                                        Ok(cur) => Failure::Fail(explain_condition_failure(op, 0, cur)),
                                        Err(e) => Failure::Fail(e),
                                    }
                                }
                                _ => failure(table, "UpdateItem", e),
                            }),
                        }
                    }
                })
                .await
            }
            OpRequest::Delete { key, parts } => {
                retrying(&self.policy, replay, |_| {
                    let call = self
                        .client
                        .delete_item()
                        .table_name(table)
                        .set_key(Some(key.clone()))
                        .set_condition_expression(parts.condition.clone())
                        .set_expression_attribute_names(parts.names.clone())
                        .set_expression_attribute_values(parts.values.clone())
                        .set_return_values_on_condition_check_failure(on_fail.clone())
                        .send();
                    async move {
                        match call.await {
                            Ok(_) => Ok(()),
                            Err(e) => Err(match e.as_service_error() {
                                Some(DeleteItemError::ConditionalCheckFailedException(c)) => {
                                    match current(c.item()) {
                                        Ok(cur) => Failure::Fail(explain_condition_failure(op, 0, cur)),
                                        Err(e) => Failure::Fail(e),
                                    }
                                }
                                _ => failure(table, "DeleteItem", e),
                            }),
                        }
                    }
                })
                .await
            }
            OpRequest::Check { .. } => Err(DynamoError::Unexpected {
                operation: "write",
                detail: "a lone condition check is sent as a transaction".into(),
            }
            .into()),
        }
    }

    async fn write_transaction(&self, ops: &[WriteOp], requests: Vec<OpRequest>) -> Result<(), StoreError> {
        let table = self.table.as_str();
        let items = requests
            .into_iter()
            .map(|r| transact_item(table, r))
            .collect::<Result<Vec<_>, _>>()?;
        // The token makes a replay after an unknown outcome (timeout, 5xx) a
        // no-op on DynamoDB if the first attempt did commit; after a definite
        // cancellation the next attempt is a new transaction, with a new token.
        let token = Mutex::new(request_token());
        retrying(&self.policy, Replay::Safe, |_| {
            let call = self
                .client
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .client_request_token(lock(&token).clone())
                .send();
            let token = &token;
            async move {
                let Err(e) = call.await else { return Ok(()) };
                let outcome = match e.as_service_error() {
                    Some(TransactWriteItemsError::TransactionCanceledException(c)) => {
                        cancellation(table, ops, c.cancellation_reasons())
                    }
                    _ => failure(table, "TransactWriteItems", e),
                };
                if matches!(outcome, Failure::Retry(_)) {
                    *lock(token) = request_token();
                }
                Err(outcome)
            }
        })
        .await
    }
}

fn lock(token: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    token.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh `ClientRequestToken` (at most 36 characters).
fn request_token() -> String {
    format!("{:016x}{:016x}", jitter_seed(), jitter_seed())
}

/// One operation as an item of `TransactWriteItems`.
fn transact_item(table: &str, request: OpRequest) -> Result<TransactWriteItem, StoreError> {
    let build_error = |e: aws_sdk_dynamodb::error::BuildError| -> StoreError {
        DynamoError::Unexpected {
            operation: "TransactWriteItems",
            detail: e.to_string(),
        }
        .into()
    };
    let on_fail = |parts: &Parts| {
        parts
            .condition
            .as_ref()
            .map(|_| ReturnValuesOnConditionCheckFailure::AllOld)
    };
    Ok(match request {
        OpRequest::Put { item, parts } => TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(table)
                    .set_item(Some(item))
                    .set_return_values_on_condition_check_failure(on_fail(&parts))
                    .set_condition_expression(parts.condition)
                    .set_expression_attribute_names(parts.names)
                    .set_expression_attribute_values(parts.values)
                    .build()
                    .map_err(build_error)?,
            )
            .build(),
        OpRequest::Update { key, update, parts } => TransactWriteItem::builder()
            .update(
                Update::builder()
                    .table_name(table)
                    .set_key(Some(key))
                    .update_expression(update)
                    .set_return_values_on_condition_check_failure(on_fail(&parts))
                    .set_condition_expression(parts.condition)
                    .set_expression_attribute_names(parts.names)
                    .set_expression_attribute_values(parts.values)
                    .build()
                    .map_err(build_error)?,
            )
            .build(),
        OpRequest::Delete { key, parts } => TransactWriteItem::builder()
            .delete(
                Delete::builder()
                    .table_name(table)
                    .set_key(Some(key))
                    .set_return_values_on_condition_check_failure(on_fail(&parts))
                    .set_condition_expression(parts.condition)
                    .set_expression_attribute_names(parts.names)
                    .set_expression_attribute_values(parts.values)
                    .build()
                    .map_err(build_error)?,
            )
            .build(),
        OpRequest::Check { key, parts } => TransactWriteItem::builder()
            .condition_check(
                ConditionCheck::builder()
                    .table_name(table)
                    .set_key(Some(key))
                    .set_return_values_on_condition_check_failure(on_fail(&parts))
                    .set_condition_expression(parts.condition)
                    .set_expression_attribute_names(parts.names)
                    .set_expression_attribute_values(parts.values)
                    .build()
                    .map_err(build_error)?,
            )
            .build(),
    })
}

#[async_trait]
impl Store for DynamoStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        eval::validate_key(key)?;
        let table = self.table.as_str();
        let out = retrying(&self.policy, Replay::Safe, |_| {
            let call = self
                .client
                .get_item()
                .table_name(table)
                .set_key(Some(key_map(key)))
                .consistent_read(true)
                .send();
            async move { call.await.map_err(|e| failure(table, "GetItem", e)) }
        })
        .await?;
        out.item.map(|m| decode(table, &m)).transpose()
    }

    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError> {
        for key in keys {
            eval::validate_key(key)?;
        }
        // BatchGetItem refuses duplicate keys; ask once for each.
        let mut unique: Vec<Key> = keys.to_vec();
        unique.sort();
        unique.dedup();
        // Chunks go out concurrently: still one read round for the caller.
        let chunks = unique.chunks(BATCH_GET_KEYS).map(|c| self.get_chunk(c.to_vec()));
        let mut found: HashMap<Key, Item> = HashMap::with_capacity(unique.len());
        for item in try_join_all(chunks).await?.into_iter().flatten() {
            found.insert(item.key.clone(), item);
        }
        Ok(keys.iter().map(|k| found.get(k).cloned()).collect())
    }

    async fn query(&self, query: &Query) -> Result<Page, StoreError> {
        let (key_condition, names, values, start) = match expr::query_plan(query)? {
            QueryPlan::Empty => {
                return Ok(Page {
                    items: Vec::new(),
                    last_sk: None,
                });
            }
            QueryPlan::Run {
                key_condition,
                names,
                values,
                start,
            } => (key_condition, names, values, start),
        };
        let table = self.table.as_str();
        let limit = usize::try_from(query.limit).unwrap_or(usize::MAX);
        // One item more than asked tells whether more follow, so a page ends
        // with a cursor exactly when the other stores' would.
        let fetch = i32::try_from(query.limit.saturating_add(1)).unwrap_or(i32::MAX);
        let out = retrying(&self.policy, Replay::Safe, |_| {
            let call = self
                .client
                .query()
                .table_name(table)
                .key_condition_expression(key_condition.clone())
                .set_expression_attribute_names(Some(names.clone()))
                .set_expression_attribute_values(Some(values.clone()))
                .set_exclusive_start_key(start.clone())
                .scan_index_forward(query.forward)
                .limit(fetch)
                .consistent_read(true)
                .send();
            async move { call.await.map_err(|e| failure(table, "Query", e)) }
        })
        .await?;
        let mut items = out
            .items()
            .iter()
            .map(|m| decode(table, m))
            .collect::<Result<Vec<_>, _>>()?;
        let last_sk = if items.len() > limit {
            items.truncate(limit);
            items.last().map(|i| i.key.sk.clone())
        } else {
            // A page cut short by DynamoDB's 1 MB limit: more may follow.
            match out.last_evaluated_key().and_then(|k| k.get(SK)) {
                Some(AttributeValue::S(sk)) => Some(sk.clone()),
                _ => None,
            }
        };
        Ok(Page { items, last_sk })
    }

    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError> {
        eval::validate(&ops)?;
        for op in &ops {
            expr::validate_op(op)?;
        }
        let mut requests = ops.iter().map(expr::op_request).collect::<Result<Vec<_>, _>>()?;
        match (ops.as_slice(), requests.len()) {
            ([op], 1) if !matches!(op, WriteOp::Check { .. }) => {
                let request = requests
                    .pop()
                    .ok_or_else(|| StoreError::Invalid("empty write".into()))?;
                self.write_one(op, request).await
            }
            _ => self.write_transaction(&ops, requests).await,
        }
    }
}
