"""Tools from live MCP servers: stdio, streamable HTTP and legacy SSE, in either protocol era.

The official SDK's transports carry the messages and its `ClientSession` negotiates the
protocol as the SDK's own client does in its `auto` mode: a `server/discover` probe for the
stateless 2026 era, falling back to the `initialize` handshake. `tools/list` is then read raw
through the session's dispatcher, stamped as the session stamps every request of the
negotiated era (`_meta` and headers in the 2026 era): the SDK's typed `list_tools` validates
the whole listing and rejects it when one tool is malformed, while flagging that tool is
exactly our job.

Every server becomes a `LoadedSource` shaped like an MCP `tools/list` result, or a
`SourceError` with a hint; nothing here raises for a server that misbehaves. Every failure
ends within the timeout plus about a second: the SDK's stdio shutdown grace periods are
shortened for that, and the server's stderr goes to a temporary file, shown only on failure.
A stdio server runs in the user's environment with the spec's `env` on top, as it would when
run by hand.

This module imports the `mcp` SDK (about a second): only the live-source path loads it.
"""

from __future__ import annotations

import contextvars
import logging
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, TextIO, cast
from urllib.parse import urlsplit

import anyio
import httpx2
import mcp.client.stdio as _sdk_stdio
from mcp.client._probe import negotiate_auto
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, Implementation

from .. import __version__
from ..model import ServerInfo, SourceError
from .config import ServerSpec, server_environment
from .files import LoadedSource, SourceLoadError, from_document
from .starting import LiveError, Started, fetch_servers, resolved

__all__ = ["ServerSpec", "fetch_servers", "fetch_started"]

MAX_PAGES = 1000
_STDERR_LINES = 3
_STDERR_CHARS = 300
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


# --- the exchange ------------------------------------------------------------------------


class _Closed(Exception):
    """The transport closed before the answer came."""


class _RpcError(Exception):
    def __init__(self, method: str, code: int, message: str) -> None:
        super().__init__(f"{method}: {message} ({code})")
        self.method, self.code, self.text = method, code, message


async def _raw_request(session: ClientSession, method: str, params: dict[str, Any] | None
                       ) -> dict[str, Any]:
    """Send one request of the negotiated era and return its result unvalidated.

    The session's stamp adds what the era asks of every request (the 2026 era's `_meta`
    and `Mcp-*` headers, the handshake era's `Mcp-Protocol-Version` header); the dispatcher
    sends an omitted `params` as `{}`, never `null`, which TypeScript servers refuse.
    """
    data: dict[str, Any] = {"method": method}
    if params is not None:
        data["params"] = params
    opts: dict[str, Any] = {}
    inner = cast(Any, session)
    inner._stamp(data, opts)
    try:
        result = await inner._dispatcher.send_raw_request(method, data.get("params"), opts)
    except MCPError as exc:
        if exc.code == CONNECTION_CLOSED:
            raise _Closed from None
        raise _RpcError(method, exc.code, exc.message) from None
    return cast(dict[str, Any], result)


async def _negotiate(session: ClientSession, probe: _Probe) -> None:
    """As the SDK's client does in `auto` mode: `server/discover`, else `initialize`."""
    probe.stage = "initialize"
    try:
        await negotiate_auto(session)
    except MCPError as exc:
        if exc.code == CONNECTION_CLOSED:
            raise _Closed from None
        raise _RpcError("initialize", exc.code, exc.message) from None
    except RuntimeError as exc:  # a version the SDK does not speak
        raise LiveError(f"the server's answer to initialize is unusable: {exc}",
                        "the server speaks a protocol version the MCP SDK does not; "
                        "upgrade the server or schema-compat") from None
    # A refused discover probe is how a handshake-era server says so: not a failure.
    probe.statuses = [s for s in probe.statuses if s[3] != "server/discover"]


def _server_info(session: ClientSession, spec: ServerSpec) -> ServerInfo:
    who = session.server_info
    return ServerInfo(
        source=spec.name, transport=spec.kind,
        era="stateless" if session.discover_result is not None else "handshake",
        protocol_version=session.protocol_version or "",
        name=who.name if who is not None else "",
        version=who.version if who is not None else "")


