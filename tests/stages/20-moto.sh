# A local DynamoDB-compatible server (moto, pinned) for the DynamoDB store's
# contract suite and the end-to-end tests. Installed into a venv under the build
# dir, started on a free loopback port, stopped on exit. Later stages see it
# through the standard AWS variables, so the SDK needs no code switch.
MOTO_VERSION="5.2.5"
MOTO_VENV="$DOCHIYA_BUILD_DIR/moto-venv"
if ! "$MOTO_VENV/bin/python" -c "import moto, sys; sys.exit(moto.__version__ != '$MOTO_VERSION')" 2>/dev/null; then
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install -q --disable-pip-version-check "moto[server]==$MOTO_VERSION"
fi

# moto's server, started through tests/moto/serialized.py, which makes it behave like
# DynamoDB where our tests depend on it (atomic transactions; its header says why and
# how). The launcher is linted with ruff, pinned here.
RUFF_VERSION="0.14.3"
if ! "$MOTO_VENV/bin/ruff" --version 2>/dev/null | grep -qx "ruff $RUFF_VERSION"; then
  "$MOTO_VENV/bin/pip" install -q --disable-pip-version-check "ruff==$RUFF_VERSION"
fi
"$MOTO_VENV/bin/ruff" check --no-cache --select E,F,W,I,B --line-length 120 tests/moto/serialized.py
"$MOTO_VENV/bin/ruff" format --no-cache --check --line-length 120 tests/moto/serialized.py
MOTO_LAUNCHER="tests/moto/serialized.py"

MOTO_PORT="$(free_port)"
MOTO_LOG="$DOCHIYA_BUILD_DIR/moto.log"
"$MOTO_VENV/bin/python" "$MOTO_LAUNCHER" 127.0.0.1 "$MOTO_PORT" >"$MOTO_LOG" 2>&1 &
MOTO_PID=$!
on_exit "kill $MOTO_PID 2>/dev/null; wait $MOTO_PID 2>/dev/null"

moto_ready=""
for _ in $(seq 1 200); do
  if ! kill -0 "$MOTO_PID" 2>/dev/null; then break; fi
  if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$MOTO_PORT/moto-api/', timeout=1)" 2>/dev/null; then
    moto_ready=yes
    break
  fi
  sleep 0.1
done
if [ -z "$moto_ready" ]; then
  echo "moto did not start on 127.0.0.1:$MOTO_PORT; its log:" >&2
  cat "$MOTO_LOG" >&2
  exit 1
fi
echo "moto $MOTO_VERSION listening on 127.0.0.1:$MOTO_PORT (pid $MOTO_PID)"

export AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$MOTO_PORT"
# The same moto emulates KMS: the authorization server's signing key (stage 70, tests/tests/authserver.rs).
export AWS_ENDPOINT_URL_KMS="http://127.0.0.1:$MOTO_PORT"
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true
# Never pick up a developer's real profile or session while pointed at moto.
unset AWS_PROFILE AWS_SESSION_TOKEN
