"""A live server's failure, in words: what went wrong (an exit and its code, an HTTP status
and what the server said with it, a refused connection, silence and its likely cause) as a
`ServerError` with a hint, and the unwrapping of the exception groups the transports' task
groups raise, to find the failure that explains it. Shared with the proxy.
"""

from __future__ import annotations

from typing import IO
from urllib.parse import urlsplit

import anyio
import httpx2

from .config import ServerError, ServerSpec
from .live_exchange import Closed, RpcError
from .live_probe import Probe

_STDERR_LINES = 3
_STDERR_CHARS = 300


def stderr_tail(errlog: IO[str] | None) -> str:
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


async def exit_code(probe: Probe, wait: float) -> int | None:
    process = probe.process
    if process is None:
        return None
    with anyio.move_on_after(wait):
        while process.returncode is None:
            await anyio.sleep(0.02)
    code = process.returncode
    return code if isinstance(code, int) else None


def _size(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1_000_000:.1f} MB"
    return f"{count / 1000:.1f} kB" if count >= 1000 else f"{count} bytes"


def during(probe: Probe) -> str:
    """When the server's stdout ended: during a stage, or in the middle of an answer (the
    bytes of a message not yet ended by its newline)."""
    if probe.unfinished:
        return (f"in the middle of its answer to {probe.stage} ({_size(probe.unfinished)} "
                "of it received)")
    if probe.stage in ("connect", "initialize"):
        return "during start-up"
    return f"during {probe.stage}"


def exit_error(code: int | None, when: str, tail: str) -> ServerError:
    """The server exited `when` (`during`), with its exit code and its stderr's `tail`."""
    what = f"the server exited {when}"
    if code is not None:
        what += f" with exit code {code}"
    if tail:
        what += f": {tail}"
    return ServerError(what, "run the command by hand to see why it stops")


def http_failure(spec: ServerSpec, probe: Probe, said: RpcError | None = None
                  ) -> ServerError | None:
    """The HTTP status that explains a failure, with what the server said in its body."""
    # A streamable HTTP server without a stream of its own answers the client's GET with
    # 405, as the protocol allows: not a failure, whatever went wrong afterwards.
    # An SSE client posts to the endpoint the server announced, not to the stream's URL: say
    # which one answered (other requests are reported at the URL given).
    statuses: list[tuple[int, str, bool]] = []  # status, where, at the announced endpoint
    posted_405 = False
    for method, status, url, _rpc in probe.statuses:
        if (method, status) != ("GET", 405):
            endpoint = spec.kind == "sse" and method == "POST"
            statuses.append((status, url if endpoint else spec.url, endpoint))
            posted_405 = posted_405 or (method, status) == ("POST", 405)
    sse = _sse_hint(spec, posted_405)
    for status, where, endpoint in statuses:
        if status in (401, 403):
            word = "401 Unauthorized" if status == 401 else "403 Forbidden"
            return ServerError(f"HTTP {word} from {where}",
                               "pass a token: --header 'Authorization: Bearer ...'")
        if status == 404:
            hint = ("check the path: streamable HTTP servers usually serve /mcp"
                    if spec.kind == "http" else "check the path: SSE servers usually serve /sse")
            if sse:
                hint = sse
            return ServerError(f"HTTP 404 Not Found at {where}",
                               _ENDPOINT_HINT if endpoint else hint)
    for status, where, endpoint in statuses:
        if status >= 400:
            if said is not None and said.text not in _SDK_STAND_INS:
                return ServerError(f"HTTP {status} from {where}: the server answered "
                                   f"{said.method} with an error: {said.text} (code {said.code})",
                                   "the server refused the request; see its logs")
            return ServerError(f"HTTP {status} from {where}",
                               _ENDPOINT_HINT if endpoint else sse or
                               "check the URL and that the server speaks MCP over "
                               + ("streamable HTTP" if spec.kind == "http" else "SSE"))
    return None


