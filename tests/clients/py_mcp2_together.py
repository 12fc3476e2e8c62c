"""Two people keep one book, each through their own official Python SDK (`mcp` 2.x)
client with their own token (DOCHIYA_TOKEN, DOCHIYA_TOKEN_2): one creates and shares a
vault, the other joins it, both record, the report adds up both people's entries, the
owner removes the partner, and the partner's very next calls are refused."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from contextlib import AsyncExitStack
from typing import Any

from mcp2_session import connect
from story import StoryFailure, expect_equal, report, structured

LABEL = "py-mcp-2.x two people"


def error_text(result: Any, tool: str) -> str:
    if not (getattr(result, "isError", None) or getattr(result, "is_error", None)):
        raise StoryFailure(f"{tool} succeeded for a removed member: {result}")
    return " ".join(getattr(c, "text", "") for c in result.content)


async def main() -> list[str]:
    url, owner_token, partner_token = (os.environ.get(k) for k in
                                       ("DOCHIYA_MCP_URL", "DOCHIYA_TOKEN", "DOCHIYA_TOKEN_2"))
    if not url or not owner_token or not partner_token:
        print("DOCHIYA_MCP_URL, DOCHIYA_TOKEN and DOCHIYA_TOKEN_2 must be set", file=sys.stderr)
        sys.exit(2)
    steps: list[str] = []

    def step(s: str) -> None:
        steps.append(s)
        print(f"[{LABEL}] ok: {s}", flush=True)

    async with AsyncExitStack() as stack:
        owner = await connect(stack, url, owner_token, "dochiya-together-owner")
        partner = await connect(stack, url, partner_token, "dochiya-together-partner")

        async def ok(client: Any, tool: str, args: dict[str, Any]) -> dict[str, Any]:
            return structured(await client.call_tool(tool, args), tool)

        await ok(owner, "create_vault", {"name": "함께 쓰는 가계부"})
        await ok(owner, "create_account", {"name": "생활비 통장", "kind": "asset", "openingBalance": "1000000"})
        await ok(owner, "create_account", {"name": "식비", "kind": "expense"})
        invite = await ok(owner, "share_vault", {})
        expect_equal(invite["role"], "member", "share_vault role")
        step("the owner shared the vault")

        joined = await ok(partner, "join_vault", {"inviteCode": invite["inviteCode"]})
        expect_equal((joined["vault"]["name"], joined["role"], len(joined["members"])),
                     ("함께 쓰는 가계부", "member", 2), "join_vault")
        step("the partner joined with the code")

        today = (await ok(owner, "list_vaults", {}))["vaults"][0]["today"]
        await ok(owner, "record_transaction", {"from": "생활비 통장", "to": "식비", "amount": "12000",
                                               "date": today, "memo": "점심", "idempotencyKey": "together-1"})
        # The same key string from another person is another entry (keys are per person).
        await ok(partner, "record_transaction", {"from": "생활비 통장", "to": "식비", "amount": "30000",
                                                 "date": today, "memo": "장보기", "idempotencyKey": "together-1"})
        listed = await ok(owner, "list_transactions", {})
        recorders = sorted(t["recordedBy"] is not None for t in listed["transactions"])
        expect_equal(len(listed["transactions"]), 3, "entries: the opening balance and one each")
        expect_equal(recorders, [True, True, True], "every entry names who recorded it")
        report_ = await ok(owner, "spending_report", {"from": today, "to": today})
        expect_equal(report_["total"], "42000", "spending_report adds both people's entries")
        step("both recorded; the report adds both entries up (42,000)")

        members = (await ok(owner, "list_vaults", {}))["vaults"][0]["members"]
        partner_name = next(m["name"] for m in members if not m["you"])
        removed = await ok(owner, "remove_member", {"member": partner_name})
        expect_equal(removed["removed"], True, "remove_member")
        refused = error_text(await partner.call_tool("list_transactions", {}), "list_transactions")
        if "vault" not in refused:
            raise StoryFailure(f"the removed partner's read was refused without naming the vault: {refused}")
        refused_write = error_text(await partner.call_tool(
            "record_transaction", {"from": "생활비 통장", "to": "식비", "amount": "1000", "idempotencyKey": "after"}),
            "record_transaction")
        step(f"removed: the partner is refused at once ({json.dumps(refused_write[:40], ensure_ascii=False)}…)")
    return steps


if __name__ == "__main__":
    try:
        result: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        result = e
    report(LABEL, result)
