"""The proxy's one serve loop (`serve_members`), on asyncio: the client on the proxy's stdio,
each member an `upstream.Upstream`, the message logic gateway.py's. Nothing waits for an
answer but the proxy's own requests, so concurrent requests overlap as they would without
the proxy; a watchdog gives requests past --timeout (reset by their progress) an error, so
a hung upstream never hangs the client; when an upstream ends, its open requests get one.

`schema-compat proxy -- CMD` (or --url, --sse; run.py) is a gateway of one in pass-through:
the client's own session is relayed, each message through the one `Relay`, a line the relay
did not change written as it came; a tools/call before any listing makes the proxy list the
tools itself first, the client's later lines held meanwhile and released in order.

`schema-compat proxy --config FILE`: every server of a client config started (stdio) or
connected to (HTTP, SSE), each held in a session of the gateway's own, and all of them
served as one server.

Start-up: every upstream is started at once, before the engine is imported; each is then
initialized (the handshake era, or 2026-07-28 when it refuses `initialize`) and listed, all
in parallel. The client's own handshake is answered at once; its tools/list and tools/call
wait until every upstream is served or has failed (each has --timeout), and then the tools
are planned once. An upstream that cannot be started, exits, refuses both eras or does not
answer is logged with its name and the reason, and the others are served. What a stdio
server writes to its stderr goes to the log line by line, each line after the server's
name in brackets (`[github] ...`): many servers share one log.

HTTP and SSE servers of the config are reached through the MCP SDK's client transports
(remote.py), imported only for a config that has one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import IO, Any

from ..extract.config import ConfigError, ServerError, ServerSpec, load_config
from .gateway import (
    GATEWAY_NAME,
    HANDSHAKE_VERSIONS,
    TOOL_METHODS,
    Gateway,
    GatewayOptions,
    Member,
)
from .jsonrpc import Refused, read_message
from .relay import Message, arriving, era_name, negotiate, own_listing
from .run import kill_group, launch, log_line, open_log, write_log
from .upstream import Lines, OnMessage, StdioUpstream, Upstream, encode, read_lines

__all__ = ["serve_config", "serve_gateway", "serve_members", "stderr_to"]

_TICK = 0.1
_MAX_PAGES = 100
_ORPHAN_GRACE = 0.3  # an upstream exited, its stdout held open by a child of its own


class _Process:
    """One member: what the gateway knows of it (`upstream`), the `link` it is reached by
    (a server restarted for the 2026-07-28 era gets a new one), and whether its side has
    ended (`eof`)."""

    def __init__(self, upstream: Member, spec: ServerSpec, link: Upstream | None) -> None:
        self.upstream, self.spec, self.link = upstream, spec, link
        self.eof = asyncio.Event()
        self.closed = ""  # why it could not be reached at all (no link)
        self.exited_at = 0.0  # when its process was first seen exited

    def send(self, msg: Message, line: bytes = b"") -> None:
        if self.link is not None:
            self.link.send(msg, line)

    async def stop(self) -> None:
        if self.link is not None:
            await self.link.stop()


def serve_config(path: str, names: Sequence[str], options: GatewayOptions,
                 log_file: str | None = None) -> int:
    """Serve the servers of the client config at `path` (those `names` select, each an
    exact name or a glob) until the client disconnects; 2, the error said on one line, when
    the config is unusable, a name selects no server, or the log cannot be opened."""
    try:
        for name in names:  # each on its own: one that selects nothing is named
            load_config(path, [name])
        specs, errors = load_config(path, list(names) or None)
    except ConfigError as exc:
        print(f"schema-compat: error: {exc.error.one_line()}", file=sys.stderr)
        return 2
    sink = open_log(log_file)
    if sink is None:
        return 2
    try:
        refused = [(e.source, e.message + (f" ({e.hint})" if e.hint else "")) for e in errors]
        return serve_gateway(specs, refused, options, sink)
    finally:
        if sink is not sys.stderr:
            sink.close()


def serve_gateway(specs: Sequence[ServerSpec], refused: Sequence[tuple[str, str]],
                  options: GatewayOptions, sink: IO[str]) -> int:
    """Serve the config's servers until the client disconnects. `refused` are the
    servers the config could not set up, as (name, reason): logged, not served."""

    def log(line: str) -> None:
        log_line(sink, line)

    def write(text: str) -> None:
        write_log(sink, text)

    gateway = Gateway(options, log)
    members: list[tuple[Member, ServerSpec, Upstream | None]] = []
    procs: list[subprocess.Popen[bytes]] = []
    failed: list[tuple[str, str]] = list(refused)
    for spec in specs:
        if spec.kind != "stdio":
            members.append((gateway.add(spec.name), spec, None))  # connected once it runs
            continue
        try:
            procs.append(launch(spec, subprocess.PIPE))
        except ServerError as exc:
            failed.append((spec.name, f"{exc.message} ({exc.hint})"))
            continue
        members.append((gateway.add(spec.name), spec,
                        StdioUpstream(procs[-1], stderr_to(write, spec.name))))
    for name, reason in failed:
        log(f"{name}: not served: {reason}")
    try:
        asyncio.run(serve_members(gateway, members, write))
    finally:
        for proc in procs:
            kill_group(proc)
    return 0


def stderr_to(write: Callable[[str], None], name: str) -> Callable[[bytes], None]:
    """Each line a server of the config writes to its stderr, to the log after its name
    in brackets (`[github] ...`): many servers share one log."""
    def from_line(line: bytes) -> None:
        text = line.decode("utf-8", "replace").rstrip("\r")
        if text.strip():
            write(f"[{name}] {text}\n")

    return from_line


async def serve_members(gateway: Gateway,
                        members: Sequence[tuple[Member, ServerSpec, Upstream | None]],
                        write: Callable[[str], None]) -> None:
    """The one serve loop: the proxy's stdio to the client, each member's `Upstream` on the
    other side (None: an HTTP or SSE server, connected to here), until the client closes
    stdin or the proxy gets SIGTERM. A gateway of one in `passthrough` relays the client's
    own session: nothing is settled first, and a tools/call before any listing makes the
    proxy list the tools itself (the client's lines held meanwhile, released in order)."""
    loop = asyncio.get_running_loop()
    log = gateway.log
    passthrough = gateway.passthrough
    client_writer = Lines(os.fdopen(sys.stdout.fileno(), "wb", buffering=0, closefd=False))
    await client_writer.open()
    processes = [_Process(member, spec, link) for member, spec, link in members]
    stop = asyncio.Event()
    ready = asyncio.Event()
    tasks: list[asyncio.Future[Any]] = []
    # client lines, each with when it came, that wait: tools requests for the upstreams to
    # be settled, or (pass-through) everything after a call that needs the proxy's listing
    held: list[tuple[bytes, float]] = []
    by_name = {p.upstream.name: p for p in processes}
    clock = processes[0].upstream.relay.clock if processes else time.monotonic

    def to_client(messages: list[Message], original: Message | None = None,
                  line: bytes = b"") -> None:
        """`original` goes on as `line`, the line it came in, when there is one."""
        for msg in messages:
            client_writer.write(line if line and msg is original else encode(msg))

    def to_upstream(process: _Process, messages: list[Message],
                    original: Message | None = None, line: bytes = b"") -> None:
        if process.upstream.state in ("ready", "starting"):
            for msg in messages:
                process.send(msg, line if msg is original else b"")

    def refuse(refused: Refused) -> None:
        """A malformed message from the client gets its JSON-RPC error; when it answered
        the upstream's request (pass-through), the upstream gets one too."""
        log(f"refused a message from the client: {refused.reason}")
        to_client([refused.error()])
        if passthrough and (failed := refused.asker_error()) is not None:
            to_upstream(processes[0], [failed])

    def waits(msg: Message) -> bool:
        if passthrough:
            return processes[0].upstream.relay.needs_listing(msg)
        return msg.get("method") in TOOL_METHODS and not ready.is_set()

    def from_client(line: bytes) -> None:
        if held and passthrough:
            held.append((line, clock()))
            return
        msg = read_message(line)
        if isinstance(msg, Refused):
            refuse(msg)
        if not isinstance(msg, dict):
            return
        if waits(msg):
            held.append((line, clock()))
            if passthrough:
                tasks.append(asyncio.ensure_future(release()))
            return
        handle(msg, line + b"\n")

    def handle(msg: Message, line: bytes, came: float | None = None) -> None:
        answers, forwards = gateway.from_client(msg, came)
        to_client(answers, msg, line)
        for name, forwarded in forwards:
            to_upstream(by_name[name], [forwarded], msg, line)

    async def release() -> None:
        """The held lines go on, in order, once what they wait for is done: every upstream
        settled, or (pass-through) the proxy's own listing, which --timeout bounds together
        with the call (its time counts from when it came)."""
        if passthrough:
            relay = processes[0].upstream.relay
            budget = max(held[0][1] + relay.timeout - clock(), 0)
            with contextlib.suppress(Exception):  # whatever the listing did, calls go on
                await asyncio.wait_for(own_listing(relay, ask_of(processes[0])), budget)
        lines = held[:]
        held.clear()
        for index, (line, came) in enumerate(lines):
            msg = read_message(line)
            if isinstance(msg, Refused):
                refuse(msg)
            if not isinstance(msg, dict):
                continue
            if index and waits(msg):  # a later call, after list_changed: list again
                held.extend(lines[index:])
                tasks.append(asyncio.ensure_future(release()))
                return
            handle(msg, line + b"\n", came if passthrough else None)

    def from_upstream(process: _Process, msg: Message, line: bytes) -> None:
        if not passthrough and "id" not in msg and \
                msg.get("method") == "notifications/tools/list_changed":
            if process.upstream.state == "ready":
                tasks.append(asyncio.ensure_future(relist(process)))
            return
        answers, back = gateway.from_upstream(process.upstream, msg)
        to_client(answers, msg, line)
        to_upstream(process, back, msg, line)
        rid = msg.get("id")
        own = process.upstream.relay.own_answers
        if "method" not in msg and isinstance(rid, str) and rid in own and process.link:
            process.link.answered(rid, own.pop(rid))

    def unreadable(process: _Process, refused: Refused) -> None:
        """Who waits for a message the upstream sent malformed hears of it now: the
        proxy's own request, the client's, or the upstream for its request."""
        if refused.answer and process.link is not None and \
                process.link.answered(refused.rid, None):
            return
        if refused.answer:
            out = process.upstream.relay.unreadable_answer(refused.rid, refused.reason)
            to_client(out.to_client)
            to_upstream(process, out.to_upstream)
        elif refused.rid is not None:
            to_upstream(process, [refused.error()])

    def reader(process: _Process, link: Upstream) -> OnMessage:
        def from_line(msg: Message | Refused | None, line: bytes) -> None:
            if link is not process.link:  # the process a restart replaced
                return
            if isinstance(msg, Refused):
                process.upstream.relay.log(f"refused a line from the upstream ({msg.reason})"
                                           + (f": {line[:200]!r}" if line else ""))
                unreadable(process, msg)
            if isinstance(msg, dict):
                from_upstream(process, msg, line + b"\n" if line else b"")

        return from_line

    def ask_of(process: _Process) -> Callable[[Message], Awaitable[Message | None]]:
        async def ask(msg: Message) -> Message | None:
            relay = process.upstream.relay
            if process.eof.is_set() or process.link is None or \
                    relay.closed_reason is not None:
                return None
            try:
                return await process.link.request(relay, msg, relay.timeout)
            except TimeoutError:
                relay.log(f"{msg['method']}: no answer from the upstream within "
                          f"{relay.timeout:g}s" + arriving(process.link.unfinished()))
                return None

        return ask

    async def how(process: _Process) -> str:
        """How its side ended: "exited with exit code 3"."""
        if process.link is None:
            return process.closed
        return await process.link.reason()

    async def attach(process: _Process) -> None:
        if process.link is None:
            try:
                from .remote import RemoteUpstream
            except ImportError as exc:  # the SDK comes with the `live` extra
                process.closed = (f"a {process.spec.kind} server needs the MCP SDK (the live "
                                  f"extra), which is not installed ({exc})")
                process.eof.set()
                return
            process.link = RemoteUpstream(process.spec)
        link = process.link
        await link.start(process.upstream.relay, reader(process, link),
                         upstream_eof(process, link), (client_writer,))

    async def restart(process: _Process) -> None:
        """The same server in a new process: one that refused `initialize` may have
        settled its connection's era, so the 2026-07-28 era is asked of a fresh one (an
        HTTP server is asked on the same connection: each request stands alone)."""
        if not isinstance(process.link, StdioUpstream):
            return
        await process.stop()
        process.link = StdioUpstream(launch(process.spec, subprocess.PIPE),
                                     stderr_to(write, process.spec.name))
        process.eof = asyncio.Event()
        await attach(process)

    async def connect(process: _Process) -> None:
        """Initialize and list one upstream; on failure, say why, and serve the others."""
        upstream = process.upstream
        try:
            reason = await _handshake(process, ask_of(process))
            if reason is not None and reason.startswith(_REFUSED) and not process.eof.is_set():
                log(f"{upstream.name}: {reason}; asking "
                    f"{'a new process' if isinstance(process.link, StdioUpstream) else 'it'}"
                    " for the 2026-07-28 era")
                await restart(process)
                reason = await _modern(process, ask_of(process), reason)
            if reason is None:
                tools = await _list(process, ask_of(process))
                if tools is None:
                    reason = f"it did not list its tools within {gateway.options.timeout:g}s"
                else:
                    upstream.tools = tools
        except Exception as exc:  # a bug must not cost the other upstreams
            reason = f"{type(exc).__name__}: {exc}"
        if reason is not None and process.eof.is_set():
            reason = process.closed if process.link is None else f"it {await how(process)}"
        if reason is None:
            upstream.state = "ready"
            era = era_name(upstream.relay.era)
            log(f"{upstream.name}: {len(upstream.tools)} tools ({era} era, "
                f"{upstream.relay.protocol_version})")
            return
        upstream.state, upstream.reason = "failed", reason
        log(f"{upstream.name}: not served: {reason}")
        await process.stop()

    async def relist(process: _Process) -> None:
        """An upstream's tools changed: list them again, plan anew, tell the client."""
        log(f"{process.upstream.name}: tools/list_changed: listing its tools again")
        await ready.wait()
        tools = await _list(process, ask_of(process))
        if tools is None:
            log(f"{process.upstream.name}: the new listing did not come; the old one stays")
            return
        process.upstream.tools = tools
        gateway.replan()
        to_client(gateway.tools_changed())

    def upstream_eof(process: _Process, link: Upstream | None) -> Callable[[], None]:
        def on_eof() -> None:
            if link is not process.link or process.eof.is_set():
                return
            process.eof.set()
            if link is not None:
                link.ended()
            if not stop.is_set() and process.upstream.state == "ready":
                tasks.append(asyncio.ensure_future(gone(process)))

        return on_eof

    async def gone(process: _Process) -> None:
        out = gateway.upstream_gone(process.upstream, await how(process))
        to_client(out.to_client)
        if process.link is not None and process.link.exited():
            await process.stop()  # what it left in its group goes now, not at the session's
            # end (when its pid may have been given to another group)

    async def settle() -> None:
        await asyncio.gather(*(connect(p) for p in processes))
        gateway.replan()
        ready.set()
        await release()

    async def watchdog() -> None:
        while True:
            await asyncio.sleep(_TICK)
            for process in processes:
                link = process.link
                out = process.upstream.relay.expire(link.unfinished() if link else 0)
                to_client(out.to_client)
                to_upstream(process, out.to_upstream)
                if link is not None and link.exited() and not process.eof.is_set():
                    # its stdout may be held open by a process it started: a moment for that
                    process.exited_at = process.exited_at or time.monotonic()
                    if time.monotonic() - process.exited_at > _ORPHAN_GRACE:
                        upstream_eof(process, link)()

    for process in processes:
        if passthrough:
            process.upstream.state = "ready"
        await attach(process)
    writers = [w for p in processes if p.link is not None for w in p.link.writers()]
    await read_lines(os.fdopen(sys.stdin.fileno(), "rb", buffering=0, closefd=False),
                      from_client, stop.set, (client_writer, *writers))
    if os.name == "posix":
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    if not passthrough:
        tasks.append(asyncio.ensure_future(settle()))
    tasks.append(asyncio.ensure_future(watchdog()))
    try:
        await stop.wait()
    finally:
        for task in tasks:  # the session is over: an upstream's exit is no news
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(p.stop() for p in processes))
        await client_writer.drain(0.01)
        client_writer.close()


