"""A raw stdio MCP server (no SDK) whose `deep` tool answers with a result nested 10,000
levels deep (more than Python's json can read), and a call to `nan` with a NaN (which no
JSON reader but Python's reads). Everything else is answered plainly: `initialize`,
`tools/list` (the one tool), `ping`. A ping whose id is "ask" makes it ask the client for
its roots first; what it gets back it says in a `notifications/message`."""

import json
import sys

DEPTH = 10_000

for line in sys.stdin:
    msg = json.loads(line)
    if "method" not in msg:  # an answer to its own request: said back, as a log message
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                                     "params": {"level": "info", "data": msg}}) + "\n")
        sys.stdout.flush()
        continue
    if "id" not in msg:
        continue
    if msg["method"] == "ping" and msg["id"] == "ask":  # asks the client something first
        sys.stdout.write('{"jsonrpc":"2.0","id":"up-1","method":"roots/list"}\n')
    head = '{"jsonrpc":"2.0","id":' + json.dumps(msg["id"]) + ',"result":'
    method = msg["method"]
    if method == "initialize":
        result = json.dumps({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                             "serverInfo": {"name": "deep", "version": "1"}})
    elif method == "tools/list":
        result = json.dumps({"tools": [{"name": "deep", "inputSchema": {"type": "object"}}]})
    elif method == "tools/call" and msg["params"]["name"] == "nan":
        result = '{"content":[],"x":NaN}'  # what Python's json.dumps writes for a float nan
    elif method == "tools/call":
        result = '{"content":' + "[" * DEPTH + "]" * DEPTH + "}"
    else:
        result = "{}"
    sys.stdout.write(head + result + "}\n")
    sys.stdout.flush()
