"""A household's two months through the official Python SDK (`mcp` 2.x): rent and salary
entered one call at a time, purchases by hand, then the card statement (a dry run, the
import, the same statement again), a card payment, this month's lunch and two
auto-transfers dated ahead. Every balance and report is compared with values worked
out by hand below; dates are relative to the vault's today (the server's real clock)."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x household"


def card_statement(p: dt.date, refs: bool) -> list[dict[str, Any]]:
    """Last month's card lines: two of them were entered by hand (one posts a day
    later on the statement), a second coffee the next day, two identical lunches."""
    lines = [("식비", "6500", 3, "스타벅스", "C1"), ("식비", "6500", 4, "스타벅스", "C2"),
             ("쇼핑", "43700", 5, "유니클로", "C3"), ("식비", "12000", 12, "김밥천국", "C4"),
             ("식비", "12000", 12, "김밥천국", "C5"), ("쇼핑", "8000", 20, "다이소", "C6")]
    out = []
    for to, amount, day, memo, ref in lines:
        e = {"from": "신한카드", "to": to, "amount": amount, "date": p.replace(day=day).isoformat(), "memo": memo}
        if refs:
            e["externalRef"] = ref
        out.append(e)
    return out


def outcome(results: list[dict[str, Any]]) -> list[str]:
    return [r["status"] + (f" {r['matchedBy']}" if "matchedBy" in r else "") for r in results]


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
        c = await connect(stack, url, token, "dochiya-household")

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await c.call_tool(tool, args), tool)

        await ok("create_vault", {"name": "우리집 가계부"})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        p = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)  # first of last month
        d = lambda x: x.isoformat()  # noqa: E731
        await ok("create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "2000000",
                                    "openingDate": d(p)})
        for name, kind in [("신한카드", "liability"), ("월급", "income"), ("월세", "expense"), ("식비", "expense"),
                           ("쇼핑", "expense"), ("통신비", "expense")]:
            await ok("create_account", {"name": name, "kind": kind})

        async def record(frm: str, to: str, amount: str, on: dt.date, memo: str, key: str) -> dict[str, Any]:
            return await ok("record_transaction", {"from": frm, "to": to, "amount": amount, "date": d(on),
                                                   "memo": memo, "idempotencyKey": key})

        # Last month's rent and salary, and this month's rent ahead, seconds apart with
        # new keys: different dates, so none is a probable duplicate.
        await record("생활비 통장", "월세", "650000", p.replace(day=5), "월세", "rent-1")
        await record("월급", "생활비 통장", "3200000", p.replace(day=25), "월급", "pay-1")
        await record("생활비 통장", "월세", "650000", today + dt.timedelta(days=3), "월세 자동이체", "rent-2")
        await record("생활비 통장", "통신비", "55000", today + dt.timedelta(days=10), "휴대폰 자동이체", "phone-1")
        step("rent, salary and two auto-transfers ahead recorded, none refused")

        coffee = await record("신한카드", "식비", "6500", p.replace(day=3), "커피", "hand-1")
        clothes = await record("신한카드", "쇼핑", "43700", p.replace(day=4), "옷", "hand-2")
        hand = [coffee["transaction"]["transactionId"], clothes["transaction"]["transactionId"]]

        dry = await ok("record_transactions", {"entries": card_statement(p, True), "idempotencyKey": "card-1",
                                               "dryRun": True})
        expect_equal(outcome(dry["results"]), ["duplicate sameDate", "wouldRecord", "duplicate dayApart",
                                               "wouldRecord", "wouldRecord", "wouldRecord"], "dry run")
        expect_equal((dry["counts"]["wouldRecord"], dry["counts"]["recorded"]), (4, 0), "dry-run counts")
        imported = await ok("record_transactions", {"entries": card_statement(p, True), "idempotencyKey": "card-1"})
        expect_equal(outcome(imported["results"]), ["duplicate sameDate", "recorded", "duplicate dayApart",
                                                    "recorded", "recorded", "recorded"], "import")
        expect_equal([imported["results"][i]["transactionId"] for i in (0, 2)], hand, "matched the hand entries")
        step("statement: each hand entry matched once, the 4 new lines recorded")
        again = await ok("record_transactions", {"entries": card_statement(p, True), "idempotencyKey": "card-2"})
        expect_equal((again["counts"]["recorded"], again["counts"]["duplicate"]), (0, 6), "the same statement again")
        plain = await ok("record_transactions", {"entries": card_statement(p, False), "idempotencyKey": "card-3"})
        expect_equal((plain["counts"]["recorded"], plain["counts"]["duplicate"]), (0, 6), "again without refs")
        step("the same statement again, with and without refs: nothing recorded")

        # The card: 6,500 + 43,700 by hand, 6,500 + 12,000 + 12,000 + 8,000 from the statement.
        await record("생활비 통장", "신한카드", "88700", p.replace(day=27), "카드대금", "card-pay")
        await record("신한카드", "식비", "9000", today, "점심", "lunch")
        await ok("set_budget", {"account": "식비", "amount": "300000"})

        balances = await ok("get_balances", {})
        got = {a["name"]: (a["balance"], a.get("scheduled")) for a in balances["accounts"]}
        expect_equal(got, {
            # 2,000,000 − 650,000 + 3,200,000 − 88,700; −650,000 − 55,000 ahead.
            "생활비 통장": ("4461300", "-705000"),
            "신한카드": ("9000", None),
            "월급": ("3200000", None),
            "월세": ("650000", "650000"),
            # 6,500 + 6,500 + 12,000 + 12,000 + 9,000.
            "식비": ("46000", None),
            "쇼핑": ("51700", None),
            "통신비": ("0", "55000"),
            # The opening balance's other side (a vault named in Hangul: Korean system names).
            "기초잔액": ("2000000", None),
        }, "get_balances")
        expect_equal(balances["totals"], {"assets": "4461300", "liabilities": "9000", "netWorth": "4452300"},
                     "totals")
        step("balances as of today exact, the auto-transfers apart as scheduled")

        last_day = today.replace(day=1) - dt.timedelta(days=1)
        past = await ok("spending_report", {"from": d(p), "to": d(last_day)})
        expect_equal({r["account"]: r["amount"] for r in past["rows"]},
                     {"월세": "650000", "쇼핑": "51700", "식비": "37000"}, "last month by account")
        expect_equal((past["total"], past.get("scheduled")), ("738700", None), "last month's total")
        span = await ok("spending_report", {"from": d(p), "to": d(today + dt.timedelta(days=10))})
        expect_equal((span["total"], span["scheduled"]), ("747700", {"amount": "705000", "count": 2}),
                     "two months, the auto-transfers scheduled")
        budget = await ok("budget_report", {})
        ahead = [a for on, a in [(today + dt.timedelta(days=3), 650000), (today + dt.timedelta(days=10), 55000)]
                 if on.month == today.month]
        expect_equal((budget["rows"][0]["account"], budget["rows"][0]["spent"], budget["totals"]["spent"]),
                     ("식비", "9000", "9000"), "budget_report spent")
        expected_ahead = {"amount": str(sum(ahead)), "count": len(ahead)} if ahead else None
        expect_equal(budget.get("scheduled"), expected_ahead, "budget_report scheduled")
        step("reports count what is spent by today; entries dated later are scheduled")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
