#!/usr/bin/env bash
# CPU per request, side by side: dochiya against a reference server on the
# official Rust SDK (bench/rmcp-reference, rmcp, tools in memory), one run after
# the other on the same request bytes (bench/load.lua, 2026-07-28, bearer token).
#
# Method: wrk with 1 thread and 2 connections pinned to one core, the server under
# test pinned alone to the other (taskset); for each request kind an unmeasured
# warm-up, then a measured wrk run; CPU per request = the server's CPU time
# (utime + stime of /proc/PID/stat, all its threads) over the run / requests
# answered. Every response's status is checked (wrk counts non-2xx), and one request of
# each kind is checked whole (200, a result, no "isError":true) before the runs and
# after each round; BENCH_CHECK=body checks every body inside wrk instead, which
# makes the client the bottleneck on tools/list (docs/benchmarks.md). Each round
# measures every kind on dochiya then on the reference; ROUNDS rounds give the
# spread (median, min-max) and the ratio dochiya / reference per round.
#
# Usage: bench/cpu.sh [ROUNDS]   (default 5)
# Knobs (environment): BENCH_DURATION (s per measured run, default 5),
#   BENCH_WARMUP (s, default 1), BENCH_CONNECTIONS (2), BENCH_NO_BUILD=1 (reuse the
#   built binaries), BENCH_DATA_DIR (dochiya's data dir parent; default /dev/shm
#   when it exists, so record_transaction's commit has no disk in it: the
#   reference keeps everything in memory), BENCH_WRK_CORE (0), BENCH_SERVER_CORE (1),
#   BENCH_BIN (another dochiya-mcp binary to measure, e.g. a copy of an earlier build),
#   BENCH_RELEASE=1 (build and measure dochiya's release profile, the shipped binary),
#   BENCH_SERVER_ENV (extra NAME=VALUE words for dochiya's environment, e.g. to try a
#   runtime or allocator setting without a rebuild).
# Besides CPU per request, each measured run records wrk's p99 latency and, after it,
# both servers' peak RSS (VmHWM), so the tail and the memory come from the same run, and
# the context switches per request of all the server's threads (a thread hand-off shows
# there: decision 045; a thread that exits during a run takes its count with it).
# Both servers are built with Cargo's `bench` profile (thin LTO, symbols kept),
# the reference in its own target dir under target/; dochiya with BENCH_RELEASE=1 in
# the release profile, the one whose peak RSS issue 36 judges.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

ROUNDS="${1:-5}"
DURATION="${BENCH_DURATION:-5}"
WARMUP="${BENCH_WARMUP:-1}"
CONNECTIONS="${BENCH_CONNECTIONS:-2}"
WRK_CORE="${BENCH_WRK_CORE:-0}"
SERVER_CORE="${BENCH_SERVER_CORE:-1}"
REQUESTS=(tools_list list_accounts record_transaction)
CHECK="${BENCH_CHECK:-status}"
MAX=100000000

for tool in wrk taskset; do
  if ! command -v "$tool" >/dev/null; then
    echo "installing $tool (apt)"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    case "$tool" in
      wrk) $SUDO apt-get install -y -qq wrk >/dev/null ;;
      taskset) $SUDO apt-get install -y -qq util-linux >/dev/null ;;
    esac
  fi
done

REF_TARGET="$ROOT/target/rmcp-reference"
# BENCH_RELEASE=1 measures dochiya's shipped release build (fat LTO, stripped) instead of
# the bench profile's: its memory is the one to judge (docs/benchmarks.md, sixth pass). It
# has a target dir of its own, since the bench profile's artifacts share target/release.
REL_TARGET="$ROOT/target/cpu-release"
if [ -n "${BENCH_RELEASE:-}" ]; then
  DOCHIYA_BUILD=(--release --target-dir "$REL_TARGET")
  DEFAULT_BIN="$REL_TARGET/release/dochiya-mcp"
else
  DOCHIYA_BUILD=(--profile bench)
  # The bench profile's artifacts go to the release directory.
  DEFAULT_BIN="$ROOT/target/release/dochiya-mcp"
fi
if [ -z "${BENCH_NO_BUILD:-}" ]; then
  echo "building both servers (minutes on a small machine; BENCH_NO_BUILD=1 skips)"
  cargo build "${DOCHIYA_BUILD[@]}" --locked -q -p dochiya-mcp
  cargo build --profile bench --locked -q --manifest-path bench/rmcp-reference/Cargo.toml --target-dir "$REF_TARGET"
