"""The exchange with one live server over an SDK `ClientSession`: the protocol era
negotiated as the SDK's own client does in its `auto` mode (a `server/discover` probe for
the stateless 2026 era, falling back to the `initialize` handshake), then every page of
`tools/list` read raw through the session's dispatcher, stamped as the session stamps every
request of the negotiated era (`_meta` and headers in the 2026 era). Raw, because the SDK's
typed `list_tools` validates the whole listing and rejects it when one tool is malformed,
while flagging that tool is exactly our job.

Negotiation and listing are one module because they are one conversation through the same
session, and the SDK's errors of both become the same two (`Closed`, `RpcError`).

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

from typing import Any, cast

from mcp.client._probe import negotiate_auto
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, Implementation

from .. import __version__
from ..model import ServerInfo
from .config import ServerError, ServerSpec
from .live_probe import Probe

MAX_PAGES = 1000


class Closed(Exception):
    """The transport closed before the answer came."""


class RpcError(Exception):
    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method}: {message} ({code})")
        self.method, self.code, self.text = method, code, message


async def _raw_request(session: ClientSession, method: str, params: dict[str, Any] | None
                       ) -> dict[str, Any]:
    """Send one request of the negotiated era and return its result unvalidated.

    The session's stamp adds what the era asks of every request (the 2026 era's `_meta`
    and `Mcp-*` headers, the handshake era's `Mcp-Protocol-Version` header); the dispatcher
    sends an omitted `params` as `{}`, never `null`, which TypeScript servers refuse.
    """
    data: dict[str, Any] = {"method": method}
    if params is not None:
        data["params"] = params
    opts: dict[str, Any] = {}
    inner = cast(Any, session)
    inner._stamp(data, opts)
    try:
        result = await inner._dispatcher.send_raw_request(method, data.get("params"), opts)
    except MCPError as exc:
        if exc.code == CONNECTION_CLOSED:
            raise Closed from None
        raise RpcError(method, exc.code, exc.message) from None
    return cast(dict[str, Any], result)


async def _negotiate(session: ClientSession, probe: Probe) -> None:
    """As the SDK's client does in `auto` mode: `server/discover`, else `initialize`."""
    probe.stage = "initialize"
    try:
        await negotiate_auto(session)
    except MCPError as exc:
        if exc.code == CONNECTION_CLOSED:
            raise Closed from None
        raise RpcError("initialize", exc.code, exc.message) from None
    except RuntimeError as exc:  # a version the SDK does not speak
        raise ServerError(f"the server's answer to initialize is unusable: {exc}",
                          "the server speaks a protocol version the MCP SDK does not; "
                          "upgrade the server or schema-compat") from None
    # A refused discover probe is how a handshake-era server says so: not a failure.
    probe.statuses = [s for s in probe.statuses if s[3] != "server/discover"]


def _server_info(session: ClientSession, spec: ServerSpec) -> ServerInfo:
    who = session.server_info
    return ServerInfo(
        source=spec.name, transport=spec.kind,
        era="stateless" if session.discover_result is not None else "handshake",
        protocol_version=session.protocol_version or "",
        name=who.name if who is not None else "",
        version=who.version if who is not None else "")


async def _exchange(session: ClientSession, probe: Probe, spec: ServerSpec
                    ) -> tuple[list[Any], ServerInfo]:
    """Negotiate, then read every page of tools/list; returns the raw tools."""
    await _negotiate(session, probe)
    info = _server_info(session, spec)
    probe.stage = "tools/list"
    tools: list[Any] = []
    cursor: Any = None
    seen: set[str] = set()
    for page in range(MAX_PAGES):
        params = {"cursor": cursor} if cursor is not None else None
        result = await _raw_request(session, "tools/list", params)
        page_tools = result.get("tools")
        if not isinstance(page_tools, list):
            raise ServerError(
                f"tools/list page {page + 1} has no \"tools\" list",
                "the server's tools/list result is malformed")
        tools.extend(page_tools)
        cursor = result.get("nextCursor")
        if cursor is None or cursor == "":
            return tools, info
        key = repr(cursor)
        if key in seen:
            raise ServerError(f"tools/list repeats the cursor {cursor!r} after page {page + 1}",
                              "the server's pagination loops")
        seen.add(key)
    raise ServerError(f"tools/list has more than {MAX_PAGES} pages", "the server's pagination "
                      "never ends")


async def session_exchange(read: Any, write: Any, probe: Probe, spec: ServerSpec
                            ) -> tuple[list[Any], ServerInfo]:
    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):  # a stdout line that is not JSON-RPC
            probe.note_stray(message)

    session = ClientSession(read, write, message_handler=on_message,
                            client_info=Implementation(name="schema-compat",
                                                       version=__version__))
    async with session:
        return await _exchange(session, probe, spec)
