"""An event stream at any path that takes GET only, as a legacy SSE server's does: a GET
gets the stream's first event (the endpoint for messages) and stays open a moment; a POST
gets 405 Method Not Allowed with `Allow: GET`, as Starlette's route answers it."""

import argparse
import time

from raw_http import QuietHandler, serve


class Handler(QuietHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(b"event: endpoint\r\ndata: /messages/?session_id=1\r\n\r\n")
        self.wfile.flush()
        time.sleep(2)
        self.close_connection = True

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b"Method Not Allowed"
        self.send_response(405)
        self.send_header("Allow", "GET")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    serve(Handler, argparse.ArgumentParser(description=__doc__))
