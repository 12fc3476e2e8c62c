"""Words that categorize (issue 54) through the official Python SDK (`mcp` 2.x): a card
statement imported without categories, categorized by the words the book learned from the
month before, plus a savings goal and the card's 실적.

Last month is entered by hand, with `to`: 이마트 twice and GS25 twice into 식비 (so both
first words are learned for it), a refund, the 관리비 on the card and the subway top-up
from the bank. 카페 gets the set words 스타벅스 and 스벅. This month's statement comes
without categories: the dry run shows each line's `categorizedBy` and the line nothing
names (다이소) as its error; once it names 생활용품 the same key records it (the flow of
the import_statement prompt), and again replays. A GS25 line moved to 간식 by
edit_transaction is the latest correction: the next GS25 goes to 간식. Then the card's
실적 over last month's bill (관리비 excluded), a savings goal for 여행통장, and refusals
that store nothing.

Every figure is worked out by hand in the comments. Dates are relative to the vault's
today (the server's real clock): last month's entries on its days 3–25, this month's on
its days 2–6 or today, whichever is earlier, so every entry is dated on or before today."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x words"
VAULT = "단어 가계부"
EXPENSES = ["식비", "카페", "관리비", "교통"]
"""The categories made first; a refusal for a memo no words name lists each of them."""


def first_of(month: dt.date, shift: int) -> dt.date:
    """The first day of the month `shift` months from `month`'s."""
    index = month.year * 12 + month.month - 1 + shift
    return dt.date(index // 12, index % 12 + 1, 1)


def by_word(word: str, account: str, learned: bool) -> dict[str, Any]:
    return {"word": word, "account": account, "learned": learned}


def no_match(message: str, memo: str, what: str) -> None:
    """A memo no category's words name: refused (as every refusal, `Invalid <argument>: …`),
    naming the categories."""
    if not message.startswith(f"Invalid to: no category's words match the memo \"{memo}\""):
        raise StoryFailure(f"{what}: not refused for its words: {message}")
    missing = [c for c in EXPENSES if f"\"{c}\"" not in message]
    if missing:
        raise StoryFailure(f"{what}: the refusal does not name the categories {missing}: {message}")


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
        c = await connect(stack, url, token, "dochiya-words")

        async def ok(tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await c.call_tool(tool, args), tool)

        async def refused(tool: str, args: dict[str, Any]) -> str:
            r = await c.call_tool(tool, args)
            if not (getattr(r, "isError", None) or getattr(r, "is_error", None)):
                raise StoryFailure(f"{tool} {args} was not refused")
            return " ".join(getattr(x, "text", "") for x in r.content)

        async def balances() -> dict[str, str]:
            return {a["name"]: a["balance"] for a in (await ok("list_accounts", {}))["accounts"]}

        async def entry_count() -> int:
            listed = await ok("list_transactions", {"limit": 200})
            if "nextCursor" in listed:
                raise StoryFailure("list_transactions: more than one page")
            return len(listed["transactions"])

        # ------------------------------------------------------------ the vault
        await ok("create_vault", {"name": VAULT})
        today = dt.date.fromisoformat((await ok("list_vaults", {}))["vaults"][0]["today"])
        this_month = first_of(today, 0)
        last_month = first_of(today, -1)

        def day(n: int) -> str:
            """Day n of this month, or today when n is later (every entry ≤ today)."""
            return today.replace(day=min(n, today.day)).isoformat()

        def lm(n: int) -> str:
            """Day n of last month (every month has days 1–28)."""
            return last_month.replace(day=n).isoformat()

        # 카카오뱅크 opens on the first of last month, before anything it pays.
        await ok("create_account", {"name": "카카오뱅크", "kind": "asset", "openingBalance": "2500000",
                                    "openingDate": last_month.isoformat()})
        await ok("create_account", {"name": "신한카드", "kind": "liability"})
        for name in EXPENSES:
            await ok("create_account", {"name": name, "kind": "expense"})
        await ok("create_account", {"name": "여행통장", "kind": "asset"})
        # 신한카드: all of last month (전월 1일 ~ 전월 말일) paid on the 14th; 실적 300,000
        # per usage period, 관리비 not counted.
        billed = await ok("update_account", {"account": "신한카드", "billing": {
            "closingDay": 31, "paymentDay": 14, "performance": {"threshold": "300000", "exclude": ["관리비"]}}})
        expect_equal((billed["account"]["billing"].get("closingDay"), billed["account"]["billing"].get("paymentDay"),
                      billed["changed"]), (31, 14, True), "update_account billing with performance")
        words = await ok("update_account", {"account": "카페", "match": ["스타벅스", "스벅"]})
        expect_equal((words["account"].get("match"), words["changed"]),
                     ([{"word": "스타벅스", "learned": False}, {"word": "스벅", "learned": False}], True),
                     "update_account match on 카페")
        step("카카오뱅크, 신한카드 (14일 결제, 실적 300,000 without 관리비), 식비 카페 관리비 교통, 여행통장; "
             "카페's words 스타벅스, 스벅")

        # ------------------------------------------------------------ last month, by hand
        ids: dict[str, str] = {}

        async def record(key: str, frm: str, to: str, amount: str, on: str, memo: str) -> dict[str, Any]:
            out = await ok("record_transaction", {"from": frm, "to": to, "amount": amount, "date": on,
                                                  "memo": memo, "idempotencyKey": f"words-{key}"})
            ids[key] = out["transaction"]["transactionId"]
            return out

        async def guess(key: str, memo: str, amount: str) -> str:
            """A dry run without `to` that the words cannot place: its refusal."""
            return await refused("record_transaction", {"from": "신한카드", "amount": amount, "memo": memo,
                                                        "date": today.isoformat(), "dryRun": True,
                                                        "idempotencyKey": f"words-{key}"})

        # First words (their letters only, two or more): 이마트, GS (of GS25), 지하철, 관리비.
        await record("l1", "신한카드", "식비", "64300", lm(3), "이마트 장보기")
        # One live entry with a word teaches nothing yet.
        no_match(await guess("guess-1", "이마트 성수", "10000"), "이마트 성수", "이마트 after one entry")
        await record("l2", "신한카드", "식비", "4800", lm(8), "GS25 삼성")
        await record("l3", "카카오뱅크", "교통", "45000", lm(12), "지하철 충전")
        await record("l4", "신한카드", "식비", "87650", lm(17), "이마트 장보기")
        # A refund onto the card: money goes into 신한카드, no category, so 이마트 still went
        # nowhere but 식비.
        await record("l5", "식비", "신한카드", "12000", lm(19), "이마트 환불")
        await record("l6", "신한카드", "식비", "6200", lm(21), "GS25 역삼")
        await record("l7", "신한카드", "관리비", "185000", lm(25), f"관리비 {last_month.month}월")
        step("last month by hand: 이마트 ×2 and GS25 ×2 into 식비, a refund, 관리비 on the card, 지하철 from the bank")

        # ------------------------------------------------------------ this month's statement
        # 신한카드's balance now: 64,300 + 4,800 + 87,650 − 12,000 + 6,200 + 185,000 = 335,950.
        before = await balances()
        expect_equal((before["신한카드"], before["식비"]), ("335950", "150950"), "balances before the statement")
        count_before = await entry_count()
        # The opening, and last month's seven.
        expect_equal(count_before, 8, "entries before the statement")
        lines: list[dict[str, Any]] = [
            {"from": "신한카드", "amount": "5800", "date": day(2), "memo": "스타벅스 강남", "externalRef": "A5402"},
            {"from": "신한카드", "amount": "73420", "date": day(4), "memo": "이마트 성수", "externalRef": "A5403"},
            {"from": "신한카드", "amount": "3900", "date": day(5), "memo": "GS25 역삼", "externalRef": "A5404"},
            {"from": "신한카드", "amount": "8000", "date": day(6), "memo": "다이소 문구", "externalRef": "A5405"},
        ]
        key = f"words-statement-{this_month:%Y-%m}"
        chosen = [
            by_word("스타벅스", "카페", False),  # a set word of 카페 (set words win)
            by_word("이마트", "식비", True),     # two live entries into 식비, none elsewhere
            by_word("GS", "식비", True),         # GS25 → its letters, GS: two into 식비
        ]
        dry = await ok("record_transactions", {"entries": lines, "idempotencyKey": key, "dryRun": True})
        expect_equal((dry["dryRun"], dry["counts"]),
                     (True, {"recorded": 0, "wouldRecord": 3, "replayed": 0, "duplicate": 0, "error": 1}),
                     "dry run counts")
        expect_equal([(r["index"], r["status"], r.get("categorizedBy")) for r in dry["results"][:3]],
                     [(i, "wouldRecord", b) for i, b in enumerate(chosen)], "dry run: each line's categorizedBy")
        daiso = dry["results"][3]
        expect_equal((daiso["index"], daiso["status"], daiso.get("categorizedBy"), daiso.get("transactionId")),
                     (3, "error", None, None), "dry run: the 다이소 line")
        no_match(daiso["message"], "다이소 문구", "the 다이소 line")
        expect_equal((await balances(), await entry_count()), (before, count_before), "the dry run stored nothing")
        step("dry run: 스타벅스 → 카페 (set), 이마트 → 식비 and GS → 식비 (learned); 다이소: no category")

        # The person names 다이소's category; the same key, checked again, then recorded.
        await ok("create_account", {"name": "생활용품", "kind": "expense"})
        lines[3] = lines[3] | {"to": "생활용품"}
        dry2 = await ok("record_transactions", {"entries": lines, "idempotencyKey": key, "dryRun": True})
        expect_equal(dry2["counts"], {"recorded": 0, "wouldRecord": 4, "replayed": 0, "duplicate": 0, "error": 0},
                     "second dry run counts")
        expect_equal([r.get("categorizedBy") for r in dry2["results"]], chosen + [None],
                     "second dry run: categorizedBy (생활용품 named, not chosen)")
        real = await ok("record_transactions", {"entries": lines, "idempotencyKey": key})
        expect_equal((real["dryRun"], real["counts"]),
                     (False, {"recorded": 4, "replayed": 0, "duplicate": 0, "error": 0}), "statement recorded")
        expect_equal([(r["status"], r.get("categorizedBy")) for r in real["results"]],
                     [("recorded", b) for b in chosen] + [("recorded", None)], "recorded lines' categorizedBy")
        statement_ids = [r["transactionId"] for r in real["results"]]
        # 신한카드 335,950 + 5,800 + 73,420 + 3,900 + 8,000 = 427,070;
        # 식비 150,950 + 73,420 + 3,900 = 228,270; 카페 5,800; 생활용품 8,000.
        expect_equal({b["account"]: b["balance"] for b in real["balances"]},
                     {"신한카드": "427070", "카페": "5800", "식비": "228270", "생활용품": "8000"},
                     "balances the statement touched")
        again = await ok("record_transactions", {"entries": lines, "idempotencyKey": key})
        expect_equal((again["counts"], [r.get("transactionId") for r in again["results"]]),
                     ({"recorded": 0, "replayed": 4, "duplicate": 0, "error": 0}, statement_ids),
                     "the same key again replays")
        expect_equal(await entry_count(), count_before + 4, "four entries recorded once")
        step("the statement recorded with the dry run's key (생활용품 named for 다이소); again: replayed")

        # ------------------------------------------------------------ a correction
        # The GS25 line was a snack: moved to 간식, the latest correction wins for GS.
        await ok("create_account", {"name": "간식", "kind": "expense"})
        snack_words = await ok("update_account", {"account": "간식", "match": ["편의점"]})
        expect_equal(snack_words["account"].get("match"), [{"word": "편의점", "learned": False}], "간식's set word")
        edited = await ok("edit_transaction", {"transactionId": statement_ids[2], "to": "간식",
                                               "idempotencyKey": "words-fix-gs25"})
        expect_equal((edited["changed"], edited["transaction"]["version"],
                      sorted((p["account"], p["amount"]) for p in edited["transaction"]["postings"])),
                     (True, 2, [("간식", "3900"), ("신한카드", "-3900")]), "edit_transaction GS25 → 간식")
        gs = await ok("record_transaction", {"from": "신한카드", "amount": "2700", "memo": "GS25 선릉",
                                             "date": today.isoformat(), "idempotencyKey": "words-gs25-later"})
        ids["gs"] = gs["transaction"]["transactionId"]
        expect_equal((gs["categorizedBy"], sorted((p["account"], p["amount"]) for p in gs["transaction"]["postings"])),
                     (by_word("GS", "간식", True), [("간식", "2700"), ("신한카드", "-2700")]),
                     "GS25 after the correction")
        listed = (await ok("list_accounts", {}))["accounts"]
        # 이마트: three into 식비 (the refund went into the card). GS: corrected to 간식.
        # Set words first, then learned ones; a category with none shows no `match`.
        expect_equal({a["name"]: a.get("match") for a in listed if a["kind"] == "expense"}, {
            "식비": [{"word": "이마트", "learned": True}],
            "카페": [{"word": "스타벅스", "learned": False}, {"word": "스벅", "learned": False}],
            "관리비": None,
            "교통": None,
            "생활용품": None,
            "간식": [{"word": "편의점", "learned": False}, {"word": "GS", "learned": True}],
        }, "list_accounts words")
        # 식비 228,270 − 3,900 = 224,370; 간식 3,900 + 2,700 = 6,600; 신한카드 427,070 + 2,700 = 429,770.
        now = {a["name"]: a["balance"] for a in listed}
        expect_equal((now["식비"], now["간식"], now["신한카드"]), ("224370", "6600", "429770"),
                     "balances after the correction")
        step("GS25 moved to 간식 by edit_transaction; the next GS25 goes to 간식 (learned); list_accounts words")

        # ------------------------------------------------------------ the card's 실적
        # closingDay 31, paymentDay 14: last month's usage is paid on this month's 14th,
        # so the bill named this month holds all of last month.
        bill = await ok("card_bill", {"account": "신한카드", "month": f"{this_month:%Y-%m}"})
        last_day = this_month - dt.timedelta(days=1)
        expect_equal((bill["period"], bill["dueDate"]),
                     ({"from": last_month.isoformat(), "to": last_day.isoformat()},
                      this_month.replace(day=14).isoformat()), "the bill of last month's usage")
        expect_equal([(i["transactionId"], i["date"], i["memo"], i["amount"]) for i in bill["items"]], [
            (ids["l1"], lm(3), "이마트 장보기", "64300"),
            (ids["l2"], lm(8), "GS25 삼성", "4800"),
            (ids["l4"], lm(17), "이마트 장보기", "87650"),
            (ids["l5"], lm(19), "이마트 환불", "-12000"),
            (ids["l6"], lm(21), "GS25 역삼", "6200"),
            (ids["l7"], lm(25), f"관리비 {last_month.month}월", "185000"),
        ], "the bill's items (지하철 was paid from the bank)")
        # 64,300 + 4,800 + 87,650 − 12,000 + 6,200 + 185,000 = 335,950, nothing paid.
        expect_equal((bill["total"], bill["paid"], bill["remaining"]), ("335950", "0", "335950"),
                     "the bill's total")
        # 실적: charges less the refund, 관리비 apart: 64,300 + 4,800 + 87,650 − 12,000 + 6,200
        # = 150,950 counted; excluded 185,000; left 300,000 − 150,950 = 149,050.
        expect_equal(bill.get("performance"),
                     {"counted": "150950", "threshold": "300000", "left": "149050", "excluded": "185000"},
                     "card_bill performance")
        step("card_bill: last month's 실적 150,950 of 300,000 (149,050 left), 관리비 185,000 excluded")

        # ------------------------------------------------------------ a savings goal
        await record("trip", "카카오뱅크", "여행통장", "200000", today.isoformat(), "여행 자금 이체")
        # By the last day of the month five months on: six months from this one through it.
        by = first_of(today, 6) - dt.timedelta(days=1)
        # saved 200,000 (여행통장 today); left 1,200,000 − 200,000 = 1,000,000;
        # monthlyNeeded ⌈1,000,000 ÷ 6⌉ = ⌈166,666.67⌉ = 166,667; onTrack: set today, the
        # straight line stands at 0 today, and 200,000 ≥ 0.
        goal = {"name": "여행 자금", "account": "여행통장", "target": "1200000", "by": by.isoformat(),
                "saved": "200000", "left": "1000000", "monthlyNeeded": "166667", "onTrack": True}
        goal_args = {"name": "여행 자금", "account": "여행통장", "target": "1200000", "by": by.isoformat()}
        set_ = await ok("set_goal", goal_args)
        expect_equal((set_["goal"], set_["created"], set_["removed"]), (goal, True, False), "set_goal")
        same = await ok("set_goal", goal_args)
        expect_equal((same["goal"], same["created"], same["removed"]), (goal, False, False), "set_goal again")
        listed = (await ok("list_accounts", {}))["accounts"]
        trip = next(a for a in listed if a["name"] == "여행통장")
        expect_equal((trip["balance"], trip.get("goal")), ("200000", goal), "list_accounts goal")
        # 카카오뱅크 2,500,000 − 45,000 − 200,000 = 2,255,000.
        expect_equal(next(a["balance"] for a in listed if a["name"] == "카카오뱅크"), "2255000", "카카오뱅크")
        budgets = await ok("budget_report", {})
        expect_equal(budgets.get("goals"), [goal], "budget_report goals")
        # Two months of charges: nothing runs three months, nothing is detected.
        expect_equal((await ok("list_recurring", {}))["detected"], [], "list_recurring detected")
        step("set_goal 여행 자금: 200,000 saved, 1,000,000 left, 166,667 a month for 6 months, on track")

        # ------------------------------------------------------------ refusals, nothing stored
        count_now = await entry_count()
        # The opening, seven last month, four from the statement, GS25 선릉, the transfer.
        expect_equal(count_now, 14, "entries before the refusals")
        bank = await refused("update_account", {"account": "카카오뱅크", "match": ["카카오"]})
        if "not an expense category" not in bank:
            raise StoryFailure(f"words on 카카오뱅크 refused without saying why: {bank}")
        food_goal = await refused("set_goal", {"name": "외식 줄이기", "account": "식비", "target": "500000"})
        if "asset" not in food_goal or "expense" not in food_goal:
            raise StoryFailure(f"a goal on 식비 refused without naming its kind: {food_goal}")
        memo = "편의점 스벅 라떼"
        both = await refused("record_transaction", {"from": "신한카드", "amount": "4500", "memo": memo,
                                                    "date": today.isoformat(), "idempotencyKey": "words-both"})
        if "two categories" not in both or "\"간식\"" not in both or "\"카페\"" not in both:
            raise StoryFailure(f"a memo with two categories' words refused without naming both: {both}")
        listed = (await ok("list_accounts", {}))["accounts"]
        after = {a["name"]: (a["balance"], a.get("match"), a.get("goal")) for a in listed}
        expect_equal((after["카카오뱅크"], after["식비"][2], after["신한카드"][0], after["카페"][0]),
                     (("2255000", None, None), None, "429770", "5800"), "accounts unchanged after the refusals")
        expect_equal(((await ok("budget_report", {})).get("goals"), await entry_count()), ([goal], count_now),
                     "goals and entries unchanged after the refusals")
        step("refused, nothing stored: words on 카카오뱅크, a goal on 식비, a memo with 간식's and 카페's words")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