async def _exchange(session: ClientSession, probe: _Probe, spec: ServerSpec
                    ) -> tuple[list[Any], ServerInfo]:
    """Negotiate, then read every page of tools/list; returns the raw tools."""
    await _negotiate(session, probe)
    info = _server_info(session, spec)
    probe.stage = "tools/list"
    tools: list[Any] = []
    cursor: Any = None
    seen: set[str] = set()
    for page in range(MAX_PAGES):
        params = {"cursor": cursor} if cursor is not None else None
        result = await _raw_request(session, "tools/list", params)
        page_tools = result.get("tools")
        if not isinstance(page_tools, list):
            raise LiveError(
                f"tools/list page {page + 1} has no \"tools\" list",
                "the server's tools/list result is malformed")
        tools.extend(page_tools)
        cursor = result.get("nextCursor")
        if cursor is None or cursor == "":
            return tools, info
        key = repr(cursor)
        if key in seen:
            raise LiveError(f"tools/list repeats the cursor {cursor!r} after page {page + 1}",
                            "the server's pagination loops")
        seen.add(key)
    raise LiveError(f"tools/list has more than {MAX_PAGES} pages", "the server's pagination "
                    "never ends")


async def _session_exchange(read: Any, write: Any, probe: _Probe, spec: ServerSpec
                            ) -> tuple[list[Any], ServerInfo]:
    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):  # a stdout line that is not JSON-RPC
            probe.note_stray(message)

    session = ClientSession(read, write, message_handler=on_message,
                            client_info=Implementation(name="schema-compat",
                                                       version=__version__))
    async with session:
        return await _exchange(session, probe, spec)


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


def _http_failure(spec: ServerSpec, probe: _Probe, said: _RpcError | None = None
                  ) -> LiveError | None:
    """The HTTP status that explains a failure, with what the server said in its body."""
    # A streamable HTTP server without a stream of its own answers the client's GET with
    # 405, as the protocol allows: not a failure, whatever went wrong afterwards.
    # An SSE client posts to the endpoint the server announced, not to the stream's URL: say
    # which one answered (other requests are reported at the URL given).
    statuses: list[tuple[int, str, bool]] = []  # status, where, at the announced endpoint
    for method, status, url, _rpc in probe.statuses:
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
            if said is not None and said.text not in _SDK_STAND_INS:
                return LiveError(f"HTTP {status} from {where}: the server answered "
                                 f"{said.method} with an error: {said.text} (code {said.code})",
                                 "the server refused the request; see its logs")
            return LiveError(f"HTTP {status} from {where}",
                             _ENDPOINT_HINT if endpoint else
                             "check the URL and that the server speaks MCP over "
                             + ("streamable HTTP" if spec.kind == "http" else "SSE"))
    return None


# What the SDK's streamable HTTP transport says when an error status came without a JSON-RPC
# body: the status is the news, not these words.
_SDK_STAND_INS = ("Server returned an error response", "Not Found", "Session terminated")

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
    if spec.kind == "stdio" and probe.stray:
        lines = "line" if probe.stray == 1 else "lines"
        return LiveError(f"no answer to {probe.stage if probe.stage != 'connect' else 'initialize'}"
                         f" within {timeout:g}s; the server wrote {probe.stray} {lines} to "
                         f"stdout that are not JSON-RPC (first: {probe.first_stray})",
                         "an MCP stdio server must write only JSON-RPC to stdout; its logs "
                         "belong on stderr")
    if probe.stage == "tools/list":
        return LiveError(f"no answer to tools/list within {timeout:g}s",
                         "the server is slow or stuck; raise --timeout")
    if spec.kind == "stdio":
        return LiveError(f"no answer to initialize within {timeout:g}s",
                         "is this an MCP stdio server? it must read JSON-RPC on stdin and "
                         "write only JSON-RPC to stdout; a first npx run may need a higher "
                         "--timeout")
    return LiveError(f"no answer to initialize within {timeout:g}s",
                     "is this an MCP server? check the URL"
                     + ("" if spec.kind == "sse" else ", or try --sse for a legacy SSE server"))


# --- one server ----------------------------------------------------------------------


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
                            except _Closed:
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
            raise LiveError(f"the server closed its stdout during {probe.stage} but kept "
                            "running", "an MCP stdio server must keep stdout open for "
                            "JSON-RPC; run the command by hand to see why it stops")
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
        if errlog is not None and owned:
            errlog.close()


def _ours(exc: BaseException) -> BaseException | None:
    for leaf in _leaves(exc):
        if isinstance(leaf, LiveError | _RpcError | _Closed):
            return leaf
    return None


def _running(probe: _Probe) -> bool:
    process = probe.process
    return process is not None and process.returncode is None


_STAGE_WORDS = {"connect": "starting", "initialize": "negotiating", "tools/list": "listing"}


def _progress_line(specs: Sequence[ServerSpec], probes: Sequence[_Probe], done: Sequence[bool],
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
