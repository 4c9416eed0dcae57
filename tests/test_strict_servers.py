"""Our raw test servers refuse what the TypeScript MCP SDK refuses.

A client bug that only real servers catch (a `tools/list` sent with `"params": null` made
every TypeScript server ignore our live checks) must fail these fast tests too: over stdio the
message is dropped without an answer, over HTTP it gets 400 and a JSON-RPC parse error, as
the TypeScript SDK does. interop/ holds the same messages against real TypeScript servers.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, SERVERS, serving
from strict_jsonrpc import PARSE_ERROR_BODY

# Each is refused by the TypeScript SDK's JSON-RPC message schema.
REFUSED: dict[str, dict[str, Any]] = {
    "null params": {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": None},
    "array params": {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": []},
    "no jsonrpc": {"id": 7, "method": "tools/list", "params": {}},
    "jsonrpc 1.0": {"jsonrpc": "1.0", "id": 7, "method": "tools/list"},
    "fractional id": {"jsonrpc": "2.0", "id": 7.5, "method": "tools/list"},
    "null id": {"jsonrpc": "2.0", "id": None, "method": "tools/list"},
    "object id": {"jsonrpc": "2.0", "id": {"n": 7}, "method": "tools/list"},
}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}  # params omitted: accepted


def _stdio_answers(messages: list[dict[str, Any]]) -> list[Any]:
    """Every JSON-RPC answer (by id) the paged stdio server gives to `messages`."""
    text = "".join(json.dumps(m) + "\n" for m in messages)
    proc = subprocess.run([PY, str(SERVERS / "paged_server.py")], input=text,
                          capture_output=True, text=True, timeout=30, check=True)
    answers = []
    for line in proc.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue  # the server's deliberate stray banner line
        if "method" not in message:
            answers.append(message["id"])
    return answers


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_stdio_server_drops_what_typescript_drops(case: str) -> None:
    answers = _stdio_answers([INITIALIZE, REFUSED[case], LIST])
    assert answers == [1, 2]  # the refused request (id 7) got no answer at all


def test_stdio_server_answers_params_omitted_or_object() -> None:
    with_cursor = {"jsonrpc": "2.0", "id": 3, "method": "tools/list",
                   "params": {"cursor": "page-1"}}
    assert _stdio_answers([INITIALIZE, LIST, with_cursor]) == [1, 2, 3]


def _post(url: str, message: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=json.dumps(message).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Accept": "application/json, text/event-stream"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def http_url() -> Any:
    with serving(SERVERS / "plain_http_server.py") as base:
        yield f"{base}/mcp"


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_http_server_answers_400_as_typescript_does(http_url: str, case: str) -> None:
    assert _post(http_url, REFUSED[case]) == (400, PARSE_ERROR_BODY)


def test_http_server_answers_a_valid_listing(http_url: str) -> None:
    status, body = _post(http_url, LIST)
    assert status == 200
    assert [t["name"] for t in body["result"]["tools"]] == ["echo"]
