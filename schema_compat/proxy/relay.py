"""The proxy's message logic, apart from any transport: what is rewritten, what is tracked.

The proxy relays raw JSON-RPC messages between one client and one upstream server, so
everything it does not understand (resources, prompts, sampling, elicitation, roots,
logging, progress, cancellation, methods that do not exist yet) passes through as it came.
It touches three things only:

- a `tools/list` answer: each tool's `inputSchema` is replaced by its transformed schema and
  its name by the transformed name (both remembered). A page is transformed and logged once;
  the same page listed again is answered from the cache, until the upstream sends
  `notifications/tools/list_changed` or lists something else;
- a `tools/call` request: the name is mapped back to the upstream's, and the arguments are
  repaired against the upstream's ORIGINAL schema;
- requests that get no answer: when the upstream dies or stays silent past the timeout, the
  client gets a JSON-RPC error for each, and the upstream a cancellation.

Both protocol eras pass through alike: the handshake era (`initialize`, then a session) and
the stateless 2026-07-28 era (`server/discover`, and each request's `_meta` naming the
protocol version, the client and its capabilities). The relay notes which one the client
speaks, so that the few requests of its own (`own_listing`) speak it too.

The relay holds no streams: `Relay.from_client` / `from_upstream` return what to send
where (a message it leaves alone is returned as the same object, so a transport can forward
the bytes it read), and its logic is tested without processes.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..mcp_tool import from_mcp, with_dialect
from ..model import SAFETIES
from .jsonrpc import INTERNAL_ERROR, as_dict, error_message, usable_id

# JSON-RPC error codes the SDK uses for the same conditions (mcp_types.jsonrpc).
CONNECTION_CLOSED = -32000
REQUEST_TIMEOUT = -32001
UNSUPPORTED_PROTOCOL_VERSION = -32022
OWN_ID_PREFIX = "schema-compat-proxy-"
# The stateless era's revisions, oldest first (the SDK's mcp_types.version, which this module
# does not import: the SDK costs a second to import).
MODERN_PROTOCOL_VERSIONS = ("2026-07-28",)
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
# What a 2026-07-28 request's `_meta` says about the client, in every request.
ENVELOPE_KEYS = (PROTOCOL_VERSION_KEY, "io.modelcontextprotocol/clientInfo",
                 "io.modelcontextprotocol/clientCapabilities")

Message = dict[str, Any]
Log = Callable[[str], None]


@dataclass
class Pending:
    """A client request the upstream has not answered yet."""

    method: str
    deadline: float
    progress_token: Any = None
    tool: str | None = None
    cursor: Any = None  # tools/list: the page asked for
    version: Any = None  # server/discover: the protocol version proposed


@dataclass
class Outbox:
    """What one incoming message turns into."""

    to_client: list[Message] = field(default_factory=list)
    to_upstream: list[Message] = field(default_factory=list)


class Relay:
    def __init__(self, provider: str, timeout: float, log: Log, *,
                 lossless_only: bool = False, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        from ..engine import make_ruleset

        self.plan = make_ruleset(provider, lossless_only=lossless_only)
        self.timeout = timeout
        self.log = log
        self.clock = clock
        self.pending: dict[Any, Pending] = {}
        self.schemas: dict[str, Any] = {}  # upstream name -> original input schema
        self.names: dict[str, str] = {}  # name shown to the client -> upstream name
        self.listed = False
        self.closed_reason: str | None = None
        self.protocol_version: str | None = None
        # "legacy" (initialize), "modern" (2026-07-28) or None while nobody said
        self.era: str | None = None
        self.envelope: dict[str, Any] = {}  # the client's last 2026-07-28 `_meta` envelope
        self.own_answers: dict[str, Message] = {}
        self.transforms = 0  # listing pages transformed (not answered from the cache)
        # page (its cursor, as JSON) -> (the upstream's tools, the tools the client sees)
        self._listings: dict[str, tuple[list[Any], list[Any]]] = {}
        self._validators: dict[str, Any] = {}  # upstream name -> jsonschema validator
        self._own = 0

    # --- client -> upstream --------------------------------------------------------

    def from_client(self, msg: Message, held_since: float | None = None) -> Outbox:
        """`held_since`: when a request held for the proxy's own listing came (`clock`): its
        time counts from then, and one whose time ran out gets an error, not a second wait."""
        out = Outbox()
        method = msg.get("method")
        if "id" in msg and isinstance(method, str):  # a request
            if self.closed_reason is not None:
                out.to_client.append(error_message(msg["id"], CONNECTION_CLOSED,
                                                   self.closed_reason))
                return out
            if held_since is not None and held_since + self.timeout <= self.clock():
                self.log(f"{method}: waited {self.timeout:g}s for the upstream's tools/list; "
                         "answered with an error")
                out.to_client.append(error_message(
                    msg["id"], REQUEST_TIMEOUT,
                    f"schema-compat proxy: the upstream server did not list its tools "
                    f"within {self.timeout:g}s (the proxy lists the tools before the first "
                    "tools/call, to repair its arguments)"))
                return out
            if method == "tools/call":
                try:
                    msg = self._rewrite_call(msg)
                except Exception as exc:  # a bug must not cost the user the call
                    self.log(f"tools/call: not repaired ({type(exc).__name__}: {exc}); "
                             "forwarded as is")
            params = as_dict(msg.get("params"))
            meta = as_dict(params.get("_meta"))
            version = meta.get(PROTOCOL_VERSION_KEY)
            if isinstance(version, str) and method != "server/discover":
                self.era, self.protocol_version = "modern", version
            if version is not None:
                self.envelope = {k: meta[k] for k in ENVELOPE_KEYS if k in meta}
            self.pending[msg["id"]] = Pending(
                method, (self.clock() if held_since is None else held_since) + self.timeout,
                meta.get("progressToken"),
                params.get("name") if method == "tools/call" else None,
                params.get("cursor"), version)
        elif method == "notifications/cancelled":
            cancelled = as_dict(msg.get("params")).get("requestId")
            if usable_id(cancelled):
                self.pending.pop(cancelled, None)
        out.to_upstream.append(msg)
        return out

    def _rewrite_call(self, msg: Message) -> Message:
        from ..repair_args import repair

        params = msg.get("params")
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return msg
        shown = params["name"]
        upstream = self.names.get(shown, shown)
        changed: dict[str, Any] = {}
        if upstream != shown:
            changed["name"] = upstream
            self.log(f"tools/call {shown}: renamed to {upstream!r} for the upstream")
        arguments = params.get("arguments")
        if upstream in self.schemas and arguments is not None and \
                not self._valid(upstream, arguments):
            result = repair(self.schemas[upstream], arguments)
            for c in result.coercions:
                self.log(f"tools/call {upstream}: repaired {c.describe()}")
            for err in result.errors:
                self.log(f"tools/call {upstream}: still invalid, forwarded as is: {err}")
            if result.coercions:
                changed["arguments"] = result.arguments
        if not changed:
            return msg  # the same object: the transport forwards the bytes it read
        return {**msg, "params": {**params, **changed}}

    def _valid(self, tool: str, arguments: Any) -> bool:
        """Whether the upstream's schema accepts the arguments as they are: most calls, and
        then the repair (a walk that builds a validator of its own) is not needed. One
        validator per tool, kept until the next transform of the listing."""
        validator = self._validators.get(tool)
        if validator is None:
            from ..validation import validator as make_validator

            schema = self.schemas[tool]
            if not isinstance(schema, dict):
                return False
            try:  # patterns in bounded time; references outside the schema never fetched
                validator = make_validator(schema)
            except Exception:
                return False
            self._validators[tool] = validator
        try:
            return bool(validator.is_valid(arguments))
        except Exception:  # an unresolvable $ref, a bad pattern: the repair reports it
            return False

    # --- upstream -> client --------------------------------------------------------

    def from_upstream(self, msg: Message) -> Outbox:
        out = Outbox()
        method = msg.get("method")
        if method is None and "id" in msg:  # an answer to a client request, or to ours
            rid = msg["id"]
            if isinstance(rid, str) and rid.startswith(OWN_ID_PREFIX):
                self.own_answers[rid] = msg
                return out
            pending = self.pending.pop(rid, None)
            result = msg.get("result")
            if pending is not None and isinstance(result, dict):
                if pending.method == "tools/list":
                    try:
                        msg = {**msg, "result": self.rewrite_listing(result, pending.cursor)}
                    except Exception as exc:  # a bug must not cost the user the listing
                        self.log(f"tools/list: not transformed ({type(exc).__name__}: "
                                 f"{exc}); passed through as is")
                elif pending.method == "initialize" and \
                        isinstance(result.get("protocolVersion"), str):
                    self.era, self.protocol_version = "legacy", result["protocolVersion"]
                elif pending.method == "server/discover" and \
                        pending.version in _list(result.get("supportedVersions")):
                    self.era, self.protocol_version = "modern", pending.version
        elif method == "notifications/tools/list_changed":
            self.log("tools/list_changed: the next listing is transformed anew")
            self.invalidate()
        elif method == "notifications/progress":
            token = as_dict(msg.get("params")).get("progressToken")
            for p in self.pending.values():
                if token is not None and p.progress_token == token:
                    p.deadline = self.clock() + self.timeout
        out.to_client.append(msg)
        return out

    def invalidate(self) -> None:
        """The upstream's tools changed: the next listing is transformed (and logged) anew,
        and a call for a name not seen yet makes the proxy list them first."""
        self._listings.clear()
        self.listed = False

    def rewrite_listing(self, result: dict[str, Any], cursor: Any = None) -> dict[str, Any]:
        """One page of `tools/list`: transformed schemas and names, originals kept. A page
        equal to the one last transformed for the same cursor is answered from the cache."""
        tools = result.get("tools")
        if not isinstance(tools, list):
            return result
        key = "" if cursor is None else repr(cursor)
        cached = self._listings.get(key)
        if cached is not None and cached[0] == tools:
            self.listed = True
            return {**result, "tools": cached[1]}
        new_tools = self._transform(tools)
        self._listings[key] = (tools, new_tools)
        self.listed = True
        return {**result, "tools": new_tools}

    def use_schemas(self, schemas: dict[str, Any]) -> None:
        """Repair calls against `schemas` (tool name -> original input schema): the
        gateway's plan lists the tools, not this relay."""
        self.schemas = schemas
        self._validators.clear()  # made from the schemas replaced

    def _transform(self, tools: list[Any]) -> list[Any]:
        from ..engine import run_ruleset

        self.transforms += 1
        self._validators.clear()
        # a tool without a string name is passed through as it came: the client could not
        # call it by a name the proxy made up
        defs = [from_mcp(t, i, "upstream") for i, t in enumerate(tools)
                if isinstance(t, dict) and isinstance(t.get("name"), str)]
        by_index = {d.index: r for d, r in zip(defs, run_ruleset(defs, self.plan), strict=True)}
        new_tools: list[Any] = []
        for i, tool in enumerate(tools):
            res = by_index.get(i)
            if res is None:
                new_tools.append(tool)
                continue
            self.schemas[res.tool.name] = res.tool.schema
            self.names[res.transformed_name] = res.tool.name
            entry = dict(tool)
            entry["name"] = res.transformed_name
            if res.transformed_schema is not None:
                entry["inputSchema"] = res.transformed_schema
                with_dialect(entry, self.plan.dialect)
            new_tools.append(entry)
            if res.changes:
                counts = {s: sum(c.safety == s for c in res.changes) for s in SAFETIES}
                what = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
                codes = ", ".join(dict.fromkeys(c.code for c in res.changes))
                self.log(f"tools/list {res.tool.name}: {len(res.changes)} change(s) "
                         f"({what}; {codes})"
                         + (f", shown as {res.transformed_name!r}"
                            if res.transformed_name != res.tool.name else ""))
            remaining = [f for f in res.remaining if f.severity == "error"]
            if remaining:
                self.log(f"tools/list {res.tool.name}: {len(remaining)} error(s) remain "
                         f"for {self.plan.profile.name}: "
                         + ", ".join(dict.fromkeys(f.code for f in remaining)))
        return new_tools

    def own_request(self, method: str, params: dict[str, Any] | None = None) -> Message:
        """A request of the proxy's own, in the era the client speaks: its answer lands in
        `own_answers`, never at the client."""
        self._own += 1
        msg: Message = {"jsonrpc": "2.0", "id": f"{OWN_ID_PREFIX}{self._own}",
                        "method": method}
        if self.era == "modern" and method != "server/discover":
            envelope = {**self.envelope, PROTOCOL_VERSION_KEY: self.protocol_version}
            params = {**(params or {}), "_meta": envelope}
        if params is not None:
            msg["params"] = params
        return msg

    def own_listing_request(self, cursor: Any) -> Message:
        """A `tools/list` of the proxy's own, for a call that came before any listing."""
        return self.own_request("tools/list", None if cursor is None else {"cursor": cursor})

    def own_discover_request(self, version: str) -> Message:
        """`server/discover` proposing `version`, for when the client has said neither."""
        from .. import __version__

        return self.own_request("server/discover", {"_meta": {
            PROTOCOL_VERSION_KEY: version,
            "io.modelcontextprotocol/clientInfo": {"name": "schema-compat-proxy",
                                                   "version": __version__},
            "io.modelcontextprotocol/clientCapabilities": {}}})

    def needs_listing(self, msg: Message) -> bool:
        """A tools/call for a name the proxy has not seen, before any listing."""
        params = msg.get("params")
        return (msg.get("method") == "tools/call" and "id" in msg and not self.listed
                and self.closed_reason is None and isinstance(params, dict)
                and isinstance(params.get("name"), str) and params["name"] not in self.names)

    # --- failures ------------------------------------------------------------------

    def expire(self, unfinished: int = 0) -> Outbox:
        """Requests past their deadline: an error to the client, a cancel upstream.
        `unfinished`: the bytes of a message from the upstream not yet ended by its newline
        (an answer still arriving is not silence, and is said)."""
        out = Outbox()
        now = self.clock()
        for rid, p in list(self.pending.items()):
            if p.deadline <= now:
                del self.pending[rid]
                what = f"{p.method} {p.tool}" if p.tool else p.method
                self.log(f"{what}: no answer from the upstream within {self.timeout:g}s"
                         f"{arriving(unfinished)}; answered with an error")
                out.to_client.append(error_message(
                    rid, REQUEST_TIMEOUT,
                    f"schema-compat proxy: the upstream server did not answer {p.method} "
                    f"within {self.timeout:g}s{arriving(unfinished)}"))
                out.to_upstream.append({
                    "jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": rid, "reason": "timed out in schema-compat proxy"}})
        return out

    def unreadable_answer(self, rid: Any, reason: str) -> Outbox:
        """The upstream answered request `rid` with a message the proxy refused (too deep to
        read, a lone surrogate): the client gets an error for it now, not at the timeout."""
        out = Outbox()
        pending = self.pending.pop(rid, None) if usable_id(rid) else None
        if pending is not None:
            out.to_client.append(error_message(
                rid, INTERNAL_ERROR, f"schema-compat proxy: the upstream server's answer to "
                                     f"{pending.method} cannot be relayed: {reason}"))
        return out

    def upstream_closed(self, reason: str) -> Outbox:
        """The upstream is gone: every open request, and every later one, gets an error."""
        self.closed_reason = f"schema-compat proxy: {reason}"
        out = Outbox()
        for rid in list(self.pending):
            out.to_client.append(error_message(rid, CONNECTION_CLOSED, self.closed_reason))
        self.pending.clear()
        return out


