#!/usr/bin/env bash
# Where one request kind's CPU goes: dochiya-mcp (bench profile: symbols kept) in local
# mode, pinned alone to one core, driven by wrk on the other with bench/load.lua, and
# sampled by perf for the measured run. Prints the top symbols by self time and the
# self time summed by crate (the first path segment of each symbol).
#
# Usage: bench/profile.sh [REQUEST]   (tools_list | list_accounts | record_transaction;
#   default record_transaction)
# Knobs (environment): BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (2),
#   BENCH_DATA_DIR (data dir parent; default /dev/shm, so a write's commit waits on no
#   disk), BENCH_NO_BUILD=1, BENCH_BIN (another binary with symbols), BENCH_TOP (40).
# perf samples `cpu-clock` (a software clock: virtual machines often have no hardware
# counters) with DWARF call graphs; its files stay in a temp dir that is removed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

REQUEST="${1:-record_transaction}"
DURATION="${BENCH_DURATION:-10}"
CONNECTIONS="${BENCH_CONNECTIONS:-2}"
TOP="${BENCH_TOP:-40}"

for tool in wrk taskset perf; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt: wrk, util-linux, linux-perf)" >&2; exit 1; }
done
[ -n "${BENCH_NO_BUILD:-}" ] || cargo build --profile bench --locked -q -p dochiya-mcp
BIN="${BENCH_BIN:-$ROOT/target/release/dochiya-mcp}"

DATA_PARENT="${BENCH_DATA_DIR:-}"
if [ -z "$DATA_PARENT" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then DATA_PARENT=/dev/shm; else DATA_PARENT="${TMPDIR:-/tmp}"; fi
fi
WORK="$(mktemp -d "$DATA_PARENT/dochiya-profile.XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
run_env() { env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev DOCHIYA_LOG=warn DOCHIYA_PORT="$PORT" "$@"; }
TOKEN="$(run_env "$BIN" token --port "$PORT" | tail -n 1)"
(exec taskset -c 1 env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev \
  DOCHIYA_LOG=warn DOCHIYA_PORT="$PORT" "$BIN" >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
URL="http://127.0.0.1:$PORT/mcp"

META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
call() {
  curl -s --max-time 10 "$URL" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H "mcp-name: $1" -H "authorization: Bearer $TOKEN" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":$2,$META}}"
}
for _ in $(seq 1 200); do call list_vaults '{}' 2>/dev/null | grep -q '"result"' && break; sleep 0.05; done
call create_vault '{"name":"우리집"}' >/dev/null
call create_account '{"name":"카카오뱅크","kind":"asset","openingBalance":"100000000"}' >/dev/null
call create_account '{"name":"식비","kind":"expense"}' >/dev/null

wrk_run() { # SECONDS RUN_ID
  BENCH_REQUEST="$REQUEST" BENCH_TOKEN="$TOKEN" BENCH_HOST="127.0.0.1:$PORT" BENCH_PATH=/mcp BENCH_MAX=100000000 \
    BENCH_RUN="$2" taskset -c 0 wrk -t1 -c"$CONNECTIONS" -d"${1}s" --timeout 10s -s "$ROOT/bench/load.lua" "$URL"
}
wrk_run 2 "warm-$$" >/dev/null
echo "profiling $REQUEST for ${DURATION}s ($BIN, data on $DATA_PARENT, load average $(cut -d' ' -f1 /proc/loadavg))"
perf record -q -e cpu-clock -F 2000 --call-graph dwarf,16384 -p "$SERVER_PID" -o "$WORK/perf.data" \
  -- sleep "$DURATION" 2>/dev/null &
PERF_PID=$!
wrk_run "$DURATION" "run-$$" | grep -E '^RESULT|Requests/sec'
wait "$PERF_PID" || true

# Each report once into a file: a pipe cut short by `head` would fail the script (pipefail).
perf report -i "$WORK/perf.data" --no-children --sort sym --stdio -g none 2>/dev/null \
  | grep -E '^ +[0-9.]+%' >"$WORK/self.txt" || true
perf report -i "$WORK/perf.data" --children --sort sym --stdio -g none 2>/dev/null \
  | grep -E '^ +[0-9.]+%' >"$WORK/children.txt" || true
echo
echo "top $TOP symbols by self time:"
sed -n "1,${TOP}p" "$WORK/self.txt"
echo
echo "self time by crate (first path segment; [k] = kernel):"
python3 - "$WORK/self.txt" <<'PY'
import re, sys, collections
by = collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r" +([0-9.]+)% +\[(.)\] +(.*)", line)
    if not m:
        continue
    pct, where, sym = float(m.group(1)), m.group(2), m.group(3).lstrip("<&*")
    if where == "k":
        crate = "[kernel]"
    else:
        c = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", sym)
        crate = c.group(1) if c else "[libc/other]"
    by[crate] += pct
for crate, pct in by.most_common(25):
    print(f"{pct:6.1f}%  {crate}")
PY
echo
echo "inclusive time (children included) of the main stages:"
grep -E 'WriteTransaction::commit|group::Group::lead|commit_round|stage_write|Ledger::record_transaction|dochiya_protocol::.*handle|authenticate|read_round|Dispatcher.*poll_write' \
  "$WORK/children.txt" | sed -n '1,20p'
