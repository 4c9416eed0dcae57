"""One MCP server for a whole client config: the message logic, apart from any transport.

`schema-compat proxy --config FILE` starts every server of the config and serves them to the
client as ONE server. Unlike the single-upstream proxy, which relays a session the client
holds with its server, the gateway holds a session of its own with each upstream and
answers the client itself:

- the client's handshake (`initialize`, or `server/discover` and the 2026-07-28 envelope)
  is answered here, offering tools (with `listChanged`) and nothing else;
- `tools/list` is the request planner's listing of every upstream's tools
  (`requests.plan({server: tools}, provider)`): schemas transformed, names made unique and
  valid for the provider, in one page;
- a `tools/call` goes to the upstream the planner's route names, under the tool's own name,
  through that upstream's `Relay` (the single proxy's logic), which repairs the arguments
  against the tool's original schema and answers with an error when the upstream is gone
  or silent past the timeout;
- an upstream's `notifications/tools/list_changed` makes the transport list that upstream
  again (`relist`), the plan is made anew and the client is told, as a notification in the
  handshake era or on each `subscriptions/listen` stream it opened in the 2026-07-28 era;
- any other request (resources, prompts, completion) is answered with a JSON-RPC error
  naming the method: several servers' resources cannot be told apart by URI, so they are
  not merged.

Each upstream keeps its own era: the gateway speaks the handshake era to an upstream that
accepts `initialize`, and 2026-07-28 to one that refuses it, whatever the client speaks; the
envelope of a forwarded call is the upstream's, not the client's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .jsonrpc import INTERNAL_ERROR, as_dict, error_message, usable_id
from .relay import (
    ENVELOPE_KEYS,
    MODERN_PROTOCOL_VERSIONS,
    PROTOCOL_VERSION_KEY,
    UNSUPPORTED_PROTOCOL_VERSION,
    Log,
    Message,
    Outbox,
    Relay,
)

if TYPE_CHECKING:
    from ..requests import NamePrefix, RequestPlan

__all__ = ["GATEWAY_NAME", "Gateway", "GatewayOptions", "Member"]

GATEWAY_NAME = "schema-compat-gateway"
# The handshake era's revisions, oldest first (mcp_types.version, not imported: see relay.py).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId"
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
# Requests the gateway answers itself; tools/list and tools/call wait for the upstreams.
TOOL_METHODS = ("tools/list", "tools/call")


class GatewayOptions:
    """What the planner and each upstream's relay are given (a plain class: mypyc)."""

    def __init__(self, provider: str, *, timeout: float = 60.0, lossless_only: bool = False,
                 name_prefix: str = "none", strict_first: Sequence[str] = (),
                 include: Sequence[str] = (), exclude: Sequence[str] = (),
                 client: str | None = None) -> None:
        self.provider, self.timeout, self.lossless_only = provider, timeout, lossless_only
        self.client = client  # the MCP client served: its limits join the provider's
        self.name_prefix = name_prefix
        self.strict_first, self.include, self.exclude = (
            tuple(strict_first), tuple(include), tuple(exclude))


class Member:
    """One server of the config: its relay (pending calls, deadlines, repair, era), the
    tools it listed (as it listed them) and whether it is served."""

    def __init__(self, name: str, relay: Relay) -> None:
        self.name, self.relay = name, relay
        self.tools: list[Any] = []
        self.state = "starting"  # "ready", "failed" (never served) or "gone" (exited later)
        self.reason = ""

    def envelope(self) -> dict[str, Any]:
        """The `_meta` a request to a 2026-07-28 upstream carries (empty in the handshake
        era)."""
        if self.relay.era != "modern":
            return {}
        return {**self.relay.envelope, PROTOCOL_VERSION_KEY: self.relay.protocol_version}


