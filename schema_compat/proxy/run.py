"""`schema-compat proxy`: the log, the upstream's start, and the choice of transport.

A stdio upstream is started first thing, in the environment the proxy itself runs in (which
an MCP client's `env` block for the proxy has already set) with `--env` on top; a `--url`
or `--sse` upstream goes through the MCP SDK's client transports (`remote.py`), imported
only then. Either is served by `gateway_serve.serve_members` as a gateway of one that
passes the client's session through.

Nothing is written to stdout but JSON-RPC: the log goes to stderr or `--log FILE`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any

from ..extract.config import ServerError, ServerSpec, resolve_command, server_environment

__all__ = ["Proxy", "exit_now", "kill_group", "launch", "log_line", "open_log", "start",
           "write_log"]


def exit_now(code: int) -> None:
    """Exit at once, the streams flushed: an MCP client waits for the proxy to exit when it
    closes the session, and the interpreter's teardown of the engine's modules would take
    longer than the session's own close (~50 ms here). Nothing the proxy holds needs it."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


class Proxy:
    """A proxy whose log is open and whose stdio upstream, if any, is running: `start`
    makes one, `serve` runs it, `abandon` undoes it."""

    def __init__(self, spec: ServerSpec, sink: IO[str],
                 proc: subprocess.Popen[bytes] | None) -> None:
        self.spec, self.sink, self.proc = spec, sink, proc

    def log(self, line: str) -> None:
        log_line(self.sink, line)

    def serve(self, provider: str, timeout: float, *, lossless_only: bool = False) -> int:
        """Run until the client disconnects, as a gateway of one that passes the client's
        session through (`gateway_serve.serve_members`); 2 when the SDK a URL upstream
        needs is not installed."""
        spec = self.spec
        try:
            import asyncio

            from .gateway import Gateway, GatewayOptions
            from .gateway_serve import serve_members
            from .upstream import StdioUpstream, Upstream

            if self.proc is not None:
                upstream: Upstream = StdioUpstream(self.proc)
            else:
                try:
                    from .remote import RemoteUpstream
                except ImportError as exc:
                    from ..extract.config import LIVE_EXTRA_HINT

                    print(f"schema-compat: error: the proxy needs the MCP SDK for --url and "
                          f"--sse, which is not installed ({exc}) ({LIVE_EXTRA_HINT})",
                          file=sys.stderr)
                    return 2
                upstream = RemoteUpstream(spec)
            gateway = Gateway(GatewayOptions(provider, timeout=timeout,
                                             lossless_only=lossless_only),
                              self.log, passthrough=True)
            member = gateway.add(spec.name)
            where = " ".join((spec.command, *spec.args)) if spec.kind == "stdio" else spec.url
            self.log(f"serving {where} for {member.relay.plan.profile.name} on stdio")
            asyncio.run(serve_members(gateway, [(member, spec, upstream)],
                                      lambda text: write_log(self.sink, text)))
            return 0
        finally:
            self.abandon()

    def abandon(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
        if self.sink is not sys.stderr:
            self.sink.close()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to a started upstream's process group when the upstream still runs (an error
    kept the serve loop from stopping it in order): the upstream and any child it started in
    its group."""
    if proc.poll() is not None:  # stopped in order, or gone long ago: its pid is not ours
        return
    with contextlib.suppress(OSError):
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()


def open_log(log_file: str | None) -> IO[str] | None:
    """The proxy's log: stderr, or `log_file` opened for appending (the caller closes it);
    None, the error said on one line, when it cannot be opened."""
    if not log_file:
        return sys.stderr
    try:
        return open(log_file, "a", encoding="utf-8")
    except OSError as exc:
        print(f"schema-compat: error: cannot open --log {log_file}: {exc.strerror or exc}",
              file=sys.stderr)
        return None


def log_line(sink: IO[str], line: str) -> None:
    """One line of the proxy's own in the log, written at once; a log that cannot be
    written is no reason to stop serving."""
    write_log(sink, f"schema-compat proxy: {line}\n")


def write_log(sink: IO[str], text: str) -> None:
    try:
        sink.write(text)
        sink.flush()
    except (OSError, ValueError):
        pass


def start(spec: ServerSpec, log_file: str | None = None) -> Proxy | int:
    """Open the log and start a stdio upstream, before anything heavy is imported: the
    upstream's own start-up overlaps the proxy's. 2 (the error said) when either fails."""
    sink = open_log(log_file)
    if sink is None:
        return 2
    if spec.kind != "stdio":
        return Proxy(spec, sink, None)
    try:
        proc = launch(spec, sink)
    except ServerError as exc:
        print(f"schema-compat: error: {exc.message} ({exc.hint})", file=sys.stderr)
        if sink is not sys.stderr:
            sink.close()
        return 2
    _stop_upstream_on_sigterm(proc)
    return Proxy(spec, sink, proc)


def _stop_upstream_on_sigterm(proc: subprocess.Popen[bytes]) -> None:
    """Until the serve loop makes SIGTERM end the session (while the engine is imported),
    SIGTERM stops the upstream's group, SIGKILL after a grace period, and exits 143: the
    default would leave an upstream that ignores SIGTERM and end of input running."""
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: object) -> None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + 0.25
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            os.killpg(proc.pid, signal.SIGKILL)
        exit_now(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def launch(spec: ServerSpec, errlog: IO[str] | int) -> subprocess.Popen[bytes]:
    """A stdio server started in its environment (`server_environment`), its command
    checked first (`resolve_command`); ServerError says why it cannot start. Its stderr
    goes to `errlog`: the log, or `subprocess.PIPE` for a caller that reads it."""
    env = server_environment(spec)
    command = resolve_command(spec, env)
    err: Any = errlog if errlog is not sys.stderr else None
    try:  # its stdin and stdout piped to the proxy, in a process group of its own (so that
        # it can be stopped whole)
        return subprocess.Popen([command, *spec.args], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=err, env=env, cwd=spec.cwd,
                                bufsize=0, start_new_session=os.name == "posix")
    except OSError as exc:
        raise ServerError(f"cannot start {spec.command}: {exc.strerror or exc}",
                          "check the command and its permissions") from None
