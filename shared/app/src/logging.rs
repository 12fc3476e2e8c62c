//! tracing set-up: JSON lines in Lambda (CloudWatch parses them), readable text locally.
//! Logs go to stderr, so stdout carries only what the binary prints for people (URL, token).

use tracing_subscriber::EnvFilter;

/// Install the global subscriber once; later calls (tests) are no-ops.
pub fn init(filter: &str, json: bool) {
    let filter = EnvFilter::try_new(filter).unwrap_or_else(|e| {
        eprintln!("DOCHIYA_LOG {filter:?} is not a valid filter ({e}); using \"info\"");
        EnvFilter::new("info")
    });
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let installed = if json {
        builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init()
    } else {
        builder.with_target(false).try_init()
    };
    // Already installed (a test installed one first): keep that one.
    drop(installed);
}
