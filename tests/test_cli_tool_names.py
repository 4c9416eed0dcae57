"""A tool's name is what the model calls it by and what a call is routed by: a tool without
one is input a command cannot use (one line naming the file and the tool's index, exit 2, the
other tools still checked); two tools of one source named alike are not one tool to show or
repair; and a call names the tool as the transform sent it."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import RunCli

OBJ = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
NAMELESS = {"tools": [{"description": "No name.", "inputSchema": OBJ},
                      {"name": "b", "description": "Has one.", "inputSchema": OBJ},
                      {"name": 7, "description": "A number.", "inputSchema": OBJ}]}
DUPLICATE = {"tools": [{"name": "a", "description": "First.", "inputSchema": OBJ},
                       {"name": "b", "description": "Other.", "inputSchema": OBJ},
                       {"name": "a", "description": "Second.",
                        "inputSchema": {"type": "object", "properties": {}}}]}


def _file(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("schema-compat: error: ")]


def test_check_reports_a_nameless_tool_and_checks_the_others(cli_here: RunCli,
                                                             tmp_path: Path) -> None:
    path = _file(tmp_path, "nameless.json", NAMELESS)
    proc = cli_here("check", "--json", path)
    assert proc.returncode == 2, proc.stderr
    assert _errors(proc.stderr) == [
        f'schema-compat: error: {path}: tool {i} has no name (give it a "name" string: the '
        "model calls a tool by its name and each call is routed by it)" for i in (0, 2)]
    data = json.loads(proc.stdout)
    assert [t["name"] for t in data["tools"]] == ["b"]
    assert [e["source"] for e in data["errors"]] == [path, path]


def test_transform_writes_nothing_for_a_nameless_tool(cli_here: RunCli,
                                                      tmp_path: Path) -> None:
    path = _file(tmp_path, "nameless.json", NAMELESS)
    out = tmp_path / "out.json"
    proc = cli_here("transform", path, "-o", str(out))
    assert proc.returncode == 2
    assert not out.exists()
    assert "_tool_0_" not in proc.stdout + proc.stderr
    assert f"{path}: tool 0 has no name" in proc.stderr


def test_diff_of_a_name_two_tools_share_names_both(cli_here: RunCli, tmp_path: Path) -> None:
    path = _file(tmp_path, "dup.json", DUPLICATE)
    proc = cli_here("diff", "a", path)
    assert proc.returncode == 2
    assert _errors(proc.stderr) == [
        f"schema-compat: error: 2 tools are named 'a' in {path} (at index 0 and 2) "
        "(give each tool a name of its own)"]
    assert proc.stdout == ""
    assert cli_here("diff", "b", path).returncode == 0  # a name of its own is fine


def test_repair_of_a_name_two_tools_share_names_both(cli_here: RunCli,
                                                     tmp_path: Path) -> None:
    path = _file(tmp_path, "dup.json", DUPLICATE)
    proc = cli_here("repair", "-t", "a", path, "--args", '{"n": "3"}')
    assert proc.returncode == 2 and proc.stdout == ""
    assert _errors(proc.stderr) == [
        f"schema-compat: error: 2 tools are named 'a' in {path} (at index 0 and 2) "
        "(give each tool a name of its own)"]


def test_repair_takes_the_name_the_transform_sends(cli_here: RunCli) -> None:
    """examples/mixed.json's `github/search issues` is sent as github_search_issues: a call
    under that name is repaired against that tool's schema, and stderr says which it is."""
    sent = cli_here("transform", "--json", "examples/mixed.json")
    names = {t["name"]: t["transformed_name"] for t in json.loads(sent.stdout)["tools"]}
    assert names["github/search issues"] == "github_search_issues"
    proc = cli_here("repair", "-t", "github_search_issues", "examples/mixed.json",
                    "--args", '{"q": "bug", "per_page": "5"}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"q": "bug", "per_page": 5}
    assert proc.stderr.splitlines()[0] == (
        "schema-compat: --tool github_search_issues is 'github/search issues' of "
        "examples/mixed.json, as the gemini transform names it")
    by_original = cli_here("repair", "-t", "github/search issues", "examples/mixed.json",
                           "--args", '{"q": "bug", "per_page": "5"}')
    assert json.loads(by_original.stdout) == json.loads(proc.stdout)
    assert "as the" not in by_original.stderr


def test_repair_of_a_name_no_transform_sends_still_fails(cli_here: RunCli) -> None:
    proc = cli_here("repair", "-t", "nope", "examples/mixed.json", "--args", "{}")
    assert proc.returncode == 2
    assert _errors(proc.stderr)[0].startswith("schema-compat: error: no tool named 'nope'")
