# Formatting and the repository's lints gate everything else (seconds, nothing built).
# Clippy runs after the tests (stage 35): its check-mode pass over every dependency
# cannot share the test build, so it costs the same anywhere, and a failing test
# shows minutes sooner.
cargo fmt --all -- --check
# No non-test function in shared/*/src longer than 120 lines (tests/lint/fn_length.py).
python3 tests/lint/fn_length.py
# Every document cited in docs, code and scripts is a file of this repository.
python3 tests/lint/cited_docs.py
# No import circle among the modules of a crate (tests/lint/import_circles.py).
python3 tests/lint/import_circles.py
# The README's run command builds the same feature set as the tests (decision 055).
python3 tests/lint/feature_set.py
