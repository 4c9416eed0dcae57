"""The proxy against upstreams built with the official SDK (or, for the proxy's own logic, their
SDK-free double, checked here to answer as they do), through the SDK's own client:
the environment the upstream runs in, listings transformed once and again after
`notifications/tools/list_changed`, concurrent calls, an upstream that dies mid-call, the
2026-07-28 era, and the proxy's exit when its client goes away.

These are behaviour tests: where time matters the bound is several times what the behaviour
needs and far below what its absence would take (the figures are the benchmark's,
benchmarks/proxy.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from schema_compat import check
from schema_compat.profiles import PROFILES

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from client_sessions import Body, proxy_session, result_text
from launch import PY, REPO_ROOT, SERVERS

# The proxy's own logic is tested against UPSTREAM, an SDK-free double of SDK_UPSTREAM (the
# SDK's import is most of a second of CPU per upstream started); the first test below holds
# the double to what the real one says, and the strict repair is tested on the real one.
SDK_UPSTREAM = SERVERS / "proxy_upstream.py"
UPSTREAM = SERVERS / "raw_upstream.py"
MODERN = SERVERS / "modern_server.py"


def _session(upstream: Path, body: Body, *options: str, env: dict[str, str] | None = None,
             era: str = "legacy") -> Any:
    """The SDK's client starts `schema-compat proxy OPTIONS -- python UPSTREAM` (in `env`
    on top of this process's, as a client config's env block does), negotiates, runs
    `body` (client_sessions.proxy_session)."""
    return proxy_session([*options, "--", PY, str(upstream)], body, env=env, era=era)


def _changes(log: Path) -> list[str]:
    """The tools/list lines of the proxy's log: one per tool each time a listing is
    transformed."""
    return [line.split("schema-compat proxy: tools/list ", 1)[1].split(":", 1)[0]
            for line in log.read_text(encoding="utf-8").splitlines()
            if line.startswith("schema-compat proxy: tools/list ") and " change(s) " in line]


def _conversation(script: Path) -> list[Any]:
    """What `script` answers, one message at a time, to a handshake-era session that lists,
    calls each tool (refused arguments included), grows and lists again, with WHO=a set; a
    validation error's pointer to pydantic's documentation (its version's) left out."""
    init = {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}
    sent: list[tuple[str, Any]] = [
        ("initialize", init), ("tools/list", None), ("ping", None),
        ("tools/call", {"name": "env", "arguments": {"names": ["WHO", "NOPE"]}}),
        ("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3, "more": [4]}}),
        ("tools/call", {"name": "add", "arguments": {"a": "2", "b": 3}}),
        ("tools/call", {"name": "add", "arguments": {"a": 1}}),
        ("tools/call", {"name": "slow", "arguments": {"seconds": 0.01}}),
        ("tools/call", {"name": "nope", "arguments": {}}),
        ("resources/list", None), ("prompts/list", None), ("server/discover", None),
        ("tools/call", {"name": "grow", "arguments": {}}), ("tools/list", None),
        ("tools/call", {"name": "extra_1", "arguments": {"value": "5"}})]
    proc = subprocess.Popen([PY, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            env={"PATH": os.environ["PATH"], "WHO": "a"})
    assert proc.stdin is not None and proc.stdout is not None
    heard: list[Any] = []
    try:
        for rid, (method, params) in enumerate(sent, 1):
            message = {"jsonrpc": "2.0", "id": rid, "method": method,
                       **({"params": params} if params is not None else {})}
            proc.stdin.write(json.dumps(message) + "\n")
            if method == "initialize":
                proc.stdin.write('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
            proc.stdin.flush()
            while True:
                answer = json.loads(proc.stdout.readline())
                for block in answer.get("result", {}).get("content", []):
                    block["text"] = block["text"].split("\n    For further information")[0]
                heard.append(answer)
                if answer.get("id") == rid:
                    break
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdin.close()
        proc.stdout.close()
    return heard


def test_the_sdk_free_upstream_answers_as_the_sdk_one_does() -> None:
    assert _conversation(UPSTREAM) == _conversation(SDK_UPSTREAM)


# --- the environment ---------------------------------------------------------------------


def test_the_upstream_runs_in_the_proxys_environment_with_env_on_top() -> None:
    """A variable set only for the proxy (by the client, as a config's env block does)
    reaches the upstream; --env overrides it; nothing of the user's environment is lost."""
    names = ["ONLY_FOR_THE_PROXY", "OVERRIDDEN", "ONLY_BY_FLAG", "PATH"]

    async def body(session: ClientSession) -> Any:
        return json.loads(result_text(await session.call_tool("env", {"names": names})))

    seen = _session(UPSTREAM, body, "--env", "OVERRIDDEN=by --env", "--env", "ONLY_BY_FLAG=1",
                    env={"ONLY_FOR_THE_PROXY": "from the client", "OVERRIDDEN": "client"})
    assert seen == {"ONLY_FOR_THE_PROXY": "from the client", "OVERRIDDEN": "by --env",
                    "ONLY_BY_FLAG": "1", "PATH": os.environ["PATH"]}


def test_the_environment_is_the_same_when_typer_reads_the_command_line() -> None:
    """`-pgemini` is left to typer (the short cut reads only what it is sure of): the
    upstream's environment is built by the same rule."""
    async def body(session: ClientSession) -> Any:
        return json.loads(result_text(await session.call_tool("env", {"names": ["A", "B"]})))

    assert _session(UPSTREAM, body, "-pgemini", "--env", "B=flag",
                    env={"A": "client", "B": "client"}) == {"A": "client", "B": "flag"}


# --- listings ------------------------------------------------------------------------------


def test_a_listing_is_transformed_and_logged_once(tmp_path: Path) -> None:
    log = tmp_path / "proxy.log"

    async def body(session: ClientSession) -> Any:
        return [[(t.name, t.input_schema) for t in (await session.list_tools()).tools]
                for _ in range(3)]

    first, second, third = _session(UPSTREAM, body, "--log", str(log))
    assert first == second == third
    # add's `more: list[int] | None` is an anyOf with null: the one change for Gemini
    assert dict(first)["add"]["properties"]["more"] == {
        "type": "array", "items": {"type": "integer"}, "default": None, "title": "More",
        "nullable": True}
    assert _changes(log) == ["add"]


def test_a_listing_is_transformed_again_after_list_changed(tmp_path: Path) -> None:
    """`grow` adds a tool and sends notifications/tools/list_changed: the next listing has
    the new tool, transformed, and is logged anew; then it is cached again."""
    log = tmp_path / "proxy.log"

    async def body(session: ClientSession) -> Any:
        before = [t.name for t in (await session.list_tools()).tools]
        added = result_text(await session.call_tool("grow", {}))
        after = {t.name: t.input_schema for t in (await session.list_tools()).tools}
        again = {t.name: t.input_schema for t in (await session.list_tools()).tools}
        called = result_text(await session.call_tool(added, {"value": "7"}))
        return before, added, after, again, called

    before, added, after, again, called = _session(UPSTREAM, body, "--log", str(log))
    assert added == "extra_1"
    assert before == ["slow", "env", "grow", "die", "add"]
    assert list(after) == [*before, "extra_1"]
    assert after == again
    assert after["extra_1"]["properties"]["value"]["nullable"] is True
    assert called == "extra_1:7"  # the new tool's schema is known: "7" was repaired
    assert _changes(log) == ["add", "add", "extra_1"]
    assert 'tools/call extra_1: repaired $.value: "7" → 7 (integer)' in log.read_text()


# --- calls ---------------------------------------------------------------------------------


def test_concurrent_calls_overlap() -> None:
    """Eight calls that each take two seconds, sent at once: serialised they would take 16
    seconds and two at a time eight, overlapping about two; the bound (eight) leaves a loaded
    machine six seconds of overhead."""
    calls, seconds = 8, 2.0

    async def body(session: ClientSession) -> Any:
        results: list[str] = []

        async def one() -> None:
            results.append(result_text(await session.call_tool("slow", {"seconds": seconds})))

        start = time.monotonic()
        async with anyio.create_task_group() as tg:
            for _ in range(calls):
                tg.start_soon(one)
        return time.monotonic() - start, results

    elapsed, results = _session(UPSTREAM, body)
    assert results == [f"slept {seconds}"] * calls
    assert seconds <= elapsed < calls * seconds / 2


def test_a_stringified_call_is_repaired_for_a_strict_upstream() -> None:
    """The upstream refuses "1" for an integer (directly, the call fails); through the proxy
    the arguments are repaired against its own schema first."""
    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        return await session.call_tool("add", {"a": "1", "b": 2, "more": "[3, 4]"})

    result = _session(SDK_UPSTREAM, body)
    assert not result.is_error, result_text(result)
    assert result_text(result) == "10"


def test_an_upstream_that_dies_mid_call_is_an_error_long_before_the_timeout() -> None:
    """The error comes from the upstream's exit: the bound leaves a loaded machine 10 s and is
    still 20 s short of the 30 s timeout the call would otherwise wait for."""
    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        out = []
        for _ in range(2):  # the call it dies in, and one after
            start = time.monotonic()
            with pytest.raises(MCPError) as caught:
                await session.call_tool("die", {})
            out.append((caught.value.error.message, time.monotonic() - start))
        return out

    for message, elapsed in _session(UPSTREAM, body, "--timeout", "30"):
        assert message == "schema-compat proxy: the upstream server exited with exit code 3"
        assert elapsed < 10


# --- the 2026-07-28 era --------------------------------------------------------------------


def test_a_modern_client_and_upstream_through_the_proxy(tmp_path: Path) -> None:
    """The SDK's client in auto mode against a 2026-07-28-only server: `server/discover`
    passes through, the era is modern, a call before any listing makes the proxy list the
    tools itself (stamped with the client's envelope, which the server insists on), the
    call is repaired, and the client's own listing is that same transformed listing."""
    log = tmp_path / "proxy.log"

    async def body(session: ClientSession) -> Any:
        version = session.protocol_version
        called = result_text(await session.call_tool("search_notes", {"query": "q", "limit": "5"}))
        listed = [{"name": t.name, "description": t.description, "inputSchema": t.input_schema,
                   "_meta": t.meta} for t in (await session.list_tools()).tools]
        return version, called, listed

    version, called, listed = _session(MODERN, body, "--log", str(log), era="auto")
    assert version == "2026-07-28"
    assert called == "q:5:None"
    assert [t["name"] for t in listed] == ["search_notes", "schedule", "echo"]
    report = check(listed, "gemini")
    assert {r.tool.name: [f.code for f in r.findings] for r in report.results} == {
        "search_notes": [], "schedule": [], "echo": []}
    assert _changes(log) == ["search_notes", "schedule"]  # listed once, by the proxy
    assert 'tools/call search_notes: repaired $.limit: "5" → 5 (integer)' in log.read_text()


def test_a_modern_client_gets_the_handshake_era_from_a_legacy_only_upstream() -> None:
    """The SDK's auto mode falls back to `initialize` when `server/discover` is refused: the
    proxy relays both, and the handshake era's calls are repaired as before."""
    async def body(session: ClientSession) -> Any:
        return session.protocol_version, result_text(await session.call_tool(
            "read_files", {"files": json.dumps([{"path": str(REPO_ROOT / "README.md"),
                                                  "head": "1"}])}))

    legacy = SERVERS / "legacy_only_upstream.py"
    version, text = _session(legacy, body, era="auto")
    assert version == "2025-11-25"
    assert text.startswith(f"== {REPO_ROOT / 'README.md'} ==\n")
    assert len(text.splitlines()) == 2


def test_a_modern_client_and_upstream_over_streamable_http(tmp_path: Path) -> None:
    """Over HTTP the 2026-07-28 server routes each request by its headers: the proxy sets
    them from the request's envelope (version, method, tool name), as the SDK's client
    does."""
    from launch import serving

    log = tmp_path / "proxy.log"

    async def body(session: ClientSession) -> Any:
        called = result_text(await session.call_tool("search_notes", {"query": "q", "limit": "5"}))
        return session.protocol_version, called

    with serving(MODERN) as base:
        version, called = proxy_session(["--log", str(log), "--url", base + "/mcp"], body,
                                        era="auto")
    assert (version, called) == ("2026-07-28", "q:5:None")
    assert 'tools/call search_notes: repaired $.limit: "5" → 5 (integer)' in log.read_text()


# --- closing -------------------------------------------------------------------------------


def test_an_upstream_that_ignores_eof_and_sigterm_is_stopped_with_the_proxy(tmp_path: Path
                                                                          ) -> None:
    pidfile = tmp_path / "pid"
    stubborn = ("import os, signal, sys, time\n"
                "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
                "sys.stdin.read()\n"
                "time.sleep(60)\n")
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--", PY, "-c", stubborn],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT)
    assert proc.stdin is not None
    deadline = time.monotonic() + 30
    while not pidfile.exists() or not pidfile.read_text():
        assert time.monotonic() < deadline, "the upstream did not start"
        time.sleep(0.05)
    pid = int(pidfile.read_text())
    proc.stdin.close()
    assert proc.wait(timeout=5) == 0
    deadline = time.monotonic() + 5
    while _alive(pid):
        assert time.monotonic() < deadline, "the upstream outlived the proxy"
        time.sleep(0.05)


def test_sigterm_stops_the_proxy_and_its_upstream() -> None:
    """What a client does when the proxy does not exit by itself: SIGTERM ends the session
    as closing stdin does, the upstream included."""
    import signal

    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--", PY, str(UPSTREAM)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1  # the proxy's loop is running
    [upstream] = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=5) == 0  # its own exit, not the signal's default (-15)
    deadline = time.monotonic() + 5
    while _alive(int(upstream)):
        assert time.monotonic() < deadline, "the upstream outlived the proxy"
        time.sleep(0.05)
    proc.stdin.close()
    proc.stdout.close()


def test_an_unknown_provider_stops_the_started_upstream(tmp_path: Path) -> None:
    """The short cut starts the upstream before it knows the provider is wrong: the upstream
    is stopped, and the error is typer's one line."""
    pidfile = tmp_path / "pid"
    upstream = ("import os, time\n"
                f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
                "time.sleep(60)\n")
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "-p", "nope", "--", PY, "-c",
                           upstream], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=60, check=False)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "schema-compat: error: unknown provider 'nope' (choose one of: "
        + ", ".join(PROFILES) + ")"]
    if pidfile.exists() and pidfile.read_text():  # it got as far as running
        deadline = time.monotonic() + 5
        while _alive(int(pidfile.read_text())):
            assert time.monotonic() < deadline, "the upstream outlived the proxy"
            time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")
