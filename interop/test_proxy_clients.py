"""`schema-compat proxy` between real clients and real servers.

Three clients, each the real thing: the official Python client (`mcp`, auto mode), the
official TypeScript client (`@modelcontextprotocol/sdk`, ts_proxy_client.mjs) and the MCP
Inspector's CLI (`mcp-inspector --cli`). Four TypeScript-SDK servers from npm and one
Python-SDK server from PyPI (support.py). For each client and server:

- the listing through the proxy is the server's listing transformed for Gemini (each schema
  what `schema_compat.transform` makes of the server's own, nothing left that Gemini
  refuses), with the same tools in the same order;
- a call whose arguments hold a stringified array, object or number is repaired by the proxy
  and succeeds, and its result is exactly the result of the repaired call made directly;
- an upstream that dies in the middle of a call gives the client an error within a second.

The Inspector converts top-level string arguments to the types the listed schema names
before it sends them (`convertStringToolArgs`), so through it a stringified top-level number
arrives repaired already; nested ones (memory's) reach the proxy as the other clients send
them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from support import (
    GRACE,
    NODE_BIN,
    NODE_DIR,
    NPM_SERVERS,
    PYPI_SERVERS,
    STARTUP,
    Server,
    base_env,
    run_bounded,
)

from schema_compat import check, transform

INTEROP = Path(__file__).resolve().parent
PROVIDER = "gemini"
# The proxy as a client starts it: this interpreter, this checkout.
PROXY = [sys.executable, "-m", "schema_compat", "proxy", "--provider", PROVIDER]


def _server(package: str) -> Server:
    return next(s for s in [*NPM_SERVERS, *PYPI_SERVERS] if s.package == package)


@dataclass(frozen=True)
class Case:
    """One server and one call: the arguments as a client sends them (stringified where a
    model would stringify), the arguments the server's schema wants, and the JSONPaths the
    proxy must log as repaired. "{tmp}" in arguments is the test's scratch directory."""

    package: str
    tool: str
    sent: dict[str, Any]
    repaired: dict[str, Any]
    repairs: tuple[str, ...]
    top_level: tuple[str, ...] = ()  # repairs the Inspector makes itself (top-level strings)
    prepare: Callable[[Path], None] | None = None

    @property
    def server(self) -> Server:
        return _server(self.package)


def _notes(tmp: Path) -> None:
    (tmp / "notes.txt").write_text("first line\nsecond line\n", encoding="utf-8")


