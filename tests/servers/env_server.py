"""A raw MCP stdio server that, like many real ones (an API key checked at start-up), exits
unless DEMO_API_KEY is set, and lists one tool whose input schema's description names the
values of DEMO_API_KEY and DEMO_REGION: what the server's environment held."""

from __future__ import annotations

import json
import os
import sys

from strict_jsonrpc import refusal

if not os.environ.get("DEMO_API_KEY"):
    print("DEMO_API_KEY environment variable is required", file=sys.stderr, flush=True)
    sys.exit(1)

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if refusal(request) is not None or "id" not in request:
        continue
    method, rid = request["method"], request["id"]
    if method == "initialize":
        result = {"protocolVersion": request["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "env", "version": "1"}}
    elif method == "tools/list":
        described = f"key={os.environ['DEMO_API_KEY']} region={os.environ.get('DEMO_REGION')}"
        result = {"tools": [{"name": "whoami", "description": "Who am I?",
                             "inputSchema": {"type": "object", "description": described}}]}
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {
            "code": -32601, "message": f"Method not found: {method}"}}) + "\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\n")
    sys.stdout.flush()
