"""`schema-compat proxy --config FILE`: every server of a client config as one MCP server,
through the official SDK's client (ClientSession over stdio_client, both protocol eras).

The upstreams are our test servers (tests/servers/): `proxy_upstream.py` twice, under two
names and with a different `WHO` in each `env` block, so that every tool name clashes and the
`env` tool's answer says which of the two answered; and `modern_server.py`, built with the
SDK, which speaks the 2026-07-28 era alone (it refuses `initialize`). The gateway speaks the
handshake era to the first two, so most tests start `raw_upstream.py`, their SDK-free double
(tests/test_proxy_upstreams.py holds it to the SDK's answers) in their place; the tests of
the 2026-07-28 client start the SDK's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from schema_compat import check

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from client_sessions import Body, proxy_session, result_text
from launch import PY, REPO_ROOT, SERVERS, example_over, serving

SDK_UPSTREAM = SERVERS / "proxy_upstream.py"
UPSTREAM = SERVERS / "raw_upstream.py"
MODERN = SERVERS / "modern_server.py"
UPSTREAM_TOOLS = ["slow", "env", "grow", "die", "add"]


def _entry(script: Path, **env: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": PY, "args": [str(script)]}
    if env:
        entry["env"] = env
    return entry


def _config(tmp_path: Path, servers: dict[str, Any]) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def _clashing(tmp_path: Path, upstream: Path) -> Path:
    return _config(tmp_path, {"a": _entry(upstream, WHO="a"), "b": _entry(upstream, WHO="b"),
                              "modern": _entry(MODERN)})


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return _clashing(tmp_path, UPSTREAM)


@pytest.fixture
def sdk_config(tmp_path: Path) -> Path:
    """`config` with the SDK's upstreams."""
    return _clashing(tmp_path, SDK_UPSTREAM)


def _session(config: Path, body: Body, *options: str, era: str = "legacy",
             log: Path | None = None, notes: list[str] | None = None) -> Any:
    """The SDK's client starts `schema-compat proxy --config CONFIG OPTIONS [--log LOG]`,
    opens its session in `era`, runs `body` (client_sessions.proxy_session)."""
    args = ["--config", str(config), *options, *(["--log", str(log)] if log is not None else [])]
    return proxy_session(args, body, era=era, notes=notes)


def _who(result: Any) -> Any:
    return json.loads(result_text(result))["WHO"]


def _log_lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("era", ["legacy", "auto"])
def test_every_servers_tools_are_listed_and_each_call_reaches_its_own_server(
        tmp_path: Path, era: str) -> None:
    """The second server's tools clash with the first's: they are listed as `b_*` and a
    call to `b_env` reaches b (its WHO), `env` reaches a; the 2026-07-28-only server is
    served too; `b_add`'s text integers are repaired against b's own schema. The SDK's
    upstreams for the 2026-07-28 client, their double for the other."""
    config = _clashing(tmp_path, SDK_UPSTREAM if era == "auto" else UPSTREAM)
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        listed = (await session.list_tools()).tools
        return (listed, await session.call_tool("env", {"names": ["WHO"]}),
                await session.call_tool("b_env", {"names": ["WHO"]}),
                await session.call_tool("echo", {"text": "from modern"}),
                await session.call_tool("b_add", {"a": "2", "b": 3, "more": ["4"]}))

    listed, env_a, env_b, echo, added = _session(config, body, era=era, log=log)
    assert [t.name for t in listed] == [*UPSTREAM_TOOLS, *(f"b_{t}" for t in UPSTREAM_TOOLS),
                                        "search_notes", "schedule", "echo"]
    # schemas transformed for the provider (gemini, the default): nothing left it refuses
    report = check([{"name": t.name, "description": t.description,
                     "inputSchema": t.input_schema} for t in listed], "gemini")
    assert [(r.tool.name, f.code) for r in report.results for f in r.findings
            if f.severity == "error"] == []
    assert (_who(env_a), _who(env_b)) == ("a", "b")
    assert result_text(echo) == "from modern"
    assert not added.is_error and result_text(added) == "9"
    lines = _log_lines(log)
    assert "schema-compat proxy: tools/call b_add: sent to b as 'add'" in lines
    assert 'schema-compat proxy: b: tools/call add: repaired $.a: "2" → 2 (integer)' in lines
    assert "schema-compat proxy: modern: 3 tools (stateless era, 2026-07-28)" in lines