_REFUSED = "it refused initialize"


async def _handshake(process: _Process, ask: Any) -> str | None:
    """Open the gateway's session with an upstream by `initialize`: the handshake era, which
    most servers speak and in which they send list_changed on stdio as it happens. None
    when it is open, else why not (a refusal starts with _REFUSED)."""
    from .. import __version__

    relay = process.upstream.relay
    answer = await ask(relay.own_request("initialize", {
        "protocolVersion": HANDSHAKE_VERSIONS[-1], "capabilities": {},
        "clientInfo": {"name": GATEWAY_NAME, "version": __version__}}))
    if answer is None:
        return f"it did not answer initialize within {relay.timeout:g}s"
    result = answer.get("result")
    if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
        relay.era, relay.protocol_version = "legacy", result["protocolVersion"]
        process.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return None
    refusal = answer.get("error")
    message = refusal.get("message") if isinstance(refusal, dict) else None
    return f"{_REFUSED} ({message})"


async def _modern(process: _Process, ask: Any, refused: str) -> str | None:
    """The 2026-07-28 era, found as the SDK's auto mode finds it (`negotiate`), and a
    `subscriptions/listen` stream for its tool list changes. None when it is open."""
    from .. import __version__

    relay = process.upstream.relay
    await negotiate(relay, ask)
    if relay.era != "modern":
        return f"{refused}, and answered server/discover with no 2026-07-28 version"
    relay.envelope = {"io.modelcontextprotocol/clientInfo": {"name": GATEWAY_NAME,
                                                              "version": __version__},
                      "io.modelcontextprotocol/clientCapabilities": {}}
    listen = relay.own_request("subscriptions/listen",
                               {"notifications": {"toolsListChanged": True}})
    process.send(listen)  # acknowledged by a notification; answered only when it ends
    return None


async def _list(process: _Process, ask: Any) -> list[Any] | None:
    """Every page of the upstream's tools, as it lists them; None when an answer did not
    come."""
    relay = process.upstream.relay
    tools: list[Any] = []
    cursor: Any = None
    for _ in range(_MAX_PAGES):
        answer = await ask(relay.own_listing_request(cursor))
        result = answer.get("result") if answer else None
        if not isinstance(result, dict):
            return None
        page = result.get("tools")
        if isinstance(page, list):
            tools += [t for t in page if isinstance(t, dict) and isinstance(t.get("name"), str)]
        cursor = result.get("nextCursor")
        if not cursor:
            break
    return tools
