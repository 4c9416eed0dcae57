"""Tools from live MCP servers: stdio, streamable HTTP and legacy SSE, in either protocol era.

Every server becomes a `LoadedSource` shaped like an MCP `tools/list` result, or a
`SourceError` with a hint; nothing here raises for a server that misbehaves. Here: the
transports (stdio, streamable HTTP, SSE) each server is reached by, the timeout, and the
servers listed at once. The exchange over a transport is `live_exchange`, what the
transports show of a server `live_probe`, a failure in words `live_errors`, the progress
line `live_progress`. The server's stderr goes to a temporary file, shown only on failure.
A stdio server runs in the user's environment with the spec's `env` on top, as it would when
run by hand.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, TextIO, cast

import anyio
import httpx2
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from ..model import ServerInfo, SourceError
from .config import ServerSpec, server_environment
from .files import LoadedSource, SourceLoadError, from_document
from .live_errors import (
    _connect_failure,
    _during,
    _exit_code,
    _exited,
    _http_failure,
    _leaves,
    _no_answer,
    _ours,
    _stderr_tail,
)
from .live_exchange import _Closed, _RpcError, _session_exchange
from .live_probe import _PROBE, _install_sdk_hooks, _Probe
from .live_progress import _progress_line
from .starting import LiveError, Started, fetch_servers, resolved

__all__ = ["ServerSpec", "fetch_servers", "fetch_started"]

# how long a server whose stdout closed is given to exit before it counts as running on
_CLOSE_TO_EXIT = 0.2


def _http_client_factory(probe: _Probe, extra: Mapping[str, str]) -> Any:
    async def record(response: httpx2.Response) -> None:
        request = response.request
        url = str(request.url).split("?", 1)[0]  # a session id in the query says nothing
        rpc = request.headers.get("mcp-method", "")
        probe.statuses.append((request.method, response.status_code, url, rpc))
        if response.status_code >= 400 and request.method == "POST" and probe.stop and \
                rpc != "server/discover":  # a refused probe means "handshake era"
            probe.stop()

    def factory(headers: dict[str, str] | None = None, timeout: httpx2.Timeout | None = None,
                auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
        merged = {**(headers or {}), **extra}
        kwargs: dict[str, Any] = {"headers": merged, "event_hooks": {"response": [record]}}
        if timeout is not None:
            kwargs["timeout"] = timeout
        if auth is not None:
            kwargs["auth"] = auth
        return httpx2.AsyncClient(**kwargs)

    return factory


async def _fetch_one(spec: ServerSpec, timeout: float, probe: _Probe | None = None,
                     started: Started | None = None) -> tuple[list[Any], ServerInfo]:
    """List one server. `started`: a stdio server already running. Its --timeout counts from
    here, as for any other server: the time the SDK took to load is ours, not the server's."""
    probe = probe or _Probe()
    _PROBE.set(probe)
    errlog: IO[str] | None = None
    owned = started is None
    try:
        if spec.kind == "stdio":
            if started is None:
                command = resolved(spec, server_environment(spec))
                # closed in `finally`: the SDK hands its descriptor to the server process
                errlog = tempfile.TemporaryFile(  # noqa: SIM115
                    "w+", encoding="utf-8", errors="replace")
            else:
                if started.error is not None:
                    raise started.error
                command, errlog, probe.spawned = spec.command, started.errlog, started.process
            # Undecodable bytes become stray lines we count, not a dead transport.
            params = StdioServerParameters(command=command, args=list(spec.args),
                                           env=server_environment(spec), cwd=spec.cwd,
                                           encoding_error_handler="replace")
        closed = False
        alive_at_close = False
        result: tuple[list[Any], ServerInfo] | None = None
        with anyio.move_on_after(timeout) as scope:
            if spec.kind == "sse":  # streamable HTTP reports a refused request itself, and
                probe.stop = scope.cancel  # ignores a refused notification, as it should
            try:
                if spec.kind == "stdio":
                    assert errlog is not None
                    try:
                        transport = stdio_client(params, errlog=cast(TextIO, errlog))
                        async with transport as (read, write):
                            try:
                                result = await _session_exchange(read, write, probe, spec)
                            except Exception as exc:  # _Closed, in the session's group
                                if isinstance(_ours(exc), _Closed):
                                    # a server that closed stdout to exit has a moment to
                                    # (before the SDK stops it): what it does is news
                                    await _exit_code(probe, _CLOSE_TO_EXIT)
                                    alive_at_close = _running(probe)
                                raise
                    except OSError as exc:
                        if probe.process is None:
                            raise LiveError(f"cannot start {spec.command}: "
                                            f"{exc.strerror or exc}",
                                            "check the command and its permissions") from None
                        raise
                elif spec.kind == "http":
                    factory = _http_client_factory(probe, spec.headers)
                    client = factory(timeout=httpx2.Timeout(timeout))
                    async with client, streamable_http_client(
                            spec.url, http_client=client) as (read, write):
                        result = await _session_exchange(read, write, probe, spec)
                else:
                    factory = _http_client_factory(probe, spec.headers)
                    async with sse_client(spec.url, timeout=timeout, sse_read_timeout=timeout,
                                          httpx_client_factory=factory) as (read, write):
                        result = await _session_exchange(read, write, probe, spec)
            except Exception as raised:
                # The transports' and the session's task groups wrap what the exchange
                # raised in exception groups: find ours among the leaves.
                found: BaseException | None = _ours(raised) or raised
                if isinstance(found, LiveError):
                    raise found from None
                if isinstance(found, _RpcError):
                    http = _http_failure(spec, probe, found)
                    if http is not None:
                        raise http from None
                    raise LiveError(f"the server answered {found.method} with an error: "
                                    f"{found.text} (code {found.code})",
                                    "check that it is an MCP server with tools") from None
                if isinstance(found, _Closed):
                    closed = True
                    found = None
                failure = None if found is None else (
                    _connect_failure(spec, found) or _http_failure(spec, probe))
                if failure is not None:
                    raise failure from None
                if found is not None and spec.kind != "stdio":
                    raise LiveError(f"cannot talk to {spec.url}: {_leaves(found)[0]}",
                                    "check the URL") from None
                closed = True
        if result is not None:
            return result
        http = _http_failure(spec, probe)
        if http is not None:
            raise http
        if spec.kind == "stdio" and closed and alive_at_close:
            raise LiveError(f"the server closed its stdout {_during(probe)} but kept "
                            "running", "an MCP stdio server must keep stdout open for "
                            "JSON-RPC; run the command by hand to see why it stops")
        if spec.kind == "stdio" and (closed or not scope.cancelled_caught):
            code = await _exit_code(probe, 0.3)
            raise _exited(code, probe.stage, _stderr_tail(errlog), _during(probe))
        elif closed:
            raise LiveError(f"the server closed the connection during {probe.stage}",
                            "check the URL and the server's logs")
        failure = _no_answer(spec, probe, timeout)
        tail = _stderr_tail(errlog)
        if tail:
            failure = LiveError(f"{failure.message}; its stderr: {tail}", failure.hint)
        raise failure
    finally:
        if errlog is not None and owned:
            errlog.close()


