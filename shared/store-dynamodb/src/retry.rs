//! Bounded, jittered retries of DynamoDB calls, and which failures deserve one.
//!
//! The SDK's own retries are switched off for the store's client so that this
//! module is the one policy (and every attempt is visible to the call counter).
//! A failure is retried only when repeating the request cannot apply a change
//! twice: throttling and transaction conflicts always (DynamoDB applied nothing);
//! 5xx, timeouts and lost connections only for reads and for
//! `TransactWriteItems`, whose `ClientRequestToken` makes a replay a no-op.

use std::collections::hash_map::RandomState;
use std::future::Future;
use std::hash::BuildHasher;
use std::time::Duration;

use dochiya_store::StoreError;

/// How often and how long the store retries a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (≥ 1).
    pub max_attempts: u32,
    /// Ceiling of the first back-off; doubled per attempt.
    pub base_delay: Duration,
    /// Ceiling of any one back-off.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    /// Six attempts within about 1.6 s at worst: a Lambda request can afford it,
    /// a person waiting on a chat client should not wait longer.
    fn default() -> Self {
        Self {
            max_attempts: 6,
            base_delay: Duration::from_millis(25),
            max_delay: Duration::from_millis(800),
        }
    }
}

impl RetryPolicy {
    /// "Full jitter" back-off before attempt `attempt + 1` (attempt counts from 1):
    /// uniform in `[0, min(max_delay, base_delay · 2^(attempt-1))]`.
    pub fn delay(&self, attempt: u32, random: u64) -> Duration {
        let exp = attempt.saturating_sub(1).min(20);
        let ceiling = self.base_delay.saturating_mul(1 << exp).min(self.max_delay);
        let ceiling_us = u64::try_from(ceiling.as_micros()).unwrap_or(u64::MAX);
        Duration::from_micros(random % ceiling_us.saturating_add(1))
    }
}

/// A random number for jitter, from the standard library's per-process random
/// hash keys (no extra dependency; quality is ample for spreading retries).
pub fn jitter_seed() -> u64 {
    RandomState::new().hash_one(std::time::SystemTime::now())
}

/// How a failed attempt should be handled.
#[derive(Debug)]
pub enum Failure {
    /// Nothing was applied; try again.
    Retry(Box<dyn std::error::Error + Send + Sync>),
    /// The outcome is unknown (5xx, timeout, lost connection); retry only if the call is replay-safe.
    Ambiguous(Box<dyn std::error::Error + Send + Sync>),
    /// Final: report as is.
    Fail(StoreError),
}

/// Whether replaying a call after an unknown outcome is harmless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    /// Reads, and transactions carrying a client request token.
    Safe,
    /// Plain conditional writes (a replay could add twice or report its own write as a conflict).
    Unsafe,
}

/// Run `call` until it succeeds, fails for good, or the attempts run out
/// (then [`StoreError::Transient`] with the last cause).
pub async fn retrying<T, F, Fut>(policy: &RetryPolicy, replay: Replay, mut call: F) -> Result<T, StoreError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut attempt = 1;
    loop {
        let cause = match call(attempt).await {
            Ok(value) => return Ok(value),
            Err(Failure::Fail(e)) => return Err(e),
            Err(Failure::Ambiguous(cause)) if replay == Replay::Unsafe => {
                return Err(StoreError::Transient(cause));
            }
            Err(Failure::Retry(cause) | Failure::Ambiguous(cause)) => cause,
        };
        if attempt >= policy.max_attempts {
            tracing::warn!(attempts = attempt, "DynamoDB call still failing after retries");
            return Err(StoreError::Transient(cause));
        }
        tracing::debug!(attempt, "retrying DynamoDB call");
        tokio::time::sleep(policy.delay(attempt, jitter_seed())).await;
        attempt += 1;
    }
}

/// What a DynamoDB error code or HTTP status means for a retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// Throttled or conflicting: not applied, retry.
    Retry,
    /// Server-side failure: outcome unknown.
    Ambiguous,
    /// The request is wrong (ValidationException).
    Invalid,
    /// Table missing, permissions, or anything else that a retry will not fix.
    Fatal,
}

