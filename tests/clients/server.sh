# Starts the built dochiya-mcp for a test stage (sourced by tests/stages/50-clients.sh
# and 60-conformance.sh, after tests/run.sh has defined on_exit and free_port):
# local mode, embedded store in a fresh temporary data dir, dev auth, a free
# loopback port. Sets INTEROP_URL, INTEROP_PORT, INTEROP_BIN and INTEROP_DATA_DIR; the server is
# stopped and its data dir removed when tests/run.sh exits.

INTEROP_BIN="$PWD/target/debug/dochiya-mcp"

# The server sees only its own settings: a stage sourced earlier may have
# exported DOCHIYA_* or AWS variables for other services (a DynamoDB table,
# say), and this server must run on the embedded store with dev auth. (An array,
# not a function, so that `env ... &` is the server process itself and its pid
# is the one to stop.)
INTEROP_ENV=(env -u DOCHIYA_TABLE -u DOCHIYA_RESOURCE_URL -u DOCHIYA_ALLOWED_ORIGINS -u DOCHIYA_ISSUER
  -u DOCHIYA_JWKS_URL -u DOCHIYA_AUTHORIZATION_SERVERS -u DOCHIYA_STRICT_VERSION_HEADER
  -u AWS_LAMBDA_RUNTIME_API -u AWS_EXECUTION_ENV DOCHIYA_AUTH=dev)

# interop_start_server NAME: starts a server, waits until it answers, and
# registers its clean-up. Extra environment (VAR=value ...) may follow NAME.
interop_start_server() {
  local name=$1 port log pid i code
  shift
  port=$(free_port)
  INTEROP_DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dochiya-$name.XXXXXX")
  log="$DOCHIYA_BUILD_DIR/$name-server.log"
  "${INTEROP_ENV[@]}" DOCHIYA_DATA_DIR="$INTEROP_DATA_DIR" DOCHIYA_PORT="$port" "$@" \
    "$INTEROP_BIN" --port "$port" >"$log" 2>&1 &
  pid=$!
  on_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf '$INTEROP_DATA_DIR'"
  INTEROP_PORT=$port
  INTEROP_URL="http://127.0.0.1:$port/mcp"
  for i in $(seq 1 150); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "dochiya-mcp ($name) exited during start-up; its log ($log):" >&2
      tail -n 40 "$log" >&2
      return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$INTEROP_URL" \
      -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":0,"method":"ping"}' || true)
    [[ "$code" == 200 ]] && break
    sleep 0.1
  done
  if [[ "$code" != 200 ]]; then
    echo "dochiya-mcp ($name) did not answer ping at $INTEROP_URL (last status $code); log: $log" >&2
    return 1
  fi
  echo "dochiya-mcp ($name) serving $INTEROP_URL (pid $pid, log $log)"
}

# interop_token SUB: a dev token for SUB with both scopes, minted with the
# same data dir (hence the same dev secret) and port (hence the same audience)
# as the running server.
interop_token() {
  local out
  out=$("${INTEROP_ENV[@]}" DOCHIYA_DATA_DIR="$INTEROP_DATA_DIR" "$INTEROP_BIN" token --port "$INTEROP_PORT" \
    --sub "$1" --scopes "ledger:read ledger:write") || return 1
  # The token is the last non-empty line the command prints.
  printf '%s\n' "$out" | awk 'NF { last = $0 } END { print last }'
}
