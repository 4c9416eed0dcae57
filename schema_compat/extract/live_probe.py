"""What we observe of one live server (`Probe`: its process, the HTTP statuses, the stray
stdout lines, the stage reached), and the transports that let us: the SDK's session talks
to a server process we started ourselves (`stdio_streams`), its stdout counted and each
message handed over whole, or to an HTTP or SSE server through the SDK's client transports
(`remote_streams`, each response shown to a hook); the SDK's logging silenced
(`quiet_sdk_logging`). The last two are shared with the proxy, which reaches HTTP and SSE
upstreams the same way.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2
from anyio.abc import ByteReceiveStream, Process
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

from .config import ServerSpec

# after the server's stdin closes, before SIGTERM to its group; then before SIGKILL
_SHUTDOWN_GRACE = 0.25
_LOGGERS = ("mcp", "mcp_types", "httpx2", "httpcore", "httpcore2", "uvicorn", "sse_starlette")


@dataclass
class Probe:
    """What the transports let us observe: the stdio process, the HTTP statuses, the lines
    of stdout that were not JSON-RPC."""

    process: Any = None
    # method, status, URL, and the JSON-RPC method when the request said (Mcp-Method)
    statuses: list[tuple[str, int, str, str]] = field(default_factory=list)
    stage: str = "connect"  # connect -> initialize -> tools/list
    stray: int = 0
    first_stray: str = ""
    # Ends the exchange at once (over SSE only): an SSE client posts its messages from a
    # task of its own, which only logs a refused post, and would otherwise wait out
    # --timeout.
    stop: Callable[[], None] | None = None
    # the bytes of a message from the stdio server not yet ended by its newline (counted
    # by `CountedStdout`): an answer still arriving, or cut off
    unfinished: int = 0

    async def note_stray(self, exc: Exception) -> None:
        """A stdout line the transport could not parse (as far as its error shows it): the
        SDK's dispatcher hands over its error."""
        self.stray += 1
        if not self.first_stray:
            text = str(exc.args[0]) if exc.args else type(exc).__name__
            self.first_stray = text if len(text) <= 80 else text[:79] + "…"


def quiet_sdk_logging() -> None:
    """Silence the SDK's loggers (and its HTTP clients'): a failure is reported once, in
    our words, not as the SDK's traceback on stderr."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False
        logger.setLevel(logging.CRITICAL + 1)


OnResponse = Callable[[httpx2.Response], Awaitable[None]]


@asynccontextmanager
async def remote_streams(spec: ServerSpec, timeout: float, read_timeout: float | None,
                         on_response: OnResponse | None = None
                         ) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's two streams to an HTTP or SSE server (`spec.kind`), its headers sent with
    every request, each response shown to `on_response`. `read_timeout`: how long the
    server's stream may stay silent (None: no deadline, for a proxy's idle upstream)."""

    def client(headers: dict[str, str] | None = None, timeout: httpx2.Timeout | None = None,
               auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
        hooks = {"response": [on_response]} if on_response is not None else None
        kwargs: dict[str, Any] = {"timeout": timeout} if timeout is not None else {}
        return httpx2.AsyncClient(headers={**(headers or {}), **spec.headers}, auth=auth,
                                  event_hooks=hooks, **kwargs)

    if spec.kind == "sse":
        # (its read timeout is typed a float, but goes to httpx, where None is no deadline)
        no_deadline: Any = read_timeout
        async with sse_client(spec.url, timeout=timeout, sse_read_timeout=no_deadline,
                              httpx_client_factory=client) as streams:
            yield streams
    else:
        http = client(timeout=httpx2.Timeout(timeout, read=read_timeout))
        async with http, streamable_http_client(spec.url, http_client=http) as streams:
            yield streams


@asynccontextmanager
async def stdio_streams(process: Process, probe: Probe) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK session's two streams over a stdio server we started (`starting.start`):
    what the SDK's `stdio_client` does, on a process that is ours, so that the probe holds
    it (its exit code) and counts its stdout (`CountedStdout`). A line that is not JSON-RPC
    reaches the session as the exception it raised, as the SDK's transport hands it. On the
    way out the server's stdin is closed; after `_SHUTDOWN_GRACE` its group gets SIGTERM,
    and SIGKILL after as long again (the SDK waits 2 s each: too long for a checker that
    promises to give up within --timeout plus a second)."""
    assert process.stdin is not None and process.stdout is not None
    probe.process = process
    stdin, stdout = process.stdin, CountedStdout(process.stdout, probe)
    to_session, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    async def reader() -> None:
        ended = (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError,
                 OSError)
        async with to_session:
            with contextlib.suppress(*ended):
                rest = b""
                while True:
                    lines = (rest + await stdout.receive()).split(b"\n")
                    rest = lines.pop()
                    for line in lines:
                        await to_session.send(_parsed(line))
        with contextlib.suppress(*ended):  # the session is over: a server still writing
            while True:  # is not kept from reading its stdin's end by a full pipe
                await stdout.receive()

    async def writer() -> None:
        try:
            async with from_session:
                async for item in from_session:
                    text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send(text.encode() + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await to_session.aclose()  # the session sees the connection end

    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        tg.start_soon(writer)
        try:
            yield read, write
        finally:
            with anyio.CancelScope(shield=True):
                # the reader goes on to drain the server's stdout: a server blocked
                # writing to it would not see its stdin close
                for stream in (read, write, to_session, from_session):
                    await stream.aclose()
                await _stop(process)
            tg.cancel_scope.cancel()


def _parsed(line: bytes) -> SessionMessage | Exception:
    try:
        text = line.decode("utf-8", "replace")  # undecodable bytes: a stray line, counted
        return SessionMessage(jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValueError as exc:
        return exc


async def _stop(process: Process) -> None:
    """Close the server's stdin; what stays of it after each grace gets SIGTERM, then
    SIGKILL (its process group: it was started in a session of its own)."""
    with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        if process.stdin is not None:
            await process.stdin.aclose()
    for signum in (signal.SIGTERM, signal.SIGKILL, None):
        with anyio.move_on_after(_SHUTDOWN_GRACE):
            while process.returncode is None:
                await anyio.sleep(0.01)
        if process.returncode is not None or signum is None:
            return
        with contextlib.suppress(OSError):
            if os.name == "posix":
                os.killpg(process.pid, signum)
            else:
                process.kill()


class CountedStdout(ByteReceiveStream):
    """A server's stdout as the SDK reads it, counted in the probe (how much of a message
    is still unfinished), so that a failure can say a listing was still arriving or was cut
    off rather than "no answer".

    A message's chunks are gathered up to its newline before the SDK sees them: the SDK
    joins a long line to what it holds chunk by chunk, which costs time quadratic in its
    length (a 50 MB listing took 30 s to read; whole, it takes a second)."""

    def __init__(self, stream: ByteReceiveStream, probe: Probe) -> None:
        self.stream, self.probe = stream, probe

    async def receive(self, max_bytes: int = 65536) -> bytes:
        parts = [await self._read(max_bytes)]
        while b"\n" not in parts[-1]:
            try:
                parts.append(await self._read(max_bytes))
            except anyio.EndOfStream:
                break  # the SDK's next read ends it
        return b"".join(parts)

    async def _read(self, max_bytes: int) -> bytes:
        probe = self.probe
        data = await self.stream.receive(max_bytes)
        end = data.rfind(b"\n")
        probe.unfinished = probe.unfinished + len(data) if end < 0 else len(data) - end - 1
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()
