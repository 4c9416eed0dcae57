"""What the proxy talks to: an `Upstream` (one MCP server, started or connected to) and
the line transport of a stdio one, on asyncio and the standard library alone.

`StdioUpstream` is a started process: a message costs one JSON parse and, unless the relay
changed it, no serialisation (the line read is the line written). It runs in a process group
of its own: once its stdin is closed, its group gets SIGTERM after `_EOF_GRACE` and SIGKILL
after `_TERM_GRACE`, so that the proxy exits within about 50 ms as its client expects.
`remote.RemoteUpstream` is a streamable HTTP or SSE server, through the MCP SDK's client
transports (imported only for one). The serve loop (`gateway_serve.py`) sees an upstream
only through this interface.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from ..extract.config import signal_group
from .jsonrpc import Refused, read_message

__all__ = ["Lines", "OnMessage", "StdioUpstream", "Upstream", "encode", "read_lines"]

Message = dict[str, Any]
# a message from the upstream (or why its line was refused), and the line it came in
# (empty when it did not come as a line: the SDK's transports hand over messages)
# (None: a blank line)
OnMessage = Callable[[Message | Refused | None, bytes], None]

_LINE_LIMIT = 256 * 1024 * 1024  # a listing of 10,000 tools is ~50 MB on one line
# after its stdin closes, before SIGTERM; then before SIGKILL
_EOF_GRACE = 0.01
_TERM_GRACE = 0.02


class Upstream:
    """One MCP server the proxy talks to. `start` wires it: each message it sends goes to
    `on_message`, and `on_closed` is called once when its side ends; `send` queues a
    message (`line`: the message's own JSON line, when the proxy has it); `request` sends
    one of the proxy's own and waits for its answer; `reason` says why it ended (after a
    subject: "exited with exit code 3"); `stop` ends it, once."""

    def __init__(self) -> None:
        self.waiting: dict[Any, asyncio.Future[Message | None]] = {}

    async def request(self, relay: Any, msg: Message, timeout: float) -> Message | None:
        """Send the proxy's own request `msg` (a listing, the gateway's handshake) and wait
        at most `timeout` seconds for the answer, which the relay keeps in `own_answers`
        (`answered`). None when the answer was unreadable or the upstream ended;
        TimeoutError when none came."""
        rid = msg["id"]
        future: asyncio.Future[Message | None] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        self.send(msg)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self.waiting.pop(rid, None)
            relay.own_answers.pop(rid, None)

    def answered(self, rid: Any, answer: Message | None) -> bool:
        """End the wait for the answer to `rid` with `answer` (None: it was unreadable);
        whether the proxy was waiting for it."""
        future = self.waiting.get(rid) if isinstance(rid, (str, int)) else None
        if future is None:
            return False
        if not future.done():
            future.set_result(answer)
        return True

    def ended(self) -> None:
        """The upstream's side ended: no request of the proxy's gets an answer now."""
        for rid in list(self.waiting):
            self.answered(rid, None)

    async def start(self, relay: Any, on_message: OnMessage, on_closed: Callable[[], None],
                    batch: tuple[Lines, ...]) -> None:
        raise NotImplementedError

    def send(self, msg: Message, line: bytes = b"") -> None:
        raise NotImplementedError

    def unfinished(self) -> int:
        """The bytes of a message still arriving."""
        return 0

    def writers(self) -> tuple[Lines, ...]:
        """Its writers, to batch with the client's (`LineReader`)."""
        return ()

    def exited(self) -> bool:
        """Whether it ended without closing its side (a process that exited while a child
        of its own holds its stdout)."""
        return False

    async def reason(self) -> str:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError


class StdioUpstream(Upstream):
    """A started stdio server. `on_stderr` gets each line of its stderr when it was
    started with a pipe there (the gateway's servers share one log)."""

    def __init__(self, proc: subprocess.Popen[bytes],
                 on_stderr: Callable[[bytes], None] | None = None) -> None:
        assert proc.stdin is not None
        super().__init__()
        self.proc, self.on_stderr = proc, on_stderr
        self.writer = Lines(proc.stdin)
        self.reader: LineReader | None = None
        self.stopped = False

    def unfinished(self) -> int:
        return self.reader.size if self.reader is not None else 0

    async def start(self, relay: Any, on_message: OnMessage, on_closed: Callable[[], None],
                    batch: tuple[Lines, ...]) -> None:
        assert self.proc.stdout is not None
        await self.writer.open()
        if self.proc.stderr is not None and self.on_stderr is not None:
            await read_lines(self.proc.stderr, self.on_stderr, lambda: None, ())
        self.reader = await read_lines(self.proc.stdout,
                                       lambda line: on_message(read_message(line), line),
                                       on_closed, (*batch, self.writer))

    def send(self, msg: Message, line: bytes = b"") -> None:
        self.writer.write(line or encode(msg))

    def writers(self) -> tuple[Lines, ...]:
        return (self.writer,)

    def exited(self) -> bool:
        return exit_code(self.proc) is not None

    async def reason(self) -> str:
        code = await wait_exit(self.proc, 0.5)
        return f"exited with exit code {code}" if code is not None else \
            "closed its stdout but kept running"

    async def stop(self) -> None:
        self.writer.close()
        if not self.stopped:  # once: its pid is not ours once its group is gone
            self.stopped = True
            await stop_group(self.proc)


class Lines:
    """Write-side of a pipe: non-blocking through asyncio when the file is a pipe, plain
    blocking writes otherwise (a regular file, or a platform asyncio cannot pipe on).

    Lines written while a chunk that was read is handled go out together, in one write once
    it is (`batching`, set by `LineReader`): a burst of 50 requests costs the upstream one
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


class LineReader(asyncio.Protocol):
    """The read side of a pipe, cut into lines handed to `on_line` as they arrive, in the
    loop's own callback: no task wakes per line. `on_eof` once the pipe ends."""

    def __init__(self, on_line: Callable[[bytes], None], on_eof: Callable[[], None],
                 writers: tuple[Lines, ...]) -> None:
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


async def read_lines(fileobj: IO[bytes], on_line: Callable[[bytes], None],
                      on_eof: Callable[[], None], writers: tuple[Lines, ...]) -> LineReader:
    """Read `fileobj` line by line: asyncio's pipe reader, or a thread for what asyncio
    cannot read without blocking (a regular file, /dev/null: asyncio takes a character
    device, and then fails to poll /dev/null in a later callback, where nothing can catch
    it, and the reader never ends)."""
    loop = asyncio.get_running_loop()
    protocol = LineReader(on_line, on_eof, writers)
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


def encode(msg: Message) -> bytes:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def exit_code(proc: subprocess.Popen[bytes]) -> int | None:
    code = proc.poll()
    return code if isinstance(code, int) else None


async def wait_exit(proc: subprocess.Popen[bytes], within: float) -> int | None:
    deadline = time.monotonic() + within
    while (code := exit_code(proc)) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.002)
    return code


async def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """With the upstream's stdin closed: once it has had `_EOF_GRACE` to exit, SIGTERM to
    its group, then SIGKILL to what stays of it. The group also when the upstream has
    exited: a child it started that ignores SIGTERM and the end of its input would otherwise
    run on after the proxy."""
    if exit_code(proc) is None:
        await wait_exit(proc, _EOF_GRACE)
    if os.name != "posix":
        if exit_code(proc) is None:
            proc.kill()
        return
    if not signal_group(proc.pid, signal.SIGTERM):
        return
    deadline = time.monotonic() + _TERM_GRACE
    while time.monotonic() < deadline:
        exit_code(proc)  # reaps the leader: a zombie is still in its group
        if not signal_group(proc.pid, 0):
            return
        await asyncio.sleep(0.002)
    signal_group(proc.pid, signal.SIGKILL)
    await wait_exit(proc, _TERM_GRACE)
