"""Malformed JSON-RPC at the proxy, both ways, through a real `schema-compat proxy` process:
each malformed message gets its JSON-RPC error (-32700 not JSON, -32600 not one message the
proxy relays) and costs the valid messages written with it, in the same write, nothing; an
upstream answer too deep to read is an error for the client at once, not at --timeout.

The message logic is unit-tested without processes: `read_message` here, the relay in
test_proxy_relay.py."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from schema_compat.proxy.jsonrpc import (
    INVALID_REQUEST,
    MESSAGE_DEPTH,
    PARSE_ERROR,
    Refused,
    read_message,
)

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, REPO_ROOT, SERVERS

DEEP_UPSTREAM = SERVERS / "deep_answer_server.py"
UPSTREAM = SERVERS / "proxy_upstream.py"
INTERNAL_ERROR = -32603


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _call(rid: int, arguments: str, tool: str = "deep") -> bytes:
    return (f'{{"jsonrpc":"2.0","id":{rid},"method":"tools/call","params":{{"name":"{tool}",'
            f'"arguments":{arguments}}}}}').encode()


def _ping(rid: int) -> bytes:
    return b'{"jsonrpc":"2.0","id":%d,"method":"ping"}' % rid


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}}).encode()

# (a malformed line, the error code it gets, the id the error carries)
MALFORMED: list[tuple[bytes, int, Any]] = [
    (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', INVALID_REQUEST, None),
    (b'{"jsonrpc":"2.0","id":[1],"method":"ping"}', INVALID_REQUEST, None),
    (b'{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":' + _nested(2000).encode()
     + b"}}", INVALID_REQUEST, "d"),
    (_call(11, '{"a":' + _nested(1500) + "}"), INVALID_REQUEST, 11),
    (_call(12, '{"a":' + _nested(MESSAGE_DEPTH) + "}"), INVALID_REQUEST, 12),
    (_call(13, '{"path":"\\ud800"}'), INVALID_REQUEST, 13),
    (b'[{"jsonrpc":"2.0","id":14,"method":"ping"}]', INVALID_REQUEST, None),
    (b'{"jsonrpc":"2.0","id":15,"method":', PARSE_ERROR, None),
    (b"\xff\xfe not UTF-8", PARSE_ERROR, None),
    (b'{"jsonrpc":"2.0","id":16,"method":"ping","params":{"x":NaN}}', PARSE_ERROR, None),
]


def _exchange(args: list[str], payload: bytes, answers: int, *, first: bytes = b""
              ) -> list[dict[str, Any]]:
    """Write `first` to `schema-compat proxy ARGS` and wait for its answer, then `payload`
    in one write; read `answers` lines in all (at most 60 s: a loaded machine is slow to
    start it), close its stdin."""
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    data = b""
    deadline = time.monotonic() + 60
    for chunk, until in ((first, 1 if first else 0), (payload, answers)):
        proc.stdin.write(chunk)
        proc.stdin.flush()
        while data.count(b"\n") < until and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
                read = os.read(proc.stdout.fileno(), 1 << 20)
                if not read:
                    break
                data += read
    proc.stdin.close()
    assert proc.wait(timeout=15) == 0
    data += proc.stdout.read()
    proc.stdout.close()
    return [json.loads(line) for line in data.splitlines()]


def _error(msg: dict[str, Any]) -> tuple[Any, int]:
    return msg["id"], msg["error"]["code"]


def test_each_malformed_message_is_refused_and_the_valid_one_after_it_answered() -> None:
    """Each malformed line is followed by a valid ping, all in ONE write (what once lost
    every ping after the first bad id: `unhashable type: 'dict'`)."""
    payload = INIT + b"\n" + b"".join(
        bad + b"\n" + _ping(100 + i) + b"\n" for i, (bad, _, _) in enumerate(MALFORMED))
    out = _exchange(["--timeout", "30", "--", PY, str(DEEP_UPSTREAM)], payload,
                    1 + 2 * len(MALFORMED))
    answered = {m["id"]: m for m in out}
    assert answered[1]["result"]["serverInfo"]["name"] == "deep"
    for i in range(len(MALFORMED)):
        assert answered[100 + i]["result"] == {}, f"the ping after line {i} was not answered"
    errors = [_error(m) for m in out if "error" in m]
    assert errors == [(rid, code) for _, code, rid in MALFORMED]  # in the order written
    surrogate = next(m for m in out if m["id"] == 13)
    assert "lone surrogate" in surrogate["error"]["message"]


def test_an_upstream_answer_it_cannot_read_is_an_error_at_once() -> None:
    """The upstream answers the call 10,000 levels deep: the client hears so under the
    call's id (before: nothing, then -32001 at --timeout), and the session goes on."""
    payload = b"\n".join([INIT, _call(2, "{}"), _ping(3), _call(4, "{}", "nan")]) + b"\n"
    out = _exchange(["--timeout", "30", "--", PY, str(DEEP_UPSTREAM)], payload, 4)
    answered = {m["id"]: m for m in out}
    assert _error(answered[2]) == (2, INTERNAL_ERROR)
    assert answered[2]["error"]["message"] == (
        "schema-compat proxy: the upstream server's answer to tools/call cannot be relayed: "
        f"nested deeper than {MESSAGE_DEPTH} levels")
    assert answered[3]["result"] == {}
    # NaN, which the client's JSON reader would refuse (before: passed on as it came)
    assert _error(answered[4]) == (4, INTERNAL_ERROR)
    assert answered[4]["error"]["message"].endswith(
        "cannot be relayed: not readable JSON (NaN is not JSON)")


