"""A live server's failure told as it happened, by `check --server` and the proxy
(tests/servers/hostile_server.py).

A listing still arriving when --timeout runs out is not "no answer"; a server that closes
its stdout in the middle of an answer is not one that "exited with exit code -15" (the
SIGTERM that stopped it was ours); the number of seconds a message names is the time that
passed. Each server is a real subprocess; the timeouts are small.
"""

from __future__ import annotations

import json
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from anyio.abc import ByteReceiveStream

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from hostile_server import big_listing
from launch import PY, REPO_ROOT, SERVERS

from schema_compat.extract.config import ServerSpec

HOSTILE = str(SERVERS / "hostile_server.py")
# the listing the server writes (its size hardly depends on the request id)
LISTING = len(big_listing(1))


def _fetch(mode: str, timeout: float) -> tuple[str, float]:
    """The one error listing the server in `mode` gives, and the seconds it took."""
    import schema_compat.extract.live  # noqa: F401  # the SDK's import is not the server's time
    from schema_compat.extract.starting import fetch_servers

    spec = ServerSpec("hostile", "stdio", sys.executable, (HOSTILE, mode))
    start = time.monotonic()
    loaded, errors = fetch_servers([spec], timeout=timeout)
    elapsed = time.monotonic() - start
    assert loaded == []
    assert len(errors) == 1
    return errors[0].message, elapsed


def _received(text: str) -> float:
    """The bytes a message says were received ("1.2 MB of it received", or kB)."""
    found = re.search(r"\((\d+\.\d) (MB|kB) of it received\)", text)
    assert found, text
    return float(found.group(1)) * (1_000_000 if found.group(2) == "MB" else 1000)


def test_an_unanswered_listing_fails_after_the_timeout_it_names() -> None:
    message, elapsed = _fetch("silent-list", 1.5)
    assert message == "no answer to tools/list within 1.5s"
    # 3 s of room for a loaded machine
    assert 1.5 <= elapsed < 1.5 + 3


def test_a_listing_still_arriving_is_not_called_no_answer() -> None:
    """~2.2 MB written at ~0.5 MB/s, --timeout 2: part of it has come, not all."""
    message, elapsed = _fetch("slow-list", 2)
    assert message.startswith("the listing was still arriving after 2s ("), message
    assert 0 < _received(message) < LISTING
    assert 2 <= elapsed < 2 + 3


def test_stdout_closed_mid_answer_is_said_and_our_sigterm_is_not_its_exit_code() -> None:
    message, _ = _fetch("cut-list", 10)
    assert re.fullmatch(r"the server closed its stdout in the middle of its answer to "
                        r"tools/list \(\d+\.\d MB of it received\) but kept running", message)
    assert _received(message) == round(LISTING / 2 / 1_000_000, 1) * 1_000_000


def test_an_exit_mid_answer_gives_the_servers_own_exit_code() -> None:
    message, _ = _fetch("cut-exit", 10)
    assert re.fullmatch(r"the server exited in the middle of its answer to tools/list "
                        r"\(\d+\.\d MB of it received\) with exit code 4", message)
    assert _received(message) == round(LISTING / 2 / 1_000_000, 1) * 1_000_000


def test_the_sdk_reads_a_long_message_whole() -> None:
    """A message's chunks reach the SDK together, up to its newline (the SDK joins a long
    line chunk by chunk, in time quadratic in its length), and what is left of a message
    unfinished is counted."""
    from schema_compat.extract.live_probe import CountedStdout, Probe

    chunks = [b'{"a":', b'1', b'}\n{"b"', b':2}\n', b'{"c']

    class Chunks(ByteReceiveStream):
        def __init__(self) -> None:
            self.left = list(chunks)

        async def receive(self, max_bytes: int = 65536) -> bytes:
            if not self.left:
                raise anyio.EndOfStream
            return self.left.pop(0)

        async def aclose(self) -> None:
            pass

    async def read_all() -> tuple[list[bytes], list[int]]:
        probe = Probe()
        stream = CountedStdout(Chunks(), probe)
        got: list[bytes] = []
        unfinished: list[int] = []
        with pytest.raises(anyio.EndOfStream):
            while True:
                got.append(await stream.receive())
                unfinished.append(probe.unfinished)
        return got, unfinished

    got, unfinished = anyio.run(read_all)
    assert got == [b'{"a":1}\n{"b"', b':2}\n', b'{"c']
    assert unfinished == [4, 0, 3]


class _ProxySession:
    """`schema-compat proxy --timeout T -- hostile_server.py MODE`, spoken to line by line;
    initialized on entry (the proxy is up once initialize is answered: its start-up is not
    in the times measured), its stdin closed on exit."""

    def __init__(self, mode: str, timeout: float) -> None:
        self.proc = subprocess.Popen(
            [PY, "-m", "schema_compat", "proxy", "--timeout", str(timeout), "--", PY, HOSTILE,
             mode], cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)

    def __enter__(self) -> _ProxySession:
        self.send({"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}})
        assert self.answer()["id"] == 1
        self.send({"method": "notifications/initialized"})
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=15)

    def send(self, msg: dict[str, object]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", **msg}).encode() + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        assert select.select([self.proc.stdout], [], [], 60)[0], "no answer"
        return dict(json.loads(self.proc.stdout.readline()))


def test_the_proxys_first_call_fails_after_the_timeout_not_twice_it() -> None:
    """A call before any listing waits for the proxy's own tools/list; an upstream that
    answers neither fails the call after --timeout, with the listing named (it was the
    listing's time plus a fresh --timeout for the call, saying "within 2s" after 4 s)."""
    timeout = 2
    with _ProxySession("silent-list", timeout) as session:
        start = time.monotonic()
        session.send({"id": 2, "method": "tools/call",
                      "params": {"name": "echo", "arguments": {}}})
        got = session.answer()
        elapsed = time.monotonic() - start
    assert got["id"] == 2
    assert got["error"] == {"code": -32001, "message": (
        "schema-compat proxy: the upstream server did not list its tools within 2s (the "
        "proxy lists the tools before the first tools/call, to repair its arguments)")}
    assert timeout <= elapsed < timeout + 1.5


def test_the_proxy_says_an_upstream_closed_its_stdout_not_that_it_exited() -> None:
    """The answer cut short is an error of its own (not JSON); what the proxy says of the
    upstream from then on is that it closed its stdout, not that it exited."""
    with _ProxySession("cut-list", 10) as session:
        session.send({"id": 2, "method": "tools/list"})
        cut = session.answer()
        session.send({"id": 3, "method": "ping"})
        got = session.answer()
    assert cut["id"] == 2 and "error" in cut
    assert got == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32000, "message": (
        "schema-compat proxy: the upstream server closed its stdout but kept running")}}


def test_the_proxy_says_an_answer_was_still_arriving_at_the_timeout() -> None:
    """~2.2 MB written at ~0.5 MB/s, --timeout 2: not "no answer"."""
    with _ProxySession("slow-list", 2) as session:
        session.send({"id": 2, "method": "tools/list"})
        got = session.answer()
    error = got["error"]
    assert isinstance(error, dict)
    found = re.fullmatch(r"schema-compat proxy: the upstream server did not answer tools/list "
                         r"within 2s \(a message was still arriving: (\d+\.\d) (MB|kB) of it "
                         r"so far\)", error["message"])
    assert found, error
    size = float(found.group(1)) * (1_000_000 if found.group(2) == "MB" else 1000)
    assert 0 < size < LISTING
