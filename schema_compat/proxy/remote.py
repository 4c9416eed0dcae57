"""A streamable HTTP or legacy SSE upstream (`RemoteUpstream`): the MCP SDK's client
transport in an asyncio task of its own, each message handed over as a dict, each request
sent with the headers the SDK's own client gives it. A proxy's upstream may rightly be idle
for hours: no deadline for the next event on its stream; each request has the relay's own
--timeout instead.

This module imports the `mcp` SDK (about a second): only a `--url`/`--sse` upstream, or a
config with an HTTP or SSE server, loads it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import anyio
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
)
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from mcp_types import jsonrpc_message_adapter

from ..extract.config import ServerSpec
from ..extract.live_errors import connect_failure, leaves
from ..extract.live_probe import quiet_sdk_logging, remote_streams
from .jsonrpc import PARSE_ERROR, Refused
from .relay import PROTOCOL_VERSION_KEY, Message, Relay
from .upstream import Lines, OnMessage, Upstream

__all__ = ["RemoteUpstream"]


class RemoteUpstream(Upstream):
    """One connection to an HTTP or SSE server; `why` says how it ended."""

    def __init__(self, spec: ServerSpec) -> None:
        super().__init__()
        quiet_sdk_logging()
        self.spec = spec
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Future[None] | None = None
        self.why = ""

    async def start(self, relay: Relay, on_message: OnMessage, on_closed: Callable[[], None],
                    batch: tuple[Lines, ...]) -> None:
        self.task = asyncio.ensure_future(self._run(relay, on_message, on_closed))

    def send(self, msg: Message, line: bytes = b"") -> None:
        self.queue.put_nowait(msg)

    async def reason(self) -> str:
        return self.why

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def _run(self, relay: Relay, on_message: OnMessage,
                   on_closed: Callable[[], None]) -> None:
        failure: BaseException | None = None
        try:
            async with remote_streams(self.spec, 30.0, None) as (read, write), \
                    anyio.create_task_group() as tg:
                tg.start_soon(self._pump, write, relay)
                async for item in read:
                    if isinstance(item, Exception):
                        on_message(Refused(PARSE_ERROR, f"{type(item).__name__}: {item}"), b"")
                    else:
                        on_message(_as_message(item), b"")
                tg.cancel_scope.cancel()
        except Exception as exc:  # the transport failed: whoever serves it hears why
            failure = exc
        known = connect_failure(self.spec, failure) if failure is not None else None
        if known is not None:
            self.why = f"cannot be reached: {known.message}"
        elif failure is not None:
            leaf = leaves(failure)[0]
            self.why = f"failed: {type(leaf).__name__}: {leaf}"
        else:
            self.why = "closed the connection"
        on_closed()

    async def _pump(self, write: Any, relay: Relay) -> None:
        while True:
            msg = await self.queue.get()
            await write.send(_session_message(msg, _headers(msg, relay)))


def _as_message(item: SessionMessage) -> Message:
    return item.message.model_dump(by_alias=True, exclude_unset=True, mode="json")


def _session_message(msg: Message, headers: dict[str, str] | None = None) -> SessionMessage:
    message = jsonrpc_message_adapter.validate_python(msg, by_name=False)
    if headers is None:
        return SessionMessage(message)
    return SessionMessage(message, metadata=ClientMessageMetadata(headers=headers))


def _headers(msg: Message, relay: Relay) -> dict[str, str] | None:
    """The HTTP headers a message travels with, as the SDK's client sets them: a request
    stamped for 2026-07-28 names its version, method and (tools/call, prompts/get,
    resources/read) its target, which the server routes by; otherwise the version the
    handshake agreed on, once there is one."""
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(PROTOCOL_VERSION_KEY) if isinstance(meta, dict) else None
    method = msg.get("method")
    if isinstance(version, str) and isinstance(method, str):
        headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: method}
        key = NAME_BEARING_METHODS.get(method)
        name = params.get(key) if key is not None and isinstance(params, dict) else None
        if isinstance(name, str):
            headers[MCP_NAME_HEADER] = encode_header_value(name)
        return headers
    if relay.protocol_version and relay.era == "legacy":
        return {MCP_PROTOCOL_VERSION_HEADER: relay.protocol_version}
    return None