def test_list_changed_is_passed_on_and_the_listing_made_anew(config: Path) -> None:
    """b's `grow` adds `extra_1` and sends list_changed: the client is told, its next
    listing has the tool (no clash: its own name), and a call to it reaches b."""
    notes: list[str] = []

    async def body(session: ClientSession) -> Any:
        before = [t.name for t in (await session.list_tools()).tools]
        added = result_text(await session.call_tool("b_grow", {}))
        with anyio.fail_after(10):
            while "notifications/tools/list_changed" not in notes:
                await anyio.sleep(0.02)
        after = [t.name for t in (await session.list_tools()).tools]
        return before, added, after, result_text(await session.call_tool("extra_1", {"value": "5"}))

    before, added, after, called = _session(config, body, notes=notes)
    assert added == "extra_1"
    assert "extra_1" not in before
    assert after == [*before[:10], "extra_1", *before[10:]]  # b's tools, then modern's
    assert called == "extra_1:5"
    assert notes.count("notifications/tools/list_changed") == 1


def test_a_broken_upstream_is_reported_with_its_name_while_the_others_serve(
        tmp_path: Path) -> None:
    config = _config(tmp_path, {
        "crashes": _entry(SERVERS / "crash_server.py"),
        "missing": {"command": "no-such-mcp-server-command"},
        "good": _entry(UPSTREAM, WHO="good"),
        "remote": {"url": "http://127.0.0.1:9/mcp"},
        "prompted": {"command": "${input:token}"},
    })
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        return ([t.name for t in (await session.list_tools()).tools],
                _who(await session.call_tool("env", {"names": ["WHO"]})))

    names, who = _session(config, body, log=log)
    assert (names, who) == (UPSTREAM_TOOLS, "good")
    lines = _log_lines(log)
    assert "schema-compat proxy: crashes: not served: it exited with exit code 3" in lines
    # the server's own stderr, in the log after its name
    assert "[crashes] Error: API_TOKEN is not set" in lines
    assert ("schema-compat proxy: missing: not served: command not found: "
            "no-such-mcp-server-command (install it, or give its full path)") in lines
    assert ("schema-compat proxy: remote: not served: it cannot be reached: connection "
            "refused at 127.0.0.1:9") in lines
    assert any(line.startswith("schema-compat proxy: prompted: not served: command needs "
                               "${input:token}") for line in lines)


def test_an_upstream_that_exits_mid_session_answers_errors_while_the_others_serve(
        tmp_path: Path) -> None:
    """`b_die` ends b: that call and every later one of b's tools is an error naming b, a
    still answers, and the log says what happened to b once."""
    config = _config(tmp_path, {"a": _entry(UPSTREAM, WHO="a"), "b": _entry(UPSTREAM, WHO="b")})
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        errors = []
        for name in ("b_die", "b_env"):
            with pytest.raises(MCPError) as caught:
                await session.call_tool(name, {"names": ["WHO"]} if name == "b_env" else {})
            errors.append(caught.value.error.message)
        return errors, _who(await session.call_tool("env", {"names": ["WHO"]}))

    errors, who = _session(config, body, log=log)
    assert errors == ["schema-compat proxy: b: it exited with exit code 3"] * 2
    assert who == "a"
    assert _log_lines(log).count("schema-compat proxy: b: it exited with exit code 3; its "
                                 "tools answer with an error from now on") == 1


def test_the_failures_go_to_stderr_without_log(tmp_path: Path) -> None:
    config = _config(tmp_path, {"crashes": _entry(SERVERS / "crash_server.py"),
                                "good": _entry(UPSTREAM)})
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"}}},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    proc = subprocess.Popen([PY, "-m", "schema_compat", "proxy", "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    for request in requests:
        proc.stdin.write(json.dumps(request) + "\n")
    proc.stdin.flush()
    answers = [json.loads(proc.stdout.readline()) for _ in requests]
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert answers[0]["result"]["capabilities"] == {"tools": {"listChanged": True}}
    assert answers[0]["result"]["protocolVersion"] == "2025-06-18"
    assert [t["name"] for t in answers[1]["result"]["tools"]] == UPSTREAM_TOOLS
    assert "schema-compat proxy: crashes: not served: it exited with exit code 3" in \
        err.splitlines()


def test_name_selects_servers(config: Path) -> None:
    async def body(session: ClientSession) -> Any:
        return [t.name for t in (await session.list_tools()).tools]

    assert _session(config, body, "--name", "modern", "--name", "b") == \
        [*UPSTREAM_TOOLS, "search_notes", "schedule", "echo"]  # b's alone: nothing clashes


def test_an_unknown_name_is_a_one_line_error_listing_the_servers(config: Path) -> None:
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--config", str(config),
                           "--name", "a", "--name", "nope"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=REPO_ROOT, timeout=30)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"schema-compat: error: {config}: no server named nope (servers here: a, b, modern)"]


@pytest.mark.parametrize(("args", "message"), [
    (["--url", "http://127.0.0.1:9/mcp"], "--config serves the servers of a client config"),
    (["--", "python", "x.py"], "--config serves the servers of a client config"),
    (["--name-prefix", "nope"], "unknown --name-prefix 'nope'"),
    (["--client", "emacs"], "unknown --client 'emacs'"),
])
def test_options_that_do_not_go_with_config(config: Path, args: list[str],
                                            message: str) -> None:
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--config", str(config),
                           *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          cwd=REPO_ROOT, timeout=30)
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(f"schema-compat: error: {message}")


