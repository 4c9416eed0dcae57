"""The check report's closing hints are commands that work as printed: each is run here,
from where the check ran, exactly as the report prints it (split as a shell splits it, run
in-process: tests/inprocess.py; the servers they list are processes of their own)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
MIXED = REPO_ROOT / "examples" / "mixed.json"
# the example's listing, served without the SDK (a hint names the server, whatever serves)
FS_SERVER = REPO_ROOT / "tests" / "servers" / "listing_server.py"
SERVER_CMD = f"{shlex.quote(sys.executable)} {shlex.quote(str(FS_SERVER))}"


def _run(words: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`schema-compat ...` as split from a command line, 2000 columns: each hint on a line."""
    assert words[0] == "schema-compat", words
    return cli_in_process(*words[1:], cwd=cwd, input=stdin, columns=2000)


def _hints(check_out: str) -> tuple[list[str], list[str]]:
    """The `transform` and `diff` command lines of the hint, split as a shell would."""
    line = next(ln for ln in check_out.splitlines() if ln.startswith("run `"))
    transform = re.match(r"run `([^`]+)`", line)
    diff = re.search(r", or `([^`]+)` to see one", line)
    assert transform and diff, line
    return shlex.split(transform.group(1)), shlex.split(diff.group(1))


def _assert_hints_work(check: list[str], cwd: Path, stdin: str = "") -> list[str]:
    proc = _run(["schema-compat", "check", *check], cwd, stdin)
    assert proc.returncode == 1, proc.stderr  # incompatible tools: the hint is printed
    transform, diff = _hints(proc.stdout)
    done = _run(transform, cwd, stdin)
    assert done.returncode == 0, (transform, done.stderr)
    assert json.loads(done.stdout)  # the transformed tools
    shown = _run(diff, cwd, stdin)
    assert shown.returncode == 0, (diff, shown.stderr)
    assert diff[2] in shown.stdout  # the diff of the tool the hint names
    return transform


def test_hint_carries_sources_and_provider(tmp_path: Path) -> None:
    shutil.copy(MIXED, tmp_path / "my tools.json")  # a name a shell must have quoted
    transform = _assert_hints_work(["my tools.json", "-p", "openai-strict", "--ignore", "NAM"],
                                   tmp_path)
    assert transform[:3] == ["schema-compat", "transform", "my tools.json"]
    assert transform[3:] == ["-p", "openai-strict", "--ignore", "NAM"]


def test_hint_from_stdin_says_what_to_add(tmp_path: Path) -> None:
    proc = _run(["schema-compat", "check", "-"], tmp_path,
                MIXED.read_text(encoding="utf-8"))
    assert "`schema-compat transform -` (with the same input on stdin) to fix" in proc.stdout
    _assert_hints_work(["-"], tmp_path, MIXED.read_text(encoding="utf-8"))


def test_hint_after_check_server(tmp_path: Path) -> None:
    transform = _assert_hints_work(["--server", SERVER_CMD], tmp_path)
    assert transform[2:] == ["--server", SERVER_CMD]


@pytest.mark.parametrize(("config", "client"), [(".mcp.json", "claude-code"),
                                               (".vscode/mcp.json", "vscode")])
def test_hint_after_a_config_check_found_by_itself(tmp_path: Path, config: str,
                                                   client: str) -> None:
    """The hint reads the config the check found, with the client it inferred from it, so
    that transform applies the same client's limits."""
    path = tmp_path / config
    path.parent.mkdir(parents=True, exist_ok=True)
    server = {"command": sys.executable, "args": [str(FS_SERVER)]}
    key = "servers" if config.startswith(".vscode") else "mcpServers"
    path.write_text(json.dumps({key: {"fs": server}}), encoding="utf-8")
    transform = _assert_hints_work([], tmp_path)
    assert transform[2:] == ["--client", client, "--config", config]
