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
# The (b) entries must be the version-header tolerance and nothing else: with
# strict version headers (DOCHIYA_STRICT_VERSION_HEADER=true) the same checks must
# pass, so their scenarios run again against a strict server without the (b) entries.
conformance_strict="$DOCHIYA_BUILD_DIR/conformance/strict"
rm -rf "$conformance_strict"
mkdir -p "$conformance_strict"
grep -v '# (b)' tests/conformance/baseline.yml >"$conformance_strict/baseline-without-b.yml"
interop_start_server conformance-strict DOCHIYA_STRICT_VERSION_HEADER=true
for conformance_scenario in $(sed -n 's/^ *- *\([a-z0-9-]*\):.*# (b).*/\1/p' tests/conformance/baseline.yml | sort -u); do
  if "$conformance_node_bin/node" "$conformance_pkg/dist/index.js" server --url "$INTEROP_URL" \
    --scenario "$conformance_scenario" --spec-version 2026-07-28 \
    --expected-failures "$conformance_strict/baseline-without-b.yml" \
    -o "$conformance_strict" >"$conformance_strict/$conformance_scenario.log" 2>&1; then
    echo "conformance strict: $conformance_scenario passes without the (b) entries under strict version headers"
  else
    cat "$conformance_strict/$conformance_scenario.log"
    conformance_failed+=("strict-$conformance_scenario")
  fi
done

python3 tests/conformance/summarize.py tests/conformance/baseline.yml "$conformance_pkg/requirements" \
  "${conformance_runs[@]}" || conformance_failed+=("summary")
if ((${#conformance_failed[@]})); then
  echo "conformance failed: ${conformance_failed[*]} (logs: $DOCHIYA_BUILD_DIR/conformance/*.log)" >&2
  exit 1
fi
