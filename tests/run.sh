#!/usr/bin/env bash
# The one test command (see README). On a fresh machine with only Rust,
# Python 3.11 and Node 20 it installs what the tests need under .build/,
# starts its own services on 127.0.0.1, runs every stage in tests/stages/
# in order, and stops the services on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
export DOCHIYA_BUILD_DIR="$ROOT/.build"
mkdir -p "$DOCHIYA_BUILD_DIR"

# Stages register clean-up commands here (e.g. stopping a server they started).
CLEANUP=()
on_exit() { CLEANUP+=("$1"); }
run_cleanup() {
  local i
  for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[$i]}" || true; done
}
trap run_cleanup EXIT

# Every build of the workspace goes through here, with one set of packages and
# features: `cargo build -p dochiya-mcp` alone would resolve other features
# (serde_json without float_roundtrip) and compile a second copy of much of the
# dependency graph.
build_workspace() { cargo build --workspace --all-features --locked --bins --tests --examples; }

# A port nobody listens on, for a service we start.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

started=$(date +%s)
for stage in tests/stages/*.sh; do
  echo "=== stage $(basename "$stage" .sh) ($(($(date +%s) - started)) s)"
  # Sourced, so a stage can export what later stages need (ports, paths).
  # shellcheck disable=SC1090
  source "$stage"
done
echo "=== all stages passed in $(($(date +%s) - started)) s"
