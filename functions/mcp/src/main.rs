//! The dochiya MCP function: under the Lambda runtime it serves API Gateway
//! events; anywhere else it runs the local server. All logic is in `dochiya-app`.

use std::process::ExitCode;

// Measured: glibc's malloc and free were about a fifth of a `record_transaction`'s CPU
// (docs/benchmarks.md, the write-path profile).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let command = match dochiya_app::cli::parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(usage) => {
            eprintln!("dochiya-mcp: {usage}\n{}", dochiya_app::cli::USAGE);
            return ExitCode::from(2);
        }
    };
    // The only place the process environment is read; everything below gets a lookup.
    match dochiya_app::run(command, |k| std::env::var(k).ok()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dochiya-mcp: {}", dochiya_app::error_chain(&e));
            ExitCode::FAILURE
        }
    }
}
