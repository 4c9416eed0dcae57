"""A newcomer's first commands, run as a user runs them: the installed `schema-compat`
command, a real terminal width (COLUMNS, or a pseudo-terminal's own size), output through a
pipe or on a terminal.

Expected figures come from the JSON report of the same input, never from the text report's
own code.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MIXED = REPO_ROOT / "examples" / "mixed.json"
FS = REPO_ROOT / "examples" / "fs_read_files.json"
CORPUS = REPO_ROOT / "tests" / "data" / "corpus"
# The console script beside the test interpreter, as `make install` and pipx put it.
COMMAND = str(Path(sys.executable).parent / "schema-compat")
# The console script runs the tree under test (the compiled copy under `make test-compiled`),
# not whatever the environment's editable install points at.
_TREE = os.pathsep.join([str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])


class Run:
    """What a command printed, and how it ended."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def _env(columns: int | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES")}
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = _TREE
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return env


def piped(*args: str | Path, columns: int = 80, cwd: Path = REPO_ROOT) -> Run:
    """The command with stdout and stderr going to pipes, at a terminal width of `columns`."""
    proc = subprocess.run([COMMAND, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=_env(columns), timeout=120, check=False)
    return Run(proc.returncode, proc.stdout, proc.stderr)


def on_terminal(*args: str | Path, columns: int = 80, stream: str = "stdout",
                cwd: Path = REPO_ROOT) -> Run:
    """The command with `stream` on a pseudo-terminal `columns` wide (no COLUMNS set: the
    width is the terminal's own) and the other stream on a pipe."""
    import fcntl
    import struct
    import termios

    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    tty_out = stream == "stdout"
    proc = subprocess.Popen(
        [COMMAND, *map(str, args)], cwd=cwd, env=_env(None), stdin=subprocess.DEVNULL,
        stdout=follower if tty_out else subprocess.PIPE,
        stderr=subprocess.PIPE if tty_out else follower)
    os.close(follower)
    chunks: list[bytes] = []

    def read_terminal() -> None:
        while True:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the other end closed (EIO on Linux)
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    other = (proc.stderr if tty_out else proc.stdout)
    assert other is not None
    piped_text = other.read().decode()
    proc.wait(timeout=120)
    reader.join(timeout=30)
    os.close(leader)
    terminal = b"".join(chunks).decode().replace("\r\n", "\n")
    return Run(proc.returncode, terminal if tty_out else piped_text,
               piped_text if tty_out else terminal)


def json_report(*args: str | Path) -> Any:
    proc = piped(*args, "--json")
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def tool_names(path: Path) -> list[str]:
    return [t["name"] for t in json.loads(path.read_text())["tools"]]


# --- the provider matrix -------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 100])
def test_matrix_keeps_every_tool_name_whole_at_the_terminal_width(columns: int) -> None:
    proc = piped("check", "-p", "all", MIXED, columns=columns)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    rows = [line for line in lines if re.search(r"\s(✓|✗|fix|lossy)\s", line)]
    for name in tool_names(MIXED):
        assert any(line.lstrip().startswith(name + " ") for line in rows), name


def test_matrix_on_a_terminal_keeps_tool_names_whole() -> None:
    proc = on_terminal("check", "-p", "all", MIXED, columns=80)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for name in tool_names(MIXED):
        assert any(line.lstrip().startswith(name + " ") for line in lines), name


def _two_servers(tmp_path: Path) -> tuple[Path, Path]:
    """One listing saved as two sources: the same tool names, from two places."""
    first, second = tmp_path / "alpha" / "tools.json", tmp_path / "beta" / "tools.json"
    for path in (first, second):
        path.parent.mkdir()
        shutil.copy(FS, path)
    return first, second


def test_matrix_has_a_source_column_when_tools_come_from_several_sources(
        tmp_path: Path) -> None:
    first, second = _two_servers(tmp_path)
    proc = piped("check", "-p", "gemini,openai", first, second, columns=100)
    lines = proc.stdout.splitlines()
    head = next(line for line in lines if line.lstrip().startswith("tool"))
    assert head.split() == ["tool", "source", "gemini", "openai"]
    rows = [line.split() for line in lines if line.lstrip().startswith("read_files")]
    assert [row[:2] for row in rows] == [["read_files", "alpha/tools.json"],
                                         ["read_files", "beta/tools.json"]]


def test_matrix_too_narrow_for_a_source_column_groups_rows_under_each_source(
        tmp_path: Path) -> None:
    first, second = _two_servers(tmp_path)
    proc = piped("check", "-p", "all", first, second, columns=60)
    lines = proc.stdout.splitlines()
    assert max(len(line) for line in lines) <= 60
    heads = [k for k, line in enumerate(lines) if line.strip() in ("alpha/tools.json",
                                                                   "beta/tools.json")]
    # every table (the provider columns go on in another when one would not fit) has both
    tables = sum(1 for line in lines if line.strip().startswith("tool "))
    assert [lines[k].strip() for k in heads] == ["alpha/tools.json", "beta/tools.json"] * tables
    reads = [k for k, line in enumerate(lines) if line.strip().startswith("read_files ")]
    assert len(reads) == len(heads)
    assert sorted(heads + reads) == [k for pair in zip(heads, reads, strict=True) for k in pair]


def test_markdown_matrix_and_findings_name_the_source_of_each_tool(tmp_path: Path) -> None:
    first, second = _two_servers(tmp_path)
    proc = piped("check", "--format", "markdown", "-p", "gemini,openai", first, second)
    lines = proc.stdout.splitlines()
    assert "| tool | source | `gemini` | `openai` |" in lines
    rows = [line for line in lines if line.startswith("| `read_files` |")]
    assert [row.split(" | ")[1] for row in rows] == ["`alpha/tools.json`", "`beta/tools.json`"]
    summaries = [line for line in lines if line.startswith("<summary><b>read_files</b>")]
    assert [s.split("</b> ")[1].split(" ")[0] for s in summaries[:2]] == [
        "(alpha/tools.json)", "(beta/tools.json)"]
    single = piped("check", "--format", "markdown", "-p", "gemini,openai", first)
    assert "| tool | `gemini` | `openai` |" in single.stdout.splitlines()


# --- the check report's summary ------------------------------------------------------------


def test_a_baselined_tool_is_not_called_compatible(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    shutil.copy(MIXED, tools)
    data = json_report("check", tools)
    statuses = [t["status"] for t in data["tools"]]
    incompatible = statuses.count("INCOMPATIBLE")
    with_findings = sum(1 for t in data["tools"] if t["issues"])
    total = sum(len(t["issues"]) for t in data["tools"])
    assert 0 < incompatible < len(statuses) and with_findings == len(statuses)
    assert piped("check", "--write-baseline", tmp_path / "bl.json", tools).returncode == 0

    proc = piped("check", "--baseline", tmp_path / "bl.json", tools, columns=200)
    assert proc.returncode in (0, 1), proc.stderr
    assert "compatible, no findings" not in proc.stdout
    assert (f"{len(statuses)} tools with findings in the baseline only ({incompatible} of "
            "them incompatible)") in proc.stdout
    assert (f"{len(statuses)} tools: {len(statuses) - incompatible} compatible, "
            f"{incompatible} incompatible with gemini; no new findings; {total} in baseline "
            f"{tmp_path / 'bl.json'}") in proc.stdout


def test_with_every_finding_baselined_check_exits_0(tmp_path: Path) -> None:
    """docs/ci.md, Baseline: `--baseline` "reports only new findings and exits 0 when there
    are none"."""
    tools = tmp_path / "tools.json"
    shutil.copy(MIXED, tools)
    assert piped("check", "--write-baseline", tmp_path / "bl.json", tools).returncode == 0
    proc = piped("check", "--baseline", tmp_path / "bl.json", tools, columns=200)
    assert "no new findings" in proc.stdout
    assert proc.returncode == 0, proc.stdout


def test_summary_counts_fixable_findings_apart_from_those_without_a_fix() -> None:
    data = json_report("check", MIXED)
    issues = [i for t in data["tools"] for i in t["issues"]]
    without = sum(1 for i in issues if i["fix"] is None)
    assert 0 < without < len(issues)
    proc = piped("check", MIXED, columns=300)
    [summary] = [line for line in proc.stdout.splitlines() if " findings (" in line]
    fixable = re.search(r"(\d+) fixable \(([^)]*)\), (\d+) without a fix", summary)
    assert fixable, summary
    assert int(fixable[1]) == len(issues) - without and int(fixable[3]) == without
    assert sum(int(n) for n in re.findall(r"\d+", fixable[2])) == len(issues) - without
    assert "fixable: " not in summary


# --- unreadable sources --------------------------------------------------------------------


def _bad_file(tmp_path: Path) -> Path:
    bad = tmp_path / "broken.json"
    bad.write_text("{\n")
    return bad


def test_an_unreadable_source_is_printed_once_through_a_pipe(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)
    proc = piped("check", MIXED, bad, columns=300)
    assert proc.returncode == 2
    both = proc.stdout + proc.stderr
    assert both.count("broken.json: not valid JSON") == 1
    assert proc.stderr.count("schema-compat: error: ") == 1
    assert "1 source could not be read (each is on stderr)" in proc.stdout
    assert "1 source unreadable" in proc.stdout


def test_an_unreadable_source_is_printed_once_on_a_terminal(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)
    proc = on_terminal("check", MIXED, bad, columns=200)
    assert proc.returncode == 2
    assert proc.stderr == ""
    assert proc.stdout.count("broken.json: not valid JSON") == 1
    assert "1 source could not be read:" in proc.stdout


# --- diff ----------------------------------------------------------------------------------


def test_diff_without_its_tool_says_the_tool_is_missing_and_names_some() -> None:
    proc = piped("diff", "examples/mixed.json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    line = proc.stderr.strip()
    assert "\n" not in line and "no SOURCE" not in line
    assert line.startswith("schema-compat: error: no TOOL given: 'examples/mixed.json' is a "
                           "SOURCE")
    names = tool_names(MIXED)
    assert f"e.g. schema-compat diff {names[0]} examples/mixed.json" in line
    assert ", ".join(names[:6]) in line


def test_diff_of_a_tool_two_sources_hold_names_both_and_how_to_choose(tmp_path: Path) -> None:
    first, second = _two_servers(tmp_path)
    proc = piped("diff", "read_files", "alpha/tools.json", "beta/tools.json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == (
        "schema-compat: error: tool 'read_files' is in 2 sources: alpha/tools.json, "
        "beta/tools.json (give only the one to show, e.g. schema-compat diff read_files "
        "alpha/tools.json)")
    suggested = proc.stderr.split("e.g. ")[1].rstrip(")\n").split()
    assert piped(*suggested[1:], cwd=tmp_path).returncode == 0
    assert first.exists() and second.exists()


# --- transform's summary -------------------------------------------------------------------


def _lossy_paths() -> list[str]:
    proc = piped("transform", "--json", MIXED, CORPUS / "servers")
    data = json.loads(proc.stdout)
    return [c["path"] for t in data["tools"] for c in t["transforms_applied"]
            if c["safety"] == "lossy" and c["path"] != "$"]


def _check_paths_break_between_steps(summary: str, paths: list[str], width: int) -> None:
    """Every lossy change's JSONPath is in the summary whole, and where it wraps, the next
    line starts with `.` or `[`."""
    lines = summary.splitlines()
    assert max(len(line) for line in lines) <= width
    # each lossy row: its body starts where its JSONPath does, continuation lines are
    # indented to there; lines are joined with a marker where they were broken
    bodies: list[str] = []
    indent = 0
    for line in lines:
        if line.startswith("    lossy ("):  # under its tool's name
            indent = line.index("$") if "$" in line else line.index("(tool)")
            bodies.append(line[indent:])
        elif bodies and indent and line.startswith(" " * indent) and line.strip():
            bodies[-1] += "\x00" + line[indent:]
        else:
            indent = 0
    long_ones = 0
    for path in paths:
        pattern = "\x00?".join(re.escape(c) for c in path)
        found = [m for b in bodies for m in re.finditer(pattern, b)]
        assert found, path
        for match in found:
            text = match.group()
            long_ones += "\x00" in text
            for k, c in enumerate(text):
                if c == "\x00":
                    assert text[k + 1] in ".[", (path, text)
    assert long_ones  # some paths were long enough to wrap at this width


def _without_clash_warning(stderr: str) -> str:
    """The summary without the one-line warning after it: these sources, written as one
    listing, hold tools of one name (a line like an error's, not wrapped)."""
    *summary, last = stderr.rstrip("\n").split("\n")
    assert last.startswith("schema-compat: warning: ") and "'read_files'" in last, last
    return "\n".join(summary) + "\n"


def test_transform_summary_breaks_a_long_jsonpath_between_steps_through_a_pipe(
        tmp_path: Path) -> None:
    proc = piped("transform", MIXED, CORPUS / "servers", "-o", tmp_path / "out.json")
    assert proc.returncode in (0, 1), proc.stderr
    # the "Checking N tools…" spinner comes first: its frames end in carriage returns and
    # cursor moves, then it is erased
    summary = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stderr).rpartition("\r")[2]
    assert summary.startswith("transform (gemini): ")
    _check_paths_break_between_steps(_without_clash_warning(summary), _lossy_paths(), 80)


def test_transform_summary_breaks_a_long_jsonpath_between_steps_on_a_terminal(
        tmp_path: Path) -> None:
    proc = on_terminal("transform", MIXED, CORPUS / "servers", "-o", tmp_path / "out.json",
                       stream="stderr", columns=80)
    assert proc.returncode in (0, 1), proc.stderr
    # the "Checking N tools…" spinner comes first: its frames end in carriage returns and
    # cursor moves, then it is erased
    summary = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", proc.stderr).rpartition("\r")[2]
    assert summary.startswith("transform (gemini): ")
    _check_paths_break_between_steps(_without_clash_warning(summary), _lossy_paths(), 80)
