"""The card bill through the official Python SDK (`mcp` 2.x): a card paid on the 14th for
last month's charges (closingDay 31, paymentDay 14) gets a 3-month 할부 two months back,
this period's charges, a refund, a new 할부 and a payment after the close. The person asks
"이번 달 카드값 얼마야?": card_bill with no month answers the next payment on or after
today, and every line, the total, what was paid and what remains are the values worked
out by hand below. Dates are relative to the vault's today (the server's real clock)."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x card bill"


def first_of(month: dt.date, shift: int) -> dt.date:
    """The first day of the month `shift` months from `month`'s."""
    index = month.year * 12 + month.month - 1 + shift
    return dt.date(index // 12, index % 12 + 1, 1)


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
        c = await connect(stack, url, token, "dochiya-card")

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await c.call_tool(tool, args), tool)

        await ok("create_vault", {"name": "카드 가계부"})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        await ok("create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "3000000",
                                    "openingDate": first_of(today, -4).isoformat()})
        for name, kind in [("식비", "expense"), ("쇼핑", "expense"), ("가전", "expense")]:
            await ok("create_account", {"name": name, "kind": kind})
        made = await ok("create_account", {"name": "신한카드", "kind": "liability",
                                           "billing": {"closingDay": 31, "paymentDay": 14}})
        expect_equal(made["created"], True, "the card created with its billing")
        step("a card with billing: 전월 1일 ~ 전월 말일, paid on the 14th")

        # By hand: the next payment on or after today is the 14th of this month, or of the
        # next month once this month's 14th has passed; it pays all of the month before.
        due_month = first_of(today, 0) if today.day <= 14 else first_of(today, 1)
        period = first_of(due_month, -1)
        period_end = due_month - dt.timedelta(days=1)
        due = due_month.replace(day=14)
        two_back = first_of(period, -2).replace(day=10)
        on = lambda day: period.replace(day=day).isoformat()  # noqa: E731
        ids: dict[str, str] = {}

        async def record(key: str, frm: str, to: str, amount: str, date: str, memo: str,
                         parts: int | None = None) -> None:
            args: dict[str, Any] = {"from": frm, "to": to, "amount": amount, "date": date, "memo": memo,
                                    "idempotencyKey": f"card-{key}"}
            if parts:
                args["installments"] = parts
            out = await ok("record_transaction", args)
            expect_equal(out["transaction"].get("installments"), {"count": parts} if parts else None,
                         f"{memo}: installments on the entry")
            ids[key] = out["transaction"]["transactionId"]

        # A fridge in 3 parts two periods ago: its third part is on this bill.
        await record("fridge", "신한카드", "가전", "300000", two_back.isoformat(), "냉장고", 3)
        await record("mart", "신한카드", "식비", "45000", on(3), "마트")
        await record("tv", "신한카드", "가전", "100000", on(10), "TV", 3)
        await record("shirt", "신한카드", "쇼핑", "12500", on(12), "셔츠")
        await record("refund", "쇼핑", "신한카드", "12500", on(15), "셔츠 환불")
        # The two bills before (the fridge's first two parts) paid inside this period: a
        # payment is never an item, and pays the oldest bill first. After the close: paid.
        await record("last-bill", "생활비 통장", "신한카드", "200000", on(14), "지난 카드값")
        await record("paid", "생활비 통장", "신한카드", "100000", due_month.replace(day=5).isoformat(), "카드값 일부")
        step("two 할부 purchases, two charges, a refund and two payments recorded")

        # "이번 달 카드값 얼마야?"
        bill = await ok("card_bill", {"account": "신한카드"})
        expect_equal(
            {k: bill[k] for k in ["account", "currency", "period", "dueDate"]},
            {"account": "신한카드", "currency": "KRW",
             "period": {"from": period.isoformat(), "to": period_end.isoformat()}, "dueDate": due.isoformat()},
            "the bill's period and due date")
        expect_equal(bill["items"], [
            {"transactionId": ids["fridge"], "date": two_back.isoformat(), "memo": "냉장고", "amount": "100000",
             "part": 3, "of": 3},
            {"transactionId": ids["mart"], "date": on(3), "memo": "마트", "amount": "45000"},
            # 100,000 in 3: 33,334 + 33,333 + 33,333, the remainder on the first part.
            {"transactionId": ids["tv"], "date": on(10), "memo": "TV", "amount": "33334", "part": 1, "of": 3},
            {"transactionId": ids["shirt"], "date": on(12), "memo": "셔츠", "amount": "12500"},
            {"transactionId": ids["refund"], "date": on(15), "memo": "셔츠 환불", "amount": "-12500"},
        ], "the bill's items")
        # 100,000 + 45,000 + 33,334 + 12,500 − 12,500; 100,000 paid after the close.
        expect_equal((bill["total"], bill["paid"], bill["remaining"]), ("178334", "100000", "78334"),
                     "total, paid, remaining")
        # "할부 남은 거?": the TV's two later parts (66,666), one purchase.
        expect_equal(bill["installmentsLeft"], {"amount": "66666", "count": 1}, "installmentsLeft")
        step("이번 달 카드값: 178,334 won due on the 14th, 100,000 paid, 78,334 to go")

        accounts = (await ok("list_accounts", {}))["accounts"]
        card = next(a for a in accounts if a["name"] == "신한카드")
        expect_equal((card["billing"], card["nextBill"]),
                     ({"closingDay": 31, "paymentDay": 14},
                      {"dueDate": due.isoformat(), "amount": "178334", "remaining": "78334"}),
                     "list_accounts nextBill")
        expect_equal(card["installmentsLeft"], {"amount": "66666", "count": 1}, "list_accounts installmentsLeft")
        step("list_accounts shows the card's next bill")

        # The bill of the month before: the fridge's second part alone, paid.
        before = await ok("card_bill", {"account": "신한카드", "month": first_of(due_month, -1).strftime("%Y-%m")})
        expect_equal([(i["memo"], i["amount"], i.get("part")) for i in before["items"]], [("냉장고", "100000", 2)],
                     "last month's bill")
        expect_equal((before["paid"], before["remaining"]), ("100000", "0"), "last month's bill paid")
        refused = await c.call_tool("record_transaction", {"from": "생활비 통장", "to": "가전", "amount": "90000",
                                                           "installments": 3, "idempotencyKey": "card-bank"})
        if not getattr(refused, "isError", False) and not getattr(refused, "is_error", False):
            raise StoryFailure("installments from a bank account were not refused")
        step("last month's bill; 할부 from a bank account refused")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
