"""The one way the `mcp` 2.x stories open a session: a Bearer token on every request
(httpx2), the streamable HTTP transport, and the SDK's `Client` in `mode="auto"` (it
negotiates the era the server offers). Kept apart from `story.py`, which the `mcp` 1.x
stories import too, and 1.x has none of these modules."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import httpx2
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation


async def connect(stack: AsyncExitStack, url: str, token: str, name: str) -> Any:
    """A session for `token` named `name`, closed with `stack`."""
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30.0, read=60.0))
    await stack.enter_async_context(http)
    client = Client(streamable_http_client(url, http_client=http), mode="auto",
                    client_info=Implementation(name=name, version="1.0.0"))
    return await stack.enter_async_context(client)
