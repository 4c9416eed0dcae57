"""An upstream for the proxy's tests, built with the official Python SDK (so it is as strict
as a real server, in both protocol eras), over stdio.

Its tools exercise what the proxy must get right beyond one call:
- `slow`: sleeps, so that concurrent calls show whether they overlap;
- `env`: the values of environment variables, as the server sees them;
- `grow`: adds a tool `extra_N` and tells the client (`notifications/tools/list_changed`),
  so that the listing changes;
- `die`: exits the process with code 3 in the middle of the call;
- `add`: strict integers and a list of them, which the proxy repairs when they come as
  text (the SDK's own validation would read "1" as 1; a strict server does not).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from pydantic import StrictInt

server = MCPServer(name="proxy-upstream", version="1.0.0")
_grown: list[str] = []


@server.tool()
async def slow(seconds: float) -> str:
    """Sleep, then say so."""
    await anyio.sleep(seconds)
    return f"slept {seconds}"


@server.tool()
def env(names: list[str]) -> dict[str, str | None]:
    """The environment variables named, as this server sees them (None when unset)."""
    return {name: os.environ.get(name) for name in names}


@server.tool()
async def grow(ctx: Context[Any, Any]) -> str:
    """Add a tool, and send notifications/tools/list_changed."""
    name = f"extra_{len(_grown) + 1}"

    def extra(value: int | None = None) -> str:
        return f"{name}:{value}"

    server.add_tool(extra, name=name, description=f"Added by grow ({name}).")
    _grown.append(name)
    await ctx.request_context.session.send_tool_list_changed()
    return name


@server.tool()
def die() -> str:
    """Exit at once, leaving the call unanswered."""
    sys.stdout.flush()
    os._exit(3)


@server.tool()
def add(a: StrictInt, b: StrictInt, more: list[StrictInt] | None = None) -> int:
    """a + b + the sum of more (strictly integers: "1" is refused, as many servers do)."""
    return a + b + sum(more or [])


if __name__ == "__main__":
    server.run()
