#!/usr/bin/env bash
# Load benchmark: the release dochiya-mcp in local mode on 127.0.0.1 (embedded
# store in a temp data dir, dev token), driven by wrk with three 2026-07-28
# requests (tools/list, tools/call list_accounts, tools/call record_transaction
# with a fresh idempotencyKey each), one bounded run per request. Prints
# requests/s, p50, p99 and the server's peak RSS (VmHWM).
#
# Usage: bench/load.sh [OTHER_URL OTHER_TOKEN]
#   With a second MCP URL (and its bearer token) the same workload runs against
#   it too and ratios are printed; OTHER_PID=<pid> adds its peak RSS.
# Knobs (environment): BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (16),
#   BENCH_THREADS (1), BENCH_MAX (requests per wrk thread, default 200000),
#   BENCH_BIN (another dochiya-mcp binary, e.g. a copy of an earlier build),
#   BENCH_WARMUP (s, default 0: an unmeasured wrk run of that length before each
#   measured one, on every server, e.g. for a JIT-compiled server to warm up).
# Installs wrk from the distribution (apt) if missing. Stays on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

DURATION="${BENCH_DURATION:-10}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
THREADS="${BENCH_THREADS:-1}"
MAX="${BENCH_MAX:-200000}"
WARMUP="${BENCH_WARMUP:-0}"
OTHER_URL="${1:-}"
OTHER_TOKEN="${2:-}"
REQUESTS=(tools_list list_accounts record_transaction)

if ! command -v wrk >/dev/null; then
  echo "installing wrk (apt)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get install -y -qq wrk >/dev/null
fi

echo "building the release binary (LTO; minutes on a small machine; BENCH_NO_BUILD=1 skips)"
[ -n "${BENCH_NO_BUILD:-}" ] || cargo build --release -q -p dochiya-mcp
BIN="${BENCH_BIN:-$ROOT/target/release/dochiya-mcp}"

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
# A clean environment: no AWS settings or DOCHIYA_* from the caller's shell.
run_bin() {
  env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev DOCHIYA_LOG=warn \
    DOCHIYA_PORT="$PORT" "$BIN" "$@"
}
TOKEN="$(run_bin token --port "$PORT" | tail -n 1)"
# exec: $! is the server process itself (for VmHWM and for stopping it).
(exec env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev DOCHIYA_LOG=warn \
  DOCHIYA_PORT="$PORT" "$BIN" >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
URL="http://127.0.0.1:$PORT/mcp"

META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
# mcp_call URL TOKEN TOOL ARGS -> response body
mcp_call() {
  curl -s --max-time 10 "$1" -H 'content-type: application/json' -H 'mcp-protocol-version: 2026-07-28' \
    -H 'mcp-method: tools/call' -H "mcp-name: $3" -H "authorization: Bearer $2" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$3\",\"arguments\":$4,$META}}"
}
tools_list() {
  curl -s --max-time 10 "$1" -H 'content-type: application/json' -H 'mcp-protocol-version: 2026-07-28' \
    -H 'mcp-method: tools/list' -H "authorization: Bearer $2" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}"
}

for _ in $(seq 1 200); do
  tools_list "$URL" "$TOKEN" 2>/dev/null | grep -q '"tools"' && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.05
done

# The household the requests work on (on every server under test).
setup() {
  mcp_call "$1" "$2" create_vault '{"name":"우리집"}' >/dev/null
  mcp_call "$1" "$2" create_account '{"name":"카카오뱅크","kind":"asset","openingBalance":"100000000"}' >/dev/null
  mcp_call "$1" "$2" create_account '{"name":"식비","kind":"expense"}' >/dev/null
}
# works URL TOKEN REQUEST: one request of that kind succeeds (no error result).
works() {
  local body
  case "$3" in
    tools_list) body="$(tools_list "$1" "$2")" ;;
    list_accounts) body="$(mcp_call "$1" "$2" list_accounts '{}')" ;;
    record_transaction) body="$(mcp_call "$1" "$2" record_transaction \
      '{"from":"카카오뱅크","to":"식비","amount":"12000","memo":"점심","allowDuplicate":true,"idempotencyKey":"load-check"}')" ;;
  esac
  [[ "$body" == *'"result"'* && "$body" != *'"isError":true'* ]]
}

