"""Client configs found here are each their own request: two clients never send one request.

`.vscode/mcp.json` and `.gemini/settings.json` each listing the fs server (the example's
listing served without the SDK, tests/servers/listing_server.py, started as a process) are
checked by a bare `check`, run in-process
(tests/inprocess.py) in a temp folder.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from inprocess import cli_in_process

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from launch import PY, SERVERS, report

LISTING = SERVERS / "listing_server.py"  # the example's listing, without the SDK


def _two_clients(tmp_path: Path, gemini_name: str) -> None:
    server = {"command": PY, "args": [str(LISTING)]}
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"fs": server}}))
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / "settings.json").write_text(
        json.dumps({"mcpServers": {gemini_name: server}}))


def _check(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = cli_in_process("check", "--json", "-p", "openai", *args, cwd=tmp_path)
    assert proc.stderr == ("schema-compat: no SOURCE given; checking the servers in "
                           ".vscode/mcp.json, .gemini/settings.json\n")
    return proc.returncode, report(proc)


def test_each_found_config_is_its_own_request(tmp_path: Path) -> None:
    """The fs tools are accepted by openai as published: with each client its own request,
    nothing clashes and the check passes."""
    _two_clients(tmp_path, "files")
    code, data = _check(tmp_path)
    assert [t["source"] for t in data["tools"]] == ["fs", "fs", "files", "files"]
    assert data["summary"]["incompatible"] == 0
    assert "requests" not in data  # two requests of one source each, within every limit
    assert code == 0
    # both clients' servers as one request, asked for, do clash by name
    code, data = _check(tmp_path, "--request", "all")
    assert code == 1
    [request] = data["requests"]
    assert request["sources"] == ["fs", "files"]
    assert request["clashes"] == ["propose_and_review", "read_files"]


def test_a_server_named_alike_in_two_configs_is_two_sources(tmp_path: Path) -> None:
    """Both configs name the server `fs`: the second client's is a source of its own, named
    with its client, so its tools are not a second listing of the first's (which would
    rename them as duplicates)."""
    _two_clients(tmp_path, "fs")
    code, data = _check(tmp_path)
    assert [t["source"] for t in data["tools"]] == ["fs", "fs", "fs (gemini)", "fs (gemini)"]
    assert all(t["transformed_name"] == t["name"] for t in data["tools"])
    assert not [i for t in data["tools"] for i in t["issues"] if i["code"] == "NAM002"]
    assert [s["source"] for s in data["servers"]] == ["fs", "fs (gemini)"]
    assert code == 0


def test_names_the_provider_refuses_are_each_named_once(tmp_path: Path) -> None:
    """Three files with tools `a` and `b`, one request: the second and third file's `a` and
    `b` are renamed, four decisions of two names."""
    for n in (1, 2, 3):
        (tmp_path / f"s{n}.json").write_text(json.dumps({"tools": [
            {"name": name, "inputSchema": {"type": "object"}} for name in ("a", "b")]}))
    proc = cli_in_process("check", "--request", "all", "s1.json", "s2.json", "s3.json",
                          cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert "  2 names the provider refuses or shares: a, b" in lines, proc.stdout
    data = report(cli_in_process("check", "--json", "--request", "all", "s1.json", "s2.json",
                                 "s3.json", cwd=tmp_path))
    assert [d["tool"] for d in data["requests"][0]["decisions"]] == ["a", "b", "a", "b"]
