"""A modern-only MCP server (protocol 2026-07-28) built with the official Python SDK.

The SDK's servers speak both protocol eras: the client's first request decides which. This one
refuses the handshake era, as a server written for 2026-07-28 alone does: every request that
does not carry the 2026-07-28 envelope (`initialize`, or a bare `tools/list`) is answered with
-32022 "unsupported protocol version" naming the versions it serves, so a client must open with
`server/discover` and stamp every request's `_meta`. Its tools carry what schema-compat flags
(a nullable union, a `$ref` to `$defs`, an enum, a bounded integer, a string format).

    python modern_server.py                 # stdio
    python modern_server.py --port PORT     # streamable HTTP at http://127.0.0.1:PORT/mcp
"""

from __future__ import annotations

import argparse
from typing import Annotated, Any, Literal

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field


async def modern_only(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Refuse every handshake-era request before it reaches the SDK's own handling."""
    if ctx.request_id is not None and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        params = ctx.params if isinstance(ctx.params, dict) else {}
        requested = params.get("protocolVersion", ctx.protocol_version)
        raise MCPError(
            code=UNSUPPORTED_PROTOCOL_VERSION,
            message="this server speaks only the 2026-07-28 protocol: open with server/discover",
            data={"supported": list(MODERN_PROTOCOL_VERSIONS),
                  "requested": requested if isinstance(requested, str) else ""},
        )
    return await call_next(ctx)


server = MCPServer(name="modern-only", version="1.0.0", middleware=[modern_only])


class Attendee(BaseModel):
    email: Annotated[str, Field(json_schema_extra={"format": "email"})]
    optional: bool = False


@server.tool()
def search_notes(query: str, limit: Annotated[int, Field(ge=1, le=50)] = 10,
                 tag: str | None = None) -> str:
    """Search the notes by text."""
    return f"{query}:{limit}:{tag}"


@server.tool()
def schedule(title: str, attendees: list[Attendee],
             priority: Literal["low", "normal", "high"] = "normal") -> str:
    """Schedule a meeting with the attendees."""
    return f"{title}:{len(attendees)}:{priority}"


@server.tool()
def echo(text: str) -> str:
    """Echo the text."""
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.port is None:
        server.run()
    else:
        server.run("streamable-http", host="127.0.0.1", port=args.port, stateless_http=True)


if __name__ == "__main__":
    main()