Ask = Callable[[Message], Awaitable[Message | None]]


async def negotiate(relay: Relay, ask: Ask) -> None:
    """The era of a client that has said neither, found as the SDK's auto mode finds it
    (mcp/client/_probe.py): `server/discover` at the newest 2026-07-28 version, once more
    at a version the server names in a -32022 error; any other answer means the handshake
    era. Unlike the SDK the proxy never sends `initialize`: the session is the client's."""
    version = MODERN_PROTOCOL_VERSIONS[-1]
    for attempt in range(2):
        answer = await ask(relay.own_discover_request(version))
        error = as_dict(answer.get("error")) if answer else {}
        if error.get("code") == UNSUPPORTED_PROTOCOL_VERSION and attempt == 0:
            supported = _list(as_dict(error.get("data")).get("supported"))
            mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in supported]
            if mutual:
                version = mutual[-1]
                continue
        result = as_dict(answer.get("result")) if answer else {}
        mutual = [v for v in MODERN_PROTOCOL_VERSIONS
                  if v in _list(result.get("supportedVersions"))]
        if mutual:
            relay.era, relay.protocol_version = "modern", mutual[-1]
            relay.envelope = {}
        else:
            relay.era = "legacy"
        relay.log(f"the upstream speaks the {era_name(relay.era)} era"
                  + (f" ({relay.protocol_version})" if mutual else ""))
        return