def _running(probe: _Probe) -> bool:
    process = probe.process
    return process is not None and process.returncode is None


async def _fetch_all(specs: Sequence[ServerSpec], timeout: float,
                     show: Callable[[str], None] | None = None, width: int = 80,
                     started: Mapping[int, Started] | None = None
                     ) -> list[tuple[list[Any], ServerInfo] | LiveError]:
    results: list[tuple[list[Any], ServerInfo] | LiveError] = [LiveError("not run")] * len(specs)
    probes = [_Probe() for _ in specs]
    done = [False] * len(specs)

    async def one(i: int, spec: ServerSpec) -> None:
        try:
            results[i] = await _fetch_one(spec, timeout, probes[i],
                                          (started or {}).get(i))
        except LiveError as exc:
            results[i] = exc
        except Exception as exc:
            leaf = _leaves(exc)[0]
            results[i] = LiveError(f"unexpected failure: {type(leaf).__name__}: {leaf}",
                                   "rerun with SCHEMA_COMPAT_DEBUG=1 and report it")
        finally:
            done[i] = True

    async def ticker() -> None:
        assert show is not None
        while True:
            show(_progress_line(specs, probes, done, width))
            await anyio.sleep(0.1)

    async with anyio.create_task_group() as tg:
        if show is not None:
            tg.start_soon(ticker)
        async with anyio.create_task_group() as servers:
            for i, spec in enumerate(specs):
                servers.start_soon(one, i, spec)
        tg.cancel_scope.cancel()
    return results


async def fetch_started(specs: Sequence[ServerSpec], timeout: float,
                        started: Mapping[int, Started], show: Callable[[str], None] | None,
                        width: int) -> tuple[list[LoadedSource], list[SourceError]]:
    """List every server at once, the stdio ones already `started` (by index in `specs`);
    each gives a LoadedSource or a SourceError. `starting.fetch_servers` is the way in."""
    _install_sdk_hooks()
    results = await _fetch_all(specs, timeout, show, width, started)
    sources: list[LoadedSource] = []
    errors: list[SourceError] = []
    for spec, result in zip(specs, results, strict=True):
        if isinstance(result, LiveError):
            errors.append(SourceError(spec.name, result.message, result.hint))
            continue
        tools, info = result
        try:
            sources.append(from_document({"tools": tools}, spec.name)._replace(server=info))
        except SourceLoadError as exc:
            errors.append(exc.error)
    return sources, errors
