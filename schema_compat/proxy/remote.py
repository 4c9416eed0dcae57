"""The proxy with a streamable HTTP or legacy SSE upstream: an MCP stdio server for the
client, the SDK's client transport for the upstream, and three tasks moving messages
between them.

- client -> upstream: each message through `Relay.from_client` (a tools/call that comes
  before any listing first makes the proxy list the tools itself);
- upstream -> client: each message through `Relay.from_upstream`; when the upstream's
  stream ends (the connection closed), every open request gets an error;
- a watchdog: requests past `--timeout` (reset by their progress notifications) get an
  error, so a hung upstream never hangs the client.

This module imports the `mcp` SDK: only `schema-compat proxy --url/--sse` loads it (a stdio
upstream is served by `pipes.py` without it).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.stdio import stdio_server
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
from ..extract.live_probe import quiet_sdk_logging
from .jsonrpc import Refused, read_message
from .relay import PROTOCOL_VERSION_KEY, Log, Message, Outbox, Relay, own_listing

__all__ = ["serve_remote"]

_TICK = 0.1
# No deadline for the next event on an upstream's stream: a proxy's upstream may rightly be
# idle for hours; each request has the relay's own --timeout instead. (The SDK's SSE client
# takes a float here, but hands it to httpx, where None means no deadline.)
_NO_READ_DEADLINE: Any = None


def _to_dict(item: SessionMessage) -> Message:
    return item.message.model_dump(by_alias=True, exclude_unset=True, mode="json")


def _session(msg: Message, headers: dict[str, str] | None = None) -> SessionMessage:
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


@asynccontextmanager
async def _upstream(spec: ServerSpec) -> AsyncIterator[tuple[Any, Any]]:
    if spec.kind == "sse":
        async with sse_client(spec.url, headers=dict(spec.headers), timeout=30.0,
                              sse_read_timeout=_NO_READ_DEADLINE) as (read, write):
            yield read, write
    else:
        client = httpx2.AsyncClient(headers=dict(spec.headers),
                                    timeout=httpx2.Timeout(30.0, read=_NO_READ_DEADLINE))
        async with client, streamable_http_client(spec.url, http_client=client) as (
                read, write):
            yield read, write


async def _serve(spec: ServerSpec, relay: Relay, log: Log) -> None:
    """The client side lives as long as the client; the upstream in a task of its own, so
    its failure (refused connection, transport error) becomes errors, not a crash."""
    upstream: dict[str, Any] = {}
    ready = anyio.Event()
    waiters: dict[str, anyio.Event] = {}
    # The client's lines are read here, through `read_message` as the stdio proxy reads
    # them (the SDK's reader drops a malformed message unanswered, and a request whose id
    # is not a string or an integer becomes a notification): the SDK is given no input.
    # Closing client_write on the way out ends the SDK's stdout writer; without it the
    # proxy would outlive its client.
    async with stdio_server(stdin=anyio.wrap_file(io.StringIO())) as (_, client_write), \
            client_write, anyio.create_task_group() as tg:

        async def to_client(msg: Message) -> None:
            try:
                await client_write.send(_session(msg))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                tg.cancel_scope.cancel()

        async def to_upstream(msg: Message) -> None:
            await ready.wait()
            write = upstream.get("write")
            if relay.closed_reason is not None or write is None:
                return
            headers = _headers(msg, relay)
            try:
                await write.send(_session(msg, headers))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                upstream.pop("write", None)

        async def deliver(out: Outbox) -> None:
            for msg in out.to_client:
                await to_client(msg)
            for msg in out.to_upstream:
                await to_upstream(msg)

        async def upstream_gone(failure: BaseException | None) -> None:
            upstream.pop("write", None)
            ready.set()
            known = connect_failure(spec, failure) if failure is not None else None
            reason = (f"the upstream server cannot be reached: {known.message}"
                      if known is not None else "the upstream server closed the connection")
            if failure is not None and known is None:
                leaf = leaves(failure)[0]
                log(f"upstream transport failed: {type(leaf).__name__}: {leaf}")
            log(reason + "; answering every request with an error")
            for event in waiters.values():
                event.set()
            await deliver(relay.upstream_closed(reason))

        async def run_upstream() -> None:
            failure: BaseException | None = None
            try:
                async with _upstream(spec) as (up_read, up_write):
                    upstream["write"] = up_write
                    ready.set()
                    await from_upstream(up_read)
            except Exception as exc:  # the transport failed: the client hears of it
                failure = exc
            await upstream_gone(failure)

        async def from_upstream(up_read: Any) -> None:
            try:
                async for item in up_read:
                    if isinstance(item, Exception):
                        log(f"upstream: {type(item).__name__}: {item}")
                        continue
                    msg = _to_dict(item)
                    rid = msg.get("id")
                    await deliver(relay.from_upstream(msg))
                    if isinstance(rid, str) and rid in waiters:
                        waiters[rid].set()
            except (anyio.ClosedResourceError, anyio.BrokenResourceError,
                    anyio.EndOfStream):
                pass

        async def ask(request: Message) -> Message | None:
            event = waiters[request["id"]] = anyio.Event()
            await to_upstream(request)
            with anyio.move_on_after(relay.timeout):
                await event.wait()
            waiters.pop(request["id"], None)
            return relay.own_answers.pop(request["id"], None)

        async def from_client() -> None:
            stdin = anyio.wrap_file(os.fdopen(sys.stdin.fileno(), "rb", closefd=False))
            async for line in stdin:
                msg = read_message(line)
                if isinstance(msg, Refused):
                    log(f"refused a message from the client: {msg.reason}")
                    await to_client(msg.error())
                    if (failed := msg.asker_error()) is not None:
                        await to_upstream(failed)
                if not isinstance(msg, dict):
                    continue
                if relay.needs_listing(msg):
                    await own_listing(relay, ask)
                await deliver(relay.from_client(msg))
            tg.cancel_scope.cancel()  # the client is gone: so are we

        async def watchdog() -> None:
            while True:
                await anyio.sleep(_TICK)
                await deliver(relay.expire())

        tg.start_soon(run_upstream)
        tg.start_soon(watchdog)
        tg.start_soon(from_client)


def serve_remote(spec: ServerSpec, relay: Relay, log: Log) -> None:
    """Run the proxy for a --url or --sse upstream until the client disconnects."""
    quiet_sdk_logging()
    anyio.run(_serve, spec, relay, log)