class Gateway:
    """The client's session with the gateway, and the plan over every upstream's tools.

    `from_client` and `from_upstream` return what to send where; the transport
    (gateway_serve.py) owns the processes, the own requests' answers and the waiting.

    `passthrough`: the single-server proxy, a gateway of one that relays the client's own
    session with its server (the handshake, resources, prompts, any other message) through
    that server's relay, and neither plans nor answers anything itself."""

    def __init__(self, options: GatewayOptions, log: Log, *, passthrough: bool = False) -> None:
        self.options, self.log, self.passthrough = options, log, passthrough
        self.upstreams: dict[str, Member] = {}
        self.request: RequestPlan | None = None
        self.listing: list[dict[str, Any]] = []
        self.plan_error: str | None = None
        self.client_era: str | None = None  # "legacy", "modern" or None while nobody said
        self.subscriptions: list[Any] = []  # the client's listen streams for tool changes

    def add(self, name: str) -> Member:
        def log(line: str) -> None:
            self.log(f"{name}: {line}")

        relay = Relay(self.options.provider, self.options.timeout,
                      self.log if self.passthrough else log,
                      lossless_only=self.options.lossless_only)
        upstream = Member(name, relay)
        self.upstreams[name] = upstream
        return upstream

    # --- the plan ----------------------------------------------------------------------

    def replan(self) -> None:
        """Plan the tools of every upstream served as one request, and give each relay
        the original schemas its calls are repaired against."""
        from ..requests import PlanError, mcp_listing, plan

        served = {u.name: u.tools for u in self.upstreams.values() if u.state == "ready"}
        try:
            request = plan(served, self.options.provider,
                           strict_first=self.options.strict_first,
                           name_prefix=cast("NamePrefix", self.options.name_prefix),
                           include=self.options.include, exclude=self.options.exclude,
                           lossless_only=self.options.lossless_only,
                           client=self.options.client)
        except PlanError as exc:
            self.request, self.listing, self.plan_error = None, [], str(exc)
            self.log(f"error: {exc}")
            return
        self.request, self.listing, self.plan_error = request, mcp_listing(request), None
        for u in self.upstreams.values():
            u.relay.use_schemas({t.result.tool.name: t.result.tool.schema
                                 for t in request.tools if t.result.tool.source == u.name})
        for d in request.decisions:
            if d.kind != "strict":
                self.log(f"{d.source}: {d.tool}: {d.kind}: {d.reason}")
        counts = ", ".join(f"{name} {sum(t.server == name for t in request.tools)}"
                           for name in served)
        client = f" through {self.options.client}" if self.options.client else ""
        self.log(f"serving {len(request.tools)} tools for {request.provider}{client} "
                 f"({counts})")

    # --- client -> gateway -------------------------------------------------------------

    def from_client(self, msg: Message, came: float | None = None
                    ) -> tuple[list[Message], list[tuple[str, Message]]]:
        """(to the client, [(upstream, message)]) for one message from the client (which
        `came` at that time, when it was held). tools/list and tools/call are given only
        once every upstream is settled."""
        to_client: list[Message] = []
        to_upstream: list[tuple[str, Message]] = []
        if self.passthrough:
            only = next(iter(self.upstreams.values()))
            out = only.relay.from_client(msg, came)
            return out.to_client, [(only.name, m) for m in out.to_upstream]
        method = msg.get("method")
        if not isinstance(method, str):
            return to_client, to_upstream  # an answer to nothing the gateway asked
        params = as_dict(msg.get("params"))
        meta = as_dict(params.get("_meta"))
        if isinstance(meta.get(PROTOCOL_VERSION_KEY), str) and method != "server/discover":
            self.client_era = "modern"
        if "id" not in msg:
            if method == "notifications/cancelled":
                rid = as_dict(msg.get("params")).get("requestId")
                if rid in self.subscriptions:
                    self.subscriptions.remove(rid)
                for u in self.upstreams.values():
                    if usable_id(rid) and rid in u.relay.pending:
                        out = u.relay.from_client(msg)
                        to_upstream += [(u.name, m) for m in out.to_upstream]
            return to_client, to_upstream  # initialized, roots/list_changed: nothing to do
        rid = msg["id"]
        if method == "initialize":
            to_client.append(self._initialized(rid, params))
        elif method == "server/discover":
            to_client.append(self._discovered(rid, meta))
        elif method in ("ping", "logging/setLevel"):
            to_client.append(self._result(rid, {}))
        elif method == "subscriptions/listen":
            to_client += self._listen(rid, params)
        elif method == "tools/list":
            if self.plan_error is not None:
                to_client.append(error_message(rid, INTERNAL_ERROR,
                                        f"schema-compat proxy: {self.plan_error}"))
            else:
                to_client.append(self._result(rid, {"tools": self.listing}, cacheable=True))
        elif method == "tools/call":
            return self._call(msg, params, meta)
        else:
            to_client.append(error_message(
                rid, METHOD_NOT_FOUND,
                f"schema-compat proxy --config serves the tools of its servers only: "
                f"{method} is not served (proxy one server with `schema-compat proxy -- CMD` "
                "for its resources and prompts)"))
        return to_client, to_upstream

    def _call(self, msg: Message, params: dict[str, Any], meta: dict[str, Any]
              ) -> tuple[list[Message], list[tuple[str, Message]]]:
        rid = msg["id"]
        name = params.get("name")
        route = self.request.route(name) if self.request is not None and \
            isinstance(name, str) else None
        upstream = self.upstreams.get(route[0]) if route is not None else None
        if route is None or upstream is None:
            return [error_message(rid, INVALID_PARAMS, f"Unknown tool: {name}")], []
        own_meta = {k: v for k, v in meta.items() if k not in ENVELOPE_KEYS}
        own_meta.update(upstream.envelope())
        forwarded = {k: v for k, v in params.items() if k != "_meta"}
        forwarded["name"] = route[1]
        if own_meta:
            forwarded["_meta"] = own_meta
        if route[1] != name:
            self.log(f"tools/call {name}: sent to {upstream.name} as {route[1]!r}")
        out = upstream.relay.from_client({**msg, "params": forwarded})
        return out.to_client, [(upstream.name, m) for m in out.to_upstream]

    def _initialized(self, rid: Any, params: dict[str, Any]) -> Message:
        from .. import __version__

        self.client_era = "legacy"
        asked = params.get("protocolVersion")
        version = asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": version, "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": GATEWAY_NAME, "version": __version__}}}

    def _discovered(self, rid: Any, meta: dict[str, Any]) -> Message:
        asked = meta.get(PROTOCOL_VERSION_KEY)
        if asked not in MODERN_PROTOCOL_VERSIONS:
            return {"jsonrpc": "2.0", "id": rid, "error": {
                "code": UNSUPPORTED_PROTOCOL_VERSION,
                "message": f"unsupported protocol version {asked!r}",
                "data": {"supported": list(MODERN_PROTOCOL_VERSIONS),
                         "requested": asked if isinstance(asked, str) else ""}}}
        self.client_era = "modern"
        return self._result(rid, {"supportedVersions": list(MODERN_PROTOCOL_VERSIONS),
                                  "capabilities": {"tools": {"listChanged": True}}},
                            cacheable=True)

    def _listen(self, rid: Any, params: dict[str, Any]) -> list[Message]:
        """A 2026-07-28 client's stream of change notifications: acknowledged with the one
        kind the gateway sends (tool list changes), kept open until cancelled."""
        wanted = as_dict(params.get("notifications")).get("toolsListChanged") is True
        if wanted:
            self.subscriptions.append(rid)
        return [{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                 "params": {"notifications": {"toolsListChanged": True} if wanted else {},
                            "_meta": {SUBSCRIPTION_KEY: rid}}}]

    def _result(self, rid: Any, result: dict[str, Any], *, cacheable: bool = False
                ) -> Message:
        """A result as the client's era wants it: 2026-07-28 results say their type, who
        answered and, for listings, how long they may be cached (not at all)."""
        from .. import __version__

        if self.client_era == "modern":
            result = {**result, "resultType": "complete",
                      "_meta": {SERVER_INFO_KEY: {"name": GATEWAY_NAME,
                                                  "version": __version__}}}
            if cacheable:
                result.update({"ttlMs": 0, "cacheScope": "private"})
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    def tools_changed(self) -> list[Message]:
        """What tells the client its tools changed, in its era."""
        if self.client_era == "modern":
            return [{"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                     "params": {"_meta": {SUBSCRIPTION_KEY: sid}}}
                    for sid in self.subscriptions]
        return [{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}]

    # --- upstream -> gateway -----------------------------------------------------------

    def from_upstream(self, upstream: Member, msg: Message) -> tuple[list[Message],
                                                                       list[Message]]:
        """(to the client, back to this upstream) for one message from an upstream.
        Its list_changed is the transport's to act on (`relist`); its own answers land in
        its relay's `own_answers`."""
        method = msg.get("method")
        if self.passthrough:
            out = upstream.relay.from_upstream(msg)
            return out.to_client, out.to_upstream
        if method is None:
            out = upstream.relay.from_upstream(msg)
            return [self._in_client_era(m) for m in out.to_client], out.to_upstream
        if "id" in msg:  # the upstream asks the client something: the gateway declined
            if method == "ping":  # every capability when it initialized, but ping
                return [], [{"jsonrpc": "2.0", "id": msg["id"], "result": {}}]
            return [], [error_message(msg["id"], METHOD_NOT_FOUND,
                               f"{method} is not offered by schema-compat proxy --config")]
        if method in ("notifications/progress", "notifications/message"):
            out = upstream.relay.from_upstream(msg)
            return (out.to_client if self.client_era != "modern" or
                    method == "notifications/progress" else []), []
        return [], []  # list_changed (see relist), cancelled, resources/prompts news

    def _in_client_era(self, msg: Message) -> Message:
        """An upstream's answer as the client's era wants it: a 2026-07-28 client requires
        `resultType`, which a handshake-era upstream never sends."""
        result = msg.get("result")
        if self.client_era == "modern" and isinstance(result, dict) and \
                "resultType" not in result:
            return {**msg, "result": {**result, "resultType": "complete"}}
        return msg

    def upstream_gone(self, upstream: Member, how: str) -> Outbox:
        """An upstream that was served ended (`how`: "exited with exit code 3"): its open
        requests and every later one get an error; the others go on."""
        upstream.state = "gone"
        if self.passthrough:
            upstream.reason = f"the upstream server {how}"
            self.log(f"{upstream.reason}; answering every request with an error")
            return upstream.relay.upstream_closed(upstream.reason)
        upstream.reason = f"it {how}"
        self.log(f"{upstream.name}: {upstream.reason}; its tools answer with an error from now on")
        return upstream.relay.upstream_closed(f"{upstream.name}: {upstream.reason}")
