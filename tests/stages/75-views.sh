# The MCP Apps views in a real browser (docs/views.md): headless Chromium from Debian
# (driven by playwright-core), the official host side of the extension
# (@modelcontextprotocol/ext-apps AppBridge, bundled here with esbuild for the host page:
# a test-only step, the views themselves have no build), and real spending_report and
# budget_report results from the built server (the card bill from a fixture in its
# result's shape). Screenshots, light and dark, Korean and English, land in
# $DOCHIYA_BUILD_DIR/views/. Pins: tests/views/package-lock.json.
source tests/clients/install.sh
source tests/clients/server.sh

if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "CJK"; then
  echo "views: installing chromium, fonts-noto-cjk"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
fi

build_workspace

views_node_bin=$(interop_node_bin)
views_node_dir=$(interop_node_modules views tests/views)
cp tests/views/host.mjs tests/views/*.fixture.json "$views_node_dir/"
echo 'export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";' \
  >"$views_node_dir/bridge-entry.mjs"
# Run as a program: its install step may have put the native binary in place of the JS shim.
(cd "$views_node_dir" && PATH="$views_node_bin:$PATH" node_modules/.bin/esbuild bridge-entry.mjs \
  --bundle --format=esm --platform=browser --log-level=warning --outfile=bridge.js)
views_shots="$DOCHIYA_BUILD_DIR/views"
rm -rf "$views_shots"
mkdir -p "$views_shots"

interop_start_server views
(cd "$views_node_dir" && DOCHIYA_MCP_URL="$INTEROP_URL" TOKEN="$(interop_token views-person)" \
  SHOTS="$views_shots" "$views_node_bin/node" host.mjs)