def _git_repo(tmp: Path) -> None:
    repo = tmp / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "one"],
                 ["commit", "-q", "--allow-empty", "-m", "two"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


ALICE = {"name": "alice", "entityType": "person", "observations": ["likes tea"]}
BOB = {"name": "bob", "entityType": "person", "observations": ["likes coffee"]}

CASES = [
    Case("@modelcontextprotocol/server-everything", "get-sum", {"a": "2", "b": "3.5"},
         {"a": 2, "b": 3.5}, ("$.a", "$.b"), top_level=("$.a", "$.b")),
    Case("@modelcontextprotocol/server-memory", "create_entities",
         {"entities": [json.dumps(ALICE), {**BOB, "observations": json.dumps(["likes coffee"])}]},
         {"entities": [ALICE, BOB]}, ("$.entities[0]", "$.entities[1].observations")),
    Case("@modelcontextprotocol/server-filesystem", "read_text_file",
         {"path": "{tmp}/notes.txt", "head": "1"}, {"path": "{tmp}/notes.txt", "head": 1},
         ("$.head",), top_level=("$.head",), prepare=_notes),
    Case("@modelcontextprotocol/server-sequential-thinking", "sequentialthinking",
         # (its schema takes "false" for nextThoughtNeeded: that stays a string)
         {"thought": "one step", "nextThoughtNeeded": False, "thoughtNumber": "1",
          "totalThoughts": "2"},
         {"thought": "one step", "nextThoughtNeeded": False, "thoughtNumber": 1,
          "totalThoughts": 2},
         ("$.thoughtNumber", "$.totalThoughts"), top_level=("$.thoughtNumber",
                                                            "$.totalThoughts")),
    Case("mcp-server-git", "git_log", {"repo_path": "{tmp}/repo", "max_count": "1"},
         {"repo_path": "{tmp}/repo", "max_count": 1}, ("$.max_count",),
         top_level=("$.max_count",), prepare=_git_repo),
]

# A stdio server behind a relay of our own that kills it when it is called: the upstream
# dies in the middle of a call. The relay records when (KILLED_AT) and exits too.
_DYING = """\
import json, os, subprocess, sys, threading, time
server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def pump():
    for line in server.stdout:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin.buffer:
    try:
        msg = json.loads(line)
    except ValueError:
        msg = None
    if isinstance(msg, dict) and msg.get("method") == "tools/call" and \\
            (msg.get("params") or {}).get("name") == os.environ["DIE_ON"]:
        with open(os.environ["KILLED_AT"], "w") as f:
            f.write(repr(time.time()))
        server.kill()
        os._exit(137)
    server.stdin.write(line)
    server.stdin.flush()
"""


def _fill(value: Any, tmp: Path) -> Any:
    return json.loads(json.dumps(value).replace("{tmp}", str(tmp)))


# --- the three clients: each lists the tools, then makes one call ------------------------


@dataclass
class Outcome:
    tools: list[dict[str, Any]]
    result: dict[str, Any] | None = None
    error: str | None = None
    seconds: float | None = None  # from the call to the error, as the client measured it
    ended: float | None = None  # time.time() when the client process had exited


def _python_client(argv: list[str], env: dict[str, str], cwd: Path, call: dict[str, Any],
                   expect_error: bool) -> Outcome:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPError
    from mcp_types import PaginatedRequestParams

    async def main() -> Outcome:
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(cwd))
        with open(os.devnull, "w") as devnull, anyio.fail_after(STARTUP + GRACE):
            async with Client(stdio_client(params, errlog=devnull), cache=None) as client:
                session = client.session
                tools: list[dict[str, Any]] = []
                cursor: str | None = None
                for _ in range(100):
                    page = await session.list_tools(
                        params=None if cursor is None else PaginatedRequestParams(cursor=cursor))
                    tools += [t.model_dump(by_alias=True, exclude_none=True, mode="json")
                              for t in page.tools]
                    cursor = page.next_cursor
                    if not cursor:
                        break
                out = Outcome(tools)
                start = time.monotonic()
                try:
                    result = await session.call_tool(call["name"], call["arguments"])
                    out.result = result.model_dump(by_alias=True, exclude_none=True,
                                                   mode="json")
                except MCPError as exc:
                    if not expect_error:
                        raise
                    out.error, out.seconds = exc.error.message, time.monotonic() - start
                return out

    return anyio.run(main)


