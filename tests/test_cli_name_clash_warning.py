"""Several sources are written by `transform` as one MCP tools/list result: where tools of
them are written under one name, stderr says so, naming each name and the files holding it
(docs/usage.md); `--request all` makes the names unique, and one source or no clash says
nothing."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import RunCli

OBJ = {"type": "object", "properties": {"q": {"type": "string"}}}


def _listing(path: Path, *names: str) -> str:
    path.write_text(json.dumps({"tools": [{"name": n, "description": "d", "inputSchema": OBJ}
                                          for n in names]}))
    return str(path)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "warning" in line]


def test_a_name_two_sources_share_is_named_with_both(cli_here: RunCli, tmp_path: Path) -> None:
    one = _listing(tmp_path / "one.json", "search", "only_here")
    two = _listing(tmp_path / "two.json", "search", "fetch data")
    three = _listing(tmp_path / "three.json", "fetch_data")
    out = tmp_path / "out.json"
    proc = cli_here("transform", "-q", one, two, three, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    written = [t["name"] for t in json.loads(out.read_text())["tools"]]
    assert written == ["search", "only_here", "search", "fetch_data", "fetch_data"]
    assert _warnings(proc.stderr) == [
        f"schema-compat: warning: 2 names are written for more than one tool: 'search' "
        f"({one}, {two}); 'fetch_data' ({two}, {three}) (a client reaches one tool per name; "
        "add --request all to make each name unique, or leave tools out with --exclude-tool)"]


def test_to_stdout_too(cli_here: RunCli, tmp_path: Path) -> None:
    one = _listing(tmp_path / "one.json", "search")
    two = _listing(tmp_path / "two.json", "search")
    proc = cli_here("transform", one, two)
    assert json.loads(proc.stdout)["tools"][1]["name"] == "search"
    [warning] = _warnings(proc.stderr)
    assert f"1 name is written for more than one tool: 'search' ({one}, {two})" in warning


def test_no_warning_when_the_names_are_unique(cli_here: RunCli, tmp_path: Path) -> None:
    one = _listing(tmp_path / "one.json", "search")
    two = _listing(tmp_path / "two.json", "search")
    planned = cli_here("transform", "--request", "all", one, two)
    assert len({t["name"] for t in json.loads(planned.stdout)["tools"]}) == 2
    assert _warnings(planned.stderr) == []
    other = _listing(tmp_path / "other.json", "fetch")
    assert _warnings(cli_here("transform", one, other).stderr) == []
