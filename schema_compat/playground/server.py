"""The playground's HTTP server: the standard library's, on 127.0.0.1 only.

Every request is checked by security.Guard before anything else; the page's files and the
JSON API live under `/TOKEN/`. The API is small: the page posts a document (or names a
configured server) once, gets the matrix and a run id, then asks for one cell, a download or
a rule's page at a time.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..jsonio import JsonInputError, has_surrogate, load_json_bytes
from . import api
from .analysis import InputError, PageSettings, Workspace
from .live import Configs, LiveServers
from .security import SECURITY_HEADERS, Guard, new_token

__all__ = ["ASSETS", "Playground", "make_server", "serve"]

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024 * 1024  # a pasted or dropped document; larger is refused (413)
# A connection that sends nothing for this long is closed, so idle keep-alive connections
# do not each hold a thread for ever (the browser opens a new one when it needs one).
IDLE_TIMEOUT = 30.0
# Connections the kernel holds until they are accepted: the page's bursts (and a script's
# hundreds of concurrent requests) are queued, not reset as with socketserver's 5.
BACKLOG = 1024

ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}


def read_asset(name: str) -> bytes:
    """A file of assets/, read as package data (so a wheel install has it)."""
    return (resources.files(__package__ or "schema_compat.playground") / "assets" / name
            ).read_bytes()


class Playground:
    """What the handler threads share: the guard, the runs, the configs, the live jobs."""

    def __init__(self, guard: Guard, configs: Configs, timeout: float = 30.0,
                 settings: PageSettings | None = None) -> None:
        self.guard = guard
        self.workspace = Workspace(settings=settings)
        self.live = LiveServers(configs, self.workspace, timeout)
        self.assets = {name: read_asset(name) for name in ASSETS}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG
    idle_timeout = IDLE_TIMEOUT
    playground: Playground


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "schema-compat-playground"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)  # each read and write's

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows the URL, not a line per request."""

    def do_GET(self) -> None:
        """Every method comes here, and the guard refuses all but GET, HEAD and POST."""
        self._serve(self.command)

    do_HEAD = do_POST = do_PUT = do_DELETE = do_OPTIONS = do_GET

    def _serve(self, method: str) -> None:
        play = self.server.playground
        refused = play.guard.check(method, self.path, self.headers)
        if refused is not None:
            self._drain()
            self._send(refused.status, {"error": refused.reason})
            return
        route = play.guard.route(self.path) or ""
        head = method == "HEAD"
        name = route or "index.html"
        if method != "POST" and name in play.assets:
            self._send_bytes(200, play.assets[name], ASSETS[name], head=head)
            return
        query = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
        try:
            if method == "POST":
                body = self._body()
                if body is None:
                    return
                answer = api.post(play.workspace, play.live, route, body)
            else:
                answer = api.get(play.workspace, play.live, route, query)
        except InputError as exc:
            answer = api.Answer(400, {"error": str(exc)})
        except api.Gone as exc:
            answer = api.Answer(404, {"error": str(exc)})
        if answer.text is not None:
            self._download(answer.text, answer.filename or "download.json", head)
        else:
            self._send(answer.status, answer.data)

    def _body(self) -> dict[str, Any] | None:
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            self._send(413, {"error": f"the body must be at most {MAX_BODY} bytes"})
            return None
        try:
            raw = self.rfile.read(length)
        except TimeoutError:  # the client stopped sending: nobody waits for an answer
            self.close_connection = True
            return None
        try:  # strict UTF-8 and JSON, bounded depth: a bad body is a 400, never a crash
            data = load_json_bytes(raw, "the request body")
        except JsonInputError as exc:
            raise InputError(exc.error.one_line()) from None
        if not isinstance(data, dict):
            raise InputError("the request body must be a JSON object")
        if has_surrogate(data):
            raise InputError("the request body holds a lone surrogate (\\ud800-\\udfff "
                             "alone is not Unicode text)")
        return data

    def _drain(self) -> None:
        """Read a refused request's body (up to MAX_BODY) so the answer reaches the
        client; a larger one closes the connection."""
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = 0
        if 0 < length <= MAX_BODY:
            self.rfile.read(length)
        elif length:
            self.close_connection = True

    # --- answers -----------------------------------------------------------------------

    def _send(self, status: int, data: Any) -> None:
        body = json.dumps(data, ensure_ascii=False, allow_nan=True).encode("utf-8")
        self._send_bytes(status, body, "application/json; charset=utf-8")

    def _download(self, text: str, filename: str, head: bool) -> None:
        self._send_bytes(200, text.encode("utf-8", "surrogatepass"),
                         "application/json; charset=utf-8", head=head,
                         extra={"Content-Disposition": f'attachment; filename="{filename}"'})

    def _send_bytes(self, status: int, body: bytes, kind: str, *, head: bool = False,
                    extra: dict[str, str] | None = None) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)


def make_server(port: int, configs: Configs, *, token: str | None = None,
                timeout: float = 30.0, settings: PageSettings | None = None,
                idle_timeout: float = IDLE_TIMEOUT) -> tuple[_Server, str]:
    """The server bound to 127.0.0.1:`port` (0: a free one) and the URL of its page.
    `timeout` is a live listing's; `idle_timeout` how long a connection may send nothing."""
    server = _Server((HOST, port), _Handler, bind_and_activate=True)
    server.idle_timeout = idle_timeout
    bound = int(server.server_address[1])
    guard = Guard(token or new_token(), bound)
    server.playground = Playground(guard, configs, timeout, settings)
    return server, f"http://{HOST}:{bound}{guard.prefix}"


def serve(port: int, *, open_browser: bool, directory: str, config: list[str],
          timeout: float) -> int:
    """Run until Ctrl-C; the exit status. Prints the URL first (flushed, for scripts).

    The nearest settings file (`.schema-compat.toml`, as `check` finds it from here) applies
    to every listing the page checks; a bad one exits 2 naming the file and key."""
    from ..commands.providers import resolve_settings

    settings = PageSettings.of(resolve_settings(()))
    try:
        server, url = make_server(port, Configs(directory, config), timeout=timeout,
                                  settings=settings)
    except OSError as exc:
        print(f"schema-compat: error: cannot listen on {HOST}:{port}: {exc.strerror or exc} "
              "(choose another --port, or 0 for a free one)", file=sys.stderr)
        return 2
    print(f"schema-compat playground: {url}", flush=True)
    print("  (this URL holds the page's secret: share it with no one; Ctrl-C stops)",
          file=sys.stderr, flush=True)
    if settings.file is not None:
        print(f"  settings: {settings.file}", file=sys.stderr, flush=True)
    if open_browser:
        _open(url)
    # SIGTERM stops the playground as Ctrl-C does: an exit, which stops the servers its live
    # listings started (extract.starting), where the default would leave them running.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _open(url: str) -> None:
    """Open the page in the user's browser when there is one; the URL is printed anyway."""
    import webbrowser

    with contextlib.suppress(webbrowser.Error):
        webbrowser.get().open(url)
