"""`--help` reads on an 80-column terminal: no line is longer, no file name, flag or command
is cut at its hyphen, each value has a placeholder that says what it is, and the list of
commands says each in full."""

from __future__ import annotations

import itertools
import re

import pytest
import typer.main
from inprocess import run_main
from typer.core import TyperGroup

from schema_compat import cli
from schema_compat import options as table

COMMANDS = list(table.COMMANDS)


def _help(*args: str, columns: int = 80) -> str:
    code, out, err = run_main(cli.main, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert code == 0 and not err, (code, err)
    return out


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_fits_80_columns(command: str) -> None:
    text = _help(*filter(None, [command]))
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long


@pytest.mark.parametrize("columns", [60, 72, 80, 100])
@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_never_cuts_a_word_at_its_hyphen(command: str, columns: int) -> None:
    """A line that ends in letter-hyphen is a word cut in two (`.schema-` / `compat.toml`)."""
    lines = _help(*filter(None, [command]), columns=columns).splitlines()
    cut = [(line, after) for line, after in itertools.pairwise(lines)
           if re.search(r"\w-$", line)]
    assert not cut, cut


@pytest.mark.parametrize(("command", "names"), [
    ("check", [".schema-compat.toml", "[tool.schema-compat]", "schema-compat.sarif",
               ".schema-compat-baseline.json"]),
    ("init", [".schema-compat.toml", "mcp-tools.json", ".pre-commit-config.yaml",
              ".github/workflows/schema-compat.yml", "mcp-tools.NAME.json"]),
])
def test_file_names_are_whole_at_80_columns(command: str, names: list[str]) -> None:
    words = set(_help(command).split())
    for name in names:
        assert any(name in word for word in words), name


@pytest.mark.parametrize("command", COMMANDS)
def test_every_value_has_a_placeholder_saying_what_it_is(command: str) -> None:
    """typer's own placeholders (`<str>`, `<float range>`) say nothing: every option that
    takes a value other than a choice names it (FILE, GLOB, NAME, SECONDS)."""
    text = _help(command, columns=200)
    assert not re.search(r"<(str|text|float|int|integer|path)( range)?>", text), text
    for option in table.options(command):
        if option.kind not in ("flag", "choice", "table"):
            assert option.metavar and re.fullmatch(r"[A-Z\"'][A-Z =:.\"']*|K=V|'K: V'",
                                                   option.metavar), option
            assert f"{option.flags[0]} {option.metavar}" in text, option


def test_timeout_reads_seconds() -> None:
    assert "--timeout SECONDS" in _help("check")


def test_the_command_list_says_each_command_in_full() -> None:
    text = _help()
    listed = text.split("Commands:", 1)[1].splitlines()
    rows = [line for line in listed if line.strip()]
    assert len(rows) == len(COMMANDS), rows
    assert not [row for row in rows if "..." in row or not row.rstrip().endswith(".")], rows


@pytest.mark.parametrize("name", COMMANDS)
def test_each_example_in_help_is_printed_on_a_line_of_its_own(name: str) -> None:
    """Click rewraps a help paragraph unless it is marked not to be (`\\b`): an examples
    block run together into one paragraph cannot be copied from."""
    command = typer.main.get_command(cli.app)
    assert isinstance(command, TyperGroup)
    doc = command.commands[name].help or ""
    block = doc.split("Examples:", 1)[1].strip().split("\n\n")[0] if "Examples:" in doc else ""
    examples = block.splitlines()
    assert examples or name == "profiles"
    shown = _help(name, columns=100)
    lines = [line.strip() for line in shown.splitlines()]
    for example in examples:
        assert example.strip() in lines, (name, example)


@pytest.mark.parametrize(("command", "statuses"), [
    ("", ["0 nothing at or above --fail-on", "1 findings remain", "2 bad usage"]),
    ("check", ["Exit 0 when nothing is at or above --fail-on", "1 when findings remain",
               "2 for bad usage"]),
    ("transform", ["Exit 0 when the output has no error finding left", "1 when it has",
                   "2 for bad usage"]),
    ("diff", ["Exit 0, or 2 for bad usage"]),
    ("breaking", ["Exit 1 on a breaking change", "2 for bad input"]),
    ("explain", ["Exit 0 when the error was mapped", "2 for bad usage"]),
    ("repair", ["Exit 0 when the repaired arguments are valid", "1 when the schema"]),
])
def test_help_says_what_each_exit_status_means(command: str, statuses: list[str]) -> None:
    """A script or CI job tests the exit status: the help of each command that has more
    than one says which means what."""
    text = " ".join(_help(*filter(None, [command]), columns=200).split())
    assert [s for s in statuses if s not in text] == []
