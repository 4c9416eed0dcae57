"""A raw JSON-RPC MCP stdio server (standard library only) that misbehaves in one chosen way,
for the tests that a server never outlives the command and that a timeout says what happened.

    hostile_server.py MODE [PIDFILE]

MODE:
- `fork`: first forks a child that ignores SIGTERM and sleeps (a worker, a helper, a
  language server), writes that child's pid to PIDFILE, then serves one tool and exits at
  the end of its input, leaving the child behind;
- `silent-list`: never answers `tools/list` nor `tools/call`;
- `slow-list`: answers `tools/list` with a listing of about 2 MB written at about 0.5 MB/s;
- `cut-list`: writes the first half of its `tools/list` answer, closes stdout and keeps
  running, deaf to the end of its input, until it is stopped;
- `cut-exit`: writes the first half of its `tools/list` answer and exits with code 4.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any

TOOL = {"name": "echo", "description": "Echo the text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def fork_child(pidfile: str) -> None:
    pid = os.fork()
    if pid == 0:  # the child: ignores SIGTERM, holds no pipe of the parent's, sleeps
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        while True:
            time.sleep(1)
    with open(pidfile + ".part", "w") as out:
        out.write(str(pid))
    os.replace(pidfile + ".part", pidfile)


def big_listing(rid: Any) -> bytes:
    tools = [{**TOOL, "name": f"tool_{i}", "description": "x" * 1000} for i in range(2000)]
    return (json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}}) + "\n").encode()


def main() -> None:
    mode = sys.argv[1]
    if mode == "fork":
        fork_child(sys.argv[2])
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        method, rid = request.get("method"), request.get("id")
        if mode == "silent-list" and method in ("tools/list", "tools/call"):
            continue
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": request["params"]["protocolVersion"],
                "capabilities": {"tools": {}}, "serverInfo": {"name": "hostile", "version": "1"}}})
        elif method == "tools/list" and mode == "fork":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": [TOOL]}})
        elif method == "tools/list" and mode == "slow-list":
            data = big_listing(rid)
            for start in range(0, len(data), 50_000):  # 50 kB every 100 ms: ~0.5 MB/s
                sys.stdout.buffer.write(data[start:start + 50_000])
                sys.stdout.buffer.flush()
                time.sleep(0.1)
        elif method == "tools/list" and mode == "cut-list":
            data = big_listing(rid)
            sys.stdout.buffer.write(data[:len(data) // 2])
            sys.stdout.buffer.flush()
            os.close(1)
            time.sleep(60)  # running, deaf to the end of its input, until stopped
        elif method == "tools/list" and mode == "cut-exit":
            data = big_listing(rid)
            sys.stdout.buffer.write(data[:len(data) // 2])
            sys.stdout.buffer.flush()
            os._exit(4)
        elif rid is not None:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601,
                                                         "message": "Method not found"}})
    sys.exit(0)


if __name__ == "__main__":
    main()
