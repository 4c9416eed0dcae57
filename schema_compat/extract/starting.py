"""Live servers, started before the MCP SDK is loaded.

Importing the SDK takes about a second, and so does a typical server's own start-up (node or
Python loading its packages). Started first, the two overlap: a live check waits for its
slowest server, not for the SDK and then the server. This module needs only the standard
library and anyio; `live` (the SDK side) is imported in a worker thread while the servers
start, then given the running processes.

The SDK stops each server when its listing ends. A server this process started and has not
seen exit is also stopped when the process exits, however it came to exit in the middle of
a listing (SIGTERM included, which ends a live check as an exit does): a server that ignores
SIGTERM and the end of its input would otherwise outlive the command that started it.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from ..signals import signals_as_exit
from .config import ServerError, ServerSpec, resolve_command, server_environment, signal_group

if TYPE_CHECKING:
    from ..model import SourceError
    from .files import LoadedSource

__all__ = ["Servers", "Started", "fetch_servers"]


@dataclass
class Started:
    """A stdio server started ahead of the SDK: its process (or why there is none), and the
    file its stderr goes to."""

    process: Any
    errlog: IO[str]
    error: ServerError | None


# after SIGTERM to a server's process group, before SIGKILL (as the SDK's shutdown, shortened
# in `live`)
_EXIT_GRACE = 0.25
# how long the exit waits for the starts under way to be known (their threads need the GIL,
# which a loaded machine gives them late)
_START_WAIT = 2.0


class Servers:
    """The servers one listing started and has not seen exit. `stop_left` is registered with
    atexit while the listing runs: the process may exit in the middle of it (SIGTERM, or the
    playground's listing thread still running), and a server that ignores SIGTERM and the end
    of its input would otherwise outlive it. A lock, since the exit may come on another
    thread while this one is starting a server."""

    def __init__(self) -> None:
        self.running: dict[int, Any] = {}  # pid -> process
        self.lock = threading.Lock()
        self.starting = 0  # spawned, not yet in `running`
        self.stopped = False  # whether the exit's stop has run

    async def start(self, spec: ServerSpec) -> Started:
        """Start one stdio server as the SDK would (its own session, stderr to a file)."""
        # closed by `_run`: the server process holds its descriptor
        errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        environ = server_environment(spec)
        with self.lock:
            self.starting += 1
        process = None
        try:
            command = resolve_command(spec, environ)
            process = await anyio.open_process([command, *spec.args], env=environ,
                                               stderr=errlog, cwd=spec.cwd,
                                               start_new_session=True)
        except ServerError as exc:
            return Started(None, errlog, exc)
        except OSError as exc:
            return Started(None, errlog, ServerError(f"cannot start {spec.command}: "
                                                     f"{exc.strerror or exc}",
                                                     "check the command and its permissions"))
        finally:
            with self.lock:
                self.starting -= 1
                if process is not None:
                    self.running[process.pid] = process
                stopped = self.stopped
            if stopped and process is not None:  # started as the process exits: stop it too
                self.stop_left()
        return Started(process, errlog, None)

    def forget_exited(self) -> None:
        with self.lock:
            for pid, process in list(self.running.items()):
                if process.returncode is not None:
                    del self.running[pid]

    def stop_left(self) -> None:
        """Stop the servers still running, once the servers being started are known (or
        `_START_WAIT` passed); one whose start ends later is stopped as it ends."""
        with self.lock:
            self.stopped = True
        deadline = time.monotonic() + _START_WAIT
        while self.starting and time.monotonic() < deadline:
            time.sleep(0.01)
        with self.lock:
            left = list(self.running.values())
            self.running.clear()
        if os.name != "posix":
            for process in left:
                if process.returncode is None:
                    process.kill()
            return
        stop_groups([p.pid for p in left if p.returncode is None])


def stop_groups(pids: Sequence[int]) -> None:
    """SIGTERM to the process group each of `pids` led (each server is started in a session
    of its own), SIGKILL to what is left of them after `_EXIT_GRACE`. Also once a server
    has exited: a child it started, in its group, that ignores SIGTERM and the end of its
    input would otherwise run on after the command (the SDK signals the group only when the
    server itself stays). Returns at once when the groups are gone."""
    if os.name != "posix":
        return
    alive = [pid for pid in pids if signal_group(pid, signal.SIGTERM)]
    deadline = time.monotonic() + _EXIT_GRACE
    while alive and time.monotonic() < deadline:
        time.sleep(0.01)
        alive = [pid for pid in alive if signal_group(pid, 0)]
    for pid in alive:
        signal_group(pid, signal.SIGKILL)


async def _run(specs: Sequence[ServerSpec], timeout: float, show: Callable[[str], None] | None,
               width: int) -> tuple[list[LoadedSource], list[SourceError]]:
    _require_sdk()
    started: dict[int, Started] = {}
    servers = Servers()
    atexit.register(servers.stop_left)
    try:
        for i, spec in enumerate(specs):
            if spec.kind == "stdio":
                started[i] = await servers.start(spec)
        live = await anyio.to_thread.run_sync(importlib.import_module,
                                              "schema_compat.extract.live")
        return await live.fetch_started(  # type: ignore[no-any-return]
            specs, timeout, started, show, width)
    finally:
        for one in started.values():
            if one.process is not None:
                if one.process.returncode is None:
                    one.process.kill()  # only when the SDK could not be loaded
                with anyio.CancelScope(shield=True):
                    # its pipes and transport closed here, while the loop runs: left to the
                    # collector, they would be closed after the loop, which refuses that
                    await one.process.aclose()
            one.errlog.close()
        servers.forget_exited()
        # what the servers left in their groups (the SDK has stopped each server itself);
        # here, not in a thread: this also runs as SIGTERM unwinds the loop
        stop_groups([one.process.pid for one in started.values() if one.process])
        if not servers.running:
            atexit.unregister(servers.stop_left)


def _require_sdk() -> None:
    """ImportError, before any server is started, when the MCP SDK is not installed (its
    import takes a second; looking it up does not)."""
    try:
        found = importlib.util.find_spec("mcp.client.stdio")
    except (ImportError, ValueError):  # ValueError: a parent module blocked in sys.modules
        found = None
    if found is None:
        raise ImportError("No module named 'mcp'")


def fetch_servers(specs: Sequence[ServerSpec], timeout: float = 30.0, *,
                  spinner: bool = False, progress: Callable[[str], None] | None = None
                  ) -> tuple[list[LoadedSource], list[SourceError]]:
    """List every server at once; each gives a LoadedSource or a SourceError. `spinner`
    shows on stderr where each server is, until all have answered or failed; without it,
    `progress` (if given) is called with the same line every 0.1 s (the playground's
    progress). ImportError when the MCP SDK (the `live` extra) is not installed."""
    if not specs:
        return [], []
    # SIGTERM ends the listing as an exit does, so that the servers are stopped
    with signals_as_exit():
        if not spinner:
            return anyio.run(_run, specs, timeout, progress, 80)
        from ..console import make_console

        console = make_console(stderr=True)
        width = max(console.width - 4, 20)  # the spinner and its gap
        first = f"Listing tools from {len(specs)} server{'s' if len(specs) > 1 else ''}"
        with console.status(first[:width]) as status:
            return anyio.run(_run, specs, timeout, status.update, width)