/// Classify a service error by its code and HTTP status.
pub fn classify(code: Option<&str>, status: Option<u16>) -> ErrorClass {
    match code {
        Some(
            "ThrottlingException"
            | "ProvisionedThroughputExceededException"
            | "RequestLimitExceeded"
            | "TransactionConflictException"
            | "TransactionInProgressException",
        ) => ErrorClass::Retry,
        Some("ValidationException" | "SerializationException") => ErrorClass::Invalid,
        Some(
            "InternalServerError" | "InternalFailure" | "ServiceUnavailable" | "ServiceUnavailableException",
        ) => ErrorClass::Ambiguous,
        _ => match status {
            Some(s) if s >= 500 => ErrorClass::Ambiguous,
            _ => ErrorClass::Fatal,
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    fn fast(max_attempts: u32) -> RetryPolicy {
        RetryPolicy {
            max_attempts,
            base_delay: Duration::ZERO,
            max_delay: Duration::ZERO,
        }
    }

    fn cause(msg: &str) -> Box<dyn std::error::Error + Send + Sync> {
        msg.to_owned().into()
    }

    #[test]
    fn delays_are_jittered_and_bounded() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay(1, 0), Duration::ZERO);
        assert_eq!(p.delay(1, 25_000), Duration::from_millis(25));
        assert_eq!(p.delay(1, 25_001), Duration::ZERO);
        assert_eq!(p.delay(3, 100_000), Duration::from_millis(100));
        assert_eq!(p.delay(30, u64::MAX), Duration::from_micros(u64::MAX % 800_001));
        for attempt in 1..=40 {
            for r in [1, 7, jitter_seed(), u64::MAX] {
                assert!(p.delay(attempt, r) <= p.max_delay, "attempt {attempt}");
            }
        }
        // The worst case of the default policy, summed over its back-offs.
        let worst: Duration = (1..p.max_attempts)
            .map(|a| p.delay(a, u64::MAX).max(p.delay(a, 0)))
            .sum();
        assert!(worst <= Duration::from_millis(1600), "{worst:?}");
    }

    #[tokio::test]
    async fn retries_until_success() {
        let calls = AtomicU32::new(0);
        let out = retrying(&fast(5), Replay::Unsafe, |attempt| {
            calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if attempt < 3 {
                    Err(Failure::Retry(cause("throttled")))
                } else {
                    Ok(attempt)
                }
            }
        })
        .await
        .unwrap();
        assert_eq!((out, calls.load(Ordering::SeqCst)), (3, 3));
    }

    #[tokio::test]
    async fn gives_up_as_transient_after_the_budget() {
        let calls = AtomicU32::new(0);
        let err = retrying(&fast(4), Replay::Safe, |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err::<(), _>(Failure::Retry(cause("TransactionConflict"))) }
        })
        .await
        .unwrap_err();
        assert_eq!(calls.load(Ordering::SeqCst), 4);
        match err {
            StoreError::Transient(c) => assert_eq!(c.to_string(), "TransactionConflict"),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn ambiguous_outcomes_are_retried_only_when_replay_is_safe() {
        let calls = AtomicU32::new(0);
        let err = retrying(&fast(4), Replay::Unsafe, |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err::<(), _>(Failure::Ambiguous(cause("500"))) }
        })
        .await
        .unwrap_err();
        assert!(matches!(err, StoreError::Transient(_)));
        assert_eq!(calls.load(Ordering::SeqCst), 1);

        calls.store(0, Ordering::SeqCst);
        let out = retrying(&fast(4), Replay::Safe, |attempt| {
            calls.fetch_add(1, Ordering::SeqCst);
            async move {
                if attempt == 1 {
                    Err(Failure::Ambiguous(cause("timeout")))
                } else {
                    Ok("done")
                }
            }
        })
        .await
        .unwrap();
        assert_eq!((out, calls.load(Ordering::SeqCst)), ("done", 2));
    }

    #[tokio::test]
    async fn final_failures_are_not_retried() {
        let calls = AtomicU32::new(0);
        let err = retrying(&fast(4), Replay::Safe, |_| {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err::<(), _>(Failure::Fail(StoreError::Invalid("bad".into()))) }
        })
        .await
        .unwrap_err();
        assert_eq!(err.to_string(), "invalid store request: bad");
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn classification_of_service_errors() {
        assert_eq!(
            classify(Some("ProvisionedThroughputExceededException"), Some(400)),
            ErrorClass::Retry
        );
        assert_eq!(
            classify(Some("ThrottlingException"), Some(400)),
            ErrorClass::Retry
        );
        assert_eq!(
            classify(Some("TransactionInProgressException"), Some(400)),
            ErrorClass::Retry
        );
        assert_eq!(
            classify(Some("ValidationException"), Some(400)),
            ErrorClass::Invalid
        );
        assert_eq!(
            classify(Some("InternalServerError"), Some(500)),
            ErrorClass::Ambiguous
        );
        assert_eq!(classify(None, Some(503)), ErrorClass::Ambiguous);
        assert_eq!(
            classify(Some("ResourceNotFoundException"), Some(400)),
            ErrorClass::Fatal
        );
        assert_eq!(
            classify(Some("AccessDeniedException"), Some(400)),
            ErrorClass::Fatal
        );
        assert_eq!(classify(None, None), ErrorClass::Fatal);
    }
}
