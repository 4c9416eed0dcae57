"""`main()` builds only the command named on the command line (`cli.app_for`): the same run
must read the same as with the whole app, help and errors included."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
import typer.main
from typer.core import TyperGroup
from typer.testing import CliRunner

from schema_compat.cli import app, app_for
from schema_compat.report import json as report_json

REPO_ROOT = Path(__file__).resolve().parent.parent
FS = "examples/fs_read_files.json"
COMMANDS = ["check", "transform", "diff", "breaking", "explain", "repair", "proxy", "rules",
            "rule", "profiles", "serve", "init"]
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}


def _stamp() -> str:
    return "2026-01-02T03:04:05Z"


def _run(target: typer.Typer, args: list[str]) -> tuple[int, str, str]:
    # one clock for both runs: a JSON report's `generated_at` has seconds, and two runs may
    # straddle one
    with mock.patch.object(report_json, "_now", _stamp):
        result = CliRunner().invoke(target, args, env=ENV)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args", [
    *[[name, "--help"] for name in COMMANDS],
    ["check", FS], ["check", "--json", FS], ["check", "--bogus", FS],
    ["check", "--provider", "nope", FS], ["check", "--fail-on", "sometimes", FS],
    ["transform", "--quiet", FS], ["diff", "read_files", FS], ["diff", FS],
    ["repair", "--tool", "read_files", "--args", "{}", FS], ["rules"], ["rule", "REF001"],
    ["rule"], ["profiles", "extra"], ["breaking", FS, FS], ["breaking", FS],
], ids=" ".join)
def test_a_command_alone_reads_as_in_the_whole_app(args: list[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    lean = app_for(args)
    assert lean is not app
    assert _run(lean, args) == _run(app, args)


def _built(target: typer.Typer) -> list[str]:
    group = typer.main.get_command(target)
    assert isinstance(group, TyperGroup)
    return list(group.commands)


def test_only_the_named_command_is_built() -> None:
    assert _built(app_for(["check", FS])) == ["check"]
    assert _built(app) == COMMANDS


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["chekc", FS], ["-h", "check"]])
def test_anything_else_gets_the_whole_app(args: list[str]) -> None:
    assert app_for(args) is app


@pytest.mark.parametrize("name", COMMANDS)
def test_each_example_in_help_is_printed_on_a_line_of_its_own(name: str) -> None:
    """Click rewraps a help paragraph unless it is marked not to be (`\\b`): an examples
    block run together into one paragraph cannot be copied from."""
    command = typer.main.get_command(app_for([name, "--help"]))
    assert isinstance(command, TyperGroup)
    doc = command.commands[name].help or ""
    block = doc.split("Examples:", 1)[1].strip().split("\n\n")[0] if "Examples:" in doc else ""
    examples = block.splitlines()
    assert examples or name == "profiles"
    _, shown, _ = _run(app, [name, "--help"])
    lines = [line.strip() for line in shown.splitlines()]
    for example in examples:
        assert example.strip() in lines, (name, example)
