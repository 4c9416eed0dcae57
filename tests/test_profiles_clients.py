"""`--client`: the MCP client's own limits added to the provider's, in check, the request
planner (transform) and the reports; a bare check infers the client from its config.

Each limit's figure and source come from profiles/clients.py; these tests state the figures
from the public reports (issue 31), not from the table, so a wrong table fails them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inprocess import cli_in_process

from schema_compat.profiles import PROFILES
from schema_compat.profiles.clients import CLIENTS, client_of_config, with_client
from schema_compat.requests import PlanError, plan

# A raw stdio MCP server (standard library only) listing the tools of the JSON file it is
# given: enough for `check` to list a config's server live.
_SERVER = '''
import json, sys
tools = json.load(open(sys.argv[1], encoding="utf-8"))["tools"]
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "many", "version": "1"}}
    elif msg["method"] == "tools/list":
        result = {"tools": tools}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
'''


def _tool(name: str, description: str = "Does one thing.") -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}


def _tools_file(path: Path, *tools: dict[str, Any]) -> Path:
    path.write_text(json.dumps({"tools": list(tools)}), encoding="utf-8")
    return path


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` in `cwd`, in-process (tests/inprocess.py): what it says is the
    point, not how a process of its own behaves; the servers it lists run as processes."""
    return cli_in_process(*args, cwd=cwd)


@pytest.fixture
def cursor_project(tmp_path: Path) -> Path:
    """A project whose Cursor config starts one server with 45 tools."""
    tools = _tools_file(tmp_path / "tools.json", *(_tool(f"tool_{i}") for i in range(45)))
    (tmp_path / "server.py").write_text(_SERVER, encoding="utf-8")
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": {"many": {
        "command": sys.executable, "args": [str(tmp_path / "server.py"), str(tools)]}}}),
        encoding="utf-8")
    return tmp_path


def test_a_bare_check_of_a_cursor_config_applies_cursors_40_tools(cursor_project: Path
                                                                  ) -> None:
    """Gemini takes 512 tools; Cursor sends 40. The check finds .cursor/mcp.json, infers
    Cursor from it, says so, and flags the 5 tools past 40 with the source."""
    proc = _run(cursor_project, "check", "--json")
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert (report["provider"], report["client"], report["client_inferred_from"]) == (
        "gemini", "cursor", ".cursor/mcp.json")
    assert "client cursor (inferred from .cursor/mcp.json)" in proc.stderr
    flagged = [t["name"] for t in report["tools"]
               if any(i["code"] == "LIM001" for i in t["issues"])]
    assert flagged == [f"tool_{i}" for i in range(40, 45)]
    message = next(i["message"] for t in report["tools"] for i in t["issues"])
    assert "the client cursor takes at most 40 per request" in message
    assert "bun913/mcp-testrail#6" in message
    (request,) = report["requests"]
    (limit,) = request["limits"]
    assert (limit["used"], limit["limit"], limit["over"]) == (45, 40, True)
    assert "cursor" in limit["source"] and "bun913/mcp-testrail#6" in limit["source"]


def test_the_text_report_says_the_client_was_inferred(cursor_project: Path) -> None:
    proc = _run(cursor_project, "check")
    assert proc.returncode == 1
    assert "through cursor (inferred from" in " ".join(proc.stdout.split())


def test_an_explicit_client_wins_over_the_inferred_one(cursor_project: Path) -> None:
    """VS Code takes 128 tools: the same 45 pass, and the report names vscode, not
    inferred."""
    proc = _run(cursor_project, "check", "--json", "--client", "vscode")
    assert proc.returncode == 0, proc.stdout
    report = json.loads(proc.stdout)
    assert report["client"] == "vscode" and "client_inferred_from" not in report
    assert "inferred" not in proc.stderr


def test_transform_refuses_a_request_past_the_clients_tool_count(cursor_project: Path
                                                                 ) -> None:
    proc = _run(cursor_project, "transform", "--config", ".cursor/mcp.json", "--client",
                "cursor", "-o", "out.json")
    assert proc.returncode == 2
    assert "45 tools in one request; gemini with cursor accepts at most 40" in proc.stderr
    assert not (cursor_project / "out.json").exists()


def test_the_planner_counts_a_clients_tools_beside_a_strict_budget() -> None:
    """anthropic-strict counts its 20 strict tools, not all tools: Cursor's 40 still
    counts every tool sent."""
    tools = [_tool(f"t{i}") for i in range(45)]
    with pytest.raises(PlanError, match="accepts at most 40"):
        plan(tools, "anthropic-strict", client="cursor")
    request = plan(tools[:40], "anthropic-strict", client="cursor")
    assert any(lim.key == "tools" and (lim.used, lim.limit) == (40, 40)
               for lim in request.limits)
    assert len(plan(tools, "anthropic-strict").tools) == 45  # no client: no count


def test_claude_codes_prefix_pushes_a_name_past_64(tmp_path: Path) -> None:
    """Anthropic takes 128-character names; Claude Code sends `mcp__server__tool`, which
    must fit 64. A 60-character server + tool is 67 with the prefix: check flags it, and
    transform sends a name that fits."""
    tool = "query_the_warehouse_for_monthly_revenue_x"
    source = _tools_file(tmp_path / "analytics-warehouse.json", _tool(tool))
    assert len("analytics-warehouse" + tool) == 60
    plain = _run(tmp_path, "check", "-p", "anthropic", "--json", str(source))
    assert plain.returncode == 0, plain.stdout  # the provider alone takes it
    proc = _run(tmp_path, "check", "-p", "anthropic", "--client", "claude-code", "--json",
                str(source))
    assert proc.returncode == 1, proc.stdout
    (request,) = json.loads(proc.stdout)["requests"]
    (decision,) = request["decisions"]
    assert (decision["tool"], decision["kind"]) == (tool, "renamed")
    assert "anthropics/claude-code#19882" in decision["reason"]
    assert request["name_prefix"] == "mcp"
    out = _run(tmp_path, "transform", "-p", "anthropic", "--client", "claude-code", "--json",
               str(source))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    (sent,) = report["name_map"]
    assert report["name_map"][sent] == tool
    assert sent.startswith("mcp__analytics-warehouse__") and len(sent) <= 64
    assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", sent)