# load URL TOKEN REQUEST RUN -> "rps p50_us p99_us requests errors"
load() {
  local hostport path line
  hostport="${1#http://}"; hostport="${hostport%%/*}"
  path="/${1#http://*/}"
  if [ "$WARMUP" != 0 ]; then
    BENCH_REQUEST="$3" BENCH_TOKEN="$2" BENCH_HOST="$hostport" BENCH_PATH="$path" BENCH_MAX="$MAX" BENCH_RUN="warm$4" \
      wrk -t"$THREADS" -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s "$ROOT/bench/load.lua" "$1" >/dev/null
  fi
  line="$(BENCH_REQUEST="$3" BENCH_TOKEN="$2" BENCH_HOST="$hostport" BENCH_PATH="$path" BENCH_MAX="$MAX" BENCH_RUN="$4" \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$ROOT/bench/load.lua" "$1" | grep '^RESULT')"
  # RESULT requests=N seconds=S rps=R p50_us=A p99_us=B errors=E
  echo "$line" | sed -E 's/.*requests=([0-9]+) seconds=[0-9.]+ rps=([0-9.]+) p50_us=([0-9]+) p99_us=([0-9]+) errors=([0-9]+).*/\2 \3 \4 \1 \5/'
}

hwm() { awk '/VmHWM/ {print $2 " " $3}' "/proc/$1/status" 2>/dev/null || echo "?"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "wrk: $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2), $THREADS thread(s), $CONNECTIONS connections, ${DURATION} s or $MAX requests per thread per request kind, ${WARMUP} s unmeasured warm-up before each"
echo "binary: $BIN ($(stat -c %s "$BIN") bytes)"

setup "$URL" "$TOKEN"
declare -A OURS THEIRS HWM_AFTER
run_id="$(date +%s)"
for r in "${REQUESTS[@]}"; do
  works "$URL" "$TOKEN" "$r" || { echo "dochiya does not answer $r correctly" >&2; exit 1; }
  OURS[$r]="$(load "$URL" "$TOKEN" "$r" "$run_id")"
  # The peak so far after each kind (runs go in order, so a kind's own growth shows).
  HWM_AFTER[$r]="$(hwm "$SERVER_PID")"
done
OUR_HWM="$(hwm "$SERVER_PID")"

printf '\n%-20s %10s %10s %10s %10s %7s\n' "dochiya ($URL)" "req/s" "p50 µs" "p99 µs" "requests" "errors"
for r in "${REQUESTS[@]}"; do
  read -r rps p50 p99 n err <<<"${OURS[$r]}"
  printf '%-20s %10s %10s %10s %10s %7s\n' "$r" "$rps" "$p50" "$p99" "$n" "$err"
done
echo "dochiya peak RSS (VmHWM): $OUR_HWM"
echo "dochiya peak RSS after each kind: $(for r in "${REQUESTS[@]}"; do printf '%s %s; ' "$r" "${HWM_AFTER[$r]}"; done)"

if [ -n "$OTHER_URL" ]; then
  setup "$OTHER_URL" "$OTHER_TOKEN" || true
  printf '\n%-20s %10s %10s %10s %10s %7s\n' "other ($OTHER_URL)" "req/s" "p50 µs" "p99 µs" "requests" "errors"
  for r in "${REQUESTS[@]}"; do
    if works "$OTHER_URL" "$OTHER_TOKEN" "$r"; then
      THEIRS[$r]="$(load "$OTHER_URL" "$OTHER_TOKEN" "$r" "$run_id")"
      read -r rps p50 p99 n err <<<"${THEIRS[$r]}"
      printf '%-20s %10s %10s %10s %10s %7s\n' "$r" "$rps" "$p50" "$p99" "$n" "$err"
    else
      printf '%-20s (not served: no successful answer to one request)\n' "$r"
    fi
  done
  [ -n "${OTHER_PID:-}" ] && echo "other peak RSS (VmHWM): $(hwm "$OTHER_PID")"
  printf '\n%-20s %14s %14s %14s\n' "ratio dochiya/other" "req/s (x)" "p50 (other/us)" "p99 (other/us)"
  for r in "${REQUESTS[@]}"; do
    [ -n "${THEIRS[$r]:-}" ] || continue
    read -r a_rps a_p50 a_p99 _ _ <<<"${OURS[$r]}"
    read -r b_rps b_p50 b_p99 _ _ <<<"${THEIRS[$r]}"
    awk -v r="$r" -v ar="$a_rps" -v br="$b_rps" -v a5="$a_p50" -v b5="$b_p50" -v a9="$a_p99" -v b9="$b_p99" \
      'BEGIN { printf "%-20s %13.2fx %13.2fx %13.2fx\n", r, ar/br, b5/a5, b9/a9 }'
  done
  if [ -n "${OTHER_PID:-}" ]; then
    awk -v a="${OUR_HWM%% *}" -v b="$(hwm "$OTHER_PID" | cut -d' ' -f1)" \
      'BEGIN { if (a > 0 && b > 0) printf "peak RSS other/dochiya: %.2fx\n", b/a }'
  fi
fi
