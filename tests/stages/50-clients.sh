# Real MCP clients against the built server: the official TypeScript SDKs
# (@modelcontextprotocol/client 2.x on 2026-07-28 via server/discover,
# @modelcontextprotocol/sdk 1.x on legacy initialize) and the Python SDK
# (mcp 2.x, mcp 1.x) each run the ledger story of tests/clients/story.* with a
# dev Bearer token of its own and print one PASS line; mcp 2.x also runs two people
# keeping one book and a household's two months (hand entries, a statement import,
# auto-transfers ahead, every figure checked by hand) and a couple settling up
# (owners, `for`, shares, settle_up worked out by hand) and a statement imported
# without categories, placed by words learned the month before (with a card's 실적
# and a savings goal); both Python SDKs run the recurring postings listed, fetched,
# edited and voided. Pins: tests/clients/package-lock.json and requirements-*.txt;
# installs are cached under .build/.
source tests/clients/install.sh
source tests/clients/server.sh

build_workspace

clients_node_bin=$(interop_node_bin)
clients_node_dir=$(interop_node_modules clients tests/clients)
clients_py1=$(interop_venv mcp1 tests/clients/requirements-mcp1.txt)
clients_py2=$(interop_venv mcp2 tests/clients/requirements-mcp2.txt)
# The scripts run beside their node_modules (ESM resolves packages from the script's directory).
cp tests/clients/*.mjs "$clients_node_dir/"

interop_start_server clients
clients_run_id="$(date +%s)-$$"
clients_passed=0
clients_failed=()
# clients_run SUB COMMAND...: runs one story with its own token (and a second
# person's, DOCHIYA_TOKEN_2, for the story of two people keeping one book); every
# story runs even when one fails, so a CI log shows every client's result.
clients_run() {
  local sub=$1 token token2
  shift
  token=$(interop_token "$sub-$clients_run_id")
  token2=$(interop_token "$sub-partner-$clients_run_id")
  if PYTHONDONTWRITEBYTECODE=1 DOCHIYA_MCP_URL="$INTEROP_URL" DOCHIYA_TOKEN="$token" DOCHIYA_TOKEN_2="$token2" \
    DOCHIYA_TOOLS_SNAPSHOT="$ROOT/tests/tests/tools_list.snapshot.json" "$@"; then
    clients_passed=$((clients_passed + 1))
  else
    clients_failed+=("$sub")
  fi
}
clients_run ts-client-2 "$clients_node_bin/node" "$clients_node_dir/ts_v2_story.mjs"
clients_run ts-sdk-1 "$clients_node_bin/node" "$clients_node_dir/ts_v1_story.mjs"
clients_run py-mcp-2 "$clients_py2/bin/python" tests/clients/py_mcp2_story.py
clients_run py-mcp-1 "$clients_py1/bin/python" tests/clients/py_mcp1_story.py
clients_run py-mcp-2-together "$clients_py2/bin/python" tests/clients/py_mcp2_together.py
clients_run py-mcp-2-household "$clients_py2/bin/python" tests/clients/py_mcp2_household.py
clients_run py-mcp-2-categories "$clients_py2/bin/python" tests/clients/py_mcp2_categories.py
clients_run py-mcp-2-undo "$clients_py2/bin/python" tests/clients/py_mcp2_undo.py
clients_run py-mcp-2-card "$clients_py2/bin/python" tests/clients/py_mcp2_card.py
clients_run py-mcp-2-settle "$clients_py2/bin/python" tests/clients/py_mcp2_settle.py
clients_run py-mcp-2-words "$clients_py2/bin/python" tests/clients/py_mcp2_words.py
clients_run py-mcp-2-recurring "$clients_py2/bin/python" tests/clients/py_recurring.py
clients_run py-mcp-1-recurring "$clients_py1/bin/python" tests/clients/py_recurring.py
echo "clients: $clients_passed passed, ${#clients_failed[@]} failed"
if ((${#clients_failed[@]})); then
  echo "client stories failed: ${clients_failed[*]} (server log: $DOCHIYA_BUILD_DIR/clients-server.log)" >&2
  exit 1
fi
