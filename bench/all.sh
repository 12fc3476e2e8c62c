#!/usr/bin/env bash
# Every figure issue 56 asks for, in one run, on the shipped (release) build:
#   1. CPU per request, p99 and peak RSS against rmcp (bench/cpu.sh, release, ROUNDS rounds);
#   2. cold start and binary size of that same binary (bench/coldstart.sh);
#   3. every read on a ten-year book against a one-month one, and delete_vault of the
#      ten-year book (the history example, release);
#   4. a household's month counted and priced on AWS (the history example's month mode);
#   5. DynamoDB round trips per tool on moto, warm and cold (bench/roundtrips.sh main;
#      its counts do not depend on the build).
# Run it on a quiet machine: the timings of 1 and 3 share the cores with nothing else.
# Usage: bench/all.sh [ROUNDS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-3}"
section() { printf '\n==== %s\n' "$1"; }

section "1. CPU, p99 and RSS against rmcp (release build, $ROUNDS rounds)"
BENCH_RELEASE=1 bench/cpu.sh "$ROUNDS"

section "2. cold start and binary size (the binary measured above)"
BENCH_NO_BUILD=1 BENCH_BIN="$PWD/target/cpu-release/release/dochiya-mcp" bench/coldstart.sh 10

section "3. a ten-year book against a one-month one"
cargo build -q --release --all-features --locked -p dochiya-app --example history
target/release/examples/history 120

section "4. a household's month, priced"
target/release/examples/history month

section "5. DynamoDB round trips per tool (moto)"
bench/roundtrips.sh main