def _sse_hint(spec: ServerSpec, posted_405: bool) -> str:
    """How to reach a legacy SSE server given as streamable HTTP, when it looks like one: its
    path ends in /sse, or it answers the client's POST with 405 (an SSE server's event stream
    takes GET only); "" otherwise. A URL from the command line (its spec is named by it) is
    given with --sse; a client config's server is marked with "type": "sse"."""
    if spec.kind != "http":
        return ""
    if urlsplit(spec.url).path.rstrip("/").endswith("/sse"):
        why = "the path ends in /sse"
    elif posted_405:
        why = "it answers POST with 405 Method Not Allowed"
    else:
        return ""
    how = f"use --sse {spec.url}" if spec.name == spec.url else \
        'set "type": "sse" on this server in the config'
    return f"this looks like a legacy SSE server ({why}): {how}"


# What the SDK's streamable HTTP transport says when an error status came without a JSON-RPC
# body: the status is the news, not these words.
_SDK_STAND_INS = ("Server returned an error response", "Not Found", "Session terminated")

# where an SSE server's announced message endpoint refuses a message
_ENDPOINT_HINT = "the SSE server announced this endpoint for messages; see the server's logs"


def leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in leaves(sub)]
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


def connect_failure(spec: ServerSpec, exc: BaseException) -> ServerError | None:
    for leaf in leaves(exc):
        if isinstance(leaf, ServerError):
            return leaf
        if isinstance(leaf, httpx2.ConnectError):
            parts = urlsplit(spec.url)
            if _refused(leaf):
                return ServerError(f"connection refused at {parts.netloc or spec.url}",
                                   "is the server running? check the host and port")
            return ServerError(f"cannot connect to {spec.url}: {leaf}",
                               "check the host name and that the server is running")
        if isinstance(leaf, httpx2.HTTPStatusError):
            return None  # the status was recorded by the hook
        if isinstance(leaf, httpx2.TimeoutException):
            return None  # reported as a timeout
        if isinstance(leaf, httpx2.HTTPError):
            return ServerError(f"cannot talk to {spec.url}: {leaf}", "check the URL")
    return None


def no_answer(spec: ServerSpec, probe: Probe, timeout: float) -> ServerError:
    if spec.kind == "stdio" and probe.stray:
        lines = "line" if probe.stray == 1 else "lines"
        stage = probe.stage if probe.stage != "connect" else "initialize"
        return ServerError(f"no answer to {stage}"
                           f" within {timeout:g}s; the server wrote {probe.stray} {lines} to "
                           f"stdout that are not JSON-RPC (first: {probe.first_stray})",
                           "an MCP stdio server must write only JSON-RPC to stdout; its logs "
                           "belong on stderr")
    if spec.kind == "stdio" and probe.unfinished:
        what = "listing" if probe.stage == "tools/list" else f"answer to {probe.stage}"
        return ServerError(f"the {what} was still arriving after {timeout:g}s "
                           f"({_size(probe.unfinished)} of it received)",
                           "the server writes it slowly; raise --timeout")
    if probe.stage == "tools/list":
        return ServerError(f"no answer to tools/list within {timeout:g}s",
                           "the server is slow or stuck; raise --timeout")
    if spec.kind == "stdio":
        return ServerError(f"no answer to initialize within {timeout:g}s",
                           "is this an MCP stdio server? it must read JSON-RPC on stdin and "
                           "write only JSON-RPC to stdout; a first npx run may need a higher "
                           "--timeout")
    return ServerError(f"no answer to initialize within {timeout:g}s",
                       "is this an MCP server? check the URL"
                       + ("" if spec.kind == "sse" else ", or try --sse for a legacy SSE server"))



def our_failure(exc: BaseException) -> BaseException | None:
    for leaf in leaves(exc):
        if isinstance(leaf, ServerError | RpcError | Closed):
            return leaf
    return None
