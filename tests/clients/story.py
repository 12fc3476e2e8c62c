"""The ledger story every Python client runs, and the checks on its results.

Twin of tests/clients/story.mjs: the same story, the same expected values. Each
SDK script supplies `list_tools` / `call_tool` adapters over its own client; the
SDK validates each result against the tool's outputSchema inside `call_tool`.
Only the standard library is imported here, so it works in both SDK venvs.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

with open(os.environ["DOCHIYA_TOOLS_SNAPSHOT"], encoding="utf-8") as _snapshot:
    CONTRACT_TOOLS = sorted(t["name"] for t in json.load(_snapshot)["tools"])
"""The tool names the server must list: read from the tools/list snapshot that
tests/tests/tools.rs keeps equal to the code (DOCHIYA_TOOLS_SNAPSHOT names it)."""

STORY_TOOLS = ["create_vault", "create_account", "record_transaction", "get_balances", "record_transactions",
               "spending_report", "update_account", "list_vaults"]
"""Tools the story calls: each must declare an outputSchema, or the SDK validates nothing."""

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
DECIMAL_ID = re.compile(r"^[0-9]+$")
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class StoryFailure(Exception):
    """The server's answer differs from what the story expects."""


def fail(what: str, actual: Any, expected: Any) -> None:
    raise StoryFailure(f"{what}: got {json.dumps(actual, ensure_ascii=False)}, "
                       f"expected {json.dumps(expected, ensure_ascii=False)}")


