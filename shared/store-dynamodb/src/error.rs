//! What DynamoDB failures mean for the store: which are retried, which become
//! [`StoreError::ConditionFailed`] / [`StoreError::Invalid`], which are fatal.

use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::CancellationReason;
use dochiya_store::{Item, StoreError, WriteOp, eval};

use crate::convert::{DecodeError, item_from_map};
use crate::retry::{ErrorClass, Failure, classify};

/// A DynamoDB failure with its meaning, as the source of [`StoreError::Backend`]
/// and as the error of the table set-up calls.
#[derive(Debug, thiserror::Error)]
pub enum DynamoError {
    /// The configured table does not exist in this account and region.
    #[error(
        "DynamoDB table {table:?} does not exist in this account/region \
         (check DOCHIYA_TABLE and the region, or create it with the create-table command)"
    )]
    TableMissing {
        /// The table name.
        table: String,
    },
    /// The credentials may not use the table.
    #[error("access to DynamoDB table {table:?} was denied ({code}): check the function's IAM policy")]
    AccessDenied {
        /// The table name.
        table: String,
        /// DynamoDB's error code.
        code: String,
    },
    /// The table exists with another key schema than PK/SK strings.
    #[error(
        "DynamoDB table {table:?} has the wrong key schema: {found}; expected PK (S, HASH) and SK (S, RANGE)"
    )]
    WrongSchema {
        /// The table name.
        table: String,
        /// What was found.
        found: String,
    },
    /// A stored item the store cannot read.
    #[error("a stored item in table {table:?} is not in the store's format")]
    Corrupt {
        /// The table name.
        table: String,
        /// What is wrong with it.
        #[source]
        source: DecodeError,
    },
    /// DynamoDB answered something the store does not expect (a bug or a service change).
    #[error("unexpected answer from DynamoDB {operation}: {detail}")]
    Unexpected {
        /// The operation.
        operation: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// Any other failure of a call.
    #[error("DynamoDB {operation} failed ({code})")]
    Call {
        /// The operation.
        operation: &'static str,
        /// DynamoDB's error code, or the kind of transport failure.
        code: String,
        /// The SDK's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl From<DynamoError> for StoreError {
    fn from(e: DynamoError) -> Self {
        StoreError::Backend(Box::new(e))
    }
}

/// Decode an item, turning bad data into a backend error naming the table.
pub(crate) fn decode(
    table: &str,
    map: &std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>,
) -> Result<Item, StoreError> {
    item_from_map(map).map_err(|source| {
        DynamoError::Corrupt {
            table: table.to_owned(),
            source,
        }
        .into()
    })
}

/// What a failed SDK call means for the retry loop.
pub(crate) fn failure<E>(table: &str, operation: &'static str, err: SdkError<E, HttpResponse>) -> Failure
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    let (code, status, message) = match &err {
        SdkError::ServiceError(ctx) => (
            ctx.err().code().map(str::to_owned),
            Some(ctx.raw().status().as_u16()),
            ctx.err().message().unwrap_or_default().to_owned(),
        ),
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => {
            return Failure::Ambiguous(Box::new(call_error(operation, "transport", err)));
        }
        _ => return Failure::Fail(call_error(operation, "request construction", err).into()),
    };
    match classify(code.as_deref(), status) {
        ErrorClass::Retry => Failure::Retry(Box::new(call_error(
            operation,
            code.as_deref().unwrap_or("?"),
            err,
        ))),
        ErrorClass::Ambiguous => Failure::Ambiguous(Box::new(call_error(
            operation,
            code.as_deref().unwrap_or("5xx"),
            err,
        ))),
        ErrorClass::Invalid => Failure::Fail(StoreError::Invalid(format!(
            "DynamoDB refused {operation}: {message}"
        ))),
        ErrorClass::Fatal => Failure::Fail(fatal(table, operation, code.as_deref(), err).into()),
    }
}

fn call_error<E>(operation: &'static str, code: &str, err: SdkError<E, HttpResponse>) -> DynamoError
where
    E: std::error::Error + Send + Sync + 'static,
{
    DynamoError::Call {
        operation,
        code: code.to_owned(),
        source: Box::new(err),
    }
}

/// A non-retryable service error, named by what it means.
pub(crate) fn fatal<E>(
    table: &str,
    operation: &'static str,
    code: Option<&str>,
    err: SdkError<E, HttpResponse>,
) -> DynamoError
where
    E: std::error::Error + Send + Sync + 'static,
{
    match code {
        Some("ResourceNotFoundException") => DynamoError::TableMissing {
            table: table.to_owned(),
        },
        Some(
            c @ ("AccessDeniedException"
            | "UnrecognizedClientException"
            | "InvalidSignatureException"
            | "MissingAuthenticationTokenException"
            | "ExpiredTokenException"),
        ) => DynamoError::AccessDenied {
            table: table.to_owned(),
            code: c.to_owned(),
        },
        other => call_error(operation, other.unwrap_or("unknown"), err),
    }
}

/// Why an operation whose condition expression failed was refused: its own
/// condition, or one of the guards that keep an `add` inside `i64`. The item
/// DynamoDB returns (the state the condition saw) is evaluated with the same
/// rules as the other stores.
pub(crate) fn explain_condition_failure(op: &WriteOp, index: usize, current: Option<Item>) -> StoreError {
    let attrs = current.as_ref().map(|i| &i.attrs);
    if let Some(condition) = eval::condition_of(op)
        && !eval::holds(condition, attrs)
    {
        return eval::guard_failed(op, current);
    }
    match eval::apply(op, attrs) {
        Err(e) => e,
        Ok(_) => {
            // DynamoDB refused a condition that holds by our rules: report it as
            // failed (nothing was written), and leave a trace of the disagreement.
            tracing::warn!(index, "DynamoDB condition failed although it holds locally");
            eval::guard_failed(op, current)
        }
    }
}

/// What a cancelled `TransactWriteItems` means: reasons come one per operation,
/// in order; the first that is not `None` decides. A failed condition is
/// reported by the guard name of the operation at that position.
pub(crate) fn cancellation(table: &str, ops: &[WriteOp], reasons: &[CancellationReason]) -> Failure {
    for (index, reason) in reasons.iter().enumerate() {
        let code = reason.code().unwrap_or("None");
        let message = reason.message().unwrap_or_default();
        match code {
            "None" => continue,
            "ConditionalCheckFailed" => {
                let Some(op) = ops.get(index) else { break };
                let current = match reason.item().map(|m| decode(table, m)).transpose() {
                    Ok(current) => current,
                    Err(e) => return Failure::Fail(e),
                };
                return Failure::Fail(explain_condition_failure(op, index, current));
            }
            "TransactionConflict" | "ThrottlingError" | "ProvisionedThroughputExceeded" => {
                return Failure::Retry(Box::new(DynamoError::Unexpected {
                    operation: "TransactWriteItems",
                    detail: format!("operation {index} cancelled: {code}"),
                }));
            }
            "ValidationError" => {
                return Failure::Fail(StoreError::Invalid(format!(
                    "DynamoDB refused write operation {index}: {message}"
                )));
            }
            other => {
                return Failure::Fail(
                    DynamoError::Unexpected {
                        operation: "TransactWriteItems",
                        detail: format!("operation {index} cancelled: {other}: {message}"),
                    }
                    .into(),
                );
            }
        }
    }
    Failure::Fail(
        DynamoError::Unexpected {
            operation: "TransactWriteItems",
            detail: format!(
                "cancelled with {} reasons for {} operations and none failed",
                reasons.len(),
                ops.len()
            ),
        }
        .into(),
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use aws_sdk_dynamodb::types::AttributeValue;
    use dochiya_store::{Attrs, Condition, Guard, Key, Value};

    use super::*;
    use crate::convert::item_map;

    fn reason(code: &str) -> CancellationReason {
        CancellationReason::builder().code(code).build()
    }

    /// A put guarded (when `condition` is given) by a guard named after its sort key.
    fn put(sk: &'static str, condition: Option<Condition>) -> WriteOp {
        WriteOp::Put {
            item: Item {
                key: Key::new("p", sk),
                attrs: Attrs::new(),
            },
            guard: condition.map(|c| Guard::new(sk, c)),
        }
    }

    fn add(sk: &str, delta: i64) -> WriteOp {
        WriteOp::Update {
            key: Key::new("p", sk),
            set: Attrs::new(),
            add: BTreeMap::from([("balance".to_owned(), delta)]),
            remove: vec![],
            guard: None,
        }
    }

    fn stored(sk: &str, balance: Value) -> Item {
        Item {
            key: Key::new("p", sk),
            attrs: Attrs::from([("balance".to_owned(), balance)]),
        }
    }

    #[test]
    fn the_failed_position_is_reported_as_that_operations_guard_with_its_item() {
        let ops = [
            put("a", None),
            put("b", Some(Condition::NotExists)),
            put("c", Some(Condition::NotExists)),
        ];
        let existing = stored("b", Value::N(7));
        let reasons = [
            reason("None"),
            CancellationReason::builder()
                .code("ConditionalCheckFailed")
                .message("The conditional request failed")
                .set_item(Some(item_map(&existing.key, &existing.attrs)))
                .build(),
            reason("ConditionalCheckFailed"),
        ];
        match cancellation("t", &ops, &reasons) {
            Failure::Fail(StoreError::ConditionFailed { guard, current }) => {
                assert_eq!((guard, current), ("b", Some(existing)));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_condition_on_a_missing_item_reports_none() {
        let ops = [WriteOp::Check {
            key: Key::new("p", "a"),
            guard: Guard::new("member", Condition::Exists),
        }];
        match cancellation("t", &ops, &[reason("ConditionalCheckFailed")]) {
            Failure::Fail(StoreError::ConditionFailed { guard, current }) => {
                assert_eq!((guard, current), ("member", None))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_failed_overflow_guard_is_invalid_not_a_conflict() {
        let ops = [put("a", None), add("b", 1)];
        let full = stored("b", Value::N(i64::MAX));
        let reasons = [
            reason("None"),
            CancellationReason::builder()
                .code("ConditionalCheckFailed")
                .set_item(Some(item_map(&full.key, &full.attrs)))
                .build(),
        ];
        match cancellation("t", &ops, &reasons) {
            Failure::Fail(StoreError::Overflow { attribute }) => assert_eq!(attribute, "balance"),
            other => panic!("{other:?}"),
        }
        let text = stored("b", Value::S("x".into()));
        let reasons = [
            reason("None"),
            CancellationReason::builder()
                .code("ConditionalCheckFailed")
                .set_item(Some(item_map(&text.key, &text.attrs)))
                .build(),
        ];
        match cancellation("t", &ops, &reasons) {
            Failure::Fail(StoreError::Invalid(msg)) => {
                assert_eq!(msg, "cannot add to non-numeric attribute balance of p / b");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn conflicts_and_throttling_are_retried() {
        let ops = [put("a", None), put("b", None)];
        for code in [
            "TransactionConflict",
            "ThrottlingError",
            "ProvisionedThroughputExceeded",
        ] {
            assert!(
                matches!(
                    cancellation("t", &ops, &[reason("None"), reason(code)]),
                    Failure::Retry(_)
                ),
                "{code}"
            );
        }
    }

    #[test]
    fn validation_errors_are_invalid_with_the_index() {
        let ops = [put("a", None)];
        let r = CancellationReason::builder()
            .code("ValidationError")
            .message("Item size has exceeded")
            .build();
        match cancellation("t", &ops, &[r]) {
            Failure::Fail(StoreError::Invalid(msg)) => {
                assert_eq!(msg, "DynamoDB refused write operation 0: Item size has exceeded");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_reasons_and_bad_items_are_backend_errors() {
        let ops = [put("a", Some(Condition::Exists))];
        match cancellation("t", &ops, &[reason("ItemCollectionSizeLimitExceeded")]) {
            Failure::Fail(StoreError::Backend(e)) => assert_eq!(
                e.to_string(),
                "unexpected answer from DynamoDB TransactWriteItems: operation 0 cancelled: ItemCollectionSizeLimitExceeded: "
            ),
            other => panic!("{other:?}"),
        }
        match cancellation("t", &ops, &[reason("None")]) {
            Failure::Fail(StoreError::Backend(e)) => assert!(e.to_string().contains("none failed"), "{e}"),
            other => panic!("{other:?}"),
        }
        let bad = CancellationReason::builder()
            .code("ConditionalCheckFailed")
            .item("PK", AttributeValue::S("p".into()))
            .item("SK", AttributeValue::S("a".into()))
            .item("amount", AttributeValue::N("1.5".into()))
            .build();
        match cancellation("t", &ops, &[bad]) {
            Failure::Fail(StoreError::Backend(e)) => {
                assert_eq!(
                    e.to_string(),
                    "a stored item in table \"t\" is not in the store's format"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
