"""The ledger story over the Python SDK `mcp` 2.x: `Client(mode="auto")` probes
`server/discover` and must end up on 2026-07-28 against dochiya. `call_tool`
validates structuredContent against the outputSchema cached from tools/list."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation
from story import StoryFailure, Tamper, env, report, run_story

LABEL = "py-mcp-2.x"


class TamperingTransport(httpx2.AsyncBaseTransport):
    """Passes every exchange through, except the one response `Tamper` damages."""

    def __init__(self, tamper: Tamper) -> None:
        self._inner = httpx2.AsyncHTTPTransport()
        self._tamper = tamper

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if not self._tamper.armed:
            return response
        body = await response.aread()
        damaged = self._tamper.maybe_damage(request.content, response.headers.get("content-type", ""), body)
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")]
        return httpx2.Response(response.status_code, headers=headers,
                               content=damaged if damaged is not None else body, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def main() -> list[str]:
    url, token = env()
    tamper = Tamper()
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, transport=TamperingTransport(tamper),
                              timeout=httpx2.Timeout(30.0, read=60.0))
    async with http, Client(streamable_http_client(url, http_client=http), mode="auto",
                             client_info=Implementation(name="dochiya-story-py-v2", version="1.0.0")) as client:
        version = client.protocol_version
        if version != "2026-07-28":
            raise StoryFailure(f"negotiated {version}, expected 2026-07-28 via server/discover")
        print(f"[{LABEL}] ok: server/discover negotiated {version} (server {client.server_info})", flush=True)

        async def list_tools() -> list[Any]:
            # The SDK's tools/list (its cache feeds the output-schema validators), every page.
            result = await client.list_tools(cache_mode="refresh")
            tools = list(result.tools)
            while result.next_cursor:
                result = await client.list_tools(cursor=result.next_cursor)
                tools.extend(result.tools)
            return tools

        async def call_tool(name: str, args: dict[str, Any]) -> Any:
            return await client.call_tool(name, args)

        return [f"negotiated {version}", *await run_story(LABEL, list_tools, call_tool, tamper)]


if __name__ == "__main__":
    try:
        steps: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        steps = e
    report(LABEL, steps)
