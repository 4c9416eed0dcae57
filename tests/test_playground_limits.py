"""What the playground's server does with hostile or heavy traffic, over real loopback HTTP
to `make_server` (the server `schema-compat serve` runs), in this process: a body it cannot
read is a 400 (never an empty reply), a connection that sends nothing is closed after the
idle timeout (never a thread held for ever), and a burst of connections waits in the
kernel's backlog to be answered (never reset)."""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from schema_compat.playground.live import Configs
from schema_compat.playground.server import make_server

Started = tuple[ThreadingHTTPServer, int, str]


def _start(folder: Path, **options: Any) -> Started:
    """A playground for `folder` (no config of the user's: HOME is the folder), not yet
    serving: (server, port, token)."""
    server, url = make_server(0, Configs(str(folder), [], home=str(folder)), **options)
    return server, int(server.server_address[1]), url.rstrip("/").rsplit("/", 1)[1]


def _serve(server: ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    return thread


def _stop(server: ThreadingHTTPServer, serving: threading.Thread | None) -> None:
    if serving is not None:  # shutdown() waits for serve_forever, which must be running
        server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Started]:
    started = _start(tmp_path_factory.mktemp("limits"))
    serving = _serve(started[0])
    yield started
    _stop(started[0], serving)


def _analyze(started: Started, body: bytes) -> tuple[int, Any]:
    _, port, token = started
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", f"/{token}/api/analyze", body=body, headers={
            "Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}",
            "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


@pytest.mark.parametrize(("body", "error"), [
    (b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "the request body: JSON nested deeper than 256 levels"),
    (b'{"text": "{}", "label": "\\ud800"}', "the request body holds a lone surrogate"),
    (b'{"text": "{\\"name\\": \\"t\\", \\"description\\": \\"\\udc00\\"}"}',
     "the request body holds a lone surrogate"),
    (b'{"text": NaN}', "the request body: not valid JSON: NaN is not allowed"),
    (b"\xff{}", "the request body: not valid UTF-8: byte 0xff"),
])
def test_a_body_it_cannot_read_is_a_400(served: Started, body: bytes, error: str) -> None:
    status, answer = _analyze(served, body)
    assert status == 400
    assert answer["error"].startswith(error), answer


def test_a_readable_body_is_still_analyzed(served: Started) -> None:
    """The refusals above are of the body alone: the same document, readable, is checked,
    an escaped surrogate pair (an emoji) and a lone surrogate inside the document's own
    JSON text included."""
    document = json.dumps({"name": "t", "description": "\ud83d\ude00 \\ud800",
                           "inputSchema": {"type": "object"}})
    status, answer = _analyze(served, json.dumps({"text": document}).encode())
    assert status == 200, answer
    assert answer["shape"] == "tool"


def test_an_idle_connection_is_closed_after_the_idle_timeout(tmp_path: Path) -> None:
    """One connection sends nothing; another is answered and then kept alive with nothing
    more: the server closes both (recv reads end of stream) within the bound, where it
    used to hold each, and a thread for each, for ever."""
    server, port, token = _start(tmp_path, idle_timeout=0.3)
    serving = _serve(server)
    try:
        silent = socket.create_connection(("127.0.0.1", port), timeout=10)
        kept = socket.create_connection(("127.0.0.1", port), timeout=10)
        kept.sendall(f"GET /{token}/favicon.svg HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
                     .encode())
        answer = b""
        while b"</svg>" not in answer:
            chunk = kept.recv(65536)
            assert chunk, "closed before its answer"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
        assert silent.recv(1) == b""  # socket.timeout (10 s) if it is never closed
        assert kept.recv(1) == b""
        silent.close()
        kept.close()
    finally:
        _stop(server, serving)


def test_two_hundred_concurrent_connections_are_queued_and_all_answered(tmp_path: Path
                                                                        ) -> None:
    """200 connections opened before the server accepts any: the kernel completes each
    handshake into the listen backlog (with socketserver's backlog of 5, six get in and
    the others' SYNs are dropped until the queue drains, and under load they are reset);
    then every one is answered."""
    server, port, token = _start(tmp_path)
    sockets = [socket.socket() for _ in range(200)]
    serving = None
    try:
        poll = select.poll()
        for sock in sockets:
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            poll.register(sock, select.POLLOUT)
        connected: set[int] = set()
        deadline = time.monotonic() + 2
        while len(connected) < len(sockets) and time.monotonic() < deadline:
            connected |= {fd for fd, _ in poll.poll(100)}
        assert len(connected) == 200  # all queued before one is accepted
        assert all(s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0 for s in sockets)
        serving = _serve(server)
        request = (f"GET /{token}/favicon.svg HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   "Connection: close\r\n\r\n").encode()
        for sock in sockets:
            sock.setblocking(True)
            sock.settimeout(60)
            sock.sendall(request)
        status = [sock.makefile("rb").readline() for sock in sockets]
        assert status == [b"HTTP/1.1 200 OK\r\n"] * 200
    finally:
        for sock in sockets:
            sock.close()
        _stop(server, serving)
