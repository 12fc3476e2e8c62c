//! The dochiya MCP function: under the Lambda runtime it serves API Gateway
//! events; anywhere else it runs the local server. All logic is in `dochiya-app`.

use std::process::ExitCode;

// Measured: glibc's malloc and free were about a fifth of a `record_transaction`'s CPU
// (docs/benchmarks.md, the write-path profile).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`: its index in the `mi_option_e` enum of the vendored
/// mimalloc 3 (the bindings name no constant for it). A unit test checks the index.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the OS at once, not after mimalloc 3's default 1 s: the
/// allocator's idle pages were 0.6 MiB of the peak RSS, at no CPU measured (decision 046).
#[allow(unsafe_code)]
fn return_freed_memory_at_once() {
    // SAFETY: `mi_option_set` stores an integer in mimalloc's option table, read at its
    // next purge; it touches no memory of ours and may be called at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) }
}

fn main() -> ExitCode {
    return_freed_memory_at_once();
    serve()
}

#[tokio::main]
async fn serve() -> ExitCode {
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
            eprintln!("dochiya-mcp: {}", dochiya_protocol::cause_chain(&e));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set in the child process of the test below.
    const CHILD: &str = "DOCHIYA_TEST_MIMALLOC_CHILD";

    #[allow(unsafe_code)]
    fn purge_delay() -> std::ffi::c_long {
        // SAFETY: reads an integer from mimalloc's option table.
        unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) }
    }

    /// The index is mimalloc's purge delay: the delay's own environment variable, set
    /// for a child run of this test, is what the index reads; then our setter sets it.
    #[test]
    fn the_option_index_is_the_purge_delay() {
        if std::env::var_os(CHILD).is_some() {
            assert_eq!(purge_delay(), 7);
            return_freed_memory_at_once();
            assert_eq!(purge_delay(), 0);
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "tests::the_option_index_is_the_purge_delay"])
            .env(CHILD, "1")
            .env("MIMALLOC_PURGE_DELAY", "7")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "child failed: {stdout}");
        assert!(stdout.contains("1 passed"), "child ran no test: {stdout}");
    }
}
