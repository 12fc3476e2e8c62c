# Unit tests, the store contract suite on every store, and the end-to-end tests
# in tests/ (which start the built binary themselves: build it first, in the same
# profile and with the same features, so tests/src finds target/debug/dochiya-mcp
# beside its own deps/ dir and nothing is compiled twice).
build_workspace
cargo test --workspace --all-features --locked
