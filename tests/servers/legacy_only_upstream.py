"""The example server (examples/fs_server.py) as a handshake-era-only server: `server/discover`
is answered with -32601 "Method not found", exactly as TypeScript-SDK servers
(server-everything 2026.8.31) answer it, and never reaches the example; everything else is
the example's own doing. The SDK's servers speak both eras (the first request decides), so
without this the SDK client's auto mode never meets a server of the handshake era alone."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "fs_server.py"


def main() -> None:
    child = subprocess.Popen([sys.executable, str(EXAMPLE)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    lock = threading.Lock()

    def out(data: bytes) -> None:
        with lock:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            out(line)

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin.buffer:
        try:
            msg = json.loads(line)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("method") == "server/discover" and "id" in msg:
            out(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "error": {
                "code": -32601, "message": "Method not found"}}).encode() + b"\n")
            continue
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
