"""A reader that closes the pipe early (`check ... | head -1`, a pager quit) changes nothing
but where the rest of the output goes (issue 28 #21): the run ends quietly, with the exit
status it has without the pipe closed. It used to end 1 when a write failed (a clean check,
0 otherwise) and 120 when the failing write was the interpreter's final flush (`transform`).

Real processes, as only they show it: their own stdout file descriptor, the interpreter's
final flush and its exit status.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CLEAN = {"tools": [{"name": "ok", "description": "Fine.",
                    "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}]}
# a listing whose transformed form is far larger than a pipe's buffer (64 KiB): a reader that
# takes one line and leaves is gone while the rest is still being written
LARGE = "tests/data/corpus/servers/brave-search-mcp-server.json"


def _env() -> dict[str, str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    env.pop("FORCE_COLOR", None)
    env.pop("SCHEMA_COMPAT_DEBUG", None)
    return env


def _status(*args: str) -> int:
    """The exit status with stdout read to the end."""
    proc = subprocess.run([sys.executable, "-m", "schema_compat", *args], cwd=REPO, env=_env(),
                          capture_output=True, check=False, timeout=120)
    return proc.returncode


def _closed_before_start(*args: str) -> tuple[int, str]:
    """Exit status and stderr with stdout a pipe whose reader has left before the run
    starts: every write to it fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "schema_compat", *args], cwd=REPO,
                              env=_env(), stdout=write, stderr=subprocess.PIPE, text=True,
                              check=False, timeout=120)
    finally:
        os.close(write)
    return proc.returncode, proc.stderr


def _head_1(*args: str) -> tuple[int, str, str]:
    """Exit status, stderr and the line read, as `... | head -1` would leave them: the
    reader takes one line and closes the pipe while the run still writes."""
    proc = subprocess.Popen([sys.executable, "-m", "schema_compat", *args], cwd=REPO,
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    try:
        err = proc.stderr.read()
        code = proc.wait(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    return code, err, first


@pytest.fixture
def clean(tmp_path: Path) -> str:
    import json

    path = tmp_path / "clean.json"
    path.write_text(json.dumps(CLEAN), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("extra", [[], ["--json"], ["-v"], ["--format", "sarif"]])
def test_check_of_a_clean_file_exits_0_when_the_reader_has_left(clean: str,
                                                               extra: list[str]) -> None:
    assert _status("check", clean, *extra) == 0
    code, err = _closed_before_start("check", clean, *extra)
    assert (code, err) == (0, "")


def test_check_with_findings_still_exits_1() -> None:
    assert _status("check", "examples/mixed.json") == 1
    code, err = _closed_before_start("check", "examples/mixed.json")
    assert (code, err) == (1, "")


def test_transform_exits_0_when_the_reader_has_left(clean: str) -> None:
    """Its summary still reaches stderr, which the reader never held."""
    code, err = _closed_before_start("transform", clean)
    assert code == 0
    assert err.startswith("transform (gemini): 0 of 1 tool changed")


def test_transform_piped_into_head_1_exits_0() -> None:
    assert _status("transform", LARGE, "-q") == 0
    code, err, first = _head_1("transform", LARGE, "-q")
    assert first == "{\n"
    assert (code, err) == (0, "")


def test_diff_exits_0_when_the_reader_has_left() -> None:
    assert _status("diff", "read_files", "examples/fs_read_files.json") == 0
    code, err = _closed_before_start("diff", "read_files", "examples/fs_read_files.json")
    assert (code, err) == (0, "")
