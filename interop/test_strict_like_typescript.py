"""Our test servers are as strict as a real TypeScript-SDK server.

tests/test_strict_servers.py holds our raw test servers to refusing the messages the
TypeScript SDK refuses; this runs the same messages against a real TypeScript server over
stdio and over streamable HTTP, so that the claim rests on the real thing, not on our reading
of it. Should a later SDK accept or refuse more, this test says which message changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from support import NODE_BIN, REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "tests" / "servers"))

from launch import free_port
from strict_jsonrpc import PARSE_ERROR_BODY, refusal
from test_strict_servers import INITIALIZE, LIST, REFUSED


def _memory_server() -> list[str]:
    exe = NODE_BIN / "mcp-server-memory"
    if not exe.exists():
        pytest.fail(f"@modelcontextprotocol/server-memory is not installed: {exe} is missing "
                    "(`make interop` installs it)", pytrace=False)
    return [str(exe)]


def _stdio_answers(messages: list[dict[str, Any]], tmp: Path) -> list[Any]:
    """The ids the real server answers, given `messages` one per line, then EOF."""
    text = "".join(json.dumps(m) + "\n" for m in messages)
    env = {**os.environ, "MEMORY_FILE_PATH": str(tmp / "memory.jsonl")}
    proc = subprocess.run(_memory_server(), input=text, capture_output=True, text=True,
                          timeout=60, env=env, check=False)
    return [json.loads(line).get("id") for line in proc.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_real_typescript_server_drops_what_our_servers_drop(case: str, tmp_path: Path) -> None:
    assert refusal(REFUSED[case]) is not None  # our servers refuse it
    assert _stdio_answers([INITIALIZE, REFUSED[case], LIST], tmp_path) == [1, 2]


def test_real_typescript_server_answers_what_our_servers_answer(tmp_path: Path) -> None:
    with_cursor = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}
    for message in (INITIALIZE, LIST, with_cursor):
        assert refusal(message) is None
    assert _stdio_answers([INITIALIZE, LIST, with_cursor], tmp_path) == [1, 2, 3]


def _post(url: str, message: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=json.dumps(message).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Accept": "application/json, text/event-stream"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_real_typescript_http_server_answers_400_as_our_servers_do() -> None:
    exe = NODE_BIN / "mcp-server-everything"
    if not exe.exists():
        pytest.fail(f"@modelcontextprotocol/server-everything is not installed: {exe}",
                    pytrace=False)
    port = free_port()
    proc = subprocess.Popen([str(exe), "streamableHttp"], env={**os.environ, "PORT": str(port)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _ = _post(url, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline:
                    pytest.fail("server-everything (streamableHttp) did not start within 30 s",
                                pytrace=False)
                time.sleep(0.2)
        for case in sorted(REFUSED):
            status, body = _post(url, REFUSED[case])
            assert (case, status, body["error"]) == (case, 400, PARSE_ERROR_BODY["error"])
    finally:
        proc.kill()
        proc.wait(timeout=10)
