"""List a server's tools with the official Python client (`mcp` SDK, `mode="auto"`).

Prints one JSON object on stdout: the negotiated protocol version and era, the server's info
and every tool of every tools/list page, as the SDK's client parsed them. The interop suite
compares schema-compat's live listing with it.

    python py_list.py --stdio COMMAND [ARG...]   (the server inherits this process's environment)
    python py_list.py --http URL                 (streamable HTTP)
    python py_list.py --sse URL                  (legacy HTTP+SSE)

Exits 1 with a one-line message on any failure.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters

USAGE = "usage: py_list.py --stdio COMMAND [ARG...] | --http URL | --sse URL"
MAX_PAGES = 1000


def _server(argv: list[str]) -> Any:
    if len(argv) >= 2 and argv[0] == "--stdio":
        # The SDK's default passes the server only a few variables (HOME, PATH, ...): pass
        # them all, as a client configured with an env block does, so dummy tokens arrive.
        return StdioServerParameters(command=argv[1], args=argv[2:], env=dict(os.environ))
    if len(argv) == 2 and argv[0] == "--http":
        return argv[1]
    if len(argv) == 2 and argv[0] == "--sse":
        return sse_client(argv[1])
    raise SystemExit(USAGE)


async def _list(server: Any) -> dict[str, Any]:
    async with Client(server, mode="auto") as client:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            result = await client.list_tools(cursor=cursor)
            tools.extend(t.model_dump(by_alias=True, exclude_none=True, mode="json")
                         for t in result.tools)
            cursor = result.next_cursor
            if not cursor:
                break
        info = client.server_info
        return {
            "protocolVersion": client.protocol_version,
            "era": "stateless" if client.session.discover_result is not None else "handshake",
            "server": None if info is None else info.model_dump(by_alias=True, exclude_none=True,
                                                                mode="json"),
            "tools": tools,
        }


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def main() -> int:
    server = _server(sys.argv[1:])
    try:
        listing = anyio.run(_list, server)
    except Exception as exc:  # a one-line reason for the suite's failure message
        leaf = _leaf(exc)
        print(f"py_list: {type(leaf).__name__}: {leaf}", file=sys.stderr)
        return 1
    print(json.dumps(listing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
