# Unit tests, the store contract suite on every store, and the end-to-end tests
# in tests/ (which start the built binary themselves).
cargo test --workspace --all-features --locked
