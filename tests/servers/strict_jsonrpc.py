"""What the TypeScript MCP SDK refuses, for our raw test servers to refuse too.

The TypeScript SDK (most MCP servers users run) parses every incoming message with its
JSON-RPC schema before anything else: `jsonrpc` must be "2.0", a request id a string or an
integer, `method` a string, and `params`, when present, an object (never null, never an
array). Over stdio a message that fails drops with an error on stderr and no answer; over
HTTP it is answered with 400 and a JSON-RPC parse error. Our raw test servers apply the same
check, so a client bug that only the real servers catch fails the fast tests too.
"""

from __future__ import annotations

from typing import Any

# What the Python SDK's server (FastMCP) answers in the handshake, for the raw doubles of its
# servers (raw_upstream.py, listing_server.py) to answer the same: the capabilities it
# declares, the lists it answers empty for those it has nothing of, the versions it speaks.
SDK_CAPABILITIES = {"prompts": {"listChanged": False},
                    "resources": {"listChanged": False, "subscribe": False},
                    "tools": {"listChanged": False}}
SDK_EMPTY = {"resources/list": "resources", "resources/templates/list": "resourceTemplates",
             "prompts/list": "prompts"}
SDK_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")

# The TypeScript SDK's answer over streamable HTTP to a message its schema refuses.
PARSE_ERROR_BODY = {"jsonrpc": "2.0", "id": None,
                    "error": {"code": -32700, "message": "Parse error: Invalid JSON-RPC message"}}


def refusal(message: Any) -> str | None:
    """Why the TypeScript SDK would refuse `message`, or None when it accepts it."""
    if not isinstance(message, dict):
        return "not a JSON object"
    if message.get("jsonrpc") != "2.0":
        return "jsonrpc is not \"2.0\""
    if "id" in message:
        rid = message["id"]
        if isinstance(rid, bool) or not isinstance(rid, str | int):
            return f"id {rid!r} is neither a string nor an integer"
    if "method" in message:
        if not isinstance(message["method"], str):
            return "method is not a string"
        if "params" in message and not isinstance(message["params"], dict):
            return f"params is {type(message['params']).__name__}, not an object"
    elif "id" not in message:
        return "neither a request, a notification nor a response"
    return None
