"""A minimal streamable HTTP MCP server at /mcp (JSON answers; other paths 404; a GET for a
stream gets 405, as the protocol allows). It answers notifications with
--notification-status, which a client must shrug off (the MCP SDK ignores an error status
on a notification), with --silent-tools never answers tools/list, and with --refuse-tools
answers it with HTTP 400 carrying a JSON-RPC error."""

import argparse
import json
import time
from typing import Any

from raw_http import QuietHandler, serve
from strict_jsonrpc import PARSE_ERROR_BODY, refusal

TOOL = {"name": "echo", "description": "Echo the text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                        "required": ["text"]}}


class Handler(QuietHandler):
    notification_status = 202
    silent_tools = False
    refuse_tools = False

    def _send(self, code: int, body: bytes = b"") -> None:
        self.send_response(code)
        self.send_header("Mcp-Session-Id", "s1")  # so the client also asks for a stream
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._send(405)

    def do_DELETE(self) -> None:
        self._send(405)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if self.path.split("?", 1)[0].rstrip("/") != "/mcp":
            self._send(404)
            return
        if refusal(message) is not None:  # as the TypeScript SDK answers it
            self._send(400, json.dumps(PARSE_ERROR_BODY).encode())
            return
        if "id" not in message:
            self._send(self.notification_status, b"" if self.notification_status == 202 else
                       b'{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"no"}}')
            return
        result: dict[str, Any]
        if message.get("method") == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"],
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "plain", "version": "1"}}
        elif message.get("method") == "tools/list" and self.refuse_tools:
            # a JSON-RPC error in the body of a 400, as the protocol allows
            self._send(400, json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {
                "code": -32602, "message": "Invalid cursor: page token expired"}}).encode())
            return
        elif message.get("method") == "tools/list":
            if self.silent_tools:
                time.sleep(120)  # the client gives up first
            result = {"tools": [TOOL]}
        else:
            self._send(200, json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                        "error": {"code": -32601, "message": "unknown"}}).encode())
            return
        self._send(200, json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                    "result": result}).encode())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--notification-status", type=int, default=202)
    parser.add_argument("--silent-tools", action="store_true")
    parser.add_argument("--refuse-tools", action="store_true")
    serve(Handler, parser)