def expect_equal(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        fail(what, actual, expected)


def expect_match(actual: Any, pattern: re.Pattern[str], what: str) -> None:
    if not isinstance(actual, str) or not pattern.match(actual):
        fail(what, actual, f"a string matching {pattern.pattern}")


def pick(obj: Any, keys: list[str]) -> dict[str, Any]:
    """Only the named fields (output fields may grow; the named ones must be exact)."""
    obj = obj if isinstance(obj, dict) else {}
    return {k: obj.get(k) for k in keys}


def by_key(items: Any, key: str, fields: list[str], what: str) -> dict[str, Any]:
    """Entries keyed by one field, each cut to `fields`; order-free, duplicates caught."""
    if not isinstance(items, list):
        fail(what, items, "an array")
    out: dict[str, Any] = {}
    for it in items:
        if it.get(key) in out:
            fail(f"{what}: duplicate {key}", it.get(key), "unique")
        out[it.get(key)] = pick(it, fields)
    return out


@dataclass
class Tamper:
    """Shared with the client's HTTP transport: when armed, the next get_balances
    result loses its required `totals` field on its way in (negative control)."""

    armed: bool = False
    tampered: int = 0

    def maybe_damage(self, request_body: bytes, content_type: str, body: bytes) -> bytes | None:
        """The damaged body, or None when this response is not the one to damage."""
        if not self.armed:
            return None
        try:
            request = json.loads(request_body)
        except ValueError:
            return None
        if not isinstance(request, dict) or request.get("method") != "tools/call":
            return None
        if (request.get("params") or {}).get("name") != "get_balances":
            return None

        def damage(text: str) -> str:
            msg = json.loads(text)
            sc = (msg.get("result") or {}).get("structuredContent")
            if isinstance(sc, dict) and "totals" in sc:
                del sc["totals"]
                self.tampered += 1
            return json.dumps(msg, ensure_ascii=False)

        text = body.decode("utf-8")
        if "text/event-stream" in content_type:
            # Our server answers JSON; SSE is handled so the check cannot pass vacuously.
            text = "\n".join(f"data: {damage(line[6:])}" if line.startswith("data: ") else line
                             for line in text.split("\n"))
        else:
            text = damage(text)
        return text.encode("utf-8")


def structured(result: Any, tool: str) -> dict[str, Any]:
    if getattr(result, "isError", None) or getattr(result, "is_error", None):
        texts = " ".join(getattr(c, "text", "") for c in result.content)
        raise StoryFailure(f"{tool} returned isError: {texts}")
    sc = getattr(result, "structuredContent", None)
    if sc is None:
        sc = getattr(result, "structured_content", None)
    if not isinstance(sc, dict):
        fail(f"{tool} structuredContent", sc, "an object")
    return sc


def output_schema(tool: Any) -> Any:
    schema = getattr(tool, "outputSchema", None)
    return schema if schema is not None else getattr(tool, "output_schema", None)


async def run_story(label: str,
                    list_tools: Callable[[], Awaitable[list[Any]]],
                    call_tool: Callable[[str, dict[str, Any]], Awaitable[Any]],
                    tamper: Tamper) -> list[str]:
    steps: list[str] = []

    def step(s: str) -> None:
        steps.append(s)
        print(f"[{label}] ok: {s}", flush=True)

    tools = await list_tools()
    expect_equal(sorted(t.name for t in tools), CONTRACT_TOOLS, "tools/list names")
    for name in STORY_TOOLS:
        schema = output_schema(next(t for t in tools if t.name == name))
        if not isinstance(schema, dict) or schema.get("type") != "object":
            fail(f"{name} outputSchema", schema, "an object schema (else the SDK validates nothing)")
    step(f"tools/list: {len(tools)} tools, story tools declare outputSchema")

    vault = structured(await call_tool("create_vault", {"name": "우리집"}), "create_vault")
    expect_match(vault.get("vaultId"), UUID, "create_vault vaultId")
    expect_equal(pick(vault, ["name", "currency", "timeZone", "created"]),
                 {"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul", "created": True},
                 "create_vault result")
    step(f"create_vault 우리집 ({vault['vaultId']})")

    accounts: dict[str, str] = {}
    for name, kind in [("카카오뱅크", "asset"), ("월급", "income")]:
        acct = structured(await call_tool("create_account", {"vault": "우리집", "name": name, "kind": kind}),
                          "create_account")
        expect_match(acct.get("accountId"), UUID, f"create_account {name} accountId")
        expect_equal(pick(acct, ["name", "kind", "balance", "created"]),
                     {"name": name, "kind": kind, "balance": "0", "created": True},
                     f"create_account {name} result")
        accounts[name] = acct["accountId"]
    step("create_account 카카오뱅크 (asset), 월급 (income)")

    salary = {"vault": "우리집", "from": "월급", "to": "카카오뱅크", "amount": "3500000",
              "date": "2026-11-25", "memo": "11월 월급", "idempotencyKey": f"{label}-salary-2026-11"}
    first = structured(await call_tool("record_transaction", salary), "record_transaction")
    tx = first.get("transaction") or {}
    expect_match(tx.get("transactionId"), DECIMAL_ID, "record_transaction transactionId")
    expect_equal(pick(tx, ["date", "memo", "voided"]),
                 {"date": "2026-11-25", "memo": "11월 월급", "voided": False}, "record_transaction transaction")
    expect_equal(by_key(tx.get("postings"), "account", ["account", "accountId", "amount"], "postings"),
                 {"월급": {"account": "월급", "accountId": accounts["월급"], "amount": "-3500000"},
                  "카카오뱅크": {"account": "카카오뱅크", "accountId": accounts["카카오뱅크"], "amount": "3500000"}},
                 "record_transaction postings (signed: debit +, credit -)")
    expected_balances = {
        "월급": {"account": "월급", "accountId": accounts["월급"], "balance": "3500000"},
        "카카오뱅크": {"account": "카카오뱅크", "accountId": accounts["카카오뱅크"], "balance": "3500000"},
    }
    expect_equal(by_key(first.get("balances"), "account", ["account", "accountId", "balance"], "balances"),
                 expected_balances, "record_transaction balances")
    expect_equal(pick(first, ["replayed", "dryRun"]), {"replayed": False, "dryRun": False},
                 "record_transaction flags")
    step(f"record_transaction 월급 → 카카오뱅크 3500000 (transactionId {tx['transactionId']})")

    again = structured(await call_tool("record_transaction", salary), "record_transaction (retry)")
    expect_equal(again.get("replayed"), True, "retry with the same idempotencyKey: replayed")
    expect_equal((again.get("transaction") or {}).get("transactionId"), tx["transactionId"], "retry transactionId")
    expect_equal(again.get("transaction"), tx, "retry transaction")
    expect_equal(by_key(again.get("balances"), "account", ["account", "accountId", "balance"], "retry balances"),
                 expected_balances, "retry balances (must not be applied twice)")
    step(f"record_transaction retry: replayed, same transactionId {tx['transactionId']}")

    bal = structured(await call_tool("get_balances", {"vault": "우리집"}), "get_balances")
    expect_equal(pick(bal.get("vault"), ["vaultId", "name"]), {"vaultId": vault["vaultId"], "name": "우리집"},
                 "get_balances vault")
    expect_equal(bal.get("currency"), "KRW", "get_balances currency")
    expect_match(bal.get("asOf"), DATE, "get_balances asOf")
    expect_equal(by_key(bal.get("accounts"), "name", ["accountId", "name", "kind", "balance"], "accounts"),
                 {"월급": {"accountId": accounts["월급"], "name": "월급", "kind": "income", "balance": "3500000"},
                  "카카오뱅크": {"accountId": accounts["카카오뱅크"], "name": "카카오뱅크", "kind": "asset",
                            "balance": "3500000"}},
                 "get_balances accounts")
    expect_equal(pick(bal.get("totals"), ["assets", "liabilities", "netWorth"]),
                 {"assets": "3500000", "liabilities": "0", "netWorth": "3500000"}, "get_balances totals")
    step("get_balances: 카카오뱅크 3500000, 월급 3500000, net worth 3500000")

    # Negative control: the SDK must reject a result that breaks the outputSchema.
    tamper.armed = True
    rejected: BaseException | None = None
    try:
        await call_tool("get_balances", {"vault": "우리집"})
    except Exception as e:  # the SDK's own validation error type differs per generation
        rejected = e
    finally:
        tamper.armed = False
    if tamper.tampered != 1:
        fail("tampering transport hit count", tamper.tampered, 1)
    if rejected is None:
        raise StoryFailure("SDK accepted a get_balances result without the required `totals`: "
                           "output-schema validation is not in effect")
    first_line = str(rejected).splitlines()[0][:160] if str(rejected) else type(rejected).__name__
    step(f"SDK rejected a result missing `totals` ({first_line})")
    await statement_story(label, call_tool, step)
    return steps


def env() -> tuple[str, str]:
    url, token = os.environ.get("DOCHIYA_MCP_URL"), os.environ.get("DOCHIYA_TOKEN")
    if not url or not token:
        print("DOCHIYA_MCP_URL and DOCHIYA_TOKEN must be set", file=sys.stderr)
        sys.exit(2)
    return url, token


def report(label: str, steps_or_error: list[str] | BaseException) -> None:
    """One PASS or FAIL line; any failure exits non-zero."""
    if isinstance(steps_or_error, BaseException):
        e = steps_or_error
        detail = str(e) if isinstance(e, StoryFailure) else "".join(traceback.format_exception(e))
        print(f"FAIL {label}: {detail}", file=sys.stderr, flush=True)
        sys.exit(1)
    print(f"PASS {label}: {len(steps_or_error)} steps", flush=True)


# ============================================================ record_transactions
# A card statement imported twice: 8 lines (two of them refunds), each with its
# approval number as externalRef. The second import (a new key: the statement
# pasted again) finds every line by its approval number and records nothing.
# Twin of the block at the end of story.mjs.

STATEMENT = [
    ("30000001", "2026-11-02", "스타벅스 강남역점", "식비", "5600", False),
    ("30000002", "2026-11-03", "쿠팡", "쇼핑", "38900", False),
    ("30000003", "2026-11-05", "배달의민족", "식비", "23000", False),
    ("30000004", "2026-11-07", "쿠팡 환불", "쇼핑", "38900", True),
    ("30000005", "2026-11-09", "무신사", "쇼핑", "89000", False),
    ("30000006", "2026-11-12", "김밥천국 역삼점", "식비", "8500", False),
    ("30000007", "2026-11-15", "무신사 부분환불", "쇼핑", "29000", True),
    ("30000008", "2026-11-20", "GS25 테헤란점", "식비", "3200", False),
]
"""(approval number, date, memo, category, amount, refund). Hand sums: 식비 5,600 +
23,000 + 8,500 + 3,200 = 40,300; 쇼핑 38,900 − 38,900 + 89,000 − 29,000 = 60,000;
the card owes 100,300."""


async def statement_story(label: str,
                          call_tool: Callable[[str, dict[str, Any]], Awaitable[Any]],
                          step: Callable[[str], None]) -> None:
    for name, kind in [("신한카드", "liability"), ("식비", "expense"), ("쇼핑", "expense")]:
        structured(await call_tool("create_account", {"vault": "우리집", "name": name, "kind": kind}),
                   "create_account")
    entries = [{"from": cat if refund else "신한카드", "to": "신한카드" if refund else cat, "amount": amount,
                "date": date, "memo": memo, "externalRef": ref}
               for ref, date, memo, cat, amount, refund in STATEMENT]
    first = structured(await call_tool("record_transactions", {
        "vault": "우리집", "entries": entries, "idempotencyKey": f"{label}-shinhan-2026-11"}), "record_transactions")
    expect_equal(first.get("counts"), {"recorded": 8, "replayed": 0, "duplicate": 0, "error": 0},
                 "record_transactions counts")
    ids = [r.get("transactionId") for r in first.get("results") or []]
    for i, tx_id in enumerate(ids):
        expect_match(tx_id, DECIMAL_ID, f"record_transactions results[{i}].transactionId")
    step("record_transactions: 8 statement lines recorded")

    again = structured(await call_tool("record_transactions", {
        "vault": "우리집", "entries": entries, "idempotencyKey": f"{label}-shinhan-2026-11-again"}),
        "record_transactions (again)")
    expect_equal(again.get("counts"), {"recorded": 0, "replayed": 0, "duplicate": 8, "error": 0},
                 "second import counts")
    expect_equal([(r.get("status"), r.get("matchedBy"), r.get("transactionId")) for r in again.get("results") or []],
                 [("duplicate", "externalRef", tx_id) for tx_id in ids], "second import results")
    step("record_transactions again (new key): all 8 duplicates by externalRef")

    bal = structured(await call_tool("get_balances", {"vault": "우리집"}), "get_balances")
    got = by_key(bal.get("accounts"), "name", ["name", "balance"], "accounts")
    expect_equal({k: got.get(k) for k in ["신한카드", "식비", "쇼핑"]},
                 {"신한카드": {"name": "신한카드", "balance": "100300"},
                  "식비": {"name": "식비", "balance": "40300"},
                  "쇼핑": {"name": "쇼핑", "balance": "60000"}}, "balances after two imports")
    report_ = structured(await call_tool("spending_report", {"vault": "우리집", "from": "2026-11-01",
                                                             "to": "2026-11-30"}), "spending_report")
    expect_equal(report_.get("total"), "100300", "spending_report total")
    expect_equal([(r.get("account"), r.get("amount")) for r in report_.get("rows") or []],
                 [("쇼핑", "60000"), ("식비", "40300")], "spending_report rows")
    step("balances and spending_report exact after two imports: 신한카드 100300, 쇼핑 60000, 식비 40300")

    # One receipt over two categories: record_transaction with `lines`.
    split = structured(await call_tool("record_transaction", {
        "vault": "우리집", "date": "2026-11-21", "memo": "이마트", "idempotencyKey": f"{label}-emart",
        "lines": {"from": [{"account": "신한카드", "amount": "45000"}],
                  "to": [{"account": "식비", "amount": "30000"}, {"account": "쇼핑", "amount": "15000"}]}}),
        "record_transaction (lines)")
    after = by_key(split.get("balances"), "account", ["account", "balance"], "split balances")
    expect_equal([(k, (after.get(k) or {}).get("balance")) for k in ["신한카드", "식비", "쇼핑"]],
                 [("신한카드", "145300"), ("식비", "70300"), ("쇼핑", "75000")], "balances after the split")
    step("record_transaction with lines: 신한카드 45000 → 식비 30000 + 쇼핑 15000")

    renamed = structured(await call_tool("update_account", {"vault": "우리집", "account": "쇼핑",
                                                            "newName": "온라인쇼핑"}), "update_account")
    account = renamed.get("account") or {}
    expect_equal([account.get("name"), account.get("kind"), account.get("archived"), renamed.get("changed")],
                 ["온라인쇼핑", "expense", False, True], "update_account rename")
    vaults = structured(await call_tool("list_vaults", {}), "list_vaults")
    expect_equal([[v.get("name"), [[m.get("role"), m.get("you")] for m in v.get("members") or []]]
                  for v in vaults.get("vaults") or []],
                 [["우리집", [["owner", True]]]], "list_vaults members")
    step("update_account renames 쇼핑 → 온라인쇼핑; list_vaults shows the one member")

