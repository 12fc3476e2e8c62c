#!/usr/bin/env bash
# Cold start and size of the release binary (x86_64):
# - local mode: process start -> first answered tools/call on 127.0.0.1;
# - Lambda runtime emulation: bench/coldstart.py's runtime-API stub hands the
#   process one API Gateway v2 event; process start -> init done (first /next)
#   and -> response posted.
# Usage: bench/coldstart.sh [RUNS]   (default 20; BENCH_NO_BUILD=1 reuses the build,
#   BENCH_BIN=… measures another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-20}"
echo "building the release binary (LTO; minutes on a small machine; BENCH_NO_BUILD=1 skips)"
[ -n "${BENCH_NO_BUILD:-}" ] || cargo build --release -q -p dochiya-mcp
BIN="${BENCH_BIN:-$PWD/target/release/dochiya-mcp}"
echo "binary (x86_64, release, stripped): $(stat -c %s "$BIN") bytes"
DATA="$(mktemp -d)"
trap 'rm -rf "$DATA"' EXIT
python3 bench/coldstart.py "$BIN" "$DATA" "$RUNS"
