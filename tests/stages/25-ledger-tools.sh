# The plain-text accounting tools the export tests (tests/tests/export.rs) check
# exported books with: hledger from Debian, bean-check from Beancount on PyPI (pinned,
# in a venv under the build dir, like moto). DOCHIYA_LEDGER_TOOLS=required makes a
# missing tool fail those tests instead of being reported as not checked.
BEANCOUNT_VERSION="3.2.3"
if ! command -v hledger >/dev/null; then
  echo "ledger tools: installing hledger"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hledger >/dev/null
fi
BEANCOUNT_VENV="$DOCHIYA_BUILD_DIR/beancount-venv"
if ! "$BEANCOUNT_VENV/bin/python" -c "import beancount, sys; sys.exit(beancount.__version__ != '$BEANCOUNT_VERSION')" 2>/dev/null; then
  python3 -m venv "$BEANCOUNT_VENV"
  "$BEANCOUNT_VENV/bin/pip" install -q --disable-pip-version-check "beancount==$BEANCOUNT_VERSION"
fi
export DOCHIYA_BEANCOUNT_BIN="$BEANCOUNT_VENV/bin"
export DOCHIYA_LEDGER_TOOLS=required
echo "ledger tools: $(hledger --version | head -1), bean-check from beancount $BEANCOUNT_VERSION"
