"""A raw stdio MCP server (no SDK) whose `deep` tool answers with a result nested 10,000
levels deep (more than Python's json can read), and a call to `nan` with a NaN (which no
JSON reader but Python's reads). Everything else is answered plainly: `initialize`,
`tools/list` (the one tool), `ping`."""

import json
import sys

DEPTH = 10_000

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg or "method" not in msg:
        continue
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
