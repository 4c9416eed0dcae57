"""A raw JSON-RPC MCP stdio server (standard library only) whose one tool carries hostile
patterns: `^(a+)+$`, which Python's backtracking `re` takes half a minute over with 26 `a`s
and a `!`, and a lookahead, which RE2 cannot run. `tools/call` answers with the arguments it
received, as JSON text, so a test sees what reached the server. A schema given as the
first argument (JSON) replaces the tool's.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from strict_jsonrpc import refusal

SCHEMA = {"type": "object", "properties": {
    "word": {"type": "string", "pattern": "^(a+)+$"},
    "code": {"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]+$"}}}
TOOL = {"name": "match", "description": "Take a word and a code.",
        "inputSchema": json.loads(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if refusal(request) is not None:
            continue
        method, rid = request.get("method"), request.get("id")
        if rid is None or method is None:
            continue
        params = request.get("params", {})
        if method == "initialize":
            result: dict[str, Any] = {"protocolVersion": params["protocolVersion"],
                                      "capabilities": {"tools": {}},
                                      "serverInfo": {"name": "pattern", "version": "1"}}
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            result = {"content": [{"type": "text",
                                   "text": json.dumps(params.get("arguments"))}]}
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rid,
                  "error": {"code": -32601, "message": f"Method not found: {method}"}})
            continue
        send({"jsonrpc": "2.0", "id": rid, "result": result})


if __name__ == "__main__":
    main()
