"""Tools from live MCP servers: stdio, streamable HTTP and legacy SSE, in either protocol era.

Every server becomes a `LoadedSource` shaped like an MCP `tools/list` result, or a
`SourceError` with a hint; nothing here raises for a server that misbehaves. Here: the
transports (stdio, streamable HTTP, SSE) each server is reached by, the timeout, and the
servers listed at once, with the progress line shown meanwhile (`progress_line`). The
exchange over a transport is `live_exchange`, what the transports show of a server
`live_probe`, a failure in words `live_errors`. The server's stderr goes to a temporary
file, shown only on failure. A stdio server runs in the user's environment with the spec's
`env` on top, as it would when run by hand.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

import anyio
import httpx2

from ..model import ServerInfo, SourceError
from .config import ServerError, ServerSpec
from .files import LoadedSource, SourceLoadError, from_document
from .live_errors import (
    connect_failure,
    during,
    exit_code,
    exit_error,
    http_failure,
    leaves,
    no_answer,
    our_failure,
    stderr_tail,
)
from .live_exchange import Closed, RpcError, session_exchange
from .live_probe import OnResponse, Probe, quiet_sdk_logging, remote_streams, stdio_streams
from .starting import Started, fetch_servers

__all__ = ["ServerSpec", "fetch_servers", "fetch_started"]

# how long a server whose stdout closed is given to exit before it counts as running on
_CLOSE_TO_EXIT = 0.2


async def _fetch_one(spec: ServerSpec, timeout: float, probe: Probe,
                     started: Started | None) -> tuple[list[Any], ServerInfo]:
    """List one server. `started`: a stdio server already running. Its --timeout counts from
    here, as for any other server: the time the SDK took to load is ours, not the server's."""
    errlog: IO[str] | None = None
    process: Any = None
    if spec.kind == "stdio":
        assert started is not None, "stdio servers are started by `starting.fetch_servers`"
        if started.error is not None:
            raise started.error
        errlog, process = started.errlog, started.process
    closed = False
    alive_at_close = False
    result: tuple[list[Any], ServerInfo] | None = None
    with anyio.move_on_after(timeout) as scope:
        if spec.kind == "sse":  # streamable HTTP reports a refused request itself, and
            probe.stop = scope.cancel  # ignores a refused notification, as it should
        try:
            if spec.kind == "stdio":
                async with stdio_streams(process, probe) as (read, write):
                    try:
                        result = await session_exchange(read, write, probe, spec)
                    except Exception as exc:  # Closed, in the session's group
                        if isinstance(our_failure(exc), Closed):
                            # a server that closed stdout to exit has a moment to
                            # (before it is stopped): what it does is news
                            await exit_code(probe, _CLOSE_TO_EXIT)
                            alive_at_close = process.returncode is None
                        raise
            else:
                async with remote_streams(spec, timeout, timeout, _recorder(probe)) as (
                        read, write):
                    result = await session_exchange(read, write, probe, spec)
        except Exception as raised:
            # The transports' and the session's task groups wrap what the exchange
            # raised in exception groups: find ours among the leaves.
            found = our_failure(raised) or raised
            if isinstance(found, ServerError):
                raise found from None
            if isinstance(found, RpcError):
                http = http_failure(spec, probe, found)
                if http is not None:
                    raise http from None
                raise ServerError(f"the server answered {found.method} with an error: "
                                  f"{found.text} (code {found.code})",
                                  "check that it is an MCP server with tools") from None
            if not isinstance(found, Closed):
                failure = connect_failure(spec, found) or http_failure(spec, probe)
                if failure is not None:
                    raise failure from None
                if spec.kind != "stdio":
                    raise ServerError(f"cannot talk to {spec.url}: {leaves(found)[0]}",
                                      "check the URL") from None
            closed = True
    if result is not None:
        return result
    http = http_failure(spec, probe)
    if http is not None:
        raise http
    if spec.kind == "stdio" and closed and alive_at_close:
        raise ServerError(f"the server closed its stdout {during(probe)} but kept "
                          "running", "an MCP stdio server must keep stdout open for "
                          "JSON-RPC; run the command by hand to see why it stops")
    if spec.kind == "stdio" and (closed or not scope.cancelled_caught):
        code = await exit_code(probe, 0.3)
        raise exit_error(code, during(probe), stderr_tail(errlog))
    elif closed:
        raise ServerError(f"the server closed the connection during {probe.stage}",
                          "check the URL and the server's logs")
    failure = no_answer(spec, probe, timeout)
    tail = stderr_tail(errlog)
    if tail:
        failure = ServerError(f"{failure.message}; its stderr: {tail}", failure.hint)
    raise failure


