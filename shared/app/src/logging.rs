//! tracing set-up: JSON lines in Lambda (CloudWatch parses them), readable text locally.
//! Logs go to stderr, so stdout carries only what the binary prints for people (URL, token).

use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Install the global subscriber once; later calls (tests) are no-ops.
///
/// The filter is a list of levels per module (`info`, `warn,dochiya_protocol=debug`):
/// `Targets`, which needs no regex engine in the binary (`EnvFilter`'s span and field
/// directives are not supported).
pub fn init(filter: &str, json: bool) {
    let filter = filter.parse::<Targets>().unwrap_or_else(|e| {
        eprintln!("DOCHIYA_LOG {filter:?} is not a valid filter ({e}); using \"info\"");
        Targets::new().with_default(tracing::Level::INFO)
    });
    let registry = tracing_subscriber::registry().with(filter);
    let installed = if json {
        registry
            .with(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_current_span(true)
                    .with_span_list(false)
                    .with_writer(std::io::stderr),
            )
            .try_init()
    } else {
        registry
            .with(
                tracing_subscriber::fmt::layer()
                    .with_target(false)
                    .with_writer(std::io::stderr),
            )
            .try_init()
    };
    // Already installed (a test installed one first): keep that one.
    drop(installed);
}