def _ts_client(argv: list[str], env: dict[str, str], cwd: Path, call: dict[str, Any],
               expect_error: bool) -> Outcome:
    script = NODE_DIR / "ts_proxy_client.mjs"  # beside node_modules, where imports resolve
    if not (NODE_DIR / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.fail("@modelcontextprotocol/sdk is not installed (`make interop`)", pytrace=False)
    source = INTEROP / "ts_proxy_client.mjs"
    if not script.exists() or script.read_bytes() != source.read_bytes():
        shutil.copyfile(source, script)
    plan = json.dumps({"call": call, "expectError": expect_error})
    proc = run_bounded([shutil.which("node") or "node", str(script), *argv],
                       what="the official TypeScript client", env={**env, "PLAN": plan},
                       cwd=cwd)
    ended = time.time()
    if proc.returncode != 0:
        pytest.fail(f"TypeScript client: exit {proc.returncode}: {proc.stderr[-800:]}",
                    pytrace=False)
    data = json.loads(proc.stdout)
    return Outcome(data["tools"], data.get("result"), data.get("error"), data.get("seconds"),
                   ended)


def _inspector(argv: list[str], env: dict[str, str], cwd: Path, call: dict[str, Any],
               expect_error: bool) -> Outcome:
    """`mcp-inspector --cli` twice: tools/list, then tools/call (--tool-args-json). The
    Inspector passes the server only its default variables and `-e` ones, as a user would
    configure it: the server's own, and where the checkout is for `-m schema_compat`."""
    inspector = NODE_BIN / "mcp-inspector"
    if not inspector.exists():
        pytest.fail(f"the MCP Inspector is not installed: {inspector} (`make interop`)",
                    pytrace=False)
    passed = {k: v for k, v in env.items() if os.environ.get(k) != v}
    head = [str(inspector), "--cli", *[a for k, v in passed.items() for a in ("-e", f"{k}={v}")],
            "--cwd", str(cwd)]
    own_env = {**env, "HOME": str(cwd)}  # its catalog and secrets stay in the scratch dir
    listed = run_bounded([*head, "--method", "tools/list", "--", *argv],
                         what="the MCP Inspector", env=own_env, cwd=cwd)
    if listed.returncode != 0:
        pytest.fail(f"Inspector tools/list: exit {listed.returncode}: "
                    f"{(listed.stdout + listed.stderr)[-800:]}", pytrace=False)
    out = Outcome(json.loads(listed.stdout)["tools"])
    called = run_bounded([*head, "--method", "tools/call", "--tool-name", call["name"],
                          "--tool-args-json", json.dumps(call["arguments"]), "--", *argv],
                         what="the MCP Inspector", env=own_env, cwd=cwd)
    out.ended = time.time()
    text = called.stdout + called.stderr
    if expect_error:
        out.error = text
        return out
    if called.returncode != 0:
        pytest.fail(f"Inspector tools/call: exit {called.returncode}: {text[-800:]}",
                    pytrace=False)
    out.result = json.loads(called.stdout)
    return out


CLIENTS = {"python": _python_client, "typescript": _ts_client, "inspector": _inspector}


# --- the tests -----------------------------------------------------------------------------


def _setup(case: Case, tmp: Path, name: str) -> tuple[Path, dict[str, str]]:
    """A scratch directory of the run's own (a memory file, a file root) and the client's
    environment: this one, the server's variables, the checkout on PYTHONPATH."""
    where = tmp / name
    where.mkdir()
    if case.prepare is not None:
        case.prepare(where)
    return where, base_env(case.server.environ(where))


def _proxied(case: Case, where: Path, log: Path, upstream: list[str] | None = None
             ) -> list[str]:
    return [*PROXY, "--log", str(log), "--", *(upstream or case.server.argv(where))]


def _content(result: dict[str, Any] | None) -> Any:
    assert result is not None
    return {k: v for k, v in result.items() if k in ("content", "structuredContent",
                                                    "isError")}


@pytest.mark.parametrize("client", list(CLIENTS))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.package.split("/")[-1])
def test_a_client_through_the_proxy(client: str, case: Case, tmp_path: Path) -> None:
    run = CLIENTS[client]
    direct_dir, direct_env = _setup(case, tmp_path, "direct")
    direct = run(case.server.argv(direct_dir), direct_env, direct_dir,
                 {"name": case.tool, "arguments": _fill(case.repaired, direct_dir)}, False)
    where, env = _setup(case, tmp_path, "proxied")
    log = tmp_path / "proxy.log"
    proxied = run(_proxied(case, where, log), env, where,
                  {"name": case.tool, "arguments": _fill(case.sent, where)}, False)
    what = f"{client} client, {case.server.label}"

    # the listing: the server's, transformed for the provider
    assert [t["name"] for t in proxied.tools] == [t["name"] for t in direct.tools], what
    expected = transform(direct.tools, PROVIDER)
    assert [t["inputSchema"] for t in proxied.tools] == [
        r.transformed_schema if r.transformed_schema is not None else r.tool.schema
        for r in expected], what
    assert [f.code for r in check(proxied.tools, PROVIDER).results for f in r.errors] == [], \
        what
    assert any(r.changes for r in expected), f"{what}: nothing to transform"

    # the call: repaired by the proxy, answered as the repaired call is answered directly
    logged = log.read_text(encoding="utf-8")
    for path in case.repairs:
        if client == "inspector" and path in case.top_level:
            continue  # the Inspector converted it before sending
        assert f"tools/call {case.tool}: repaired {path}: " in logged, f"{what}: {path}"
    assert not (proxied.result or {}).get("isError"), f"{what}: {proxied.result}"
    assert _fill(_content(proxied.result), where) == \
        json.loads(json.dumps(_content(direct.result)).replace(str(direct_dir), str(where))), \
        what