def test_client_without_config_is_an_error() -> None:
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--client", "cursor", "--", PY,
                           str(UPSTREAM)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=REPO_ROOT, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "schema-compat: error: --client apply to --config only (add --config FILE)"]


def test_gateway_options_without_config_are_an_error() -> None:
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--name", "a", "--", PY,
                           str(UPSTREAM)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=REPO_ROOT, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "schema-compat: error: --name apply to --config only (add --config FILE)"]


def test_requests_other_than_tools_get_a_method_not_found_error(config: Path) -> None:
    async def body(session: ClientSession) -> Any:
        await session.send_ping()
        with pytest.raises(MCPError) as caught:
            await session.list_resources()
        return caught.value.error

    error = _session(config, body, "--name", "a")
    assert error.code == -32601
    assert "resources/list is not served" in error.message


def test_an_unknown_tool_is_an_error(config: Path) -> None:
    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as caught:
            await session.call_tool("nope", {})
        return caught.value.error

    error = _session(config, body, "--name", "a")
    assert (error.code, error.message) == (-32602, "Unknown tool: nope")


def test_name_prefix_and_exclude_tool_reach_the_planner(config: Path) -> None:
    async def body(session: ClientSession) -> Any:
        return [t.name for t in (await session.list_tools()).tools]

    names = _session(config, body, "--name-prefix", "server", "--exclude-tool", "*/die",
                     "--exclude-tool", "modern/*")
    assert names == [f"{s}_{t}" for s in "ab" for t in UPSTREAM_TOOLS if t != "die"]


def test_a_client_served_gets_names_within_its_limits(config: Path, tmp_path: Path) -> None:
    """`--client claude-code`: the tools are planned as Claude Code names them
    (`mcp__server__tool`, at most 64 characters with the prefix), and a call under such a
    name reaches its own server, its text integers repaired there."""
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        names = [t.name for t in (await session.list_tools()).tools]
        return (names, await session.call_tool("mcp__b__env", {"names": ["WHO"]}),
                await session.call_tool("mcp__a__add", {"a": "2", "b": 3, "more": []}))

    names, env_b, added = _session(config, body, "-p", "anthropic", "--client", "claude-code",
                                   "--name", "a", "--name", "b", log=log)
    assert names == [f"mcp__{s}__{t}" for s in "ab" for t in UPSTREAM_TOOLS]
    assert all(len(n) <= 64 for n in names)
    assert _who(env_b) == "b"
    assert not added.is_error and result_text(added) == "5"
    assert any(line.endswith("serving 10 tools for anthropic through claude-code (a 5, b 5)")
               for line in _log_lines(log))


def test_a_listing_past_the_clients_tool_count_is_refused_with_its_source() -> None:
    """The gateway's plan over its upstreams' tools counts Cursor's 40 (Gemini alone takes
    512): 45 tools are refused with the source, not cut silently; 40 are served."""
    from schema_compat.proxy.gateway import Gateway, GatewayOptions

    lines: list[str] = []
    gateway = Gateway(GatewayOptions("gemini", client="cursor"), lines.append)
    for name in ("a", "b"):
        upstream = gateway.add(name)
        upstream.state = "ready"
        upstream.tools = [{"name": f"{name}{i}", "inputSchema": {"type": "object"}}
                          for i in range(25 if name == "a" else 20)]
    gateway.replan()
    assert gateway.request is None and gateway.plan_error is not None
    assert "45 tools in one request; gemini with cursor accepts at most 40" in \
        gateway.plan_error
    assert "bun913/mcp-testrail#6" in gateway.plan_error
    gateway.upstreams["b"].tools = gateway.upstreams["b"].tools[:15]
    gateway.replan()
    assert gateway.request is not None and len(gateway.listing) == 40


def test_a_name_the_client_refuses_is_served_renamed_and_routed_back() -> None:
    """Gemini takes `files.read`; Copilot CLI refuses the dot: the gateway lists it as
    `files_read` and a call to that name goes to the server under its own name."""
    from schema_compat.proxy.gateway import Gateway, GatewayOptions

    for client, served in ((None, "files.read"), ("copilot-cli", "files_read")):
        gateway = Gateway(GatewayOptions("gemini", client=client), lambda line: None)
        upstream = gateway.add("fs")
        upstream.state = "ready"
        upstream.tools = [{"name": "files.read", "inputSchema": {"type": "object"}}]
        gateway.replan()
        assert [t["name"] for t in gateway.listing] == [served]
        assert gateway.request is not None
        assert gateway.request.route(served) == ("fs", "files.read")


