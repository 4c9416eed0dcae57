"""proxy_upstream.py's five tools without the SDK (standard library only), in the handshake
era: for the proxy tests about the proxy's own logic, which would otherwise pay the SDK's
import (most of a second of CPU) for every upstream they start.

It says what proxy_upstream.py says, byte for byte: the same `initialize` result, the same
listing (the SDK's generated schemas), the same results and `structuredContent`, the same
refusal of "1" for a strict integer (`add`) and acceptance of "5" for `extra_N`'s lax one, and
`notifications/tools/list_changed` after `grow`; tests/test_proxy_upstreams.py holds it to
that against the real one. It is as strict as the SDK on the wire: a message the SDK's
schema refuses is dropped (strict_jsonrpc), a request before `initialize` is refused. Calls
run on threads of their own, so that concurrent `slow` calls overlap as the SDK's do. The
2026-07-28 era (`server/discover`) is refused with "Method not found", as a server of the
handshake era alone answers it: the tests of that era keep the SDK's servers."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

from strict_jsonrpc import SDK_CAPABILITIES, SDK_EMPTY, SDK_VERSIONS, refusal


def _output(name: str, kind: str) -> dict[str, Any]:
    return {"properties": {"result": {"title": "Result", "type": kind}}, "required": ["result"],
            "type": "object", "title": f"{name}Output"}


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str],
          output: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {"properties": properties}
    if required:
        schema["required"] = required
    schema.update(type="object", title=f"{name}Arguments")
    return {"description": description, "inputSchema": schema, "name": name,
            "outputSchema": output}


TOOLS = [
    _tool("slow", "Sleep, then say so.", {"seconds": {"title": "Seconds", "type": "number"}},
          ["seconds"], _output("slow", "string")),
    _tool("env", "The environment variables named, as this server sees them (None when unset).",
          {"names": {"items": {"type": "string"}, "title": "Names", "type": "array"}},
          ["names"], {"type": "object", "additionalProperties": {
              "anyOf": [{"type": "string"}, {"type": "null"}]}, "title": "envDictOutput"}),
    _tool("grow", "Add a tool, and send notifications/tools/list_changed.", {}, [],
          _output("grow", "string")),
    _tool("die", "Exit at once, leaving the call unanswered.", {}, [], _output("die", "string")),
    _tool("add", 'a + b + the sum of more (strictly integers: "1" is refused, as many servers '
                 'do).',
          {"a": {"title": "A", "type": "integer"}, "b": {"title": "B", "type": "integer"},
           "more": {"anyOf": [{"items": {"type": "integer"}, "type": "array"},
                              {"type": "null"}], "default": None, "title": "More"}},
          ["a", "b"], _output("add", "integer")),
]
lock = threading.Lock()


def send(message: dict[str, Any]) -> None:
    with lock:
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        sys.stdout.flush()


class Refused(Exception):
    """Arguments the SDK's validation refuses: the tool's error text, as pydantic words it."""


def _strict_int(arguments: dict[str, Any], key: str) -> int:
    if key not in arguments:
        raise Refused(f"{key}\n  Field required [type=missing, input_value={arguments!r}, "
                      "input_type=dict]")
    value = arguments[key]
    if type(value) is not int:
        raise Refused(f"{key}\n  Input should be a valid integer [type=int_type, "
                      f"input_value={value!r}, input_type={type(value).__name__}]")
    return value


def _number(value: Any) -> float:
    """pydantic's lax float: a number, or text that reads as one."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise Refused("seconds\n  Input should be a valid number")
    return float(value)


def _lax_int(value: Any) -> int | None:
    """pydantic's lax `int | None`: None, an integer, or text that reads as one."""
    if value is None or (type(value) is int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise Refused("value\n  Input should be a valid integer")


def call(name: str, arguments: dict[str, Any]) -> Any:
    """What the tool returns (the SDK wraps it as `result` unless it is a dict)."""
    if name == "slow":
        seconds = _number(arguments.get("seconds"))
        time.sleep(seconds)
        return f"slept {seconds}"
    if name == "env":
        return {n: os.environ.get(n) for n in arguments["names"]}
    if name == "grow":
        added = f"extra_{len(TOOLS) - 4}"
        TOOLS.append({"description": f"Added by grow ({added}).", "inputSchema": {
            "properties": {"value": {"anyOf": [{"type": "integer"}, {"type": "null"}],
                                     "default": None, "title": "Value"}},
            "type": "object", "title": "extraArguments"}, "name": added,
            "outputSchema": _output("extra", "string")})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return added
    if name == "die":
        os._exit(3)
    if name == "add":
        a, b = _strict_int(arguments, "a"), _strict_int(arguments, "b")
        more = arguments.get("more")
        if more is not None:
            more = [_strict_int({"more": item}, "more") for item in more]
        return a + b + sum(more or [])
    return f"{name}:{_lax_int(arguments.get('value'))}"


def answer_call(rid: Any, params: dict[str, Any]) -> None:
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name not in [t["name"] for t in TOOLS]:
        result: dict[str, Any] = {"content": [{"text": f"Unknown tool: {name}", "type": "text"}],
                                  "isError": True}
    else:
        try:
            value = call(name, arguments)
        except Refused as why:
            text = f"Error executing tool {name}: 1 validation error for {name}Arguments\n{why}"
            result = {"content": [{"text": text, "type": "text"}], "isError": True}
        else:
            structured = value if isinstance(value, dict) else {"result": value}
            text = json.dumps(value, indent=2) if isinstance(value, dict) else str(value)
            result = {"content": [{"text": text, "type": "text"}], "isError": False,
                      "structuredContent": structured}
    send({"jsonrpc": "2.0", "id": rid, "result": result})


def main() -> None:
    initialized = False
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if refusal(message) is not None or "method" not in message:
            continue
        method, rid = message["method"], message.get("id")
        if rid is None:
            continue  # a notification: nothing to answer
        if method == "initialize":
            asked = message.get("params", {}).get("protocolVersion")
            initialized = True
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "capabilities": SDK_CAPABILITIES,
                "protocolVersion": asked if asked in SDK_VERSIONS else SDK_VERSIONS[-1],
                "serverInfo": {"name": "proxy-upstream", "version": "1.0.0"}}})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        elif initialized and method in SDK_EMPTY:
            send({"jsonrpc": "2.0", "id": rid, "result": {SDK_EMPTY[method]: []}})
        elif method not in ("tools/list", "tools/call"):
            send({"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32601, "message": "Method not found", "data": method}})
        elif not initialized:
            send({"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32600, "message": "Invalid request: not initialized"}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        else:
            threading.Thread(target=answer_call, args=(rid, message.get("params", {})),
                             daemon=True).start()


if __name__ == "__main__":
    main()