def test_a_malformed_answer_from_the_client_fails_the_upstreams_request() -> None:
    """The upstream asks the client for its roots; the client's answer holds a lone
    surrogate: the client hears why it was refused, and the upstream gets an error under
    its request's id instead of waiting for ever."""
    answer = b'{"jsonrpc":"2.0","id":"up-1","result":{"roots":[{"uri":"file:///\\udc00"}]}}'
    proc_out = _exchange(["--", PY, str(DEEP_UPSTREAM)], answer + b"\n", 5,
                         first=INIT + b"\n" + b'{"jsonrpc":"2.0","id":"ask","method":"ping"}\n')
    assert {"jsonrpc": "2.0", "id": "up-1", "method": "roots/list"} in proc_out
    refused = next(m for m in proc_out if "error" in m)
    assert _error(refused) == (None, INVALID_REQUEST)
    [told] = [m["params"]["data"] for m in proc_out if m.get("method") == "notifications/message"]
    assert _error(told) == ("up-1", INTERNAL_ERROR)
    assert "lone surrogate" in told["error"]["message"]


def test_a_url_upstreams_proxy_refuses_malformed_messages_too() -> None:
    """`proxy --url`: the client's lines are read as the stdio proxy reads them (the SDK's
    reader dropped a malformed message unanswered, and made a request whose id is null a
    notification, which nobody answers)."""
    from launch import example_over

    lines = [MALFORMED[0][0], _ping(100), b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
             _ping(101), MALFORMED[6][0], MALFORMED[7][0], _ping(102)]
    with example_over("http") as base:  # its session opens with the answer to initialize
        out = _exchange(["--timeout", "30", "--url", base + "/mcp"],
                        b"\n".join(lines) + b"\n", 8, first=INIT + b"\n")
    answered = {m["id"]: m for m in out}
    assert answered[1]["result"]["serverInfo"]["name"] == "fs-mcp-repro"
    assert [answered[rid]["result"] for rid in (100, 101, 102)] == [{}, {}, {}]
    assert [_error(m) for m in out if "error" in m] == [
        (None, INVALID_REQUEST), (None, INVALID_REQUEST), (None, INVALID_REQUEST),
        (None, PARSE_ERROR)]


def _config(tmp_path: Path, script: Path) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"s": {"command": PY, "args": [str(script)]}}}))
    return path


def test_the_gateway_refuses_malformed_messages_and_answers_the_rest(tmp_path: Path) -> None:
    """`proxy --config`: a call whose arguments hold a lone surrogate gets -32600 under its
    id (before: a traceback, then a false "did not answer within 10s"), and the malformed
    lines cost the pings and the valid call written with them nothing."""
    lines = [INIT, MALFORMED[0][0], _ping(100), _call(13, '{"path":"\\ud800"}'), _ping(101),
             MALFORMED[2][0], _call(4, "{}"), MALFORMED[6][0], _ping(102)]
    out = _exchange(["--timeout", "10", "--config", str(_config(tmp_path, DEEP_UPSTREAM))],
                    b"\n".join(lines) + b"\n", 9)
    answered = {m["id"]: m for m in out}
    assert [answered[rid]["result"] for rid in (100, 101, 102)] == [{}, {}, {}]
    assert [_error(m) for m in out if "error" in m and m["id"] != 4] == [
        (None, INVALID_REQUEST), (13, INVALID_REQUEST), ("d", INVALID_REQUEST),
        (None, INVALID_REQUEST)]
    # the valid call reached the upstream, whose answer is too deep: an error, at once
    assert _error(answered[4]) == (4, INTERNAL_ERROR)
    assert "cannot be relayed" in answered[4]["error"]["message"]


# --- read_message, without processes --------------------------------------------------------


