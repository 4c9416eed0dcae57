"""What the SDK's transports let us observe of one live server (`_Probe`: its process, the
HTTP statuses, the stray stdout lines, the stage reached), and the hooks into the SDK that
make it observable: its logging silenced, its stdio shutdown graces shortened so that every
failure ends within --timeout plus about a second, and a handle kept on the process it
spawns, its stdout counted (each message handed to the SDK whole). Shared with the proxy,
which talks to its upstream through the same SDK.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp.client.stdio as _sdk_stdio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

# The SDK waits 2 s for a server to exit after its stdin closes, then 2 s more after SIGTERM:
# too long for a checker that promises to give up within --timeout plus a second.
_SHUTDOWN_GRACE = 0.25
_LOGGERS = ("mcp", "mcp_types", "httpx2", "httpcore", "httpcore2", "uvicorn", "sse_starlette")


@dataclass
class _Probe:
    """What the transports let us observe: the stdio process, the HTTP statuses, the lines
    of stdout that were not JSON-RPC."""

    process: Any = None
    # method, status, URL, and the JSON-RPC method when the request said (Mcp-Method)
    statuses: list[tuple[str, int, str, str]] = field(default_factory=list)
    stage: str = "connect"  # connect -> initialize -> tools/list
    stray: int = 0
    first_stray: str = ""
    spawned: Any = None  # a stdio server started before the SDK was loaded (`starting`)
    # Ends the exchange at once (over SSE only): an SSE client posts its messages from a
    # task of its own, which only logs a refused post, and would otherwise wait out
    # --timeout.
    stop: Callable[[], None] | None = None
    # the bytes of a message from the stdio server not yet ended by its newline (counted
    # by `_CountedStdout`): an answer still arriving, or cut off
    unfinished: int = 0

    def note_stray(self, exc: BaseException) -> None:
        self.stray += 1
        if not self.first_stray:
            self.first_stray = _stray_text(exc)


def _stray_text(exc: BaseException) -> str:
    """The stdout line the transport could not parse, as far as its error shows it."""
    for arg in getattr(exc, "args", ())[:1]:
        text = str(arg)
        return text if len(text) <= 80 else text[:79] + "…"
    return type(exc).__name__


_PROBE: contextvars.ContextVar[_Probe | None] = contextvars.ContextVar("_PROBE", default=None)
_patched = False


def _install_sdk_hooks() -> None:
    """Silence the SDK's logging; shorten its stdio shutdown; keep a handle on the process
    and count its stdout (`_CountedProcess`)."""
    global _patched
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(logging.NullHandler())
        logger.propagate = False
        logger.setLevel(logging.CRITICAL + 1)
    if _patched:
        return
    _patched = True
    if hasattr(_sdk_stdio, "PROCESS_TERMINATION_TIMEOUT"):
        _sdk_stdio.PROCESS_TERMINATION_TIMEOUT = _SHUTDOWN_GRACE
    if hasattr(_sdk_stdio, "FORCE_KILL_TIMEOUT"):
        _sdk_stdio.FORCE_KILL_TIMEOUT = _SHUTDOWN_GRACE
    original = getattr(_sdk_stdio, "_create_platform_compatible_process", None)
    if original is None:  # a later SDK: the exit code is then not reported
        return

    async def create(*args: Any, **kwargs: Any) -> Any:
        probe = _PROBE.get()
        if probe is not None and probe.spawned is not None:
            process, probe.spawned = probe.spawned, None  # already running: see `starting`
        else:
            process = await original(*args, **kwargs)
        if probe is not None:
            if isinstance(process, Process):  # not the SDK's Windows fallback: left as is
                process = _CountedProcess(process, probe)
            probe.process = process
        return process

    _sdk_stdio._create_platform_compatible_process = create


class _CountedStdout(ByteReceiveStream):
    """A server's stdout as the SDK reads it, counted in the probe (how much of a message
    is still unfinished), so that a failure can say a listing was still arriving or was cut
    off rather than "no answer".

    A message's chunks are gathered up to its newline before the SDK sees them: the SDK
    joins a long line to what it holds chunk by chunk, which costs time quadratic in its
    length (a 50 MB listing took 30 s to read; whole, it takes a second)."""

    def __init__(self, stream: ByteReceiveStream, probe: _Probe) -> None:
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


class _CountedProcess(Process):
    """The spawned server, its stdout counted (`_CountedStdout`); everything else is the
    process's own (attributes the SDK looks up by name included)."""

    def __init__(self, process: Process, probe: _Probe) -> None:
        self._inner = process
        out = process.stdout
        self._stdout = None if out is None else _CountedStdout(out, probe)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def wait(self) -> int:
        return await self._inner.wait()

    def terminate(self) -> None:
        self._inner.terminate()

    def kill(self) -> None:
        self._inner.kill()

    def send_signal(self, signal: Any) -> None:
        self._inner.send_signal(signal)

    @property
    def pid(self) -> int:
        return self._inner.pid

    @property
    def returncode(self) -> int | None:
        return self._inner.returncode

    @property
    def stdin(self) -> ByteSendStream | None:
        return self._inner.stdin

    @property
    def stdout(self) -> ByteReceiveStream | None:
        return self._stdout

    @property
    def stderr(self) -> ByteReceiveStream | None:
        return self._inner.stderr
