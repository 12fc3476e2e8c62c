# Formatting and lints gate everything else.
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
# No non-test function in shared/*/src longer than 120 lines (tests/lint/fn_length.py).
python3 tests/lint/fn_length.py
# Every document cited in docs, code and scripts is a file of this repository.
python3 tests/lint/cited_docs.py
# No import circle among the modules of a crate (tests/lint/import_circles.py).
python3 tests/lint/import_circles.py
