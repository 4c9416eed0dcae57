"""The proxy over stdio at both ends, on asyncio and the standard library alone.

A message costs one JSON parse and, unless the relay changed it, no serialisation: the line
read is the line written. Nothing waits for an answer except the proxy's own listing, so
concurrent requests overlap as they would without the proxy. The MCP SDK is not imported:
its import (about a second) and its per-message validation were most of what the proxy
cost a client.

The upstream is started (run.py) before this module and the transformation engine are
imported, so that the two start-ups overlap. It runs in a process group of its own: when the client
closes the proxy's stdin, the upstream's stdin is closed too and, if it has not exited
within `_EOF_GRACE`, its group gets SIGTERM and then SIGKILL, so that the proxy exits
within about 50 ms as its client expects.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO

from .jsonrpc import Refused, read_message
from .relay import Log, Message, Outbox, Relay, arriving, own_listing

__all__ = ["serve_pipes"]

_LINE_LIMIT = 256 * 1024 * 1024  # a listing of 10,000 tools is ~50 MB on one line
_TICK = 0.1
# after its stdin closes, before SIGTERM; then before SIGKILL
_EOF_GRACE = 0.01
_TERM_GRACE = 0.02
_ORPHAN_GRACE = 0.3  # the upstream exited, its stdout held open by a child of its own


class _Lines:
    """Write-side of a pipe: non-blocking through asyncio when the file is a pipe, plain
    blocking writes otherwise (a regular file, or a platform asyncio cannot pipe on).

    Lines written while a chunk that was read is handled go out together, in one write once
    it is (`batching`, set by `_LineReader`): a burst of 50 requests costs the upstream one
    read, not 50. Lines written elsewhere (a timeout's error) go out in the loop's next pass.
    """

    def __init__(self, fileobj: IO[bytes]) -> None:
        self.fileobj = fileobj
        self.transport: asyncio.WriteTransport | None = None
        self.closed = False
        self.buffer: list[bytes] = []
        self.batching = False

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            self.transport, _ = await loop.connect_write_pipe(asyncio.Protocol, self.fileobj)
        except (ValueError, OSError, NotImplementedError):
            self.transport = None

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        if not self.buffer and not self.batching:
            asyncio.get_running_loop().call_soon(self.flush)
        self.buffer.append(data)

    def flush(self) -> None:
        data = b"".join(self.buffer)
        self.buffer.clear()
        if self.closed or not data:
            return
        if self.transport is not None:
            if self.transport.is_closing():
                self.closed = True
                return
            self.transport.write(data)
            return
        try:
            self.fileobj.write(data)
            self.fileobj.flush()
        except (OSError, ValueError):
            self.closed = True

    async def drain(self, within: float) -> None:
        """Let what is buffered reach the reader, for at most `within` seconds."""
        self.flush()
        deadline = time.monotonic() + within
        while self.transport is not None and not self.transport.is_closing() and \
                self.transport.get_write_buffer_size() and time.monotonic() < deadline:
            await asyncio.sleep(0.002)

    def close(self) -> None:
        self.flush()
        self.closed = True
        try:
            if self.transport is not None:
                self.transport.close()
            else:
                self.fileobj.close()
        except OSError:
            pass


class _LineReader(asyncio.Protocol):
    """The read side of a pipe, cut into lines handed to `on_line` as they arrive, in the
    loop's own callback: no task wakes per line. `on_eof` once the pipe ends."""

    def __init__(self, on_line: Callable[[bytes], None], on_eof: Callable[[], None],
                 writers: tuple[_Lines, ...]) -> None:
        self.on_line, self.on_eof, self.writers = on_line, on_eof, writers
        self.partial: list[bytes] = []  # a line's beginning, in the chunks it came in
        self.size = 0
        self.ended = False

    def data_received(self, data: bytes) -> None:
        if b"\n" not in data:
            self.partial.append(data)
            self.size += len(data)
            if self.size > _LINE_LIMIT:  # no line is this long: drop it
                self.partial, self.size = [], 0
            return
        lines = data.split(b"\n")
        if self.partial:
            lines[0] = b"".join(self.partial) + lines[0]
            self.partial, self.size = [], 0
        tail = lines.pop()
        if tail:
            self.partial, self.size = [tail], len(tail)
        for writer in self.writers:
            writer.batching = True
        try:
            for line in lines:
                self.on_line_guarded(line)
        finally:
            for writer in self.writers:
                writer.batching = False
                writer.flush()

    def on_line_guarded(self, line: bytes) -> None:
        """A bug in handling one line is reported as the loop reports any, and costs the
        lines read with it nothing."""
        try:
            self.on_line(line)
        except Exception as exc:
            asyncio.get_running_loop().call_exception_handler({
                "message": "schema-compat proxy: a line was not handled", "exception": exc})

    def eof_received(self) -> bool:
        self.connection_lost(None)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended:
            self.ended = True
            if self.partial:
                self.on_line_guarded(b"".join(self.partial))
                self.partial = []
            self.on_eof()


async def _read_lines(fileobj: IO[bytes], on_line: Callable[[bytes], None],
                      on_eof: Callable[[], None], writers: tuple[_Lines, ...]) -> _LineReader:
    """Read `fileobj` line by line: asyncio's pipe reader, or a thread for what asyncio
    cannot read without blocking (a regular file, /dev/null: asyncio takes a character
    device, and then fails to poll /dev/null in a later callback, where nothing can catch
    it, and the reader never ends)."""
    loop = asyncio.get_running_loop()
    protocol = _LineReader(on_line, on_eof, writers)
    if _pollable(fileobj):
        try:
            await loop.connect_read_pipe(lambda: protocol, fileobj)
            return protocol
        except (ValueError, OSError, NotImplementedError):
            pass

    def pump() -> None:
        try:
            while chunk := fileobj.read1(65536) if hasattr(fileobj, "read1") else \
                    fileobj.read(65536):
                loop.call_soon_threadsafe(protocol.data_received, chunk)
        except (OSError, ValueError):
            pass
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody reads any more
            loop.call_soon_threadsafe(protocol.connection_lost, None)

    threading.Thread(target=pump, name="proxy-stdin", daemon=True).start()
    return protocol


def _pollable(fileobj: IO[bytes]) -> bool:
    """A pipe, a socket or a terminal: what asyncio's pipe reader can wait on."""
    try:
        fd = fileobj.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(fd))


