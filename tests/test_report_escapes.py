"""Tool names and other text a file or server gives reach a terminal, a markdown comment or
a GitHub annotation with their control characters shown as escapes: a name can neither start
a line of its own (a forged `::warning` command, a fake finding) nor colour the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EVIL = "evil\nname\x1b[31m"
FORGED = "x\n::warning title=pwned::gotcha"
SHOWN = {EVIL: "evil\\nname\\x1b[31m", FORGED: "x\\n::warning title=pwned::gotcha"}


def _tools(path: Path) -> Path:
    ref = {"type": "object", "properties": {"a": {"$ref": "#/$defs/X"}},
           "$defs": {"X": {"type": "string"}}}
    union = {"type": "object",
             "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}
    path.write_text(json.dumps([{"name": EVIL, "inputSchema": ref},
                                {"name": FORGED, "inputSchema": union}]), encoding="utf-8")
    return path


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "300"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", "schema_compat", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, check=False, timeout=120)


def _assert_escaped(text: str) -> None:
    assert "\x1b" not in text
    for line in text.splitlines():
        assert not line.startswith(("name", "::warning title=pwned")), line
    for shown in SHOWN.values():
        assert shown in text


@pytest.mark.parametrize("args", [
    ["check"], ["check", "-v", "-p", "openai-strict"], ["check", "-f", "markdown"],
    ["check", "-f", "github"], ["check", "-p", "gemini,openai-strict"],
])
def test_reports_escape_tool_names(tmp_path: Path, args: list[str]) -> None:
    out = _run(tmp_path, *args, str(_tools(tmp_path / "t.json"))).stdout
    _assert_escaped(out)
    if "markdown" in args:
        summaries = [ln for ln in out.splitlines() if ln.startswith("<summary>")]
        assert [s.split("</b>")[0] for s in summaries] == [
            f"<summary><b>{SHOWN[EVIL]}", f"<summary><b>{SHOWN[FORGED]}"]


def test_transform_summary_escapes_tool_names(tmp_path: Path) -> None:
    proc = _run(tmp_path, "transform", "-p", "openai-strict", str(_tools(tmp_path / "t.json")))
    assert proc.returncode == 0, proc.stderr
    _assert_escaped(proc.stderr)
    assert f"renamed 2 tools: {SHOWN[EVIL]} -> evil_name__31m" in proc.stderr


def test_diff_escapes_the_tool_name(tmp_path: Path) -> None:
    proc = _run(tmp_path, "diff", EVIL, str(_tools(tmp_path / "t.json")))
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout
    assert proc.stdout.startswith(f"diff {SHOWN[EVIL]}")
