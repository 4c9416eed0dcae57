"""A raw JSON-RPC MCP stdio server (standard library only) for the live tests.

It serves its tools over three `tools/list` pages (`nextCursor`), and some of them are
malformed in ways the SDK's client would reject the whole listing for. It also writes a stray
non-JSON line to stdout and chatter to stderr, which must never reach the user's terminal.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from strict_jsonrpc import refusal

GOOD = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
REFS = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
    "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "string"}}}},
}
PAGES: list[list[dict[str, Any]]] = [
    [
        {"name": "echo", "description": "Echo the text.", "inputSchema": GOOD},
        {"name": "batch", "description": "Take a batch.", "inputSchema": REFS},
    ],
    [{"name": "no_schema", "description": "Has no inputSchema at all."}],
    [
        {"name": "array_root", "description": "Root is an array.",
         "inputSchema": {"type": "array", "items": {"type": "string"}}},
        {"name": "text_schema", "description": "Schema is a string.", "inputSchema": "{oops"},
    ],
]
TOOLS = [tool for page in PAGES for tool in page]


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    print("paged-server: starting (this goes to stderr)", file=sys.stderr, flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        why = refusal(request)
        if why is not None:  # dropped, as the TypeScript SDK drops it
            print(f"paged-server: invalid JSON-RPC message dropped: {why}", file=sys.stderr,
                  flush=True)
            continue
        method, rid = request.get("method"), request.get("id")
        if method == "initialize":
            print("stray banner line on stdout", flush=True)
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": request["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "paged", "version": "1"}}})
            # a server-to-client request and a notification the client must cope with
            send({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": "hello"}})
        elif method == "tools/list":
            cursor = request.get("params", {}).get("cursor")
            page = 0 if cursor is None else int(cursor.removeprefix("page-"))
            result: dict[str, Any] = {"tools": PAGES[page]}
            if page + 1 < len(PAGES):
                result["nextCursor"] = f"page-{page + 1}"
            send({"jsonrpc": "2.0", "id": rid, "result": result})
        elif rid is not None and method is not None:
            send({"jsonrpc": "2.0", "id": rid,
                  "error": {"code": -32601, "message": f"Method not found: {method}"}})


if __name__ == "__main__":
    main()
