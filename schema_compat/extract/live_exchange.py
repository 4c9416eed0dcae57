"""The exchange with one live server over an SDK `ClientSession`: the protocol era
negotiated as the SDK's own client does in its `auto` mode (a `server/discover` probe for
the stateless 2026 era, falling back to the `initialize` handshake), then every page of
`tools/list`, stamped by the session for the negotiated era (`_meta` and headers in the
2026 era) and read as it came: the session validates a listing as a whole and refuses it
for one malformed tool, while flagging that tool is exactly our job.

Only the SDK's public API. Its `Client(mode="auto")` builds the session's dispatcher
itself, and the listing as it came is read from ours (`Answers`): `negotiate_auto` takes
the steps of that mode with the session's public `discover` and `initialize`.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextlib
from typing import Any

from mcp.client.session import ClientSession
from mcp.shared.dispatcher import CallOptions
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp_types import (
    CONNECTION_CLOSED,
    UNSUPPORTED_PROTOCOL_VERSION,
    Implementation,
    Request,
    Result,
    UnsupportedProtocolVersionErrorData,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

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


class Answers(JSONRPCDispatcher):
    """The SDK's dispatcher, keeping the last result as it came (`last`), before the
    session validates it."""

    last: dict[str, Any]

    async def send_raw_request(self, method: str, params: Any, opts: CallOptions | None = None,
                               **kwargs: Any) -> dict[str, Any]:
        self.last = await super().send_raw_request(method, params, opts, **kwargs)
        return self.last


def _versions(exc: MCPError) -> list[str] | None:
    """The versions an "unsupported protocol version" error names (None: another error)."""
    if exc.code != UNSUPPORTED_PROTOCOL_VERSION:
        return None
    try:
        return UnsupportedProtocolVersionErrorData.model_validate(exc.error.data).supported
    except ValueError:
        return None


async def negotiate_auto(session: ClientSession) -> None:
    """The SDK client's `auto` mode: `server/discover` (retried once at a version we share
    when the server names its own), else the `initialize` handshake. Only a server naming
    2026-era versions alone, none ours, is refused without a handshake; an `initialize`
    refused for naming a 2026 version means an earlier probe reached the server after all,
    and the probe is made again."""
    try:
        await session.discover()
        return
    except MCPError as exc:
        named = _versions(exc)
        if named is not None and not any(v in HANDSHAKE_PROTOCOL_VERSIONS for v in named):
            raise
    except (ValueError, RuntimeError):  # an unreadable answer, or no 2026 version in it
        pass
    try:
        await session.initialize()
    except MCPError as exc:
        if not any(v in MODERN_PROTOCOL_VERSIONS for v in _versions(exc) or ()):
            raise
        await session.discover()


def _server_info(session: ClientSession, spec: ServerSpec) -> ServerInfo:
    who = session.server_info
    return ServerInfo(
        source=spec.name, transport=spec.kind,
        era="stateless" if session.discover_result is not None else "handshake",
        protocol_version=session.protocol_version or "",
        name=who.name if who is not None else "",
        version=who.version if who is not None else "")


async def _exchange(session: ClientSession, answers: Answers, probe: Probe, spec: ServerSpec
                    ) -> tuple[list[Any], ServerInfo]:
    """Negotiate, then read every page of tools/list; returns the raw tools. A cursor goes
    back as the server gave it, whatever its type."""
    probe.stage = "initialize"
    await negotiate_auto(session)
    # A refused discover probe is how a handshake-era server says so: not a failure.
    probe.statuses = [s for s in probe.statuses if s[3] != "server/discover"]
    info = _server_info(session, spec)
    probe.stage = "tools/list"
    tools: list[Any] = []
    cursor: Any = None
    seen: set[str] = set()
    for page in range(MAX_PAGES):
        params = {"cursor": cursor} if cursor is not None else None
        answers.last = {}  # never an earlier page's answer, whatever the session raises
        with contextlib.suppress(ValueError):  # the session's check (pydantic's ValueError)
            await session.send_request(Request[Any, str](method="tools/list", params=params),
                                       Result)
        result = answers.last
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
    answers = Answers(read, write, on_stream_exception=probe.note_stray)
    session = ClientSession(dispatcher=answers, client_info=Implementation(
        name="schema-compat", version=__version__))
    async with session:
        try:
            return await _exchange(session, answers, probe, spec)
        except MCPError as exc:  # `probe.stage` names the request
            if exc.code == CONNECTION_CLOSED:
                raise Closed from None
            raise RpcError(probe.stage, exc.code, exc.message) from None
        except RuntimeError as exc:  # from the negotiation: a version the SDK does not speak
            raise ServerError(f"the server's answer to initialize is unusable: {exc}",
                              "the server speaks a protocol version the MCP SDK does not; "
                              "upgrade the server or schema-compat") from None
