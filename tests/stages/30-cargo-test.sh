# Unit tests, the store contract suite on every store, and the end-to-end tests
# in tests/ (which start the built binary themselves: build it first, in the same
# profile and with the same features, so tests/tests/e2e.rs finds target/debug/dochiya-mcp
# beside its own deps/ dir and nothing is compiled twice).
build_workspace
cargo test --workspace --all-features --locked
# The model-facing budget (decision 034) once more, with its figures shown in the log:
# every tool's bytes and the total against 32 KB and 34 tools.
cargo test -p dochiya-tools --all-features --locked --lib model_facing_text_fits_the_budget -- --nocapture