def _recorder(probe: Probe) -> OnResponse:
    """Each HTTP response's status into the probe; over SSE, a refused message ends the
    exchange at once (`Probe.stop`)."""
    async def record(response: httpx2.Response) -> None:
        request = response.request
        url = str(request.url).split("?", 1)[0]  # a session id in the query says nothing
        rpc = request.headers.get("mcp-method", "")
        probe.statuses.append((request.method, response.status_code, url, rpc))
        if response.status_code >= 400 and request.method == "POST" and probe.stop and \
                rpc != "server/discover":  # a refused probe means "handshake era"
            probe.stop()

    return record


async def fetch_started(specs: Sequence[ServerSpec], timeout: float,
                        started: Mapping[int, Started], show: Callable[[str], None] | None,
                        width: int) -> tuple[list[LoadedSource], list[SourceError]]:
    """List every server at once, the stdio ones already `started` (by index in `specs`);
    each gives a LoadedSource or a SourceError. `starting.fetch_servers` is the way in."""
    quiet_sdk_logging()
    results: list[tuple[list[Any], ServerInfo] | ServerError] = \
        [ServerError("not run")] * len(specs)
    probes = [Probe() for _ in specs]
    done = [False] * len(specs)

    async def one(i: int, spec: ServerSpec) -> None:
        try:
            results[i] = await _fetch_one(spec, timeout, probes[i], started.get(i))
        except ServerError as exc:
            results[i] = exc
        except Exception as exc:
            leaf = leaves(exc)[0]
            results[i] = ServerError(f"unexpected failure: {type(leaf).__name__}: {leaf}",
                                     "rerun with SCHEMA_COMPAT_DEBUG=1 and report it")
        finally:
            done[i] = True

    async def ticker() -> None:
        assert show is not None
        while True:
            show(progress_line(specs, probes, done, width))
            await anyio.sleep(0.1)

    async with anyio.create_task_group() as tg:
        if show is not None:
            tg.start_soon(ticker)
        async with anyio.create_task_group() as servers:
            for i, spec in enumerate(specs):
                servers.start_soon(one, i, spec)
        tg.cancel_scope.cancel()
    sources: list[LoadedSource] = []
    errors: list[SourceError] = []
    for spec, result in zip(specs, results, strict=True):
        if isinstance(result, ServerError):
            errors.append(SourceError(spec.name, result.message, result.hint))
            continue
        tools, info = result
        try:
            sources.append(from_document({"tools": tools}, spec.name)._replace(server=info))
        except SourceLoadError as exc:
            errors.append(exc.error)
    return sources, errors


# what each stage is called on the progress line
_STAGE_WORDS = {"connect": "starting", "initialize": "negotiating", "tools/list": "listing"}


def progress_line(specs: Sequence[ServerSpec], probes: Sequence[Probe], done: Sequence[bool],
                   width: int) -> str:
    """One line on where each server is: what a user waiting on slow servers wants to see."""
    pending = [(spec, _STAGE_WORDS.get(probe.stage, probe.stage))
               for spec, probe, over in zip(specs, probes, done, strict=True) if not over]
    if len(specs) == 1:
        prefix = "Listing tools from "
        spec, stage = specs[0], _STAGE_WORDS.get(probes[0].stage, probes[0].stage)
        room = width - len(prefix) - len(stage) - 2
        line = f"{prefix}{_short(spec.name, room)}: {stage}"
    else:
        prefix = f"Listing tools ({len(specs) - len(pending)}/{len(specs)} done): waiting for "
        share = (width - len(prefix)) // max(len(pending), 1)
        line = prefix + ", ".join(f"{_short(spec.name, share - len(stage) - 5)} ({stage})"
                                  for spec, stage in pending)
    return line if len(line) <= width else line[:max(width - 1, 1)] + "…"


def _short(name: str, room: int) -> str:
    """`name` in `room` characters, at least 12: a command's end (its script, its
    package@version) tells servers apart."""
    room = max(room, 12)
    return name if len(name) <= room else "…" + name[-(room - 1):]
