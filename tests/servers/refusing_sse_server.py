"""An SSE server whose announced message endpoint refuses every message with --status.

The stream opens and names `/messages/?session_id=...` as the endpoint, as MCP's legacy SSE
transport does; each POST there gets the status. The client used to wait out its timeout,
the refusal being only logged by the SDK's posting task."""

import argparse
import time

from raw_http import QuietHandler, serve


class Handler(QuietHandler):
    status = 500

    def do_GET(self) -> None:
        if not self.path.startswith("/sse"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(b"event: endpoint\ndata: /messages/?session_id=abc123\n\n")
        self.wfile.flush()
        time.sleep(120)  # the stream stays open; the client gives up first

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b"refused"
        self.send_response(self.status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--status", type=int, default=500)
    serve(Handler, parser)
