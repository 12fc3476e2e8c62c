# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# tests/conformance/package-lock.json) against the built server, once per
# requirement set: 2026-07-28 (stateless wire) and 2025-11-25 (initialize wire).
# Failures listed in tests/conformance/baseline.yml are expected (fixture-only
# checks and the one deliberate version-header tolerance); anything else fails the
# stage, and so does a baseline entry that no longer fails (the suite calls it
# stale, summarize.py catches entries whose check did not run).
source tests/clients/install.sh
source tests/clients/server.sh

build_workspace

conformance_node_bin=$(interop_node_bin)
conformance_pkg="$(interop_node_modules conformance tests/conformance)/node_modules/@modelcontextprotocol/conformance"
interop_start_server conformance

conformance_runs=()
conformance_failed=()
for conformance_req in 2026-07-28 2025-11-25; do
  conformance_out="$DOCHIYA_BUILD_DIR/conformance/$conformance_req"
  rm -rf "$conformance_out"
  mkdir -p "$conformance_out"
  if "$conformance_node_bin/node" "$conformance_pkg/dist/index.js" server --url "$INTEROP_URL" \
    --requirements "$conformance_req" --expected-failures tests/conformance/baseline.yml \
    -o "$conformance_out" >"$conformance_out.log" 2>&1; then
    # The suite's own summary: one line per scenario, then the baseline verdict.
    sed -n '/=== SUMMARY ===/,$p' "$conformance_out.log"
  else
    cat "$conformance_out.log"
    conformance_failed+=("$conformance_req")
  fi
  conformance_runs+=("$conformance_req=$conformance_out")
done
# Strict version headers (DOCHIYA_STRICT_VERSION_HEADER=true) must pass the
# stateless scenario too, where the header rules are checked: the default mode's
# one tolerance (a header naming another *supported* version than the body) is the
# only difference between the modes, and the suite does not send that case.
conformance_strict="$DOCHIYA_BUILD_DIR/conformance/strict"
rm -rf "$conformance_strict"
mkdir -p "$conformance_strict"
interop_start_server conformance-strict DOCHIYA_STRICT_VERSION_HEADER=true
if "$conformance_node_bin/node" "$conformance_pkg/dist/index.js" server --url "$INTEROP_URL" \
  --scenario server-stateless --spec-version 2026-07-28 \
  --expected-failures tests/conformance/baseline.yml \
  -o "$conformance_strict" >"$conformance_strict/server-stateless.log" 2>&1; then
  echo "conformance strict: server-stateless passes under strict version headers"
else
  cat "$conformance_strict/server-stateless.log"
  conformance_failed+=("strict-server-stateless")
fi

python3 tests/conformance/summarize.py tests/conformance/baseline.yml "$conformance_pkg/requirements" \
  "${conformance_runs[@]}" || conformance_failed+=("summary")
if ((${#conformance_failed[@]})); then
  echo "conformance failed: ${conformance_failed[*]} (logs: $DOCHIYA_BUILD_DIR/conformance/*.log)" >&2
  exit 1
fi
