"""A couple settling up (정산) through the official Python SDK (`mcp` 2.x), each person
with their own client and token: 지훈 (DOCHIYA_TOKEN, shown by his sign-in name) creates
and shares a vault, 하은 (DOCHIYA_TOKEN_2) joins it under that name. A month of their
household: a joint account, each one's own bank account, 하은's card, 지훈's salary,
her own 용돈, shared 식비 and 생활용품, one entry "for" her only and one 용돈 entry
"for" both. settle_up at the default 1:1, then at 6:4; spending by member (spending and
income); refusals that store nothing; 하은 pays what settle_up suggests from her own
account into his (every net 0), and undo brings the debt back.

Every figure is worked out by hand in the comments. The entries are dated in the
current month, on or before the vault's today (the server's real clock): shares apply
from the first of the month they are set in, and 하은 weighs only from the month she
joined (this one)."""

from __future__ import annotations

import asyncio
import calendar
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, by_key, expect_equal, report, structured

LABEL = "py-mcp-2.x settle-up"
VAULT = "우리 둘 가계부"
HAEUN = "하은"


def members_of(settled: dict[str, Any]) -> dict[str, Any]:
    """settle_up's members by name (order-free), after checking the nets sum to zero."""
    total = sum(int(m["net"]) for m in settled["members"])
    expect_equal(total, 0, "settle_up nets sum to zero")
    return by_key(settled["members"], "name", ["putIn", "share", "net"], "settle_up members")


def rows_of(report_: dict[str, Any]) -> dict[str, str]:
    return {r["member"]: r["amount"] for r in report_["rows"]}