def test_a_2026_client_hears_of_list_changes_on_its_subscription(sdk_config: Path) -> None:
    """The official client in the 2026-07-28 era (`Client`, auto mode: server/discover)
    opens `subscriptions/listen` for tool changes: the gateway acknowledges it, and b's
    `grow` arrives on it as an event, after which the listing has the new tool."""
    async def main() -> Any:
        params = StdioServerParameters(
            command=PY, args=["-m", "schema_compat", "proxy", "--config", str(sdk_config)],
            cwd=str(REPO_ROOT), env=dict(os.environ))
        async with Client(params, mode="auto") as client:
            era = client.protocol_version
            async with client.listen(tools_list_changed=True) as subscription:
                added = result_text(await client.call_tool("b_grow", {}))
                with anyio.fail_after(10):
                    event = await subscription.__anext__()
            names = [t.name for t in (await client.list_tools()).tools]
            return era, added, type(event).__name__, names

    era, added, event, names = anyio.run(main)
    assert (era, added, event) == ("2026-07-28", "extra_1", "ToolsListChanged")
    assert "extra_1" in names


def test_a_request_the_planner_refuses_is_an_error_for_the_listing(config: Path,
                                                                   tmp_path: Path) -> None:
    """A --tool glob that matches no tool is the planner's error: logged, and the client's
    tools/list gets it as a JSON-RPC error (nothing is listed that was not asked for)."""
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        with pytest.raises(MCPError) as caught:
            await session.list_tools()
        return caught.value.error

    error = _session(config, body, "--name", "a", "--tool", "no_such_*", log=log)
    assert (error.code, error.message) == (
        -32603, "schema-compat proxy: no tool matches 'no_such_*'")
    assert "schema-compat proxy: error: no tool matches 'no_such_*'" in _log_lines(log)


def test_http_and_sse_servers_of_the_config_are_served(tmp_path: Path) -> None:
    """The example server over streamable HTTP and over legacy SSE (their tools clash: the
    SSE one's are `old_*`), and the 2026-07-28-only server over HTTP, beside a stdio one:
    each listed, each call sent to its own server and repaired there."""
    notes = tmp_path / "notes.txt"
    notes.write_text("first line\nsecond line\n", encoding="utf-8")
    files = json.dumps([{"path": str(notes), "head": "1"}])  # stringified, head a string
    log = tmp_path / "gateway.log"

    async def body(session: ClientSession) -> Any:
        return ([t.name for t in (await session.list_tools()).tools],
                result_text(await session.call_tool("read_files", {"files": files})),
                result_text(await session.call_tool("old_read_files", {"files": files})),
                result_text(await session.call_tool("echo", {"text": "over http"})),
                _who(await session.call_tool("env", {"names": ["WHO"]})))

    with example_over("http") as http, example_over("sse") as sse, \
            serving(MODERN) as modern:
        config = _config(tmp_path, {"web": {"url": f"{http}/mcp"},
                                    "old": {"type": "sse", "url": f"{sse}/sse"},
                                    "modern": {"url": f"{modern}/mcp"},
                                    "local": _entry(UPSTREAM, WHO="local")})
        names, web, old, echo, who = _session(config, body, log=log)
    assert names == ["read_files", "propose_and_review", "old_read_files",
                     "old_propose_and_review", "search_notes", "schedule", "echo",
                     *UPSTREAM_TOOLS]
    assert web == old == f"== {notes} ==\nfirst line"
    assert (echo, who) == ("over http", "local")
    lines = _log_lines(log)
    for server in ("web", "old"):
        assert f"schema-compat proxy: {server}: tools/call read_files: repaired " \
               "$.files[0].head: \"1\" → 1 (integer)" in lines
    assert "schema-compat proxy: tools/call old_read_files: sent to old as 'read_files'" in lines
    assert "schema-compat proxy: modern: 3 tools (stateless era, 2026-07-28)" in lines


def test_a_client_that_is_gone_at_once_ends_the_gateway(tmp_path: Path) -> None:
    """stdin is /dev/null (a character device asyncio cannot poll): read by a thread, its
    end ends the gateway, with no traceback."""
    config = _config(tmp_path, {"good": _entry(UPSTREAM, WHO="good")})
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--config", str(config)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=30, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_log_that_cannot_be_opened_is_a_one_line_error(tmp_path: Path) -> None:
    config = _config(tmp_path, {"good": _entry(UPSTREAM, WHO="good")})
    log = tmp_path / "no-such-dir" / "gateway.log"
    proc = subprocess.run([PY, "-m", "schema_compat", "proxy", "--config", str(config),
                           "--log", str(log)], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=30, check=False)
    assert proc.returncode == 2
    assert proc.stderr == (f"schema-compat: error: cannot open --log {log}: "
                           "No such file or directory\n")
