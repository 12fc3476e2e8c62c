"""The ledger story over the Python SDK `mcp` 1.x, the legacy generation:
`ClientSession.initialize()` over Streamable HTTP. `call_tool` validates
structuredContent against the outputSchema cached from tools/list."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from mcp.types import Implementation
from story import StoryFailure, Tamper, env, report, run_story

LABEL = "py-mcp-1.x"


class TamperingTransport(httpx.AsyncBaseTransport):
    """Passes every exchange through, except the one response `Tamper` damages."""

    def __init__(self, tamper: Tamper) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._tamper = tamper

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        if not self._tamper.armed:
            return response
        body = await response.aread()
        damaged = self._tamper.maybe_damage(request.content, response.headers.get("content-type", ""), body)
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")]
        return httpx.Response(response.status_code, headers=headers,
                              content=damaged if damaged is not None else body, request=request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def main() -> list[str]:
    url, token = env()
    tamper = Tamper()

    def client_factory(headers: dict[str, str] | None = None, timeout: httpx.Timeout | None = None,
                       auth: httpx.Auth | None = None) -> httpx.AsyncClient:
        return httpx.AsyncClient(headers=headers, timeout=timeout, auth=auth, transport=TamperingTransport(tamper))

    async with streamablehttp_client(url, headers={"Authorization": f"Bearer {token}"},
                                     httpx_client_factory=client_factory) as (read, write, _session_id), \
            ClientSession(read, write, client_info=Implementation(name="dochiya-story-py-v1", version="1.0.0")) as session:
        init = await session.initialize()
        version = str(init.protocolVersion)
        if version not in ("2025-11-25", "2025-06-18", "2025-03-26"):
            raise StoryFailure(f"initialize negotiated {version}, expected a 2025 revision")
        print(f"[{LABEL}] ok: initialize negotiated {version} (server {init.serverInfo.name} "
              f"{init.serverInfo.version})", flush=True)

        async def list_tools() -> list[Any]:
            # The SDK's tools/list (it fills the output-schema cache), every page.
            result = await session.list_tools()
            tools = list(result.tools)
            while result.nextCursor:
                result = await session.list_tools(cursor=result.nextCursor)
                tools.extend(result.tools)
            return tools

        async def call_tool(name: str, args: dict[str, Any]) -> Any:
            return await session.call_tool(name, args)

        return [f"initialize negotiated {version}", *await run_story(LABEL, list_tools, call_tool, tamper)]


if __name__ == "__main__":
    try:
        steps: list[str] | BaseException = asyncio.run(main())
    except Exception as e:
        steps = e
    report(LABEL, steps)
