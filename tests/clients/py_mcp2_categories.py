"""A household's categories through the official Python SDK (`mcp` 2.x): 식비 with 외식,
배달 and (moved under it) 장보기, tags across them (#여행, #야식), and a rollover budget
on 식비 over three months, the middle one overspent. Every report is compared with
values worked out by hand below; dates are relative to the vault's today (the server's
real clock)."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x categories"


def first_of_month_before(day: dt.date) -> dt.date:
    return (day.replace(day=1) - dt.timedelta(days=1)).replace(day=1)


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
        c = await connect(stack, url, token, "dochiya-categories")

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await c.call_tool(tool, args), tool)

        async def refused(tool: str, args: dict[str, Any]) -> str:
            result = await c.call_tool(tool, args)
            if not (getattr(result, "isError", None) or getattr(result, "is_error", None)):
                raise StoryFailure(f"{tool} {args} was accepted; it should be refused")
            return " ".join(getattr(x, "text", "") for x in result.content)

        await ok("create_vault", {"name": "카테고리 가계부"})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        p = first_of_month_before(today)  # last month
        q = first_of_month_before(p)  # the month before
        d = lambda x: x.isoformat()  # noqa: E731
        ym = lambda x: x.isoformat()[:7]  # noqa: E731
        await ok("create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "5000000",
                                    "openingDate": d(q)})
        await ok("create_account", {"name": "식비", "kind": "expense"})
        for child in ["외식", "배달"]:
            await ok("create_account", {"name": child, "kind": "expense", "parent": "식비"})
        for name in ["교통비", "장보기"]:
            await ok("create_account", {"name": name, "kind": "expense"})
        moved = await ok("update_account", {"account": "장보기", "parent": "식비"})
        expect_equal((moved["account"]["parent"], moved["changed"]), ("식비", True), "장보기 moved under 식비")
        listed = await ok("list_accounts", {})
        expect_equal({a["name"]: a.get("parent") for a in listed["accounts"] if a["kind"] == "expense"},
                     {"식비": None, "외식": "식비", "배달": "식비", "장보기": "식비", "교통비": None}, "the tree")
        text = await refused("create_account", {"name": "점심", "kind": "expense", "parent": "외식"})
        if "\"외식\" is itself under \"식비\"" not in text or "send \"식비\" as the parent" not in text:
            raise StoryFailure(f"a third level's refusal does not say what to send: {text}")
        step("식비 › 외식, 배달, 장보기; a third level refused with what to send")

        budget = await ok("set_budget", {"account": "식비", "amount": "200000", "month": ym(q), "rollover": True})
        expect_equal((budget["repeat"], budget["rollover"]), (True, True), "a repeating rollover budget")

        async def spend(to: str, amount: str, on: dt.date, memo: str, tags: list[str], key: str) -> None:
            await ok("record_transaction", {"from": "생활비 통장", "to": to, "amount": amount, "date": d(on),
                                            "memo": memo, "tags": tags, "idempotencyKey": key})

        # Two months ago: 50,000 + 30,000 of 200,000, so 120,000 carries on.
        await spend("외식", "50000", q.replace(day=5), "제주 흑돼지", ["#여행"], "c-1")
        await spend("식비", "30000", q.replace(day=10), "시장", [], "c-2")
        # Last month: 250,000 + 100,000 against 200,000 + 120,000: 30,000 over.
        await spend("배달", "250000", p.replace(day=7), "야식 배달", ["야식"], "c-3")
        await spend("장보기", "100000", p.replace(day=8), "마트", [], "c-4")
        # Today: 20,000 on 외식 and 5,000 on 교통비, both on the trip.
        await spend("외식", "20000", today, "휴게소", ["여행", "가족"], "c-5")
        await spend("교통비", "5000", today, "버스", ["여행"], "c-6")
        step("six entries, tags on four of them")

        last_day = today.replace(day=1) - dt.timedelta(days=1)
        group = await ok("spending_report", {"from": d(q), "to": d(last_day), "by": "group"})
        expect_equal([(r["account"], r["amount"]) for r in group["rows"]], [("식비", "430000")],
                     "two months by group: every child in 식비")
        accounts = await ok("spending_report", {"from": d(q), "to": d(last_day)})
        expect_equal([(r["account"], r.get("parent"), r["amount"]) for r in accounts["rows"]],
                     [("배달", "식비", "250000"), ("장보기", "식비", "100000"), ("외식", "식비", "50000"),
                      ("식비", None, "30000")], "two months by account, with parents")
        tags = await ok("spending_report", {"from": d(q), "to": d(last_day), "by": "tag"})
        expect_equal([(r["tag"], r["amount"]) for r in tags["rows"]], [("야식", "250000"), ("여행", "50000")],
                     "two months by tag")
        trip = await ok("spending_report", {"from": d(today.replace(day=1)), "to": d(today), "tag": "여행",
                                            "by": "group"})
        expect_equal(([(r["account"], r["amount"]) for r in trip["rows"]], trip["total"]),
                     ([("식비", "20000"), ("교통비", "5000")], "25000"), "this month's trip by group")
        listed_trip = await ok("list_transactions", {"tag": "#여행"})
        expect_equal([(t["memo"], t["tags"]) for t in listed_trip["transactions"]],
                     [("버스", ["여행"]), ("휴게소", ["여행", "가족"]), ("제주 흑돼지", ["여행"])],
                     "entries tagged 여행, newest first")
        step("reports by group, account and tag equal the sums by hand")

        def row(r: dict[str, Any]) -> tuple[Any, ...]:
            x = r["rows"][0]
            return x["account"], x["budget"], x.get("carried"), x["spent"], x["remaining"], x["over"]

        expect_equal(row(await ok("budget_report", {"month": ym(q)})),
                     ("식비", "200000", None, "80000", "120000", False), "first month")
        expect_equal(row(await ok("budget_report", {"month": ym(p)})),
                     ("식비", "200000", "120000", "350000", "-30000", True), "last month, overspent")
        now = await ok("budget_report", {})
        # 200,000 − 30,000 carried − 20,000 spent on 외식 today; 교통비 has no budget.
        expect_equal(row(now), ("식비", "200000", "-30000", "20000", "150000", False), "this month")
        expect_equal((now["totals"]["remaining"], now["unbudgetedSpent"]), ("150000", "5000"), "totals")
        step("the rollover budget carries 120,000, then the 30,000 overspent")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