def era_name(era: str | None) -> str:
    """An era as the README, `check --json` (`servers[].era`) and the logs name it: the
    `handshake` era (initialize) or the `stateless` one (2026-07-28, server/discover)."""
    return {"legacy": "handshake", "modern": "stateless"}.get(era or "", era or "unknown")


async def own_listing(relay: Relay, ask: Ask, max_pages: int = 100) -> None:
    """List the tools before a call that came first, so that it can be repaired: every
    page, in the client's era (found first when the client has not said)."""
    if relay.era is None:
        await negotiate(relay, ask)
    cursor: Any = None
    for _ in range(max_pages):
        answer = await ask(relay.own_listing_request(cursor))
        result = answer.get("result") if answer else None
        if not isinstance(result, dict):
            return
        relay.rewrite_listing(result, cursor)
        cursor = result.get("nextCursor")
        if not cursor:
            return


def arriving(unfinished: int) -> str:
    """What a timeout adds when a message from the upstream was still arriving: its bytes
    so far (an answer too large for the time, not a server that said nothing)."""
    if not unfinished:
        return ""
    size = f"{unfinished / 1_000_000:.1f} MB" if unfinished >= 1_000_000 else \
        f"{unfinished / 1000:.1f} kB" if unfinished >= 1000 else f"{unfinished} bytes"
    return f" (a message was still arriving: {size} of it so far)"


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
