"""`schema-compat proxy`: the log, the upstream's start, and the choice of transport.

A stdio upstream is started first thing, in the environment the proxy itself runs in (which
an MCP client's `env` block for the proxy has already set) with `--env` on top, and served
by `pipes.py` on asyncio alone. A `--url` or `--sse` upstream goes through the MCP SDK's
client transports (`remote.py`), imported only then.

Nothing is written to stdout but JSON-RPC: the log goes to stderr or `--log FILE`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Callable
from typing import IO

from ..extract.config import ServerSpec, server_environment
from .relay import Log, Relay

__all__ = ["serve"]


class _Refused(Exception):
    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


def _resolve_command(spec: ServerSpec, env: dict[str, str]) -> str:
    """The upstream command, checked before it is started: a missing command or working
    directory is a one-line error, not a client that sees the proxy die."""
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise _Refused(f"working directory {spec.cwd} does not exist", "fix --cwd")
    command = spec.command
    if os.sep in command:
        where = command if os.path.isabs(command) or spec.cwd is None else \
            os.path.join(spec.cwd, command)
        if not os.path.exists(where):
            raise _Refused(f"command not found: {command}",
                           "check the path, or install the server")
        if not os.access(where, os.X_OK) or os.path.isdir(where):
            raise _Refused(f"command is not executable: {command}",
                           "check its permissions (chmod +x)")
        return command
    found = shutil.which(command, path=env.get("PATH", os.defpath))
    if found is None:
        raise _Refused(f"command not found: {command}", "install it, or give its full path")
    return found


def exit_now(code: int) -> None:
    """Exit at once, the streams flushed: an MCP client waits for the proxy to exit when it
    closes the session, and the interpreter's teardown of the engine's modules would take
    longer than the session's own close (~50 ms here). Nothing the proxy holds needs it."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def serve(spec: ServerSpec, provider: str, timeout: float, *, log_file: str | None = None,
          lossless_only: bool = False) -> int:
    """Run the proxy until the client disconnects; 2 when the upstream cannot be started."""
    sink: IO[str] = sys.stderr
    if log_file:
        try:
            sink = open(log_file, "a", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            print(f"schema-compat: error: cannot open --log {log_file}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2

    def log(line: str) -> None:
        try:
            sink.write(f"schema-compat proxy: {line}\n")
            sink.flush()
        except (OSError, ValueError):
            pass

    def make_relay() -> Relay:
        relay = Relay(provider, timeout, log, lossless_only=lossless_only)
        where = " ".join((spec.command, *spec.args)) if spec.kind == "stdio" else spec.url
        log(f"serving {where} for {relay.plan.profile.name} on stdio")
        return relay

    try:
        if spec.kind != "stdio":
            try:
                from .remote import serve_remote
            except ImportError as exc:
                from ..commands.common import LIVE_EXTRA_HINT

                print(f"schema-compat: error: the proxy needs the MCP SDK for --url and "
                      f"--sse, which is not installed ({exc}) ({LIVE_EXTRA_HINT})",
                      file=sys.stderr)
                return 2
            serve_remote(spec, make_relay(), log)
            return 0
        return _serve_stdio(spec, sink, log, make_relay)
    finally:
        if sink is not sys.stderr:
            sink.close()


def _serve_stdio(spec: ServerSpec, sink: IO[str], log: Log,
                 make_relay: Callable[[], Relay]) -> int:
    import asyncio

    from .pipes import serve_pipes, start_upstream

    env = server_environment(spec)
    try:
        command = _resolve_command(spec, env)
        try:
            proc = start_upstream([command, *spec.args], env, spec.cwd, sink)
        except OSError as exc:
            raise _Refused(f"cannot start {spec.command}: {exc.strerror or exc}",
                           "check the command and its permissions") from None
    except _Refused as exc:
        print(f"schema-compat: error: {exc.message} ({exc.hint})", file=sys.stderr)
        return 2
    try:
        asyncio.run(serve_pipes(proc, make_relay, log))
    finally:
        if proc.poll() is None:
            proc.kill()
    return 0
