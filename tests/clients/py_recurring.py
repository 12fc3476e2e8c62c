"""Recurring postings through the official Python SDKs, which validate every result's
structuredContent against the tool's outputSchema (`mcp` 2.x and 1.x; the installed
one is used): a rent schedule started last month posts two months on the first call;
the postings are listed, fetched, edited and voided, each result valid, each posting
recorded by its schedule. Then "방금 거" is the caller's own entry, not the posting,
and a budget's amount changed without `rollover` keeps its rollover.
Dates are relative to the vault's today (the server's real clock)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from importlib.metadata import version
from typing import Any

from story import env, expect_equal, report, structured

SDK = version("mcp")
LABEL = f"py-mcp-{SDK.split('.')[0]}.x recurring"

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


async def connect(stack: AsyncExitStack, url: str, token: str) -> Call:
    """`call_tool` of the installed SDK's client; each validates what it returns."""
    if SDK.startswith("1."):
        from mcp import ClientSession
        from mcp.client.streamable_http import streamablehttp_client
        from mcp.types import Implementation as Implementation1

        read, write, _ = await stack.enter_async_context(
            streamablehttp_client(url, headers={"Authorization": f"Bearer {token}"}))
        session = await stack.enter_async_context(
            ClientSession(read, write, client_info=Implementation1(name="dochiya-recurring", version="1.0.0")))
        await session.initialize()
        return session.call_tool
    import httpx2
    from mcp.client.client import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Implementation

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30.0, read=60.0))
    await stack.enter_async_context(http)
    client = Client(streamable_http_client(url, http_client=http), mode="auto",
                    client_info=Implementation(name="dochiya-recurring", version="1.0.0"))
    return (await stack.enter_async_context(client)).call_tool


async def main() -> list[str]:
    url, token = env()
    steps: list[str] = []

    def step(s: str) -> None:
        steps.append(s)
        print(f"[{LABEL}] ok: {s}", flush=True)

    async with AsyncExitStack() as stack:
        call_tool = await connect(stack, url, token)

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            # The SDK raises here when the result does not fit the tool's outputSchema.
            return structured(await call_tool(tool, args), tool)

        await ok("create_vault", {"name": "정기 지출"})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        last_month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
        this_month = today.replace(day=1)
        await ok("create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "3000000",
                                    "openingDate": last_month.isoformat()})
        await ok("create_account", {"name": "주거비", "kind": "expense"})
        await ok("set_recurring", {"name": "월세", "from": "생활비 통장", "to": "주거비", "amount": "500000",
                                   "day": 1, "start": last_month.isoformat()})

        listed = await ok("list_transactions", {})
        postings = [t for t in listed["transactions"] if t.get("recurring") == "월세"]
        expect_equal(sorted((t["date"], t["recordedBy"]) for t in postings),
                     [(last_month.isoformat(), "월세 (recurring)"), (this_month.isoformat(), "월세 (recurring)")],
                     "the two postings, recorded by their schedule")
        step("a schedule started last month posted two months; listed, each recorded by its schedule")

        earlier, later = sorted(postings, key=lambda t: t["date"])
        fetched = (await ok("get_transaction", {"transactionId": later["transactionId"]}))["transaction"]
        expect_equal((fetched["recurring"], fetched["recordedBy"], fetched["version"]),
                     ("월세", "월세 (recurring)", 1), "the posting fetched")
        edited = (await ok("edit_transaction", {"transactionId": later["transactionId"], "amount": "510000",
                                                "idempotencyKey": "rent-up"}))["transaction"]
        expect_equal((edited["version"], edited["recordedBy"], edited["postings"][0]["amount"]),
                     (2, "월세 (recurring)", "510000"), "the posting edited")
        voided = (await ok("void_transaction", {"transactionId": earlier["transactionId"],
                                                "reason": "이사 전 달"}))["transaction"]
        expect_equal((voided["voided"], voided["recordedBy"]), (True, "월세 (recurring)"), "the posting voided")
        balances = {a["name"]: a["balance"] for a in (await ok("get_balances", {}))["accounts"]}
        expect_equal((balances["주거비"], balances["생활비 통장"]), ("510000", "2490000"), "balances after both")
        step("a posting fetched, edited and another voided; every result valid for the SDK")

        newest = (await ok("list_transactions", {"order": "recorded", "limit": 1}))["transactions"][0]
        expect_equal(newest.get("recurring"), "월세", "the newest recorded entry is a posting")
        mine = (await ok("list_transactions", {"recordedBy": "me", "order": "recorded", "limit": 1}))["transactions"]
        expect_equal([t["memo"] for t in mine], ["생활비 통장 기초잔액"], "방금 거: my own newest entry")
        step("방금 거 with recordedBy me is my own entry, never the schedule's posting")

        first = await ok("set_budget", {"account": "주거비", "amount": "600000", "rollover": True})
        changed = await ok("set_budget", {"account": "주거비", "amount": "520000"})
        expect_equal((first["rollover"], changed["rollover"], changed["repeat"]), (True, True, True),
                     "the amount changed, rollover kept")
        row = (await ok("budget_report", {}))["rows"][0]
        expect_equal((row["budget"], row["spent"], row["over"]), ("520000", "510000", False), "this month's budget")
        step("a budget's amount changed without rollover keeps its rollover")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
