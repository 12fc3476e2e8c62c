# Unit tests, the store contract suite on every store, and the end-to-end tests
# in tests/ (which start the built binary themselves: build it first, in the same
# profile, so tests/src finds target/debug/dochiya-mcp beside its own deps/ dir).
cargo build -p dochiya-mcp --locked
cargo test --workspace --all-features --locked
