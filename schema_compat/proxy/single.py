"""The proxy of one upstream: an MCP stdio server for the client, the upstream (a started
stdio server or an HTTP or SSE one, `upstream.py`) on the other side, and one loop on
asyncio moving messages between them through the `Relay`.

Nothing waits for an answer except the proxy's own listing, so concurrent requests overlap
as they would without the proxy. A stdio upstream costs the client one JSON parse a message
and no MCP SDK: its import (about a second) and its per-message validation were most of
what the proxy cost a client.

- client -> upstream: each message through `Relay.from_client` (a tools/call that comes
  before any listing first makes the proxy list the tools itself, the client's lines held
  meanwhile and released in order);
- upstream -> client: each message through `Relay.from_upstream`; when the upstream ends
  (exits, closes its stdout, drops the connection), every open request gets an error;
- a watchdog: requests past `--timeout` (reset by their progress notifications) get an
  error, so a hung upstream never hangs the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable

from .jsonrpc import Refused, read_message
from .relay import Log, Message, Outbox, Relay, arriving, own_listing
from .upstream import Lines, Upstream, encode, read_lines

__all__ = ["serve_single"]

_TICK = 0.1
_ORPHAN_GRACE = 0.3  # the upstream exited, its stdout held open by a child of its own


async def serve_single(upstream: Upstream, make_relay: Callable[[], Relay], log: Log) -> None:
    """Relay between the proxy's stdin/stdout and `upstream` until the client closes stdin
    (or the proxy gets SIGTERM)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    gone = asyncio.Event()

    def deliver(out: Outbox, original: Message | None = None, line: bytes = b"") -> None:
        """What the relay made of a message: `original` goes on as `line`, the line it
        came in, when there is one."""
        for msg in out.to_client:
            client_writer.write(line if line and msg is original else encode(msg))
        if relay.closed_reason is None:
            for msg in out.to_upstream:
                upstream.send(msg, line if msg is original else b"")

    async def ask(msg: Message) -> Message | None:
        if relay.closed_reason is not None:
            return None
        try:
            return await upstream.request(relay, msg, relay.timeout)
        except TimeoutError:
            log(f"{msg['method']}: no answer from the upstream within {relay.timeout:g}s"
                + arriving(upstream.unfinished()))
            return None

    async def upstream_gone() -> None:
        if gone.is_set():
            return
        gone.set()
        reason = "the upstream server " + await upstream.reason()
        log(reason + "; answering every request with an error")
        deliver(relay.upstream_closed(reason))
        upstream.ended()
        if upstream.exited():  # what it left in its group goes now, not at the session's
            await upstream.stop()  # end (when its pid may have been given to another group)

    def from_upstream(msg: Message | Refused | None, line: bytes) -> None:
        if isinstance(msg, Refused):
            log(f"refused a line from the upstream ({msg.reason})"
                + (f": {line[:200]!r}" if line else ""))
            if msg.answer:  # to the proxy's own request, or to the client's
                if not upstream.answered(msg.rid, None):
                    deliver(relay.unreadable_answer(msg.rid, msg.reason))
            elif msg.rid is not None:  # its request: the upstream waits for an answer
                upstream.send(msg.error())
        if not isinstance(msg, dict):
            return
        deliver(relay.from_upstream(msg), msg, line + b"\n" if line else b"")
        rid = msg.get("id")
        if "method" not in msg and isinstance(rid, str) and rid in relay.own_answers:
            upstream.answered(rid, relay.own_answers.pop(rid))

    def upstream_eof() -> None:
        if not stop.is_set():  # else the proxy stopped it: no news
            tasks.append(asyncio.ensure_future(upstream_gone()))

    # client lines that wait for the proxy's own listing, each with when it came
    held: list[tuple[bytes, float]] = []

    def refuse(refused: Refused | None) -> None:
        """A malformed message from the client gets its JSON-RPC error; when it answered
        the upstream's request, the upstream gets one too."""
        if refused is not None:
            log(f"refused a message from the client: {refused.reason}")
            client_writer.write(encode(refused.error()))
            if (failed := refused.asker_error()) is not None:
                upstream.send(failed)

    def from_client(line: bytes) -> None:
        if held:
            held.append((line, relay.clock()))
            return
        msg = read_message(line)
        if not isinstance(msg, dict):
            refuse(msg)
            return
        if relay.needs_listing(msg):
            held.append((line, relay.clock()))
            tasks.append(asyncio.ensure_future(list_then_release()))
            return
        deliver(relay.from_client(msg), msg, line + b"\n")

    async def list_then_release() -> None:
        """The tools are listed before the call that needs them, and everything the client
        sent meanwhile follows, in order."""
        # --timeout bounds the listing and the call together: the call's time counts from
        # when it came (`Relay.from_client`)
        budget = max(held[0][1] + relay.timeout - relay.clock(), 0)
        with contextlib.suppress(Exception):  # whatever the listing did, the calls go on
            await asyncio.wait_for(own_listing(relay, ask), budget)
        lines = held[:]
        held.clear()
        for index, (line, came) in enumerate(lines):
            msg = read_message(line)
            if not isinstance(msg, dict):
                refuse(msg)
                continue
            if index and relay.needs_listing(msg):  # a later call, after list_changed:
                held.extend(lines[index:])  # list again, hold what follows
                tasks.append(asyncio.ensure_future(list_then_release()))
                return
            deliver(relay.from_client(msg, came), msg, line + b"\n")

    async def watchdog() -> None:
        exited_at: float | None = None
        while True:
            await asyncio.sleep(_TICK)
            deliver(relay.expire(upstream.unfinished()))
            if upstream.exited() and not gone.is_set():
                # its stdout may be held open by a process it started: give that a moment
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at > _ORPHAN_GRACE:
                    await upstream_gone()

    tasks: list[asyncio.Future[None]] = []
    client_writer = Lines(os.fdopen(sys.stdout.fileno(), "wb", buffering=0, closefd=False))
    await client_writer.open()
    relay = make_relay()  # the engine is imported while a stdio upstream starts
    await upstream.start(relay, from_upstream, upstream_eof, (client_writer,))
    writers = (client_writer, *upstream.writers())
    await read_lines(os.fdopen(sys.stdin.fileno(), "rb", buffering=0, closefd=False),
                      from_client, stop.set, writers)
    if os.name == "posix":
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    tasks.append(asyncio.ensure_future(watchdog()))
    try:
        await stop.wait()
    finally:
        for task in tasks:  # the session is over: the upstream's exit is no news
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await upstream.stop()
        await client_writer.drain(0.01)
        client_writer.close()