async def main() -> list[str]:
    url, a_token, b_token = (os.environ.get(k) for k in ("DOCHIYA_MCP_URL", "DOCHIYA_TOKEN", "DOCHIYA_TOKEN_2"))
    if not url or not a_token or not b_token:
        print("DOCHIYA_MCP_URL, DOCHIYA_TOKEN and DOCHIYA_TOKEN_2 must be set", file=sys.stderr)
        sys.exit(2)
    steps: list[str] = []

    def step(s: str) -> None:
        steps.append(s)
        print(f"[{LABEL}] ok: {s}", flush=True)

    async with AsyncExitStack() as stack:
        jihun = await connect(stack, url, a_token, "dochiya-settle-jihun")
        haeun = await connect(stack, url, b_token, "dochiya-settle-haeun")

        async def ok(client: Any, tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await client.call_tool(tool, args), tool)

        async def refused(client: Any, tool: str, args: dict[str, Any]) -> str:
            r = await client.call_tool(tool, args)
            if not (getattr(r, "isError", None) or getattr(r, "is_error", None)):
                raise StoryFailure(f"{tool} {args} was not refused")
            return " ".join(getattr(x, "text", "") for x in r.content)

        # ------------------------------------------------------------ the couple
        await ok(jihun, "create_vault", {"name": VAULT})
        invite = await ok(jihun, "share_vault", {})
        joined = await ok(haeun, "join_vault", {"inviteCode": invite["inviteCode"], "displayName": HAEUN})
        expect_equal((joined["vault"]["name"], joined["role"]), (VAULT, "member"), "join_vault")
        vault = (await ok(jihun, "list_vaults", {}))["vaults"][0]
        # 지훈 shows by his token's name (the dev token's sub); 하은 by the name she chose.
        JIHUN = next(m["name"] for m in vault["members"] if m["you"])
        expect_equal(sorted(m["name"] for m in vault["members"]), sorted([JIHUN, HAEUN]), "list_vaults members")
        # The 1:1 remainder below goes to the first by name: 지훈's (ASCII) name sorts before 하은.
        if not JIHUN < HAEUN:
            raise StoryFailure(f"expected 지훈's sign-in name {JIHUN!r} to sort before {HAEUN!r}")
        step(f"{JIHUN} (지훈) shared the vault; 하은 joined as {HAEUN!r}")

        today = dt.date.fromisoformat(vault["today"])
        month = today.strftime("%Y-%m")
        first = today.replace(day=1)
        last = today.replace(day=calendar.monthrange(today.year, today.month)[1])

        def day(n: int) -> str:
            """Day n of this month, or today when n is later (every entry ≤ today)."""
            return today.replace(day=min(n, today.day)).isoformat()

        # ------------------------------------------------------------ accounts
        # Opening balances are dated today (this month) and are outside settle-up.
        for name, kind, owner, opening in [
            ("공동통장", "asset", None, "300000"),    # joint: nobody's, the household's pool
            ("지훈통장", "asset", JIHUN, "2000000"),
            ("하은통장", "asset", HAEUN, "1000000"),
            ("하은카드", "liability", HAEUN, None),
            ("월급", "income", JIHUN, None),
            ("이자", "income", None, None),           # shared income
            ("식비", "expense", None, None),
            ("생활용품", "expense", None, None),
            ("용돈", "expense", None, None),          # made 하은's below, with update_account
        ]:
            args: dict[str, Any] = {"name": name, "kind": kind}
            if owner is not None:
                args["owner"] = owner
            if opening is not None:
                args["openingBalance"] = opening
            await ok(jihun, "create_account", args)
        owned = await ok(jihun, "update_account", {"account": "용돈", "owner": HAEUN})
        expect_equal((owned["account"].get("owner"), owned["changed"]), (HAEUN, True), "update_account owner")
        listed = await ok(haeun, "list_accounts", {})
        expect_equal({a["name"]: a.get("owner") for a in listed["accounts"]}, {
            "공동통장": None, "지훈통장": JIHUN, "하은통장": HAEUN, "하은카드": HAEUN, "월급": JIHUN, "이자": None,
            "식비": None, "생활용품": None, "용돈": HAEUN, "기초잔액": None,
        }, "list_accounts owners")
        step("accounts with owners: a joint 공동통장, each one's own, 하은's 용돈 (update_account)")

        # ------------------------------------------------------------ the month
        async def record(client: Any, key: str, frm: str, to: str, amount: str, on: str, memo: str,
                         for_: str | None = None) -> dict[str, Any]:
            args = {"from": frm, "to": to, "amount": amount, "date": on, "memo": memo, "idempotencyKey": key}
            if for_ is not None:
                args["for"] = for_
            return await ok(client, "record_transaction", args)

        # Each posting counts −amount as put in by its party, and +amount as used when
        # its party is the pool (공동통장, shared spending). Per entry:
        # E0 월급 → 지훈통장 3,000,000: 월급 is 지훈's (−(−3,000,000) = +3,000,000 put in)
        #    and so is 지훈통장 (−3,000,000): 0 for him, nothing used.
        await record(jihun, "e0", "월급", "지훈통장", "3000000", day(1), f"{today.month}월 월급")
        # E1 지훈통장 → 공동통장 1,000,000: 지훈 puts in 1,000,000; the pool gains (used) 1,000,000.
        await record(jihun, "e1", "지훈통장", "공동통장", "1000000", day(1), "생활비 입금")
        # E2 하은카드 → 식비 84,000: 하은 puts in 84,000; shared 식비, used 84,000.
        await record(haeun, "e2", "하은카드", "식비", "84000", day(2), "장보기")
        # E3 공동통장 → 생활용품 31,000: the pool pays the pool: used −31,000 + 31,000 = 0.
        await record(haeun, "e3", "공동통장", "생활용품", "31000", day(3), "세제, 휴지")
        # E4 지훈통장 → 식비 15,500 for 하은: 지훈 puts in 15,500, 하은 takes out 15,500.
        await record(jihun, "e4", "지훈통장", "식비", "15500", day(3), "하은 점심", HAEUN)
        # E5 하은카드 → 용돈 20,000 (her own category): +20,000 − 20,000 = 0 for her, not shared.
        await record(haeun, "e5", "하은카드", "용돈", "20000", day(4), "네일")
        # E6 공동통장 → 용돈 12,000 for "shared": both sides the pool: used 0.
        await record(haeun, "e6", "공동통장", "용돈", "12000", day(4), "둘이 영화", "shared")
        # E7 공동통장 → 하은카드 50,000 (her card paid from the joint account: taking out):
        #    used −50,000; 하은 puts in −50,000.
        await record(haeun, "e7", "공동통장", "하은카드", "50000", day(5), "하은카드 대금")
        # E8 이자 → 공동통장 1,237: shared income, put in by both by the shares; used +1,237.
        await record(jihun, "e8", "이자", "공동통장", "1237", day(5), "예금 이자")
        step("a month of nine entries recorded by both")

        # Direct put-in:  지훈 1,000,000 + 15,500 = 1,015,500
        #                 하은 84,000 − 15,500 − 50,000 = 18,500
        # Used: 1,000,000 + 84,000 − 50,000 + 1,237 = 1,035,237
        #   (shared spending 84,000 + 31,000 + 12,000 = 127,000, plus what 공동통장 gained:
        #    1,000,000 − 31,000 − 12,000 − 50,000 + 1,237 = 908,237; 127,000 + 908,237 = 1,035,237).
        #
        # At the default 1:1 (weights equal: a remainder goes to the first by name, 지훈):
        #   used 1,035,237 / 2 = 517,618 each, 1 left → 지훈 517,619, 하은 517,618.
        #   interest 1,237 / 2 = 618 each, 1 left → 지훈 619, 하은 618 (put in).
        #   지훈 putIn 1,015,500 + 619 = 1,016,119; net 1,016,119 − 517,619 = 498,500
        #   하은 putIn 18,500 + 618 = 19,118;       net 19,118 − 517,618 = −498,500
        even = await ok(haeun, "settle_up", {"from": month, "to": month})
        expect_equal((even["from"], even["to"], even["currency"]), (first.isoformat(), last.isoformat(), "KRW"),
                     "settle_up period (YYYY-MM: its first and last day)")
        expect_equal(members_of(even), {
            JIHUN: {"putIn": "1016119", "share": "517619", "net": "498500"},
            HAEUN: {"putIn": "19118", "share": "517618", "net": "-498500"},
        }, "settle_up at 1:1")
        expect_equal(even["transfers"], [{"from": HAEUN, "to": JIHUN, "amount": "498500"}], "transfers at 1:1")
        step("settle_up at 1:1: 하은 pays 지훈 498,500")

        # ------------------------------------------------------------ shares 6:4
        shares = await ok(jihun, "update_vault", {"shares": {JIHUN: 6, HAEUN: 4}})
        expect_equal(({s["member"]: s["weight"] for s in shares["shares"]}, shares["changed"]),
                     ({JIHUN: 6, HAEUN: 4}, True), "update_vault shares")
        # From the first of this month, so the whole month divides 6:4 (remainder: 지훈, the largest):
        #   used 1,035,237 × 6/10 = 621,142.2 → 621,142; × 4/10 = 414,094.8 → 414,094;
        #     1,035,236, 1 left → 지훈 621,143, 하은 414,094.
        #   interest 1,237 × 6/10 = 742.2 → 742; × 4/10 = 494.8 → 494; 1 left → 지훈 743, 하은 494.
        #   지훈 putIn 1,015,500 + 743 = 1,016,243; net 1,016,243 − 621,143 = 395,100
        #   하은 putIn 18,500 + 494 = 18,994;       net 18,994 − 414,094 = −395,100
        #   (by the other road: 하은's 4/10 of 1,034,000 is 413,600, less her 18,500: 395,100.)
        owed = {
            JIHUN: {"putIn": "1016243", "share": "621143", "net": "395100"},
            HAEUN: {"putIn": "18994", "share": "414094", "net": "-395100"},
        }
        owed_transfers = [{"from": HAEUN, "to": JIHUN, "amount": "395100"}]
        settled = await ok(jihun, "settle_up", {"from": month, "to": month})
        expect_equal(members_of(settled), owed, "settle_up at 6:4")
        expect_equal(settled["transfers"], owed_transfers, "transfers at 6:4")
        by_dates = await ok(haeun, "settle_up", {"from": first.isoformat(), "to": today.isoformat()})
        expect_equal((by_dates["from"], by_dates["to"]), (first.isoformat(), today.isoformat()), "settle_up dates")
        expect_equal((members_of(by_dates), by_dates["transfers"]), (owed, owed_transfers), "settle_up by dates")
        # Left out, from is the first counted entry (openings are not counted) and to is today.
        default = await ok(haeun, "settle_up", {})
        expect_equal((default["from"], default["to"]), (day(1), today.isoformat()), "settle_up default period")
        expect_equal((members_of(default), default["transfers"]), (owed, owed_transfers), "settle_up default")
        step("update_vault 6:4 counts for the whole month: 하은 pays 지훈 395,100")

        # ------------------------------------------------------------ spending by member
        # Expense postings: shared 식비 84,000 + 생활용품 31,000 + 용돈 (for shared) 12,000 =
        # 127,000 → 6:4: 76,200 and 50,800 (no remainder). 하은's own: 식비 for her 15,500 +
        # 용돈 20,000 = 35,500. 지훈 76,200; 하은 35,500 + 50,800 = 86,300; total 162,500.
        spent = {JIHUN: "76200", HAEUN: "86300"}
        report_ = await ok(haeun, "spending_report", {"from": month, "to": month, "by": "member"})
        expect_equal((rows_of(report_), report_["total"], report_["by"]), (spent, "162500", "member"),
                     "spending_report by member")
        # Income: 월급 3,000,000 is 지훈's; 이자 1,237 shared 6:4 → 743 and 494 (as above).
        income = await ok(jihun, "spending_report", {"from": month, "to": month, "by": "member", "kind": "income"})
        expect_equal((rows_of(income), income["total"]), ({JIHUN: "3000743", HAEUN: "494"}, "3001237"),
                     "spending_report income by member")
        step("spending by member: 지훈 76,200, 하은 86,300 (own plus 6:4 of 127,000 shared)")

        # ------------------------------------------------------------ refusals, nothing stored
        # Each would move a figure above if it were stored: 지훈통장 paying 식비 puts in, a
        # transfer between their own accounts settles, a weight changes the shares.
        msg = await refused(jihun, "record_transaction", {"from": "지훈통장", "to": "식비", "amount": "7000",
                                                          "date": today.isoformat(), "for": "민수",
                                                          "idempotencyKey": "bad-for"})
        if HAEUN not in msg or JIHUN not in msg:
            raise StoryFailure(f"a `for` naming no member was refused without naming the members: {msg}")
        msg_transfer = await refused(haeun, "record_transaction", {
            "from": "하은통장", "to": "지훈통장", "amount": "7000", "date": today.isoformat(), "for": HAEUN,
            "idempotencyKey": "bad-for-transfer"})
        msg_negative = await refused(jihun, "update_vault", {"shares": {HAEUN: -1}})
        msg_nobody = await refused(jihun, "update_vault", {"shares": {"민수": 3}})
        if HAEUN not in msg_nobody or JIHUN not in msg_nobody:
            raise StoryFailure(f"shares naming no member were refused without naming the members: {msg_nobody}")
        msg_member = await refused(haeun, "update_vault", {"shares": {HAEUN: 1}})
        for what, text, word in [("`for` on a transfer", msg_transfer, "expense"),
                                 ("negative weight", msg_negative, "weight"), ("member's shares", msg_member, "owner")]:
            if word not in text:
                raise StoryFailure(f"the refusal of a {what} does not say {word!r}: {text}")
        same = await ok(jihun, "update_vault", {"shares": {HAEUN: 4}})
        expect_equal(({s["member"]: s["weight"] for s in same["shares"]}, same["changed"]),
                     ({JIHUN: 6, HAEUN: 4}, False), "shares unchanged after the refusals")
        after = await ok(haeun, "settle_up", {"from": month, "to": month})
        expect_equal((members_of(after), after["transfers"]), (owed, owed_transfers),
                     "settle_up unchanged after the refusals")
        report_refused = await ok(jihun, "spending_report", {"from": month, "to": month, "by": "member"})
        expect_equal((rows_of(report_refused), report_refused["total"]), (spent, "162500"),
                     "spending by member unchanged after the refusals")
        step("refused, nothing stored: `for` 민수, `for` on a transfer, weight −1, shares for 민수, "
             "shares from a member")

        # ------------------------------------------------------------ paying up
        # 하은통장 → 지훈통장 395,100 (between their own accounts: a settlement):
        #   하은 puts in +395,100 → 18,994 + 395,100 = 414,094 = her share; net 0.
        #   지훈 takes out 395,100 → 1,016,243 − 395,100 = 621,143 = his share; net 0.
        paid = await record(haeun, "settle", "하은통장", "지훈통장", "395100", today.isoformat(), f"{today.month}월 정산")
        even_now = await ok(jihun, "settle_up", {"from": month, "to": month})
        expect_equal(members_of(even_now), {
            JIHUN: {"putIn": "621143", "share": "621143", "net": "0"},
            HAEUN: {"putIn": "414094", "share": "414094", "net": "0"},
        }, "settle_up after the transfer")
        expect_equal(even_now["transfers"], [], "no transfers left")
        # A transfer is no spending: the report by member stays as it was.
        report_after = await ok(jihun, "spending_report", {"from": month, "to": month, "by": "member"})
        expect_equal((rows_of(report_after), report_after["total"]), (spent, "162500"),
                     "spending by member after the transfer")
        step("하은 paid 395,100 from 하은통장 into 지훈통장: every net 0, no transfers")

        undone = await ok(haeun, "undo", {"operationId": paid["operationId"]})
        expect_equal(([u["action"] for u in undone["undone"]], undone["alreadyUndone"]), (["voided"], False),
                     "undo of the settlement")
        back = await ok(haeun, "settle_up", {"from": month, "to": month})
        expect_equal((members_of(back), back["transfers"]), (owed, owed_transfers), "settle_up after undo")
        step("undo of the settlement: 하은 owes 지훈 395,100 again")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
