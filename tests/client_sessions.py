"""The official SDK's client talking to `schema-compat proxy`, for the proxy tests: the proxy
is started over stdio as an MCP client starts its servers, and the session is opened in
either protocol era."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, REPO_ROOT

Body = Callable[[ClientSession], Awaitable[Any]]


def proxy_session(proxy_args: Sequence[str], body: Body, *,
                  env: Mapping[str, str] | None = None, era: str = "legacy",
                  notes: list[str] | None = None) -> Any:
    """The SDK's client starts `schema-compat proxy PROXY_ARGS` (in `env` on top of this
    process's environment, as a client config's env block does), opens its session in `era`
    ("legacy": initialize; "auto": server/discover first) and returns what `body` returns.
    The proxy's stderr is discarded. With `notes`, the method of each notification the
    session receives is appended to it."""

    async def on_message(message: Any) -> None:
        root = getattr(message, "root", message)
        method = getattr(root, "method", None)
        if notes is not None and isinstance(method, str):
            notes.append(method)

    async def main() -> Any:
        params = StdioServerParameters(
            command=PY, args=["-m", "schema_compat", "proxy", *proxy_args],
            cwd=str(REPO_ROOT), env={**os.environ, **(env or {})})
        with open(os.devnull, "w") as devnull:
            async with Client(stdio_client(params, errlog=devnull), mode=era, cache=None,
                              message_handler=on_message if notes is not None
                              else None) as client:
                return await body(client.session)

    return anyio.run(main)


def result_text(result: Any) -> str:
    """The text of a tools/call result, its content blocks one per line."""
    return "\n".join(c.text for c in result.content)