@pytest.mark.parametrize(("line", "code", "rid"), MALFORMED)
def test_read_message_refuses(line: bytes, code: int, rid: Any) -> None:
    refused = read_message(line)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.error()["id"]) == (code, rid)
    json.dumps(refused.error(), ensure_ascii=False).encode()  # writable as UTF-8


@pytest.mark.parametrize("line", [
    _call(1, '{"a":' + _nested(MESSAGE_DEPTH - 8) + "}"),  # deep, within the bound
    _call(2, '{"s":"\\ud83d\\ude00 \\\\ud800"}'),  # a surrogate pair; an escaped backslash
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"unreadable"}}',
    b'{"jsonrpc":"2.0","id":"a","result":{}}',
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
])
def test_read_message_accepts(line: bytes) -> None:
    assert read_message(line) == json.loads(line)


@pytest.mark.parametrize(("line", "why"), [
    (b'{"jsonrpc":"1.0","id":1,"method":"ping"}', '"jsonrpc" is not "2.0"'),
    (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', "the id is a JSON boolean"),
    (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', "the id is a JSON null"),  # MCP's rule
    (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', "the id is a JSON number"),
    (b'{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}', "the params are a JSON array"),
    (b'{"jsonrpc":"2.0","id":1,"method":3}', "the method is a JSON number"),
    (b'{"jsonrpc":"2.0","id":1,"method":"x","params":"p"}', "the params are a JSON string"),
    (b'{"jsonrpc":"2.0","id":1}', "exactly one of result and error"),
    (b'{"jsonrpc":"2.0"}', "no method, no id"),
    (b'"2.0"', "a JSON string, not a JSON-RPC message"),
    (b"[]", "batches are not supported"),
])
def test_read_message_says_why(line: bytes, why: str) -> None:
    refused = read_message(line)
    assert isinstance(refused, Refused)
    assert refused.code == INVALID_REQUEST
    assert why in refused.reason


def test_an_answer_it_cannot_parse_keeps_its_id_and_kind() -> None:
    """Past what json can parse, the id is still found at the top level (not the "id"
    inside `result`), and the message is known for an answer, not a request."""
    answer = b'{"jsonrpc":"2.0","result":{"id":9,"x":' + _nested(5000).encode() + \
        b'},"id":"r-1"}'
    refused = read_message(answer)
    assert isinstance(refused, Refused)
    assert (refused.rid, refused.answer) == ("r-1", True)
    assert refused.error()["id"] is None  # an answer is never answered under its id
    unreadable = read_message(b'{"jsonrpc":"2.0","id":"r-2","result":{"x":NaN}}')
    assert isinstance(unreadable, Refused)
    assert (unreadable.code, unreadable.rid, unreadable.answer) == (PARSE_ERROR, "r-2", True)
    request = b'{"id":7,"method":"x","jsonrpc":"2.0","params":' + _nested(5000).encode() + b"}"
    refused = read_message(request)
    assert isinstance(refused, Refused)
    assert (refused.rid, refused.answer) == (7, False)


def test_the_id_search_is_linear() -> None:
    """A text too deep to parse whose string never closes, full of escaped quotes: the
    search for its id reads it once (it started again at every quote: for this one, over
    ten minutes; the test's own timeout is two)."""
    line = b'{"id":1,"x":' + b"[" * 1000 + b'"' + b'\\"' * 200_000
    refused = read_message(line)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.rid) == (INVALID_REQUEST, 1)

    # the same verdict however much stack the caller has left (json meets the unclosed
    # string first on a short stack, the depth first on a long one)
    def nested(levels: int) -> Any:
        return read_message(line) if levels == 0 else nested(levels - 1)

    for levels in (0, 300, 600):
        again = nested(levels)
        assert isinstance(again, Refused) and (again.code, again.rid) == (INVALID_REQUEST, 1)


def test_a_blank_line_is_nothing() -> None:
    assert read_message(b"  \r") is None


def test_the_relay_takes_every_message_read_message_lets_through() -> None:
    """Valid messages whose params are odd (an object as the cancelled request's id or as
    a tool's name, a progress token that is a list) are relayed, not a TypeError."""
    from schema_compat.proxy.relay import Relay

    relay = Relay("gemini", 10, lambda line: None)
    relay.from_client({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    odd = [{"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": {"a": 1}}},
           {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}]
    for msg in odd:
        assert read_message(json.dumps(msg).encode()) == msg
        assert relay.from_client(msg).to_upstream == [msg]
    assert list(relay.pending) == [1]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": {"a": 1}}}
    assert not relay.needs_listing(call)
    progress = {"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": [1]}}
    assert relay.from_upstream(progress).to_client == [progress]
