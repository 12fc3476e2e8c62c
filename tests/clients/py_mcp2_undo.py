"""Taking back a mistaken import through the official Python SDK (`mcp` 2.x): a card
statement imported, "방금 거 취소해" (undo without an id takes the import back whole,
every balance as before), undo again (a no-op that says so), the same statement
imported again (its lines are new again), then an edit undone and a void undone.
Dates are relative to the vault's today (the server's real clock)."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x undo"


def card_statement(p: dt.date) -> list[dict[str, Any]]:
    """Last month's card lines, each with its approval number."""
    lines = [("식비", "6500", 3, "스타벅스", "U1"), ("쇼핑", "43700", 5, "유니클로", "U2"),
             ("식비", "12000", 12, "김밥천국", "U3"), ("식비", "12000", 12, "김밥천국", "U4"),
             ("쇼핑", "8000", 20, "다이소", "U5")]
    return [{"from": "신한카드", "to": to, "amount": amount, "date": p.replace(day=day).isoformat(), "memo": memo,
             "externalRef": ref} for to, amount, day, memo, ref in lines]


async def main() -> list[str]:
    url, token = os.environ.get("DOCHIYA_MCP_URL"), os.environ.get("DOCHIYA_TOKEN")
    if not url or not token:
        print("DOCHIYA_MCP_URL and DOCHIYA_TOKEN must be set", file=sys.stderr)
        sys.exit(2)
    steps: list[str] = []

    def step(s: str) -> None:
        steps.append(s)
        print(f"[{LABEL}] ok: {s}", flush=True)

    async with AsyncExitStack() as stack:
        c = await connect(stack, url, token, "dochiya-undo")

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await c.call_tool(tool, args), tool)

        async def refused(tool: str, args: dict[str, Any]) -> str:
            r = await c.call_tool(tool, args)
            if not (getattr(r, "isError", None) or getattr(r, "is_error", None)):
                raise StoryFailure(f"{tool} {args} was not refused")
            return " ".join(getattr(x, "text", "") for x in r.content)

        async def balances() -> dict[str, str]:
            return {a["name"]: a["balance"] for a in (await ok("get_balances", {}))["accounts"]}

        await ok("create_vault", {"name": "취소 연습"})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        p = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)  # first of last month
        await ok("create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "1000000",
                                    "openingDate": p.isoformat()})
        for name, kind in [("신한카드", "liability"), ("식비", "expense"), ("쇼핑", "expense")]:
            await ok("create_account", {"name": name, "kind": kind})
        before = await balances()

        imported = await ok("record_transactions", {"entries": card_statement(p), "idempotencyKey": "stmt-1"})
        expect_equal(imported["counts"]["recorded"], 5, "imported")
        op = imported["operationId"]
        after_import = await balances()
        expect_equal(after_import["신한카드"], "82200", "the card after the import")
        # "방금 거": the newest recorded entry, whatever its date, belongs to the import.
        latest = await ok("list_transactions", {"order": "recorded", "limit": 1})
        expect_equal(latest["transactions"][0]["operationId"], op, "the newest recorded entry's operation")
        step("statement imported; the newest recorded entry names its operation")

        dry = await ok("undo", {"dryRun": True})
        expect_equal((dry["operationId"], len(dry["undone"]), dry["dryRun"]), (op, 5, True), "dry run")
        expect_equal(await balances(), after_import, "a dry run changes nothing")
        undone = await ok("undo", {})
        expect_equal((undone["operationId"], undone["alreadyUndone"]), (op, False), "undo")
        expect_equal(sorted(e["action"] for e in undone["undone"]), ["voided"] * 5, "every line voided")
        expect_equal(await balances(), before, "every balance as before the import")
        again = await ok("undo", {"operationId": op})
        expect_equal(again["alreadyUndone"], True, "undo twice")
        step("undo took the whole import back; twice is a no-op that says so")

        reimported = await ok("record_transactions", {"entries": card_statement(p), "idempotencyKey": "stmt-2"})
        expect_equal((reimported["counts"]["recorded"], reimported["counts"]["duplicate"]), (5, 0),
                     "the statement imported again")
        expect_equal(await balances(), after_import, "balances as after the first import")
        step("the same statement imported again: every line recorded anew")

        lunch = reimported["results"][2]["transactionId"]
        edited = await ok("edit_transaction", {"transactionId": lunch, "amount": "21000", "idempotencyKey": "fix-1"})
        text = await refused("undo", {"operationId": reimported["operationId"]})
        if lunch not in text or edited["operationId"] not in text:
            raise StoryFailure(f"the refusal should name {lunch} and {edited['operationId']}: {text}")
        expect_equal(await balances(), {**after_import, "신한카드": "91200", "식비": "39500"}, "nothing changed")
        back = await ok("undo", {})
        expect_equal([e["action"] for e in back["undone"]], ["restored"], "the edit reversed")
        voided = await ok("void_transaction", {"transactionId": lunch})
        back = await ok("undo", {"operationId": voided["operationId"]})
        expect_equal([e["action"] for e in back["undone"]], ["unvoided"], "the void reversed")
        expect_equal(await balances(), after_import, "as after the import")
        step("an import with a later edit is refused, naming it; the edit and a void undone")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
