"""The proxy end to end: the official SDK's client session talks to `schema-compat proxy`,
which runs the real example server (stdio, or streamable HTTP or legacy SSE on a free port),
or, where only its listing matters, its listing served without the SDK
(tests/servers/listing_server.py)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from inprocess import cli_in_process
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from schema_compat import check
from schema_compat.profiles import PROFILES

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import EXAMPLE, PY, REPO_ROOT, SERVERS, cli, cmd, example_over

Session = Callable[[ClientSession], Awaitable[Any]]


def _proxy_args(*args: str, upstream: list[str] | None = None) -> list[str]:
    tail = ["--", *upstream] if upstream is not None else []
    return ["-m", "schema_compat", "proxy", *args, *tail]


def _run(args: list[str], body: Session, *, cwd: Path = REPO_ROOT) -> Any:
    """Start `python ARGS` as a stdio MCP server, initialize a session, run `body`."""

    async def main() -> Any:
        params = StdioServerParameters(command=PY, args=args, cwd=str(cwd),
                                       env={**os.environ, "NO_COLOR": "1"})
        with open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def _through_proxy(body: Session, *extra: str, provider: str = "gemini",
                   upstream: Path = EXAMPLE) -> Any:
    return _run(_proxy_args("--provider", provider, *extra,
                            upstream=[PY, str(upstream)]), body)


def _direct(body: Session, server: Path = EXAMPLE) -> Any:
    return _run([str(server)], body)


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("first line\nsecond line\nthird line\n")
    return path


def _stringified_call(sample: Path) -> dict[str, Any]:
    return {"files": json.dumps([{"path": str(sample), "head": "2"}]),
            "large_file_passthrough": "false"}


@pytest.mark.parametrize("provider", ["gemini", "openai-strict", "portable", "ollama"])
def test_listed_schemas_have_no_findings_for_the_provider(provider: str) -> None:
    async def body(session: ClientSession) -> Any:
        return (await session.list_tools()).tools

    listing = SERVERS / "listing_server.py"  # the example's listing
    tools = _through_proxy(body, provider=provider, upstream=listing)
    # `_meta` says which dialect the schema is in (gemini's `nullable` is OpenAPI's)
    listed = [{"name": t.name, "description": t.description, "inputSchema": t.input_schema,
               "_meta": t.meta} for t in tools]
    assert [t["name"] for t in listed] == ["read_files", "propose_and_review"]
    report = check(listed, provider)
    assert {r.tool.name: list(r.findings) for r in report.results} == {
        "read_files": [], "propose_and_review": []}
    # the same schemas `transform --server` writes
    snapshot = cli_in_process("transform", "--quiet", "--provider", provider, "--server",
                              cmd(listing))
    assert [t["inputSchema"] for t in json.loads(snapshot.stdout)["tools"]] == \
        [t["inputSchema"] for t in listed]


def test_a_stringified_call_reaches_the_upstream_repaired(sample: Path, tmp_path: Path
                                                          ) -> None:
    """`tee` between the proxy and the server records exactly what the server received."""
    wire = tmp_path / "wire.jsonl"
    log = tmp_path / "proxy.log"
    upstream = ["sh", "-c", f'tee "{wire}" | exec "{PY}" "{EXAMPLE}"']

    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        return await session.call_tool("read_files", _stringified_call(sample))

    result = _run(_proxy_args("--log", str(log), upstream=upstream), body)
    assert not result.is_error
    assert _text(result) == f"== {sample} ==\nfirst line\nsecond line"
    calls = [m for m in map(json.loads, wire.read_text().splitlines())
             if m.get("method") == "tools/call"]
    assert [c["params"]["name"] for c in calls] == ["read_files"]
    assert calls[0]["params"]["arguments"] == {
        "files": [{"path": str(sample), "head": 2}], "large_file_passthrough": False}
    lines = log.read_text().splitlines()
    assert "schema-compat proxy: tools/call read_files: repaired $.files[0].head: \"2\" → 2 " \
           "(integer)" in lines
    assert "schema-compat proxy: tools/call read_files: repaired " \
           "$.large_file_passthrough: \"false\" → false (boolean)" in lines
    assert any(line.startswith("schema-compat proxy: tools/list read_files: 7 change(s)")
               for line in lines)


def test_a_call_before_any_listing_is_repaired_too(sample: Path, tmp_path: Path) -> None:
    """The proxy lists the tools itself first; that answer never reaches the client."""
    wire = tmp_path / "wire.jsonl"
    upstream = ["sh", "-c", f'tee "{wire}" | exec "{PY}" "{EXAMPLE}"']

    async def body(session: ClientSession) -> Any:
        return await session.call_tool("read_files", _stringified_call(sample))

    result = _run(_proxy_args(upstream=upstream), body)
    assert not result.is_error, _text(result)
    sent = [json.loads(line) for line in wire.read_text().splitlines()]
    requests = [(m.get("method"), m.get("id")) for m in sent if "method" in m and "id" in m]
    first_call = [m for m, _ in requests].index("tools/call")
    assert requests[first_call - 1] == ("tools/list", "schema-compat-proxy-1")
    call = next(m for m in sent if m.get("method") == "tools/call")
    assert call["params"]["arguments"]["files"] == [{"path": str(sample), "head": 2}]


def test_unknown_tool_returns_the_upstreams_error() -> None:
    async def body(session: ClientSession) -> Any:
        await session.list_tools()
        return await session.call_tool("no_such_tool", {"x": "1"})

    listing = SERVERS / "listing_server.py"  # answers an unknown tool as the SDK does
    direct = _direct(body, listing)
    proxied = _through_proxy(body, upstream=listing)
    assert proxied.is_error and direct.is_error
    assert _text(proxied) == _text(direct) == "Unknown tool: no_such_tool"


def test_other_requests_pass_through_unchanged() -> None:
    async def body(session: ClientSession) -> Any:
        await session.send_ping()
        out = []
        for call in (session.list_prompts, session.list_resources,
                     session.list_resource_templates):
            try:
                out.append((await call()).model_dump())
            except MCPError as exc:
                out.append({"error": exc.error.code, "message": exc.error.message})
        return out

    listing = SERVERS / "listing_server.py"  # answers these as the SDK does
    assert _through_proxy(body, upstream=listing) == _direct(body, listing)


@pytest.mark.parametrize(("mode", "option", "path"), [("http", "--url", "/mcp"),
                                                      ("sse", "--sse", "/sse")])
def test_http_upstreams(sample: Path, mode: str, option: str, path: str) -> None:
    """Over streamable HTTP and legacy SSE alike: the listing is transformed (the schemas
    the client sees have nothing left for Gemini) and a stringified call is repaired."""
    async def body(session: ClientSession) -> Any:
        listed = (await session.list_tools()).tools
        return listed, await session.call_tool("read_files", _stringified_call(sample))

    with example_over(mode) as base:
        listed, result = _run(_proxy_args(option, base + path), body)
    assert [t.name for t in listed] == ["read_files", "propose_and_review"]
    report = check([{"name": t.name, "description": t.description,
                     "inputSchema": t.input_schema, "_meta": t.meta} for t in listed], "gemini")
    assert [f.code for r in report.results for f in r.findings] == []
    assert not result.is_error, _text(result)
    assert _text(result).endswith("first line\nsecond line")


def test_killing_the_upstream_ends_in_an_error_within_the_timeout(tmp_path: Path,
                                                                  sample: Path) -> None:
    pidfile = tmp_path / "upstream.pid"
    upstream = ["sh", "-c", f'echo $$ > "{pidfile}"; exec "{PY}" "{EXAMPLE}"']
    # the error comes from the upstream's exit, not from the timeout: the bound below leaves
    # a loaded machine 10 s and is still 20 s short of what waiting for the timeout takes
    timeout = 30.0

    async def body(session: ClientSession) -> Any:
        first = await session.call_tool("read_files", _stringified_call(sample))
        os.kill(int(pidfile.read_text()), signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(MCPError) as caught:
            await session.call_tool("read_files", _stringified_call(sample))
        return first, time.monotonic() - start, caught.value.error.message

    first, elapsed, message = _run(
        _proxy_args("--timeout", str(timeout), upstream=upstream), body)
    assert not first.is_error
    assert elapsed < 10
    assert message == "schema-compat proxy: the upstream server exited with exit code -9"


def test_a_silent_upstream_ends_in_an_error_within_the_timeout() -> None:
    timeout = 2.0

    async def main() -> tuple[float, str]:
        args = _proxy_args("--timeout", str(timeout),
                           upstream=[PY, str(SERVERS / "silent_server.py")])
        params = StdioServerParameters(command=PY, args=args, cwd=str(REPO_ROOT))
        with open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write), \
                    ClientSession(read, write) as session:
                start = time.monotonic()
                with pytest.raises(MCPError) as caught:
                    await session.initialize()
                return time.monotonic() - start, caught.value.error.message

    elapsed, message = anyio.run(main)
    # the clock starts when initialize is sent, which the proxy may read only once its own
    # start-up is done (seconds on a loaded machine); the default timeout would be 30 s
    assert timeout <= elapsed < timeout + 10
    assert message == ("schema-compat proxy: the upstream server did not answer initialize "
                       "within 2s")


@pytest.mark.parametrize(("args", "line"), [
    (["--provider", "nope", "--", "true"],
     "schema-compat: error: unknown provider 'nope' (choose one of: "
     + ", ".join(PROFILES) + ")"),
    ([], "schema-compat: error: give the upstream as -- CMD ARGS, --url URL or --sse URL "
         "(one of them) (e.g. schema-compat proxy -- python server.py)"),
    (["--url", "http://127.0.0.1:1/mcp", "--", "true"],
     "schema-compat: error: give the upstream as -- CMD ARGS, --url URL or --sse URL "
     "(one of them) (e.g. schema-compat proxy -- python server.py)"),
    (["--url", "http://127.0.0.1:1/mcp", "--sse", "http://127.0.0.1:1/sse"],
     "schema-compat: error: give the upstream as -- CMD ARGS, --url URL or --sse URL "
     "(one of them) (e.g. schema-compat proxy -- python server.py)"),
    (["--header", "A: b", "--", "true"],
     "schema-compat: error: --header applies to --url and --sse (add --url URL or --sse "
     "URL)"),
    (["--", "no-such-command-xyz"],
     "schema-compat: error: command not found: no-such-command-xyz (install it, or give "
     "its full path)"),
])
def test_bad_usage_is_one_line_and_exit_2(args: list[str], line: str) -> None:
    proc = cli("proxy", *args, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [line]
    assert proc.stdout == ""


def test_a_client_config_running_the_proxy_checks_compatible(tmp_path: Path) -> None:
    """What a client configured as docs/proxy.md says sees: every tool compatible."""
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fs": {
        "command": PY, "args": _proxy_args("--provider", "gemini", upstream=[
            PY, str(SERVERS / "listing_server.py")])}}}))  # the example's listing
    proc = cli_in_process("check", "--json", "--fail-on", "warning", "--config", str(config))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(t["name"], t["status"], t["issues"]) for t in data["tools"]] == [
        ("read_files", "COMPATIBLE", []), ("propose_and_review", "COMPATIBLE", [])]


@pytest.mark.parametrize(("client", "filename"), [
    ("Claude Desktop", "claude_desktop_config.json"), ("Gemini CLI", "settings.json"),
    ("VS Code", "mcp.json")])
def test_readme_config_snippets_run_the_proxy(client: str, filename: str,
                                              tmp_path: Path) -> None:
    from schema_compat.extract.config import load_config

    readme = (REPO_ROOT / "docs" / "proxy.md").read_text()
    section = readme[readme.index(f"\n{client} ("):]
    start = section.index("```json\n") + 8
    block = section[start: section.index("\n```", start)]
    folder = tmp_path / (".gemini" if client == "Gemini CLI" else
                         ".vscode" if client == "VS Code" else "claude")
    folder.mkdir()
    (folder / filename).write_text(block)
    specs, errors = load_config(str(folder / filename))
    assert errors == []
    [spec] = specs
    from schema_compat.profiles import PROFILES

    assert (spec.kind, spec.command, spec.args[:2]) == ("stdio", "schema-compat",
                                                        ("proxy", "--provider"))
    assert spec.args[2] in PROFILES
    assert len(spec.args) > spec.args.index("--") + 1  # an upstream command follows --


def _raw_session(args: list[str], lines: list[dict[str, Any]], *, answers: int = 0
                 ) -> tuple[list[dict[str, Any]], int, float]:
    """Write JSON-RPC lines to the proxy, keep stdin open until it has written `answers`
    lines (at most 60 s: a loaded machine may take long to start it), then close it; returns
    what it wrote to stdout, its exit code, and how long it took to exit."""
    import select
    import subprocess

    proc = subprocess.Popen([PY, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    for line in lines:
        proc.stdin.write(json.dumps(line) + "\n")
    proc.stdin.flush()
    read: list[str] = []
    deadline = time.monotonic() + 60
    while len(read) < answers and time.monotonic() < deadline:
        if select.select([proc.stdout], [], [], deadline - time.monotonic())[0]:
            line = proc.stdout.readline()
            if not line:
                break
            read.append(line)
    start = time.monotonic()
    proc.stdin.close()
    code = proc.wait(timeout=15)
    elapsed = time.monotonic() - start
    read += proc.stdout.read().splitlines()
    return [json.loads(x) for x in read], code, elapsed


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}


def test_the_proxy_exits_when_its_client_goes_away() -> None:
    """Once the answer is in, the client closes stdin: the proxy exits, and the upstream
    (which takes 10 s more to exit by itself) does not hold it up."""
    import subprocess

    upstream = ["sh", "-c", f'"{PY}" "{EXAMPLE}"; sleep 10']
    proc = subprocess.Popen([PY, *_proxy_args(upstream=upstream)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, cwd=REPO_ROOT, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INIT) + "\n")
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    assert answer["id"] == 1
    assert answer["result"]["serverInfo"]["name"] == "fs-mcp-repro"
    start = time.monotonic()
    proc.stdin.close()
    assert proc.wait(timeout=15) == 0
    assert time.monotonic() - start < 5  # the upstream by itself: 10 s and more
    assert proc.stdout.read() == ""


@pytest.mark.parametrize(("option", "path"), [("--url", "/mcp"), ("--sse", "/sse")])
def test_an_unreachable_http_upstream_is_an_error_for_the_client(option: str, path: str,
                                                                 ) -> None:
    from launch import free_port

    url = f"http://127.0.0.1:{free_port()}{path}"
    out, code, _ = _raw_session(_proxy_args("--timeout", "5", option, url), [INIT], answers=1)
    host = url.split("/")[2]
    assert out == [{"jsonrpc": "2.0", "id": 1, "error": {
        "code": -32000, "message": "schema-compat proxy: the upstream server cannot be "
                                   f"reached: connection refused at {host}"}}]
    assert code == 0
