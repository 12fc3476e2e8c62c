#!/usr/bin/env bash
# DynamoDB round trips per tool: starts moto (pinned, in a venv under .build/,
# on a free loopback port) and runs shared/app/examples/roundtrips.rs against it in
# parts, each on a fresh moto server: the tool tables (every tool once through the
# server, Store calls and SDK calls counted, the docs/design.md §10 budget verdict per
# row), the 100-entry batch with its undo, spending_report and budget_report after 10
# and after 200 entries, and the scheduled run.
# Usage: bench/roundtrips.sh [main] [batch] [reports] [budget] [scheduled]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="$PWD/.build"
mkdir -p "$BUILD"

MOTO_VERSION="5.2.5"
VENV="$BUILD/moto-venv"
if ! "$VENV/bin/python" -c "import moto, sys; sys.exit(moto.__version__ != '$MOTO_VERSION')" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "moto[server]==$MOTO_VERSION"
fi

# The parts to run (default: all five), checked before anything is built or started.
PARTS=("$@")
[ "${#PARTS[@]}" -gt 0 ] || PARTS=(main batch reports budget scheduled)
for one in "${PARTS[@]}"; do
  case "$one" in
    main | batch | reports | budget | scheduled) ;;
    *) echo "unknown part $one: main, batch, reports, budget or scheduled" >&2; exit 2 ;;
  esac
done

# Build first, so moto is not left waiting through a compile.
# The same flags as the test stages, so dependencies are not rebuilt with other features.
cargo build -q --workspace --all-features --locked --examples

# One fresh moto server per part: moto keeps a copy of the table for every item each
# TransactWriteItems writes (see the example's `main`), so one server for the whole run
# grows past the machine's memory.
MOTO_PID=""
LOG="$(mktemp)"
stop_moto() {
  # SIGKILL: a moto grown to gigabytes can take minutes over a polite exit.
  if [ -n "$MOTO_PID" ]; then
    kill -9 "$MOTO_PID" 2>/dev/null || true
    wait "$MOTO_PID" 2>/dev/null || true
  fi
  MOTO_PID=""
}
trap 'stop_moto; rm -f "$LOG"' EXIT
part() { # [NAME]: the example's part NAME (none: the tool tables) on a moto server of its own
  stop_moto
  PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
  "$VENV/bin/python" -m moto.server -H 127.0.0.1 -p "$PORT" >"$LOG" 2>&1 &
  MOTO_PID=$!
  for _ in $(seq 1 200); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/moto-api/" && break
    kill -0 "$MOTO_PID" 2>/dev/null || { cat "$LOG" >&2; exit 1; }
    sleep 0.1
  done
  echo "moto $MOTO_VERSION on 127.0.0.1:$PORT${1:+ (part: $1)}"
  env -u AWS_PROFILE -u AWS_SESSION_TOKEN \
    AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$PORT" AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
    AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true \
    "${CARGO_TARGET_DIR:-$PWD/target}/debug/examples/roundtrips" "$@"
}

for one in "${PARTS[@]}"; do
  case "$one" in
    main) part ;;
    *) echo; part "$one" ;;
  esac
done
