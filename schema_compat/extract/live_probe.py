"""What the SDK's transports let us observe of one live server (`_Probe`: its process, the
HTTP statuses, the stray stdout lines, the stage reached), and the hooks into the SDK that
make it observable: its logging silenced, its stdio shutdown graces shortened so that every
failure ends within --timeout plus about a second, and a handle kept on the process it
spawns. Shared with the proxy, which talks to its upstream through the same SDK.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mcp.client.stdio as _sdk_stdio

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
    """Silence the SDK's logging; shorten its stdio shutdown; keep a handle on the process."""
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
            probe.process = process
        return process

    _sdk_stdio._create_platform_compatible_process = create
