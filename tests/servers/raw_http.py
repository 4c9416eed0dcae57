"""What the raw HTTP test servers share: a quiet HTTP/1.1 handler and a threaded server on
127.0.0.1 at --port (the servers speak just enough of a transport to make a client fail in
one precise way, which the example server cannot be made to do)."""

import argparse
import http.server
import socketserver


class QuietHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(handler: type[QuietHandler], parser: argparse.ArgumentParser) -> None:
    """Parse --port and the server's own options, set each option on `handler` as a class
    attribute of the same name, and serve until killed."""
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    for name, value in vars(options).items():
        setattr(handler, name, value)
    _Server(("127.0.0.1", options.port), handler).serve_forever()
