//! The scheduled run that posts due recurring entries in vaults nobody opened
//! (decision 036): one run, as the `post-due` subcommand, as the Lambda function an
//! EventBridge Scheduler schedule invokes, and as the local server's timer. The work
//! itself is the ledger's (`Ledger::post_due_everywhere`): bounded by a cap on
//! vaults, idempotent under overlap (each occurrence is claimed in the write that
//! posts it), and as of the time it is given, never later than the clock.

use std::sync::Arc;
use std::time::Duration;

use dochiya_ledger::Ledger;
use dochiya_ledger::ledger::DueRun;
use jiff::Timestamp;
use serde_json::{Value, json};

/// The Lambda handler name (`Handler:` in the template, `_HANDLER` at run time)
/// that makes the binary the scheduled run instead of the MCP endpoint.
pub const HANDLER: &str = "post-due";
/// Vaults one run visits unless `DOCHIYA_POST_DUE_MAX_VAULTS` says otherwise:
/// about 25 s of posting at ~25 ms a vault, well inside the function's timeout.
pub const DEFAULT_MAX_VAULTS: usize = 1_000;
/// How often the local server posts unless `DOCHIYA_POST_DUE_EVERY_SECS` says otherwise.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(15 * 60);
/// Longest scheduler payload read: it is a handful of short fields.
const MAX_EVENT_BYTES: usize = 4_096;

/// Why a run did not happen.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The invocation's payload is not what the schedule sends.
    #[error("{0}")]
    Event(String),
    /// The ledger failed (the store, or a bug); what was posted stays posted.
    #[error("posting due recurring entries")]
    Ledger(#[from] dochiya_ledger::api::LedgerError),
}

/// The time a scheduler invocation is for: `scheduledTime` (RFC 3339), which the
/// schedule's input fills from `<aws.scheduler.scheduled-time>`.
pub fn scheduled_time(event: &Value) -> Result<Timestamp, RunError> {
    let size = serde_json::to_string(event).map_or(usize::MAX, |s| s.len());
    if size > MAX_EVENT_BYTES {
        return Err(RunError::Event(format!(
            "the event is {size} bytes; send at most {MAX_EVENT_BYTES}: {{\"scheduledTime\": \"2026-03-15T00:00:00Z\"}}"
        )));
    }
    match event.get("scheduledTime") {
        Some(Value::String(t)) => t.parse::<Timestamp>().map_err(|_| {
            RunError::Event(format!(
                "scheduledTime {t:?} is not an RFC 3339 time; send e.g. \"2026-03-15T00:00:00Z\""
            ))
        }),
        _ => Err(RunError::Event(
            "the event has no scheduledTime; send {\"scheduledTime\": \"<aws.scheduler.scheduled-time>\"} as the schedule's input".into(),
        )),
    }
}

/// A run's summary, as the function answers and the subcommand prints it.
pub fn summary(at: Timestamp, run: &DueRun) -> Value {
    json!({
        "asOf": at.to_string(),
        "posted": run.posted,
        "replayed": run.replayed,
        "vaults": run.vaults,
        "more": run.more,
        "failed": run.failed,
        "deferred": run.deferred,
        "stuck": run.stuck,
    })
}

/// One run as of `at` (the clock's now when absent), at most `max_vaults` vaults. A
/// vault that fails is logged with its id and counted, and the run goes on: the run
/// fails only when it cannot read the due index (decision 048).
pub async fn run_once(ledger: &Ledger, at: Option<Timestamp>, max_vaults: usize) -> Result<Value, RunError> {
    let now = ledger.now();
    let at = at.map_or(now, |t| t.min(now));
    let run = ledger.post_due_everywhere(at, max_vaults).await?;
    for f in &run.failures {
        tracing::warn!(
            vault = %f.vault,
            kind = ?f.kind,
            error = %f.error,
            "recurring: a vault's posting failed; it is backed off and the run goes on"
        );
    }
    if run.failed > run.failures.len() {
        tracing::warn!(
            more = run.failed - run.failures.len(),
            "recurring: more vaults failed than are logged one by one"
        );
    }
    tracing::info!(
        posted = run.posted,
        replayed = run.replayed,
        vaults = run.vaults,
        more = run.more,
        failed = run.failed,
        deferred = run.deferred,
        stuck = run.stuck,
        "recurring: scheduled run"
    );
    Ok(summary(at, &run))
}

/// One scheduler invocation: its payload's time, then the run.
pub async fn invoke(ledger: &Ledger, event: &Value, max_vaults: usize) -> Result<Value, RunError> {
    let at = scheduled_time(event)?;
    run_once(ledger, Some(at), max_vaults).await
}

/// Serve scheduler invocations until the Lambda runtime stops the process.
pub async fn serve_lambda(ledger: Arc<Ledger>, max_vaults: usize) -> Result<(), lambda_http::Error> {
    use lambda_http::{LambdaEvent, service_fn};
    lambda_http::lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| {
        let ledger = Arc::clone(&ledger);
        async move {
            invoke(&ledger, &event.payload, max_vaults).await.map_err(|e| {
                tracing::warn!(error = %dochiya_protocol::cause_chain(&e), "recurring: scheduled run failed");
                lambda_http::Error::from(dochiya_protocol::cause_chain(&e))
            })
        }
    }))
    .await
}

/// The local server's timer: a run now, then one every `every`, for ever (the task
/// ends with the process). A failed run is logged and the next one tries again.
pub async fn post_periodically(ledger: Arc<Ledger>, every: Duration, max_vaults: usize) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(e) = run_once(&ledger, None, max_vaults).await {
            tracing::warn!(error = %dochiya_protocol::cause_chain(&e), "recurring: scheduled run failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_names_its_time() {
        let at = scheduled_time(&json!({"scheduledTime": "2026-03-15T00:00:00Z", "attempt": "1"}));
        assert_eq!(at.map(|t| t.as_second()).ok(), Some(1_773_532_800));
        let missing = scheduled_time(&json!({"time": "2026-03-15T00:00:00Z"}));
        assert_eq!(
            missing.map_err(|e| e.to_string()).err().as_deref(),
            Some(
                "the event has no scheduledTime; send {\"scheduledTime\": \"<aws.scheduler.scheduled-time>\"} as the schedule's input"
            )
        );
        let bad = scheduled_time(&json!({"scheduledTime": "<aws.scheduler.scheduled-time>"}));
        assert_eq!(
            bad.map_err(|e| e.to_string()).err().as_deref(),
            Some(
                "scheduledTime \"<aws.scheduler.scheduled-time>\" is not an RFC 3339 time; send e.g. \"2026-03-15T00:00:00Z\""
            )
        );
        let big = scheduled_time(&json!({"scheduledTime": "2026-03-15T00:00:00Z", "pad": "x".repeat(5_000)}));
        assert_eq!(
            big.map_err(|e| e.to_string()).err().as_deref(),
            Some("the event is 5049 bytes; send at most 4096: {\"scheduledTime\": \"2026-03-15T00:00:00Z\"}")
        );
    }
}
