"""Usage errors are one line on stderr and exit 2 (README, "Exit codes"): those click finds
while typer reads the command line (an unknown option, a value an option does not take, a
missing argument) as much as the commands' own."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from inprocess import run_main

from schema_compat import entry

REPO_ROOT = Path(__file__).resolve().parent.parent
FS = "examples/fs_read_files.json"


def _one_line(args: list[str]) -> str:
    """The single stderr line of `schema-compat ARGS`, which must exit 2."""
    code, out, err = run_main(entry.main, args)
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("schema-compat: error: "), lines[0]
    assert "Usage:" not in out + err and "Try '" not in out + err
    return lines[0]


@pytest.mark.parametrize(("args", "needles"), [
    (["check", "--fail-on", "fatal", FS], ["--fail-on", "'fatal'", "error, warning, info"]),
    (["check", "--fail-on=fatal", FS], ["--fail-on", "'fatal'", "error, warning, info"]),
    (["check", "--format", "xml", FS],
     ["--format", "'xml'", "text, json, sarif, github, markdown"]),
    (["check", "-fxml", FS], ["--format", "'xml'", "text, json, sarif"]),
    (["check", "--timeout", "0", FS],
     ["--timeout 0", "out of range", "give a number of seconds, at least 0.1"]),
    (["check", "--timeout", "abc", FS], ["--timeout 'abc'", "not a number"]),
    (["transform", "--to", "yaml", FS],
     ["--to", "'yaml'", "openai-chat, openai-responses, anthropic, gemini"]),
    (["serve", "--port", "99999"], ["--port 99999", "out of range", "from 0 to 65535"]),
    (["serve", "--port", "x"], ["--port 'x'", "not a whole number"]),
    (["check", "--verbos", FS], ["no such option: --verbos", "--verbose"]),
    (["check", "--provider"], ["'--provider' requires an argument", "check --help"]),
    (["diff"], ["missing argument", "TOOL", "diff --help"]),
    (["rule"], ["missing argument 'CODE'", "rule --help"]),
    (["chek", FS], ["no such command 'chek'", "did you mean 'check'?"]),
    (["transform", "--timeout", "0.05", FS], ["--timeout 0.05 is out of range", "at least 0.1"]),
    (["check", "--request", "bogus", FS], ["unknown --request 'bogus'", "auto, all, per-source"]),
    (["diff", "read_files", "--format", "json", FS], ["no such option: --format"]),
    (["check", "--json=x", FS], ["option '--json' does not take a value"]),
    (["check", FS, "--name", "x"], ["--name picks servers of --config", "add --config FILE"]),
    (["check", "--server", 'a "b'], ["cannot split --server", "No closing quotation"]),
    (["repair", "--tool", "x", "--args", "-", "-"],
     ["stdin cannot hold both the SOURCE and --args"]),
    (["breaking", "--against", FS], ["with --against, give one NEW"]),
    (["breaking", "--against", FS, FS, FS], ["with --against, give one NEW"]),
    (["init", "--dir", "no-such-dir", "--provider", "gemini", "--server", "python x.py"],
     ["--dir no-such-dir: no such directory"]),
])
def test_a_usage_error_click_finds_is_one_line(args: list[str], needles: list[str]) -> None:
    line = _one_line(args)
    for needle in needles:
        assert needle in line, (needle, line)


def test_the_last_value_given_is_the_one_named() -> None:
    """click reads the last of an option given twice: the error names that one."""
    line = _one_line(["check", "--fail-on", "warning", "--fail-on", "fatal", FS])
    assert "'fatal'" in line and "'warning'" not in line


def test_a_bare_command_line_still_shows_the_help() -> None:
    code, out, err = run_main(entry.main, [])
    assert code == 2 and "Commands:" in out + err


def test_serve_on_a_taken_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-m", "schema_compat", "serve", "--no-open",
                               "--port", str(port)], capture_output=True, text=True,
                              cwd=tmp_path, timeout=60, check=False,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                   "PYTHONPATH": str(REPO_ROOT)})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [proc.stderr.strip()], proc.stderr
    assert proc.stderr.startswith(f"schema-compat: error: cannot listen on 127.0.0.1:{port}: ")
    assert "--port" in proc.stderr and "0 for a free one" in proc.stderr
