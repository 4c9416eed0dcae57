"""The proxy's message logic, apart from any transport: what is rewritten, what is tracked.

The proxy relays raw JSON-RPC messages between one client and one upstream server, so
everything it does not understand (resources, prompts, sampling, elicitation, roots,
logging, progress, cancellation, methods that do not exist yet) passes through as it came.
It touches three things only:

- a `tools/list` answer: each tool's `inputSchema` is replaced by its transformed schema and
  its name by the transformed name (both remembered);
- a `tools/call` request: the name is mapped back to the upstream's, and the arguments are
  repaired against the upstream's ORIGINAL schema;
- requests that get no answer: when the upstream dies or stays silent past the timeout, the
  client gets a JSON-RPC error for each, and the upstream a cancellation.

The relay holds no streams: `Relay.from_client` / `from_upstream` return what to send
where, so its logic is tested without processes and the transports stay in `run.py`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..model import SAFETIES, ToolDef

# JSON-RPC error codes the SDK uses for the same conditions (mcp_types.jsonrpc).
CONNECTION_CLOSED = -32000
REQUEST_TIMEOUT = -32001
OWN_ID_PREFIX = "schema-compat-proxy-"

Message = dict[str, Any]
Log = Callable[[str], None]


@dataclass
class Pending:
    """A client request the upstream has not answered yet."""

    method: str
    deadline: float
    progress_token: Any = None
    tool: str | None = None


@dataclass
class Outbox:
    """What one incoming message turns into."""

    to_client: list[Message] = field(default_factory=list)
    to_upstream: list[Message] = field(default_factory=list)


class Relay:
    def __init__(self, provider: str, timeout: float, log: Log, *,
                 lossless_only: bool = False, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        from ..engine import make_plan

        self.plan = make_plan(provider, lossless_only=lossless_only)
        self.timeout = timeout
        self.log = log
        self.clock = clock
        self.pending: dict[Any, Pending] = {}
        self.schemas: dict[str, Any] = {}  # upstream name -> original input schema
        self.names: dict[str, str] = {}  # name shown to the client -> upstream name
        self.listed = False
        self.closed_reason: str | None = None
        self.protocol_version: str | None = None
        self.own_answers: dict[str, Message] = {}
        self._own = 0

    # --- client -> upstream --------------------------------------------------------

    def from_client(self, msg: Message) -> Outbox:
        out = Outbox()
        method = msg.get("method")
        if "id" in msg and isinstance(method, str):  # a request
            if self.closed_reason is not None:
                out.to_client.append(_error(msg["id"], CONNECTION_CLOSED, self.closed_reason))
                return out
            if method == "tools/call":
                try:
                    msg = self._rewrite_call(msg)
                except Exception as exc:  # a bug must not cost the user the call
                    self.log(f"tools/call: not repaired ({type(exc).__name__}: {exc}); "
                             "forwarded as is")
            params = _dict(msg.get("params"))
            meta = _dict(params.get("_meta"))
            self.pending[msg["id"]] = Pending(
                method, self.clock() + self.timeout, meta.get("progressToken"),
                params.get("name") if method == "tools/call" else None)
        elif method == "notifications/cancelled":
            params = msg.get("params") or {}
            self.pending.pop(params.get("requestId"), None)
        out.to_upstream.append(msg)
        return out

    def _rewrite_call(self, msg: Message) -> Message:
        from ..repair_args import repair

        params = msg.get("params")
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return msg
        shown = params["name"]
        upstream = self.names.get(shown, shown)
        params = dict(params)
        if upstream != shown:
            params["name"] = upstream
            self.log(f"tools/call {shown}: renamed to {upstream!r} for the upstream")
        arguments = params.get("arguments")
        if upstream in self.schemas and arguments is not None:
            result = repair(self.schemas[upstream], arguments)
            for c in result.coercions:
                self.log(f"tools/call {upstream}: repaired {c.describe()}")
            for err in result.errors:
                self.log(f"tools/call {upstream}: still invalid, forwarded as is: {err}")
            if result.coercions:
                params["arguments"] = result.arguments
        return {**msg, "params": params}

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
                        msg = {**msg, "result": self.rewrite_listing(result)}
                    except Exception as exc:  # a bug must not cost the user the listing
                        self.log(f"tools/list: not transformed ({type(exc).__name__}: "
                                 f"{exc}); passed through as is")
                elif pending.method == "initialize" and \
                        isinstance(result.get("protocolVersion"), str):
                    self.protocol_version = result["protocolVersion"]
        elif method == "notifications/progress":
            token = (msg.get("params") or {}).get("progressToken")
            for p in self.pending.values():
                if token is not None and p.progress_token == token:
                    p.deadline = self.clock() + self.timeout
        out.to_client.append(msg)
        return out

    def rewrite_listing(self, result: dict[str, Any]) -> dict[str, Any]:
        """One page of `tools/list`: transformed schemas and names, originals kept."""
        from ..engine import run_plan

        tools = result.get("tools")
        if not isinstance(tools, list):
            return result
        defs = [ToolDef(name=t["name"], schema=t.get("inputSchema"),
                        description=t.get("description"), source="upstream", index=i, raw=t)
                for i, t in enumerate(tools)
                if isinstance(t, dict) and isinstance(t.get("name"), str)]
        by_index = {d.index: r for d, r in zip(defs, run_plan(defs, self.plan), strict=True)}
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
        self.listed = True
        return {**result, "tools": new_tools}

    def own_listing_request(self, cursor: Any) -> Message:
        """A `tools/list` of the proxy's own, for a call that came before any listing;
        its answer lands in `own_answers`, never at the client."""
        self._own += 1
        msg: Message = {"jsonrpc": "2.0", "id": f"{OWN_ID_PREFIX}{self._own}",
                        "method": "tools/list"}
        if cursor is not None:
            msg["params"] = {"cursor": cursor}
        return msg

    def needs_listing(self, msg: Message) -> bool:
        """A tools/call for a name the proxy has not seen, before any listing."""
        params = msg.get("params")
        return (msg.get("method") == "tools/call" and "id" in msg and not self.listed
                and self.closed_reason is None and isinstance(params, dict)
                and params.get("name") not in self.names)

    # --- failures ------------------------------------------------------------------

    def expire(self) -> Outbox:
        """Requests past their deadline: an error to the client, a cancel upstream."""
        out = Outbox()
        now = self.clock()
        for rid, p in list(self.pending.items()):
            if p.deadline <= now:
                del self.pending[rid]
                what = f"{p.method} {p.tool}" if p.tool else p.method
                self.log(f"{what}: no answer from the upstream within {self.timeout:g}s; "
                         "answered with an error")
                out.to_client.append(_error(
                    rid, REQUEST_TIMEOUT,
                    f"schema-compat proxy: the upstream server did not answer {p.method} "
                    f"within {self.timeout:g}s"))
                out.to_upstream.append({
                    "jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": rid, "reason": "timed out in schema-compat proxy"}})
        return out

    def upstream_closed(self, reason: str) -> Outbox:
        """The upstream is gone: every open request, and every later one, gets an error."""
        self.closed_reason = f"schema-compat proxy: {reason}"
        out = Outbox()
        for rid in list(self.pending):
            out.to_client.append(_error(rid, CONNECTION_CLOSED, self.closed_reason))
        self.pending.clear()
        return out

    def next_deadline(self) -> float | None:
        return min((p.deadline for p in self.pending.values()), default=None)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _error(rid: Any, code: int, message: str) -> Message:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}
