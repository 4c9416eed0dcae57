"""Baselines: `--write-baseline` records today's findings, `--baseline` shows only new ones
and exits 0 when there are none."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
FS_PATH = REPO_ROOT / "examples" / "fs_read_files.json"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` in `cwd`, 120 columns, in-process (no interpreter start-up)."""
    return cli_in_process(*args, cwd=cwd, columns=120)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "tools.json").write_text(FS_PATH.read_text("utf-8"), "utf-8")
    return tmp_path


def test_baseline_round_trip(project: Path) -> None:
    proc = cli(project, "check", "--write-baseline", "baseline.json", "tools.json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == "schema-compat: recorded 10 findings in baseline.json"
    data = json.loads((project / "baseline.json").read_text("utf-8"))
    assert data["version"] == 1
    assert len(data["findings"]) == 10
    assert {"provider": "gemini", "tool": "read_files", "code": "REF001",
            "pointer": "/properties/files/items/$ref"} in data["findings"]

    proc = cli(project, "check", "--baseline", "baseline.json", "--json", "tools.json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["summary"]["findings"] == 0
    assert "10 findings in baseline baseline.json not shown" in proc.stderr

    # A new problem in one tool is reported, alone, and fails the check.
    tools = json.loads((project / "tools.json").read_text("utf-8"))
    tools["tools"][1]["inputSchema"]["properties"]["flag"] = {"type": "boolean",
                                                              "enum": [True]}
    (project / "tools.json").write_text(json.dumps(tools), "utf-8")
    proc = cli(project, "check", "--baseline", "baseline.json", "--json", "tools.json")
    assert proc.returncode == 1
    issues = [(t["name"], i["code"], i["pointer"]) for t in json.loads(proc.stdout)["tools"]
              for i in t["issues"]]
    assert issues == [("propose_and_review", "VAL002", "/properties/flag/enum")]


def test_baseline_is_per_provider(project: Path) -> None:
    cli(project, "check", "--write-baseline", "b.json", "tools.json")
    proc = cli(project, "check", "--baseline", "b.json", "-p", "gemini,vertex", "--json",
               "tools.json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 1
    # gemini's findings are known; vertex's are all new.
    assert data["matrix"]["providers"] == ["gemini", "vertex"]
    assert data["summary"]["findings"] == 0  # the first report (gemini) is the summary


def test_a_repeated_finding_counts(project: Path, tmp_path: Path) -> None:
    """The baseline holds one REF001 at a pointer; two tools of the same name each with it
    make one known and one new."""
    cli(project, "check", "--write-baseline", "b.json", "tools.json")
    tools = json.loads((project / "tools.json").read_text("utf-8"))
    tools["tools"].append(tools["tools"][0])
    (project / "tools.json").write_text(json.dumps(tools), "utf-8")
    proc = cli(project, "check", "--baseline", "b.json", "--json", "tools.json")
    new = [i["code"] for t in json.loads(proc.stdout)["tools"] for i in t["issues"]]
    assert "REF001" in new and proc.returncode == 1


@pytest.mark.parametrize(("content", "needle"), [
    (None, "baseline missing.json does not exist (create it with --write-baseline)"),
    ("{", "is not JSON"),
    ('{"version": 2, "findings": []}', "is not a schema-compat baseline"),
    ('{"version": 1, "findings": [{"tool": 1}]}', "findings[0] needs string fields"),
    ('{"version": 1, "findings": [{"provider": "gemini", "tool": "t", "code": "REF001", '
     '"pointer": ""}, {"provider": "gemini", "tool": "read_files", "code": "REF001", '
     '"pointer": "no-slash"}]}',
     "baseline missing.json: findings[1] (tool 'read_files', REF001): pointer 'no-slash' is "
     "not a JSON Pointer"),
    ('{"version": 1, "findings": [{"provider": "gemini", "tool": "t", "code": "REF001", '
     '"pointer": "/properties/a~2b"}]}', "findings[0] (tool 't', REF001): pointer "),
])
def test_bad_baseline_is_one_line(project: Path, content: str | None, needle: str) -> None:
    if content is not None:
        (project / "missing.json").write_text(content, "utf-8")
    proc = cli(project, "check", "--baseline", "missing.json", "tools.json")
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert needle in line


def test_write_baseline_never_overwrites_an_input(project: Path) -> None:
    before = (project / "tools.json").read_text("utf-8")
    proc = cli(project, "check", "--write-baseline", "tools.json", "tools.json")
    assert proc.returncode == 2
    assert "is one of the inputs" in proc.stderr
    assert (project / "tools.json").read_text("utf-8") == before


def test_write_baseline_refuses_when_a_source_is_unreadable(project: Path) -> None:
    proc = cli(project, "check", "--write-baseline", "b.json", "tools.json", "nope.json")
    assert proc.returncode == 2
    assert not (project / "b.json").exists()
    assert "not written" in proc.stderr.splitlines()[-1]


def test_baseline_and_write_baseline_together_is_usage_error(project: Path) -> None:
    proc = cli(project, "check", "--baseline", "a.json", "--write-baseline", "b.json",
               "tools.json")
    assert proc.returncode == 2
    assert "do not go together" in proc.stderr
