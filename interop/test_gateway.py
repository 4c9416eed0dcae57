"""`schema-compat proxy --config FILE`: three real servers served as one, through the official
Python client (`mcp` SDK, ClientSession over stdio_client).

The config holds @modelcontextprotocol/server-github and @modelcontextprotocol/server-gitlab
(npm, TypeScript SDK), which share eight tool names (`create_issue`, `push_files`, ...), and
mcp-server-time (PyPI, Python SDK). Nothing reaches the network: GitLab's API is a stub on
127.0.0.1 (`GITLAB_API_URL`, the server's own setting), and GitHub's tool is called with
arguments its own schema refuses, which it answers before any request, naming its own
parameters. So each answer proves which server gave it:

- `gitlab_create_issue` (GitLab's `create_issue`, renamed because GitHub's came first) makes
  the stub record the issue, and the answer is the stub's issue;
- `create_issue` (GitHub's) is refused by GitHub's own validation, which asks for `owner`
  and `repo`, and the stub records nothing more (GitLab would have taken it);
- `get_current_time` answers with the time in UTC.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from support import GRACE, NPM_SERVERS, PYPI_SERVERS, STARTUP, Server, base_env, py_reference

from schema_compat import check

PROVIDER = "gemini"


def _server(package: str) -> Server:
    return next(s for s in [*NPM_SERVERS, *PYPI_SERVERS] if s.package == package)


GITHUB = _server("@modelcontextprotocol/server-github")
GITLAB = _server("@modelcontextprotocol/server-gitlab")
TIME = _server("mcp-server-time")


class _GitLabStub(BaseHTTPRequestHandler):
    """GitLab's `POST /projects/:id/issues`, answered with an issue whose URL names the stub;
    every request recorded."""

    seen: ClassVar[list[tuple[str, str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        self.seen.append(("POST", self.path, body))
        user = {"username": "stub", "id": 1, "name": "Stub", "avatar_url": "",
                "web_url": "http://gitlab.stub/stub"}
        issue = {"id": 7001, "iid": 1, "project_id": 42, "title": body["title"],
                 "description": body.get("description") or "", "state": "opened",
                 "author": user, "assignees": [], "labels": [], "milestone": None,
                 "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
                 "closed_at": None, "web_url": "http://gitlab.stub/group/project/-/issues/1"}
        data = json.dumps(issue).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def _gitlab_stub() -> Iterator[str]:
    _GitLabStub.seen.clear()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _GitLabStub)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/api/v4"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _entry(server: Server, tmp: Path, **env: str) -> dict[str, Any]:
    argv = server.argv(tmp)
    return {"command": argv[0], "args": argv[1:], "env": {**server.environ(tmp), **env}}


def _gateway(config: Path, log: Path, body: Any) -> Any:
    async def main() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "schema_compat", "proxy", "--config", str(config), "--provider",
                  PROVIDER, "--log", str(log)],
            env=base_env())
        with anyio.fail_after(STARTUP + GRACE), open(os.devnull, "w") as devnull:
            async with stdio_client(params, errlog=devnull) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)


def test_three_real_servers_as_one(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> Any:
        listed = (await session.list_tools()).tools
        renamed = await session.call_tool("gitlab_create_issue",
                                          {"project_id": "42", "title": "via the gateway"})
        with pytest.raises(MCPError) as refused:
            await session.call_tool("create_issue", {"project_id": "42", "title": "t"})
        now = await session.call_tool("get_current_time", {"timezone": "UTC"})
        return listed, renamed, refused.value.error.message, now

    with _gitlab_stub() as api:
        config = tmp_path / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {
            "github": _entry(GITHUB, tmp_path),
            "gitlab": _entry(GITLAB, tmp_path, GITLAB_API_URL=api),
            "time": _entry(TIME, tmp_path)}}), encoding="utf-8")
        log = tmp_path / "gateway.log"
        listed, renamed, refused, now = _gateway(config, log, body)
        seen = list(_GitLabStub.seen)

    # each server's own listing, by the official client directly
    own = {name: [t["name"] for t in py_reference(
        ["--stdio", *server.argv(tmp_path)], what=server.label,
        env=server.environ(tmp_path), cwd=tmp_path)["tools"]]
        for name, server in (("github", GITHUB), ("gitlab", GITLAB), ("time", TIME))}
    expected = [*own["github"],
                *(f"gitlab_{t}" if t in own["github"] else t for t in own["gitlab"]),
                *own["time"]]
    assert [t.name for t in listed] == expected
    assert len([t for t in own["gitlab"] if t in own["github"]]) == 8
    report = check([{"name": t.name, "description": t.description,
                     "inputSchema": t.input_schema, "_meta": t.meta} for t in listed], PROVIDER)
    assert [(r.tool.name, f.code) for r in report.results for f in r.findings
            if f.severity == "error"] == []

    # GitLab answered the renamed tool: the stub's issue, and the stub saw it once
    assert not renamed.is_error, _text(renamed)
    issue = json.loads(_text(renamed))
    assert (issue["id"], issue["title"], issue["web_url"]) == (
        7001, "via the gateway", "http://gitlab.stub/group/project/-/issues/1")
    assert seen == [("POST", "/api/v4/projects/42/issues",
                     {"title": "via the gateway"})]
    # GitHub answered `create_issue`: its own validation wants owner and repo
    assert refused.startswith("Invalid input: ")
    missing = {tuple(e["path"]) for e in json.loads(refused[len("Invalid input: "):])}
    assert {("owner",), ("repo",)} <= missing
    # the time server answered
    assert json.loads(_text(now))["timezone"] == "UTC"

    lines = log.read_text(encoding="utf-8").splitlines()
    assert "schema-compat proxy: tools/call gitlab_create_issue: sent to gitlab as " \
           "'create_issue'" in lines
    assert any(line.startswith("schema-compat proxy: serving ") for line in lines)