fi
BIN="${BENCH_BIN:-$DEFAULT_BIN}"
REF_BIN="$REF_TARGET/release/dochiya-rmcp-reference"

DATA_PARENT="${BENCH_DATA_DIR:-}"
if [ -z "$DATA_PARENT" ]; then
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then DATA_PARENT=/dev/shm; else DATA_PARENT="${TMPDIR:-/tmp}"; fi
fi
WORK="$(mktemp -d "$DATA_PARENT/dochiya-cpu.XXXXXX")"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# dochiya: local mode, embedded store in $WORK/data, dev token, warnings only.
PORT="$(free_port)"
run_bin() {
  env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev DOCHIYA_LOG=warn \
    DOCHIYA_PORT="$PORT" "$BIN" "$@"
}
TOKEN="$(run_bin token --port "$PORT" | tail -n 1)"
# exec: $! is the server process itself (its /proc/PID/stat is what is read).
# shellcheck disable=SC2086 # BENCH_SERVER_ENV is a list of NAME=VALUE words on purpose.
(exec taskset -c "$SERVER_CORE" env -i PATH="$PATH" HOME="$HOME" DOCHIYA_DATA_DIR="$WORK/data" DOCHIYA_AUTH=dev \
  DOCHIYA_LOG=warn DOCHIYA_PORT="$PORT" ${BENCH_SERVER_ENV:-} "$BIN" >"$WORK/dochiya.log" 2>&1) &
OURS_PID=$!
PIDS+=("$OURS_PID")
OURS_URL="http://127.0.0.1:$PORT/mcp"

REF_PORT="$(free_port)"
REF_TOKEN="$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
(exec taskset -c "$SERVER_CORE" env -i PATH="$PATH" REF_TOKEN="$REF_TOKEN" "$REF_BIN" --port "$REF_PORT" \
  >"$WORK/reference.log" 2>&1) &
REF_PID=$!
PIDS+=("$REF_PID")
REF_URL="http://127.0.0.1:$REF_PORT/mcp"

META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
# mcp_call URL TOKEN TOOL ARGS -> response body
mcp_call() {
  curl -s --max-time 10 "$1" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H "mcp-name: $3" -H "authorization: Bearer $2" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$3\",\"arguments\":$4,$META}}"
}
tools_list() {
  curl -s --max-time 10 "$1" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/list' -H "authorization: Bearer $2" \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}"
}
wait_up() { # URL TOKEN PID LOG
  for _ in $(seq 1 200); do
    tools_list "$1" "$2" 2>/dev/null | grep -q '"tools"' && return 0
    kill -0 "$3" 2>/dev/null || { cat "$4" >&2; exit 1; }
    sleep 0.05
  done
  echo "no answer from $1" >&2
  exit 1
}
wait_up "$OURS_URL" "$TOKEN" "$OURS_PID" "$WORK/dochiya.log"
wait_up "$REF_URL" "$REF_TOKEN" "$REF_PID" "$WORK/reference.log"

# The household the requests work on (the same on both servers).
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
      '{"from":"카카오뱅크","to":"식비","amount":"12000","memo":"점심","allowDuplicate":true,"idempotencyKey":"cpu-check"}')" ;;
  esac
  [[ "$body" == *'"result"'* && "$body" != *'"isError":true'* ]] || { echo "$body" >&2; return 1; }
}
size_of() { # URL TOKEN REQUEST -> response bytes
  case "$3" in
    tools_list) tools_list "$1" "$2" | wc -c ;;
    list_accounts) mcp_call "$1" "$2" list_accounts '{}' | wc -c ;;
    record_transaction) mcp_call "$1" "$2" record_transaction \
      '{"from":"카카오뱅크","to":"식비","amount":"12000","memo":"점심","allowDuplicate":true,"idempotencyKey":"cpu-size"}' | wc -c ;;
  esac
}

# Clock ticks of CPU (user + system, all threads, exited ones included) of PID.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ="$(getconf CLK_TCK)"

# Context switches (voluntary and involuntary) of every live thread of PID so far.
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {s += $2} END {print s + 0}'; }

