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

# Two changes to how moto serves DynamoDB, made in a small launcher:
# - moto's backend takes no lock: TransactWriteItems checks, then writes, and on
#   cancellation restores a copy of the whole table, which can drop a write made
#   meanwhile by another request. DynamoDB is atomic, so requests are served one
#   at a time (threads kept for keep-alive connections); the race tests then
#   test our code, not moto's threads.
# - that whole-table copy per transaction makes a test with 1,000 transactions
#   quadratic (minutes). Since requests are serialised, saving and restoring
#   only the items a transaction touches is an equivalent rollback.
# - moto re-derives every string key's value through a chain of type tests on
#   each comparison, and sorts the whole table on every Query: a short-cut for
#   strings (same result) makes Query on a 5,000-item partition ~4x faster.
MOTO_LAUNCHER="$DOCHIYA_BUILD_DIR/moto_serialized.py"
cat >"$MOTO_LAUNCHER" <<'PY'
import copy
import sys
import threading

from werkzeug.serving import run_simple

import moto.dynamodb.models as ddb
from moto.dynamodb.models.dynamo_type import DynamoType
from moto.dynamodb.models.table import Table
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)


class TableCopyIsIdentity:
    """copy module for moto.dynamodb.models: tables are not copied, the rest is."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(obj, memo=None):
        return obj if isinstance(obj, Table) else copy.deepcopy(obj, memo)


ddb.copy = TableCopyIsIdentity()

generic_cast_value = DynamoType.cast_value.fget


def cast_value(self):
    # A string's value is itself; the generic path tests five other types first.
    return self.value if self.type == "S" else generic_cast_value(self)


DynamoType.cast_value = property(cast_value)


def all_items(self):
    items = [i for h in self.items.values() for i in (h.values() if self.range_key_attr else [h])]
    return sorted(
        items,
        key=lambda x: (x.hash_key.cast_value, x.range_key.cast_value) if x.range_key else x.hash_key.cast_value,
    )


Table.all_items = all_items
whole_table_transaction = ddb.DynamoDBBackend.transact_write_items


def transact_write_items(self, transact_items):
    saved = []
    for entry in transact_items:
        op = next(iter(entry.values()), {})
        table = self.tables.get(op.get("TableName"))
        attrs = op.get("Item") or op.get("Key") or {}
        if table is None or table.hash_key_attr not in attrs or table.range_key_attr not in attrs:
            continue
        h, r = DynamoType(attrs[table.hash_key_attr]), DynamoType(attrs[table.range_key_attr])
        saved.append((table, h, r, copy.deepcopy(table.items.get(h, {}).get(r))))
    try:
        return whole_table_transaction(self, transact_items)
    except Exception:
        for table, h, r, item in reversed(saved):
            if item is None:
                table.items.get(h, {}).pop(r, None)
                if h in table.items and not table.items[h]:
                    del table.items[h]
            else:
                table.items[h][r] = item
        raise


ddb.DynamoDBBackend.transact_write_items = transact_write_items

app = DomainDispatcherApplication(create_backend_app)
lock = threading.Lock()


def serialized(environ, start_response):
    with lock:
        # Materialise the body inside the lock: the backend runs while iterating.
        return list(app(environ, start_response))


run_simple(sys.argv[1], int(sys.argv[2]), serialized, threaded=True, request_handler=MotoRequestHandler)
PY

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
# The same moto emulates KMS: the authorization server's signing key (stage 70, tests/authserver).
export AWS_ENDPOINT_URL_KMS="http://127.0.0.1:$MOTO_PORT"
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true
# Never pick up a developer's real profile or session while pointed at moto.
unset AWS_PROFILE AWS_SESSION_TOKEN
