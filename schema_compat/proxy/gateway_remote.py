"""A streamable HTTP or legacy SSE server of a config, for the gateway: the SDK's client
transport (the one `proxy --url/--sse` uses, remote.py) in an asyncio task of its own, each
message handed over as a dict, each request sent with the headers remote.py gives it.

This module imports the `mcp` SDK (about a second): the gateway imports it only for a config
that has an HTTP or SSE server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import anyio

from ..extract.config import ServerSpec
from ..extract.live_errors import connect_failure, leaves
from ..extract.live_probe import quiet_sdk_logging
from .relay import Message, Relay
from .remote import _headers, _session, _to_dict, _upstream

__all__ = ["RemoteLink"]


class RemoteLink:
    """One connection to an HTTP or SSE server: `send` queues a message, `on_message` gets
    each one the server sends, `on_closed` why the connection ended (once)."""

    def __init__(self, spec: ServerSpec, relay: Relay, on_message: Callable[[Message], None],
                 on_closed: Callable[[str], None]) -> None:
        quiet_sdk_logging()
        self.spec, self.relay = spec, relay
        self.on_message, self.on_closed = on_message, on_closed
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Future[None] | None = None

    def start(self) -> None:
        self.task = asyncio.ensure_future(self._run())

    def send(self, msg: Message) -> None:
        self.queue.put_nowait(msg)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def _run(self) -> None:
        failure: BaseException | None = None
        try:
            async with _upstream(self.spec) as (read, write), \
                    anyio.create_task_group() as tg:
                tg.start_soon(self._pump, write)
                async for item in read:
                    if not isinstance(item, Exception):
                        self.on_message(_to_dict(item))
                tg.cancel_scope.cancel()
        except Exception as exc:  # the transport failed: the gateway hears why
            failure = exc
        known = connect_failure(self.spec, failure) if failure is not None else None
        if known is not None:
            self.on_closed(f"it cannot be reached: {known.message}")
        elif failure is not None:
            leaf = leaves(failure)[0]
            self.on_closed(f"its transport failed: {type(leaf).__name__}: {leaf}")
        else:
            self.on_closed("it closed the connection")

    async def _pump(self, write: Any) -> None:
        while True:
            msg = await self.queue.get()
            await write.send(_session(msg, _headers(msg, self.relay)))