# measure URL TOKEN PID REQUEST RUN_ID -> "requests cpu_us_per_request rps p99_us switches_per_request"
measure() {
  local hostport path line before after n secs cs_before cs_after
  hostport="${1#http://}"; hostport="${hostport%%/*}"
  path="/${1#http://*/}"
  BENCH_CHECK="$CHECK" BENCH_REQUEST="$4" BENCH_TOKEN="$2" BENCH_HOST="$hostport" BENCH_PATH="$path" BENCH_MAX="$MAX" BENCH_RUN="$5w" \
    taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s "$ROOT/bench/load.lua" "$1" >/dev/null
  before="$(ticks "$3")"
  cs_before="$(switches "$3")"
  line="$(BENCH_CHECK="$CHECK" BENCH_REQUEST="$4" BENCH_TOKEN="$2" BENCH_HOST="$hostport" BENCH_PATH="$path" BENCH_MAX="$MAX" BENCH_RUN="$5" \
    taskset -c "$WRK_CORE" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$ROOT/bench/load.lua" "$1" | grep '^RESULT')"
  after="$(ticks "$3")"
  cs_after="$(switches "$3")"
  n="$(echo "$line" | sed -E 's/.*requests=([0-9]+).*/\1/')"
  secs="$(echo "$line" | sed -E 's/.*seconds=([0-9.]+).*/\1/')"
  p99="$(echo "$line" | sed -E 's/.*p99_us=([0-9]+).*/\1/')"
  if echo "$line" | grep -q 'errors=0'; then :; else echo "wrk reported errors: $line" >&2; exit 1; fi
  awk -v n="$n" -v b="$before" -v a="$after" -v hz="$HZ" -v s="$secs" -v p="$p99" -v cb="$cs_before" -v ca="$cs_after" \
    'BEGIN { printf "%d %.1f %.0f %d %.2f\n", n, (a - b) * 1e6 / hz / n, n / s, p, (ca - cb) / n }'
}
# Peak resident memory of PID so far, KiB (VmHWM: the high-water mark since start).
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
# Resident memory of PID now, in MiB, split into anonymous and file-backed pages. The
# file-backed part is the binary's code and libc, mapped from the page cache; how much of
# it is resident depends on which code ran and on the kernel (fault-around).
split_rss() {
  awk '/^VmRSS/ {t = $2} /^RssAnon/ {a = $2} /^RssFile/ {f = $2}
    END {printf "%.1f (anonymous %.1f, file-backed %.1f)", t / 1024, a / 1024, f / 1024}' "/proc/$1/status"
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk: 1 thread, $CONNECTIONS connections, core $WRK_CORE; servers on core $SERVER_CORE; ${WARMUP} s warm-up + ${DURATION} s measured per kind; $ROUNDS rounds"
echo "dochiya: $BIN (work tree at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')), data dir on $DATA_PARENT"
echo "reference: $REF_BIN (rmcp $(sed -nE 's/^rmcp = \{ version = "=?([0-9.]+)".*/\1/p' bench/rmcp-reference/Cargo.toml))"

idle_rss="$(split_rss "$OURS_PID")"
setup "$OURS_URL" "$TOKEN"
setup "$REF_URL" "$REF_TOKEN"
for r in "${REQUESTS[@]}"; do
  works "$OURS_URL" "$TOKEN" "$r" || { echo "dochiya does not answer $r correctly" >&2; exit 1; }
  works "$REF_URL" "$REF_TOKEN" "$r" || { echo "the reference does not answer $r correctly" >&2; exit 1; }
  echo "response bytes, $r: dochiya $(size_of "$OURS_URL" "$TOKEN" "$r"), reference $(size_of "$REF_URL" "$REF_TOKEN" "$r")"
done

RESULTS="$WORK/results"
: >"$RESULTS"
run_id="$(date +%s)"
printf '\n%-6s %-20s %12s %12s %9s %10s %10s %9s %9s %9s %9s %7s %7s\n' round request "dochiya µs" "rmcp µs" ratio "dochiya/s" "rmcp/s" \
  "p99 µs" "rmcp p99" "RSS KiB" "rmcp RSS" "cs/req" "rmcp cs"
for round in $(seq 1 "$ROUNDS"); do
  for r in "${REQUESTS[@]}"; do
    read -r _ ours ours_rps ours_p99 ours_cs <<<"$(measure "$OURS_URL" "$TOKEN" "$OURS_PID" "$r" "$run_id-$round-o")"
    read -r _ ref ref_rps ref_p99 ref_cs <<<"$(measure "$REF_URL" "$REF_TOKEN" "$REF_PID" "$r" "$run_id-$round-r")"
    ours_rss="$(hwm "$OURS_PID")"
    ref_rss="$(hwm "$REF_PID")"
    works "$OURS_URL" "$TOKEN" "$r" || { echo "dochiya stopped answering $r correctly" >&2; exit 1; }
    works "$REF_URL" "$REF_TOKEN" "$r" || { echo "the reference stopped answering $r correctly" >&2; exit 1; }
    echo "$r $ours $ref $ours_p99 $ref_p99 $ours_rss $ref_rss $ours_cs $ref_cs" >>"$RESULTS"
    awk -v round="$round" -v r="$r" -v a="$ours" -v b="$ref" -v ar="$ours_rps" -v br="$ref_rps" \
      -v ap="$ours_p99" -v bp="$ref_p99" -v am="$ours_rss" -v bm="$ref_rss" -v ac="$ours_cs" -v bc="$ref_cs" \
      'BEGIN { printf "%-6s %-20s %12.1f %12.1f %8.2fx %10d %10d %9d %9d %9d %9d %7.2f %7.2f\n", round, r, a, b, a / b, ar, br, ap, bp, am, bm, ac, bc }'
  done
done

# The median, least and greatest of v[1..n] (an insertion sort in place; n is the number
# of rounds), shared by the summaries.
MEDIAN='
    function median(v, n,   i, j, t) {
      for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
      return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function lo(v, n) { median(v, n); return v[1] }
    function hi(v, n) { median(v, n); return v[n] }'
echo
echo "CPU per request (µs), median and min-max over $ROUNDS rounds; ratio = dochiya / reference (lower is better for dochiya)"
printf '%-20s %22s %22s %22s\n' request dochiya rmcp "ratio (per round)"
for r in "${REQUESTS[@]}"; do
  awk -v r="$r" "$MEDIAN"'
    $1 == r { n++; a[n] = $2; b[n] = $3; q[n] = $2 / $3 }
    END {
      printf "%-20s %8.1f (%5.1f-%5.1f) %8.1f (%5.1f-%5.1f) %8.2fx (%4.2f-%4.2f)\n", r, median(a, n), lo(a, n), hi(a, n),
        median(b, n), lo(b, n), hi(b, n), median(q, n), lo(q, n), hi(q, n)
    }' "$RESULTS"
done

echo
echo "p99 latency (µs, wrk's), median and min-max over $ROUNDS rounds; peak RSS (VmHWM, MiB) after each kind's first round (kinds run in order, so each includes those before it)"
printf '%-20s %22s %22s %12s %12s\n' request "dochiya p99" "rmcp p99" "dochiya RSS" "rmcp RSS"
for r in "${REQUESTS[@]}"; do
  awk -v r="$r" "$MEDIAN"'
    $1 == r { n++; a[n] = $4; b[n] = $5; if (n == 1) { am = $6; bm = $7 } }
    END {
      printf "%-20s %8d (%5d-%5d) %8d (%5d-%5d) %12.1f %12.1f\n", r, median(a, n), lo(a, n), hi(a, n),
        median(b, n), lo(b, n), hi(b, n), am / 1024, bm / 1024
    }' "$RESULTS"
done

echo
echo "context switches per request (all threads of the server), median and min-max over $ROUNDS rounds"
printf '%-20s %22s %22s\n' request dochiya rmcp
for r in "${REQUESTS[@]}"; do
  awk -v r="$r" "$MEDIAN"'
    $1 == r { n++; a[n] = $8; b[n] = $9 }
    END {
      printf "%-20s %8.2f (%4.2f-%4.2f) %8.2f (%4.2f-%4.2f)\n", r, median(a, n), lo(a, n), hi(a, n), median(b, n), lo(b, n), hi(b, n)
    }' "$RESULTS"
done

echo
echo "dochiya resident memory (MiB): idle after start $idle_rss, after the last run $(split_rss "$OURS_PID"), \
peak $(awk -v k="$(hwm "$OURS_PID")" 'BEGIN { printf "%.1f", k / 1024 }')"