def _encode(msg: Message) -> bytes:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _exit_code(proc: subprocess.Popen[bytes]) -> int | None:
    code = proc.poll()
    return code if isinstance(code, int) else None


def _signal_group(proc: subprocess.Popen[bytes], signum: int) -> bool:
    """Signal the upstream's process group (its leader alone off POSIX); whether any of it
    was still there."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signum)
        else:
            proc.kill()
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):  # EPERM: a member we may not signal; it is there
        pass
    return True


async def _wait_exit(proc: subprocess.Popen[bytes], within: float) -> int | None:
    deadline = time.monotonic() + within
    while (code := _exit_code(proc)) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.002)
    return code


async def _stop(proc: subprocess.Popen[bytes]) -> None:
    """With the upstream's stdin closed: once it has had `_EOF_GRACE` to exit, SIGTERM to
    its group, then SIGKILL to what stays of it. The group also when the upstream has
    exited: a child it started that ignores SIGTERM and the end of its input would otherwise
    run on after the proxy."""
    if _exit_code(proc) is None:
        await _wait_exit(proc, _EOF_GRACE)
    if os.name != "posix":
        if _exit_code(proc) is None:
            proc.kill()
        return
    if not _signal_group(proc, signal.SIGTERM):
        return
    deadline = time.monotonic() + _TERM_GRACE
    while time.monotonic() < deadline:
        _exit_code(proc)  # reaps the leader: a zombie is still in its group
        if not _signal_group(proc, 0):
            return
        await asyncio.sleep(0.002)
    _signal_group(proc, signal.SIGKILL)
    await _wait_exit(proc, _TERM_GRACE)


async def serve_pipes(proc: subprocess.Popen[bytes], make_relay: Callable[[], Relay],
                      log: Log) -> None:
    """Relay between the proxy's stdin/stdout and the started upstream until the client
    closes stdin (or the proxy gets SIGTERM)."""
    assert proc.stdin is not None and proc.stdout is not None
    loop = asyncio.get_running_loop()
    up_writer = _Lines(proc.stdin)
    await up_writer.open()
    waiters: dict[str, asyncio.Future[Message | None]] = {}
    stop = asyncio.Event()
    gone = asyncio.Event()
    stopped = asyncio.Event()  # the upstream's group was stopped

    def deliver(out: Outbox, original: Message | None = None, line: bytes = b"") -> None:
        for msg in out.to_client:
            client_writer.write(line if msg is original else _encode(msg))
        if relay.closed_reason is None:
            for msg in out.to_upstream:
                up_writer.write(line if msg is original else _encode(msg))

    async def ask(msg: Message) -> Message | None:
        if relay.closed_reason is not None:
            return None
        rid = msg["id"]
        future: asyncio.Future[Message | None] = loop.create_future()
        waiters[rid] = future
        up_writer.write(_encode(msg))
        try:
            return await asyncio.wait_for(future, relay.timeout)
        except TimeoutError:
            log(f"{msg['method']}: no answer from the upstream within {relay.timeout:g}s"
                + arriving(up_reader.size))
            return None
        finally:
            waiters.pop(rid, None)
            relay.own_answers.pop(rid, None)

    async def upstream_gone() -> None:
        if gone.is_set():
            return
        gone.set()
        code = await _wait_exit(proc, 0.5)
        reason = "the upstream server " + (
            f"exited with exit code {code}" if code is not None
            else "closed its stdout but kept running")
        log(reason + "; answering every request with an error")
        deliver(relay.upstream_closed(reason))
        for future in waiters.values():
            if not future.done():
                future.set_result(None)
        if code is not None:  # what it left in its group goes now, not at the session's end
            await _stop(proc)  # (when its pid may have been given to another group)
            stopped.set()

    def from_upstream(line: bytes) -> None:
        msg = read_message(line)
        if isinstance(msg, Refused):
            log(f"refused a line from the upstream ({msg.reason}): {line[:200]!r}")
            if msg.answer and msg.rid in waiters:
                if not waiters[msg.rid].done():
                    waiters[msg.rid].set_result(None)
            elif msg.answer:
                deliver(relay.unreadable_answer(msg.rid, msg.reason))
            elif msg.rid is not None:  # its request: the upstream waits for an answer
                up_writer.write(_encode(msg.error()))
        if not isinstance(msg, dict):
            return
        deliver(relay.from_upstream(msg), msg, line + b"\n")
        rid = msg.get("id")
        if isinstance(rid, str) and rid in waiters and "method" not in msg:
            answer = relay.own_answers.pop(rid, None)
            if not waiters[rid].done():
                waiters[rid].set_result(answer)

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
            client_writer.write(_encode(refused.error()))
            if (failed := refused.asker_error()) is not None:
                up_writer.write(_encode(failed))

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
            deliver(relay.expire(up_reader.size))
            if _exit_code(proc) is not None and not gone.is_set():
                # its stdout may be held open by a process it started: give that a moment
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at > _ORPHAN_GRACE:
                    await upstream_gone()

    tasks: list[asyncio.Future[None]] = []
    client_writer = _Lines(os.fdopen(sys.stdout.fileno(), "wb", buffering=0, closefd=False))
    await client_writer.open()
    # The engine is imported while the upstream starts, with the collector paused: its
    # objects live as long as the proxy, so they are frozen out of the collector's sight
    # (a full collection in the middle of a session then does not pause the calls as long).
    gc.disable()
    try:
        relay = make_relay()
    finally:
        gc.freeze()
        gc.enable()
    writers = (client_writer, up_writer)
    up_reader = await _read_lines(proc.stdout, from_upstream, upstream_eof, writers)
    await _read_lines(os.fdopen(sys.stdin.fileno(), "rb", buffering=0, closefd=False),
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
        up_writer.close()
        if not stopped.is_set():
            await _stop(proc)
        await client_writer.drain(0.01)
        client_writer.close()