@pytest.mark.parametrize("client", list(CLIENTS))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.package.split("/")[-1])
def test_an_upstream_that_dies_is_an_error_within_a_second(client: str, case: Case,
                                                           tmp_path: Path) -> None:
    where, env = _setup(case, tmp_path, "proxied")
    relay = tmp_path / "dying.py"
    relay.write_text(_DYING, encoding="utf-8")
    killed_at = tmp_path / "killed_at"
    env = {**env, "DIE_ON": case.tool, "KILLED_AT": str(killed_at)}
    upstream = [sys.executable, str(relay), *case.server.argv(where)]
    out = CLIENTS[client](_proxied(case, where, tmp_path / "proxy.log", upstream), env, where,
                          {"name": case.tool, "arguments": _fill(case.sent, where)}, True)
    what = f"{client} client, {case.server.label}"
    assert out.error is not None and \
        "schema-compat proxy: the upstream server exited with exit code 137" in out.error, \
        f"{what}: {out.error}"
    if out.seconds is not None:
        assert out.seconds < 1.0, what
    else:  # the Inspector: from the kill to the end of its process, printing included
        assert out.ended is not None
        assert out.ended - float(killed_at.read_text()) < 1.0, what


def _profiles() -> list[str]:
    from schema_compat.profiles import PROFILES

    return list(PROFILES)


@pytest.mark.parametrize("provider", _profiles())
def test_every_profile_through_the_proxy(provider: str, tmp_path: Path) -> None:
    """Each profile, the new ones included, between the official Python client and
    server-memory (nested objects, arrays, a stringified array to repair): the listing as
    the library transforms it for that profile, nothing that profile refuses left, and the
    repaired call answered as the same call made directly."""
    case = next(c for c in CASES if c.package.endswith("server-memory"))
    run = CLIENTS["python"]
    direct_dir, direct_env = _setup(case, tmp_path, "direct")
    direct = run(case.server.argv(direct_dir), direct_env, direct_dir,
                 {"name": case.tool, "arguments": _fill(case.repaired, direct_dir)}, False)
    where, env = _setup(case, tmp_path, "proxied")
    log = tmp_path / "proxy.log"
    proxy = [sys.executable, "-m", "schema_compat", "proxy", "--provider", provider,
             "--log", str(log), "--", *case.server.argv(where)]
    proxied = run(proxy, env, where, {"name": case.tool, "arguments": _fill(case.sent, where)},
                  False)
    expected = transform(direct.tools, provider)
    assert [t["name"] for t in proxied.tools] == [r.transformed_name for r in expected]
    assert [t["inputSchema"] for t in proxied.tools] == [
        r.transformed_schema if r.transformed_schema is not None else r.tool.schema
        for r in expected]
    assert [f.code for r in check(proxied.tools, provider).results for f in r.errors] == []
    assert not (proxied.result or {}).get("isError"), proxied.result
    assert _fill(_content(proxied.result), where) == \
        json.loads(json.dumps(_content(direct.result)).replace(str(direct_dir), str(where)))
