# The official MCP Inspector (web UI; pinned in tests/inspector/package-lock.json) signing
# in to the built-in authorization server in headless Chromium, clicked through by
# tests/inspector/run.mjs: both protocol eras, dynamic registration and a Client ID
# Metadata Document, deny, allow with "remember", a refresh two hours on and, a month on,
# a new sign-in that a remembered consent answers straight back to the client. Each run
# has a server of its own on local sign-in, its clock moved by libfaketime (the monotonic
# clock stays real), and an Inspector of its own with its secrets in memory and its home
# in a temporary directory. The Inspector accepts only an https document URL, so the
# stage makes a throwaway certificate authority for 127.0.0.1 and the server trusts it
# through SSL_CERT_FILE. Screenshots land in $DOCHIYA_BUILD_DIR/inspector/.
source tests/clients/install.sh
source tests/clients/server.sh

inspector_missing=()
command -v chromium >/dev/null || inspector_missing+=(chromium)
[[ -f /usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1 ]] || inspector_missing+=(faketime)
command -v openssl >/dev/null || inspector_missing+=(openssl)
if ((${#inspector_missing[@]})); then
  echo "inspector: installing ${inspector_missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${inspector_missing[@]}" >/dev/null
fi
inspector_faketime=/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1

build_workspace

inspector_node_bin=$(interop_node_bin)
inspector_node_dir=$(interop_node_modules inspector tests/inspector)
cp tests/inspector/run.mjs "$inspector_node_dir/"
inspector_shots="$DOCHIYA_BUILD_DIR/inspector"
rm -rf "$inspector_shots"
mkdir -p "$inspector_shots"

# A certificate authority and a 127.0.0.1 certificate for the client document, valid long
# enough for the runs' clock to move a month on.
inspector_tls=$(mktemp -d "${TMPDIR:-/tmp}/dochiya-inspector-tls.XXXXXX")
on_exit "rm -rf '$inspector_tls'"
(
  cd "$inspector_tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 60 \
    -subj "/CN=dochiya inspector stage CA" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr \
    -subj "/CN=127.0.0.1" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >leaf.ext
  openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 60 \
    -extfile leaf.ext 2>/dev/null
)

inspector_failed=()

# inspector_run ERA REGISTRATION: a server, an Inspector, and run.mjs between them.
inspector_run() {
  local era=$1 registration=$2 label="$1-$2" clock home client_port sandbox_port cimd_port log pid token i
  clock=$(mktemp "${TMPDIR:-/tmp}/dochiya-inspector-clock.XXXXXX")
  on_exit "rm -f '$clock'"
  echo "+0s" >"$clock"
  interop_start_server "inspector-$label" DOCHIYA_AUTH=builtin SSL_CERT_FILE="$inspector_tls/ca.pem" \
    LD_PRELOAD="$inspector_faketime" FAKETIME_TIMESTAMP_FILE="$clock" FAKETIME_NO_CACHE=1 \
    FAKETIME_DONT_FAKE_MONOTONIC=1
  home=$(mktemp -d "${TMPDIR:-/tmp}/dochiya-inspector-home.XXXXXX")
  on_exit "rm -rf '$home'"
  client_port=$(free_port)
  sandbox_port=$(free_port)
  cimd_port=$(free_port)
  if [[ $registration == cimd ]]; then
    mkdir -p "$home/.mcp-inspector/storage"
    printf '{"cimd":{"enabled":true,"clientMetadataUrl":"https://127.0.0.1:%s/client.json"}}\n' "$cimd_port" \
      >"$home/.mcp-inspector/storage/client.json"
  fi
  log="$DOCHIYA_BUILD_DIR/inspector-$label-web.log"
  # exec: the background pid is node itself, so the clean-up stops the Inspector.
  (cd "$inspector_node_dir" && HOME="$home" CLIENT_PORT="$client_port" MCP_SANDBOX_PORT="$sandbox_port" \
    MCP_AUTO_OPEN_ENABLED=false MCP_INSPECTOR_SECRET_STORE=memory \
    exec "$inspector_node_bin/node" node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js \
    --web --transport http --server-url "$INTEROP_URL" --protocol-era "$era" >"$log" 2>&1) &
  pid=$!
  on_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
  token=""
  for i in $(seq 1 150); do
    token=$(sed -n 's/.*Auth token: \([0-9a-f]*\).*/\1/p' "$log" | head -n 1)
    [[ -n $token ]] && break
    sleep 0.2
  done
  if [[ -z $token ]]; then
    echo "the MCP Inspector ($label) did not start; its log ($log):" >&2
    tail -n 20 "$log" >&2
    inspector_failed+=("$label")
    return 0
  fi
  if ! (cd "$inspector_node_dir" && INSPECTOR_URL="http://127.0.0.1:$client_port/?MCP_INSPECTOR_API_TOKEN=$token" \
    SIGNIN_CODE_FILE="$INTEROP_DATA_DIR/signin-code" CLOCK_FILE="$clock" ERA="$era" REGISTRATION="$registration" \
    SHOTS="$inspector_shots" LABEL="$label" CIMD_PORT="$cimd_port" TLS_CERT="$inspector_tls/leaf.pem" \
    TLS_KEY="$inspector_tls/leaf.key" "$inspector_node_bin/node" run.mjs); then
    inspector_failed+=("$label")
    echo "server log: $DOCHIYA_BUILD_DIR/inspector-$label-server.log; Inspector log: $log" >&2
  fi
}

for inspector_era in legacy modern; do
  for inspector_registration in dcr cimd; do
    inspector_run "$inspector_era" "$inspector_registration"
  done
done

echo "MCP Inspector runs: $((4 - ${#inspector_failed[@]})) passed, ${#inspector_failed[@]} failed"
if ((${#inspector_failed[@]})); then
  echo "MCP Inspector runs failed: ${inspector_failed[*]}" >&2
  exit 1
fi
