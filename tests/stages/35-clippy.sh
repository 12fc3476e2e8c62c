# Clippy over every target, warnings as errors (after the tests: stage 10 says why).
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
# The README's run command reuses the test build (decision 055): building the server
# the way `cargo run -p dochiya-mcp` does must compile nothing.
one_build=$(cargo build --locked -p dochiya-mcp -v 2>&1)
if grep -qE '^ *Compiling' <<<"$one_build"; then
  echo "the README's run command would compile again after the tests; what cargo says changed:" >&2
  grep -E '^ *(Dirty|Compiling)' <<<"$one_build" >&2
  exit 1
fi
echo "one build: cargo run -p dochiya-mcp compiles nothing after the tests"
