"""Tools from live MCP servers: stdio, streamable HTTP and legacy SSE.

The official SDK's transports carry the messages, but `tools/list` is read raw: the SDK's
client validates the whole listing and rejects it when one tool is malformed, while flagging
that tool is exactly our job. So this module speaks the few JSON-RPC messages it needs
(`initialize`, `notifications/initialized`, `tools/list` following `nextCursor`) over the
transport's streams itself.

Every server becomes a `LoadedSource` shaped like an MCP `tools/list` result, or a
`SourceError` with a hint; nothing here raises for a server that misbehaves. Every failure
ends within the timeout plus about a second: the SDK's stdio shutdown grace periods are
shortened for that, and the server's stderr goes to a temporary file, shown only on failure.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextvars
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TextIO, cast
from urllib.parse import urlsplit

import anyio
import httpx2
import mcp.client.stdio as _sdk_stdio
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from .. import __version__
from ..model import SourceError
from .config import ServerSpec
from .files import LoadedSource, SourceLoadError, _from_document

__all__ = ["ServerSpec", "fetch_servers"]

PROTOCOL_VERSION = "2025-11-25"
MAX_PAGES = 1000
_STDERR_LINES = 3
_STDERR_CHARS = 300
# The SDK waits 2 s for a server to exit after its stdin closes, then 2 s more after SIGTERM:
# too long for a checker that promises to give up within --timeout plus a second.
_SHUTDOWN_GRACE = 0.25
_LOGGERS = ("mcp", "mcp_types", "httpx2", "httpcore", "httpcore2", "uvicorn", "sse_starlette")


class LiveError(Exception):
    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass
class _Probe:
    """What the transports let us observe: the stdio process and the HTTP statuses."""

    process: Any = None
    statuses: list[tuple[str, int, str]] = field(default_factory=list)  # method, status, URL
    stage: str = "connect"  # connect -> initialize -> tools/list
    stray: int = 0
    # Ends the exchange at once (over SSE only): an SSE client posts its messages from a
    # task of its own, which only logs a refused post, and would otherwise wait out
    # --timeout.
    stop: Callable[[], None] | None = None


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
        process = await original(*args, **kwargs)
        probe = _PROBE.get()
        if probe is not None:
            probe.process = process
        return process

    _sdk_stdio._create_platform_compatible_process = create


# --- the raw JSON-RPC exchange -------------------------------------------------------


class _Closed(Exception):
    """The transport closed before the answer came."""


async def _answer_server_request(write: Any, message: JSONRPCRequest, headers: dict[str, str]
                                 ) -> None:
    if message.method == "ping":
        reply: Any = JSONRPCResponse(jsonrpc="2.0", id=message.id, result={})
    else:
        from mcp_types import ErrorData

        reply = JSONRPCError(jsonrpc="2.0", id=message.id,
                             error=ErrorData(code=-32601, message="Method not found"))
    await write.send(SessionMessage(reply, metadata=ClientMessageMetadata(headers=headers)))


async def _request(read: Any, write: Any, probe: _Probe, request_id: int, method: str,
                   params: dict[str, Any] | None, headers: dict[str, str]) -> dict[str, Any]:
    message = JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method, params=params)
    await write.send(SessionMessage(message, metadata=ClientMessageMetadata(
        headers=dict(headers) if headers else None)))
    while True:
        try:
            item = await read.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise _Closed from None
        if isinstance(item, Exception):  # a stray stdout line, or a transport hiccup
            probe.stray += 1
            continue
        msg = item.message
        if isinstance(msg, JSONRPCResponse) and msg.id == request_id:
            return msg.result
        if isinstance(msg, JSONRPCError) and msg.id in (request_id, None):
            raise _RpcError(method, msg.error.code, msg.error.message)
        if isinstance(msg, JSONRPCRequest):
            await _answer_server_request(write, msg, headers)
        # notifications (logging, progress, list_changed) and stale answers are ignored


class _RpcError(Exception):
    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method}: {message} ({code})")
        self.method, self.code, self.text = method, code, message


async def _exchange(read: Any, write: Any, probe: _Probe) -> list[Any]:
    """initialize, initialized, then every page of tools/list; returns the raw tools."""
    probe.stage = "initialize"
    init = await _request(read, write, probe, 1, "initialize", {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "schema-compat", "version": __version__},
    }, {})
    version = init.get("protocolVersion")
    headers = {"mcp-protocol-version": version} if isinstance(version, str) else {}
    await write.send(SessionMessage(
        JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized"),
        metadata=ClientMessageMetadata(headers=headers or None)))
    probe.stage = "tools/list"
    tools: list[Any] = []
    cursor: Any = None
    seen: set[str] = set()
    for page in range(MAX_PAGES):
        params = {"cursor": cursor} if cursor is not None else None
        result = await _request(read, write, probe, 2 + page, "tools/list", params, headers)
        page_tools = result.get("tools")
        if not isinstance(page_tools, list):
            raise LiveError(
                f"tools/list page {page + 1} has no \"tools\" list",
                "the server's tools/list result is malformed")
        tools.extend(page_tools)
        cursor = result.get("nextCursor")
        if cursor is None or cursor == "":
            return tools
        key = repr(cursor)
        if key in seen:
            raise LiveError(f"tools/list repeats the cursor {cursor!r} after page {page + 1}",
                            "the server's pagination loops")
        seen.add(key)
    raise LiveError(f"tools/list has more than {MAX_PAGES} pages", "the server's pagination "
                    "never ends")


# --- failures, in words ----------------------------------------------------------------


def _stderr_tail(errlog: IO[str] | None) -> str:
    if errlog is None:
        return ""
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [ln.strip() for ln in errlog.read().splitlines() if ln.strip()]
    except (OSError, ValueError):
        return ""
    tail = " | ".join(lines[-_STDERR_LINES:])
    return tail if len(tail) <= _STDERR_CHARS else "…" + tail[-_STDERR_CHARS:]


async def _exit_code(probe: _Probe, wait: float) -> int | None:
    process = probe.process
    if process is None:
        return None
    with anyio.move_on_after(wait):
        while process.returncode is None:
            await anyio.sleep(0.02)
    code = process.returncode
    return code if isinstance(code, int) else None


def _exited(code: int | None, stage: str, tail: str) -> LiveError:
    when = "during start-up" if stage in ("connect", "initialize") else f"during {stage}"
    what = f"the server exited {when}"
    if code is not None:
        what += f" with exit code {code}"
    if tail:
        what += f": {tail}"
    return LiveError(what, "run the command by hand to see why it stops")


def _http_failure(spec: ServerSpec, probe: _Probe) -> LiveError | None:
    # A streamable HTTP server without a stream of its own answers the client's GET with
    # 405, as the protocol allows: not a failure, whatever went wrong afterwards.
    # An SSE client posts to the endpoint the server announced, not to the stream's URL: say
    # which one answered (other requests are reported at the URL given).
    statuses: list[tuple[int, str, bool]] = []  # status, where, at the announced endpoint
    for method, status, url in probe.statuses:
        if (method, status) != ("GET", 405):
            endpoint = spec.kind == "sse" and method == "POST"
            statuses.append((status, url if endpoint else spec.url, endpoint))
    for status, where, endpoint in statuses:
        if status in (401, 403):
            word = "401 Unauthorized" if status == 401 else "403 Forbidden"
            return LiveError(f"HTTP {word} from {where}",
                             "pass a token: --header 'Authorization: Bearer ...'")
        if status == 404:
            hint = ("check the path: streamable HTTP servers usually serve /mcp"
                    if spec.kind == "http" else "check the path: SSE servers usually serve /sse")
            if spec.kind == "http" and urlsplit(spec.url).path.rstrip("/").endswith("/sse"):
                hint = "this looks like an SSE endpoint: use --sse URL"
            return LiveError(f"HTTP 404 Not Found at {where}", _ENDPOINT_HINT if endpoint else hint)
    for status, where, endpoint in statuses:
        if status >= 400:
            return LiveError(f"HTTP {status} from {where}",
                             _ENDPOINT_HINT if endpoint else
                             "check the URL and that the server speaks MCP over "
                             + ("streamable HTTP" if spec.kind == "http" else "SSE"))
    return None


# where an SSE server's announced message endpoint refuses a message
_ENDPOINT_HINT = "the SSE server announced this endpoint for messages; see the server's logs"


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in _leaves(sub)]
    return [exc]


def _refused(exc: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionRefusedError):
            return True
        current = current.__cause__ or current.__context__
    return False


def _connect_failure(spec: ServerSpec, exc: BaseException) -> LiveError | None:
    for leaf in _leaves(exc):
        if isinstance(leaf, LiveError):
            return leaf
        if isinstance(leaf, httpx2.ConnectError):
            parts = urlsplit(spec.url)
            if _refused(leaf):
                return LiveError(f"connection refused at {parts.netloc or spec.url}",
                                 "is the server running? check the host and port")
            return LiveError(f"cannot connect to {spec.url}: {leaf}",
                             "check the host name and that the server is running")
        if isinstance(leaf, httpx2.HTTPStatusError):
            return None  # the status was recorded by the hook
        if isinstance(leaf, httpx2.TimeoutException):
            return None  # reported as a timeout
        if isinstance(leaf, httpx2.HTTPError):
            return LiveError(f"cannot talk to {spec.url}: {leaf}", "check the URL")
    return None


def _no_answer(spec: ServerSpec, probe: _Probe, timeout: float) -> LiveError:
    if probe.stage == "tools/list":
        return LiveError(f"no answer to tools/list within {timeout:g}s",
                         "the server is slow or stuck; raise --timeout")
    if spec.kind == "stdio":
        return LiveError(f"no answer to initialize within {timeout:g}s",
                         "is this an MCP stdio server? it must read JSON-RPC on stdin and "
                         "write only JSON-RPC to stdout")
    return LiveError(f"no answer to initialize within {timeout:g}s",
                     "is this an MCP server? check the URL"
                     + ("" if spec.kind == "sse" else ", or try --sse for a legacy SSE server"))


# --- one server ----------------------------------------------------------------------


def _resolve_command(spec: ServerSpec) -> str:
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise LiveError(f"working directory {spec.cwd} does not exist",
                        "fix --cwd (or the server's cwd in the config)")
    command = spec.command
    path = spec.env.get("PATH", os.environ.get("PATH", os.defpath))
    if os.sep in command:
        where = command if os.path.isabs(command) or spec.cwd is None else \
            os.path.join(spec.cwd, command)
        if not os.path.exists(where):
            raise LiveError(f"command not found: {command}",
                            "check the path, or install the server")
        if not os.access(where, os.X_OK) or os.path.isdir(where):
            raise LiveError(f"command is not executable: {command}",
                            "check its permissions (chmod +x)")
        return command
    if shutil.which(command, path=path) is None:
        raise LiveError(f"command not found: {command}",
                        "install it, or give its full path")
    return command


def _http_client_factory(probe: _Probe, extra: Mapping[str, str]) -> Any:
    async def record(response: httpx2.Response) -> None:
        request = response.request
        url = str(request.url).split("?", 1)[0]  # a session id in the query says nothing
        probe.statuses.append((request.method, response.status_code, url))
        if response.status_code >= 400 and request.method == "POST" and probe.stop:
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


async def _fetch_one(spec: ServerSpec, timeout: float) -> list[Any]:
    probe = _Probe()
    _PROBE.set(probe)
    errlog: IO[str] | None = None
    try:
        if spec.kind == "stdio":
            command = _resolve_command(spec)
            # closed in `finally`: the SDK hands its descriptor to the server process
            errlog = tempfile.TemporaryFile(  # noqa: SIM115
                "w+", encoding="utf-8", errors="replace")
            params = StdioServerParameters(command=command, args=list(spec.args),
                                           env=dict(spec.env) or None, cwd=spec.cwd)
        closed = False
        tools: list[Any] | None = None
        with anyio.move_on_after(timeout) as scope:
            if spec.kind == "sse":  # streamable HTTP reports a refused request itself, and
                probe.stop = scope.cancel  # ignores a refused notification, as it should
            try:
                if spec.kind == "stdio":
                    assert errlog is not None
                    try:
                        transport = stdio_client(params, errlog=cast(TextIO, errlog))
                        async with transport as (read, write):
                            tools = await _exchange(read, write, probe)
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
                        tools = await _exchange(read, write, probe)
                else:
                    factory = _http_client_factory(probe, spec.headers)
                    async with sse_client(spec.url, timeout=timeout, sse_read_timeout=timeout,
                                          httpx_client_factory=factory) as (read, write):
                        tools = await _exchange(read, write, probe)
            except _Closed:
                closed = True
            except _RpcError as exc:
                http = _http_failure(spec, probe)
                if http is not None:
                    raise http from None
                raise LiveError(f"the server answered {exc.method} with an error: {exc.text} "
                                f"(code {exc.code})",
                                "check that it is an MCP server with tools") from None
            except LiveError:
                raise
            except Exception as exc:
                failure = _connect_failure(spec, exc) or _http_failure(spec, probe)
                if failure is not None:
                    raise failure from None
                if spec.kind != "stdio":
                    raise LiveError(f"cannot talk to {spec.url}: {_leaves(exc)[0]}",
                                    "check the URL") from None
                closed = True
        if tools is not None:
            return tools
        http = _http_failure(spec, probe)
        if http is not None:
            raise http
        if spec.kind == "stdio" and (closed or not scope.cancelled_caught):
            code = await _exit_code(probe, 0.3)
            raise _exited(code, probe.stage, _stderr_tail(errlog))
        elif closed:
            raise LiveError(f"the server closed the connection during {probe.stage}",
                            "check the URL and the server's logs")
        failure = _no_answer(spec, probe, timeout)
        tail = _stderr_tail(errlog)
        if tail:
            failure = LiveError(f"{failure.message}; its stderr: {tail}", failure.hint)
        raise failure
    finally:
        if errlog is not None:
            errlog.close()


async def _fetch_all(specs: Sequence[ServerSpec], timeout: float
                     ) -> list[list[Any] | LiveError]:
    results: list[list[Any] | LiveError] = [LiveError("not run")] * len(specs)

    async def one(i: int, spec: ServerSpec) -> None:
        try:
            results[i] = await _fetch_one(spec, timeout)
        except LiveError as exc:
            results[i] = exc
        except Exception as exc:
            leaf = _leaves(exc)[0]
            results[i] = LiveError(f"unexpected failure: {type(leaf).__name__}: {leaf}",
                                   "rerun with SCHEMA_COMPAT_DEBUG=1 and report it")

    async with anyio.create_task_group() as tg:
        for i, spec in enumerate(specs):
            tg.start_soon(one, i, spec)
    return results


def fetch_servers(specs: Sequence[ServerSpec], timeout: float = 30.0, *,
                  spinner: bool = False) -> tuple[list[LoadedSource], list[SourceError]]:
    """Connect to every server at once; each gives a LoadedSource or a SourceError."""
    if not specs:
        return [], []
    _install_sdk_hooks()
    if spinner:
        from ..report.text import make_console

        names = ", ".join(s.name for s in specs[:3]) + (", …" if len(specs) > 3 else "")
        with make_console(stderr=True).status(f"Connecting to {names}…"):
            results = anyio.run(_fetch_all, specs, timeout)
    else:
        results = anyio.run(_fetch_all, specs, timeout)
    sources: list[LoadedSource] = []
    errors: list[SourceError] = []
    for spec, result in zip(specs, results, strict=True):
        if isinstance(result, LiveError):
            errors.append(SourceError(spec.name, result.message, result.hint))
            continue
        try:
            sources.append(_from_document({"tools": result}, spec.name))
        except SourceLoadError as exc:
            errors.append(exc.error)
    return sources, errors
