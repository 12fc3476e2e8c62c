# The built-in authorization server in a real browser: headless Chromium
# (Debian's chromium, driven by playwright-core), the official TypeScript MCP client's
# OAuth support, and oidc-provider standing in for the stack's Cognito user pool with a
# test user. A local run (no upstream) signs in on dochiya's own page. Each connection
# denies once, allows with "remember", refreshes, signs in again (the remembered consent
# answers straight back to the client) and revokes. Two connections per store: one registering by Client ID Metadata Document
# (a document served on loopback, English pages), one by dynamic registration (Korean
# pages); once on the embedded store, once on DynamoDB with the signing key in KMS (both
# moto, started by stage 20), then the privacy page the pages link (with the
# operator's contact, or the local server's sentence that none is set). Screenshots of
# the sign-in, consent and privacy pages land in
# $DOCHIYA_BUILD_DIR/browser/. Pins: tests/browser/package-lock.json.
source tests/clients/install.sh
source tests/clients/server.sh

if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "CJK"; then
  echo "authserver: installing chromium, chromium-driver, fonts-noto-cjk"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-noto-cjk >/dev/null
fi

build_workspace

browser_node_bin=$(interop_node_bin)
browser_node_dir=$(interop_node_modules browser tests/browser)
cp tests/browser/*.mjs "$browser_node_dir/"
browser_shots="$DOCHIYA_BUILD_DIR/browser"
rm -rf "$browser_shots"
mkdir -p "$browser_shots"
browser_failed=()
# The privacy page's contact on the servers with an upstream provider (the local one has
# none, and its page says so).
browser_contact="privacy@dochiya.test"

# browser_store_run LABEL VAR=value...: a server in builtin mode signing in at a fresh
# stand-in provider, then the CIMD and the DCR connection against it.
browser_store_run() {
  local label=$1 op_port op_pid op_log
  shift
  op_port=$(free_port)
  interop_start_server "authserver-$label" DOCHIYA_AUTH=builtin \
    DOCHIYA_OIDC_ISSUER="http://127.0.0.1:$op_port" DOCHIYA_OIDC_CLIENT_ID=dochiya \
    DOCHIYA_SUPPORT_CONTACT="$browser_contact" "$@"
  op_log="$DOCHIYA_BUILD_DIR/authserver-$label-op.log"
  # exec: the background pid is node itself, so the clean-up stops the provider.
  (cd "$browser_node_dir" && OP_PORT=$op_port CALLBACK="http://127.0.0.1:$INTEROP_PORT/oauth/callback" \
    exec "$browser_node_bin/node" stand_in_op.mjs >"$op_log" 2>&1) &
  op_pid=$!
  on_exit "kill $op_pid 2>/dev/null; wait $op_pid 2>/dev/null"
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$op_port/.well-known/openid-configuration" >/dev/null && break
    sleep 0.1
  done
  local registration lang
  for registration in cimd dcr; do
    lang=en
    [[ $registration == dcr ]] && lang=ko
    if ! (cd "$browser_node_dir" && DOCHIYA_MCP_URL="$INTEROP_URL" SHOTS="$browser_shots" \
      SUPPORT_CONTACT="$browser_contact" LABEL="$label-$registration" \
      "$browser_node_bin/node" flow.mjs "$registration" "$lang"); then
      browser_failed+=("$label-$registration")
      echo "server log: $DOCHIYA_BUILD_DIR/authserver-$label-server.log; provider log: $op_log" >&2
    fi
  done
}

browser_store_run embedded

# No upstream at all (a local run): dochiya's own sign-in page, by DCR.
interop_start_server authserver-local DOCHIYA_AUTH=builtin
# Local sign-in asks for the code the server wrote to its data directory (0600).
if ! (cd "$browser_node_dir" && DOCHIYA_MCP_URL="$INTEROP_URL" SHOTS="$browser_shots" \
  SIGNIN_CODE_FILE="$INTEROP_DATA_DIR/signin-code" \
  LABEL="local-dcr" "$browser_node_bin/node" flow.mjs dcr ko); then
  browser_failed+=("local-dcr")
fi
# The official conformance suite's authorization-server scenario against the same server.
browser_conformance="$(interop_node_modules conformance tests/conformance)/node_modules/@modelcontextprotocol/conformance"
if "$browser_node_bin/node" "$browser_conformance/dist/index.js" authorization --url "http://127.0.0.1:$INTEROP_PORT" \
  --scenario authorization-server-metadata-endpoint >"$DOCHIYA_BUILD_DIR/authserver-conformance.log" 2>&1 \
  && grep -q "0 failed" "$DOCHIYA_BUILD_DIR/authserver-conformance.log"; then
  grep "Passed:" "$DOCHIYA_BUILD_DIR/authserver-conformance.log" | sed 's/^/conformance authorization-server-metadata-endpoint: /'
else
  cat "$DOCHIYA_BUILD_DIR/authserver-conformance.log"
  browser_failed+=("conformance-authorization-server-metadata-endpoint")
fi

# DynamoDB and KMS on moto: a table and a signing key of this run's own.
browser_table="authserver-$(date +%s)-$$"
"${INTEROP_ENV[@]}" DOCHIYA_TABLE="$browser_table" "$INTEROP_BIN" create-table >/dev/null
browser_key=$("$DOCHIYA_BUILD_DIR/moto-venv/bin/python" -c '
import boto3, os
kms = boto3.client("kms", endpoint_url=os.environ["AWS_ENDPOINT_URL_KMS"], region_name=os.environ["AWS_REGION"])
print(kms.create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")["KeyMetadata"]["KeyId"])')
browser_store_run dynamodb DOCHIYA_TABLE="$browser_table" DOCHIYA_SIGNING_KEY_ID="$browser_key"

ls "$browser_shots"
echo "authserver browser flows and conformance: $((6 - ${#browser_failed[@]})) passed, ${#browser_failed[@]} failed"
if ((${#browser_failed[@]})); then
  echo "browser flows failed: ${browser_failed[*]}" >&2
  exit 1
fi