def test_a_description_claude_code_cuts_is_a_warning(tmp_path: Path) -> None:
    source = _tools_file(tmp_path / "long.json", _tool("read", "Read it. " * 240))
    proc = _run(tmp_path, "check", "-p", "anthropic", "--client", "claude-code", "--json",
                str(source))
    assert proc.returncode == 0, proc.stdout  # a warning: the request is not refused
    (issue,) = json.loads(proc.stdout)["tools"][0]["issues"]
    assert (issue["code"], issue["severity"]) == ("NAM004", "warning")
    assert "2160 characters" in issue["message"]
    assert "Claude Code cuts descriptions past 2048" in issue["message"]
    assert "anthropics/claude-code#41593" in issue["message"]
    plain = _run(tmp_path, "check", "-p", "anthropic", "--json", str(source))
    assert json.loads(plain.stdout)["tools"][0]["issues"] == []
    fits = _tools_file(tmp_path / "fits.json", _tool("read", "x" * 2048))
    kept = _run(tmp_path, "check", "-p", "anthropic", "--client", "claude-code", "--json",
                str(fits))
    assert json.loads(kept.stdout)["tools"][0]["issues"] == []


def test_copilot_cli_refuses_a_dot_the_provider_takes(tmp_path: Path) -> None:
    """Gemini takes `files.read`; Copilot CLI does not: flagged (NAM001) and renamed."""
    source = _tools_file(tmp_path / "dots.json", _tool("files.read"))
    plain = _run(tmp_path, "check", "--json", str(source))
    assert plain.returncode == 0
    proc = _run(tmp_path, "check", "--client", "copilot-cli", "--json", str(source))
    assert proc.returncode == 1
    (issue,) = json.loads(proc.stdout)["tools"][0]["issues"]
    assert issue["code"] == "NAM001" and "github/copilot-cli#1879" in issue["message"]
    out = _run(tmp_path, "transform", "--client", "copilot-cli", str(source))
    assert out.returncode == 0, out.stderr
    (written,) = json.loads(out.stdout)["tools"]
    assert written["name"] == "files_read"
    assert not set("./") & set(written["name"])


def test_an_unknown_client_is_a_one_line_usage_error(tmp_path: Path) -> None:
    source = _tools_file(tmp_path / "t.json", _tool("t"))
    for command in ("check", "transform"):
        proc = _run(tmp_path, command, "--client", "emacs", str(source))
        assert proc.returncode == 2
        (line,) = proc.stderr.splitlines()
        assert line.startswith("schema-compat: error: unknown client 'emacs' (choose one of: "
                               "cursor, windsurf, vscode, claude-code, copilot-cli")


@pytest.mark.parametrize(("path", "client"), [
    (".cursor/mcp.json", "cursor"), (".vscode/mcp.json", "vscode"),
    (".mcp.json", "claude-code"), (".gemini/settings.json", "gemini-cli"),
    ("home/.codeium/windsurf/mcp_config.json", "windsurf"),
    ("claude_desktop_config.json", None), ("tools.json", None),
    ("my.cursor/mcp.json", None),
])
def test_a_config_says_which_client_it_belongs_to(path: str, client: str | None) -> None:
    assert client_of_config(path) == client


def test_clients_without_a_documented_limit_add_none() -> None:
    for name in ("gemini-cli", "cline", "continue", "zed"):
        for profile in PROFILES.values():
            added = with_client(profile, CLIENTS[name])
            assert added._replace(client="") == profile, (name, profile.name)
        assert "documented" in CLIENTS[name].notes


def test_every_limit_has_a_source() -> None:
    for c in CLIENTS.values():
        if c.max_tools is not None:
            assert c.max_tools_source
        if c.max_name is not None or c.forbidden or c.name_prefix != "none":
            assert c.name_source
        if c.max_description is not None:
            assert c.description_source


def test_a_settings_file_names_the_client(tmp_path: Path) -> None:
    """`client = "copilot-cli"` in .schema-compat.toml: check and transform apply it as
    --client would; --client wins over it."""
    source = _tools_file(tmp_path / "dots.json", _tool("files.read"))
    (tmp_path / ".schema-compat.toml").write_text('client = "copilot-cli"\n', encoding="utf-8")
    proc = _run(tmp_path, "check", "--json", str(source))
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["client"] == "copilot-cli" and "client_inferred_from" not in report
    out = _run(tmp_path, "transform", str(source))
    assert json.loads(out.stdout)["tools"][0]["name"] == "files_read"
    wins = _run(tmp_path, "check", "--json", "--client", "zed", str(source))
    assert wins.returncode == 0 and json.loads(wins.stdout)["client"] == "zed"


def test_an_unknown_client_in_a_settings_file_names_the_file(tmp_path: Path) -> None:
    source = _tools_file(tmp_path / "t.json", _tool("t"))
    settings = tmp_path / ".schema-compat.toml"
    settings.write_text('client = "emacs"\n', encoding="utf-8")
    proc = _run(tmp_path, "check", str(source))
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"schema-compat: error: {settings}: unknown client 'emacs'")
