"""The example server's listing (examples/fs_server.py, as captured in
tests/data/corpus/servers/fs-mcp-repro-mcp-sdk.json, which tests/test_init.py holds to what
the example serves) from a raw stdio MCP server in the handshake era, without the SDK
(standard library only): for the tests that need a server's listing, not the SDK's own
doing, and would otherwise pay the SDK's import (most of a second of CPU) for each start.

    listing_server.py [CAPTURE]    # another capture's `tools`

It answers as the example does in the handshake era: `initialize` (the SDK's capabilities
and the capture's serverInfo), `tools/list` in one page, `ping`, the empty lists of
resources and prompts, and "Method not found" for the rest, `server/discover` included (a
server of the handshake era alone). It is as strict as the SDK on the wire: a message the
SDK's schema refuses is dropped (strict_jsonrpc), and a request before `initialize` is
refused. It serves listings only: a `tools/call` is answered with an error result, for a tool
it does not list the SDK's own ("Unknown tool: NAME")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from strict_jsonrpc import SDK_CAPABILITIES, SDK_EMPTY, SDK_VERSIONS, refusal

CAPTURE = Path(__file__).resolve().parent.parent / "data" / "corpus" / "servers" / \
    "fs-mcp-repro-mcp-sdk.json"


def answer(message: dict[str, Any], capture: dict[str, Any], initialized: bool) -> Any:
    """The `result` (or `error`) for a request."""
    method = message["method"]
    if method == "initialize":
        asked = message.get("params", {}).get("protocolVersion")
        return {"result": {"capabilities": SDK_CAPABILITIES,
                           "protocolVersion": asked if asked in SDK_VERSIONS else SDK_VERSIONS[-1],
                           "serverInfo": capture["serverInfo"]}}
    if method == "ping":
        return {"result": {}}
    if method not in (*SDK_EMPTY, "tools/list", "tools/call"):
        return {"error": {"code": -32601, "message": "Method not found", "data": method}}
    if not initialized:
        return {"error": {"code": -32600, "message": "Invalid request: not initialized"}}
    if method in SDK_EMPTY:
        return {"result": {SDK_EMPTY[method]: []}}
    if method == "tools/list":  # each tool's fields in the SDK's order (the capture's differs)
        return {"result": {"tools": [dict(sorted(t.items())) for t in capture["tools"]]}}
    name = message.get("params", {}).get("name")
    known = name in [t["name"] for t in capture["tools"]]
    text = "this server lists tools only" if known else f"Unknown tool: {name}"
    return {"result": {"content": [{"text": text, "type": "text"}], "isError": True}}


def main() -> None:
    capture = json.loads(Path(sys.argv[1] if len(sys.argv) > 1 else CAPTURE).read_text())
    initialized = False
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if refusal(message) is not None or "method" not in message or "id" not in message:
            continue  # dropped as the SDK drops it, an answer, or a notification
        initialized = initialized or message["method"] == "initialize"
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                     **answer(message, capture, initialized)}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
