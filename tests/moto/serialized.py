"""Serve moto's DynamoDB API the way DynamoDB behaves, for dochiya's tests.

moto (pinned in tests/stages/20-moto.sh) is the DynamoDB emulator our tests run
against. This launcher starts its server with three changes, each for a reason:

1. Requests are served one at a time. moto's backend takes no lock: a
   TransactWriteItems checks its conditions, then writes, and on cancellation
   restores a copy of the whole table, which can drop a write another request
   made meanwhile. DynamoDB transactions are atomic, so serialising requests
   makes the race tests test our code, not moto's threads. (Threads stay, so
   keep-alive connections are still served.)
2. A cancelled transaction restores only the items it touched. moto copies the
   whole table for every transaction, which makes a test with 1,000 transactions
   quadratic (minutes). With requests serialised, saving and restoring the
   touched items is an equivalent rollback.
3. String key values are compared directly. moto re-derives each key's value
   through a chain of type tests on every comparison and sorts the whole table
   on every Query; a short cut for strings (same result) makes a Query on a
   5,000-item partition about 4x faster.

Usage: python serialized.py HOST PORT
"""

import copy
import sys
import threading

import moto.dynamodb.models as ddb
from moto.dynamodb.models.dynamo_type import DynamoType
from moto.dynamodb.models.table import Table
from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import run_simple


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
