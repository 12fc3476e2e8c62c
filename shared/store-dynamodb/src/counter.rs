//! Counting the HTTP calls the SDK actually sends to DynamoDB, per operation.
//!
//! An SDK interceptor sees every attempt just before it goes on the wire, so
//! retries and batch follow-ups are counted too: the number a benchmark prints
//! is what DynamoDB bills and what a request waits for.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use aws_sdk_dynamodb::config::interceptors::BeforeTransmitInterceptorContextRef;
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};

/// Shared tally of DynamoDB calls by operation name (`GetItem`, `TransactWriteItems`, …).
#[derive(Debug, Clone, Default)]
pub struct CallCounter {
    calls: Arc<Mutex<BTreeMap<String, u64>>>,
}

impl CallCounter {
    /// A counter at zero.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, u64>> {
        // Counting never panics while holding the lock; a poisoned map is still valid.
        self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Record one call of `operation`.
    pub fn record(&self, operation: &str) {
        *self.lock().entry(operation.to_owned()).or_default() += 1;
    }

    /// Calls so far, by operation.
    pub fn by_operation(&self) -> BTreeMap<String, u64> {
        self.lock().clone()
    }

    /// Calls so far of one operation.
    pub fn count(&self, operation: &str) -> u64 {
        self.lock().get(operation).copied().unwrap_or(0)
    }

    /// All calls so far.
    pub fn total(&self) -> u64 {
        self.lock().values().sum()
    }

    /// The calls so far, resetting the counter to zero.
    pub fn take(&self) -> BTreeMap<String, u64> {
        std::mem::take(&mut *self.lock())
    }
}

/// The interceptor that feeds a [`CallCounter`].
#[derive(Debug)]
pub(crate) struct CountingInterceptor(pub(crate) CallCounter);

/// The operation name from DynamoDB's `X-Amz-Target: DynamoDB_20120810.<Operation>` header.
fn operation_of(target: Option<&str>) -> &str {
    target
        .and_then(|t| t.rsplit_once('.'))
        .map_or("unknown", |(_, op)| op)
}

impl Intercept for CountingInterceptor {
    fn name(&self) -> &'static str {
        "DochiyaCallCounter"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        self.0
            .record(operation_of(context.request().headers().get("x-amz-target")));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_come_from_the_target_header() {
        assert_eq!(
            operation_of(Some("DynamoDB_20120810.TransactWriteItems")),
            "TransactWriteItems"
        );
        assert_eq!(operation_of(Some("nonsense")), "unknown");
        assert_eq!(operation_of(None), "unknown");
    }

    #[test]
    fn counts_by_operation_and_resets_on_take() {
        let c = CallCounter::new();
        let shared = c.clone();
        shared.record("Query");
        shared.record("Query");
        c.record("GetItem");
        assert_eq!(
            (
                c.count("Query"),
                c.count("GetItem"),
                c.count("PutItem"),
                c.total()
            ),
            (2, 1, 0, 3)
        );
        let taken = c.take();
        assert_eq!(
            taken,
            BTreeMap::from([("GetItem".to_owned(), 1), ("Query".to_owned(), 2)])
        );
        assert_eq!(shared.total(), 0);
    }
}
