"""`check`, `transform` and `diff` read without typer (commands/argv.py) must mean what typer
would make of the same command line: the tables are held to the typer commands' own options
here, and the output of both paths is compared for many command lines, including ones the
short path hands back to typer.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inprocess import run_main

from schema_compat import cli, entry
from schema_compat import options as table
from schema_compat.commands.argv import (
    PLAIN_COMMANDS,
    CommandLine,
    flag_table,
    read_command_line,
)
from schema_compat.commands.check import CheckOptions
from schema_compat.commands.diff import DiffOptions
from schema_compat.commands.inputs import LiveOpts, options_of
from schema_compat.commands.transform import TransformOptions
from schema_compat.report import json as report_json

REPO_ROOT = Path(__file__).resolve().parent.parent
# main() raises the limit to this on start; doing it once here keeps hypothesis from warning
# that the limit changed during a test.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
OPTIONS_TYPES = {"check": CheckOptions, "transform": TransformOptions, "diff": DiffOptions}


def _typer_command(name: str) -> Any:
    """The click command typer builds (typer 0.28 vendors click: its classes are read by
    their attributes, not imported)."""
    return typer.main.get_command(cli.app).commands[name]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", PLAIN_COMMANDS)
def test_flags_read_here_are_the_typer_command_options_and_nothing_else(name: str) -> None:
    """Both readers are built from options.py: what typer made of the table is what the
    short path reads (flags, parameter, kind, choices, range, positional arguments)."""
    flags = flag_table(name)
    params = _typer_command(name).params
    declared = {flag: p for p in params if p.param_type_name == "option"
                for flag in [*p.opts, *p.secondary_opts]}
    assert set(flags) == set(declared)
    for flag, spec in flags.items():
        param = declared[flag]
        assert spec.param == param.name, flag
        if param.is_flag:
            assert spec.kind == "flag", flag
        elif param.multiple:
            assert spec.kind == "multi", flag
        elif hasattr(param.type, "choices"):
            assert spec.kind == "choice", flag
            assert list(spec.choices) == [str(c) for c in param.type.choices], flag
        elif param.type.name == "float range":
            assert spec.kind == "float", flag
            assert param.type.min == spec.minimum and not param.type.min_open, flag
        else:
            assert spec.kind == "value", flag
    arguments = [p for p in params if p.param_type_name == "argument"]
    assert tuple(p.name for p in arguments) == tuple(a.param for a in table.arguments(name))
    assert [p.nargs for p in arguments] == [1] * (len(arguments) - 1) + [-1]


@pytest.mark.parametrize("name", PLAIN_COMMANDS)
def test_a_command_line_with_no_options_holds_the_typer_defaults(name: str) -> None:
    """Every parameter the command line leaves out is handed over at typer's default, and
    the options record has a field for each."""
    args = [name, "read_files"] if name == "diff" else [name]
    line = read_command_line(args)
    assert line is not None
    typer_defaults = {p.name: p.default for p in _typer_command(name).params
                      if not p.required}
    assert {k: v for k, v in line.values.items() if k != "tool_name"} == typer_defaults
    record = options_of(OPTIONS_TYPES[name], line.values)
    assert record.live == LiveOpts(**{o.param: o.default for o in table.LIVE_OPTIONS})


@pytest.mark.parametrize(("args", "values"), [
    (["check"], {}),
    (["check", "a.json", "-", "b"], {"sources": ["a.json", "-", "b"]}),
    (["check", "--provider=openai", "-t", "x", "--tool", "y*", "a.json", "--json"],
     {"sources": ["a.json"], "provider": "openai", "tool": ["x", "y*"], "json_out": True}),
    (["check", "-f", "sarif", "--fail-on", "warning", "--timeout", "2.5", "--provider="],
     {"output_format": "sarif", "fail_on": "warning", "timeout": 2.5, "provider": ""}),
    (["check", "--tool", "-", "--select", "REF", "--select", "UNI001"],
     {"tool": ["-"], "select": ["REF", "UNI001"]}),
    (["transform", "a.json", "-o", "out.json", "-q", "--force"],
     {"sources": ["a.json"], "output": "out.json", "quiet": True, "force": True}),
    (["diff", "read_files", "a.json", "b.json", "--json"],
     {"tool_name": "read_files", "sources": ["a.json", "b.json"], "json_out": True}),
    (["diff", "-p", "openai", "read_files"], {"tool_name": "read_files", "provider": "openai"}),
    (["check", "--server", "python s.py", "--timeout=5", "--env", "A=1", "--env", "B=2"],
     {"server": ["python s.py"], "timeout": 5.0, "env": ["A=1", "B=2"]}),
])
def test_plain_command_lines_are_read(args: list[str], values: dict[str, Any]) -> None:
    everything = {**table.defaults(args[0]), **values}
    assert read_command_line(args) == CommandLine(args[0], everything, frozenset(values))
    options_of(OPTIONS_TYPES[args[0]], everything)  # every parameter is one the command has


@pytest.mark.parametrize("args", [
    ["check", "--help"], ["check", "-h"], ["check", "--provder", "x"], ["check", "--json=yes"],
    ["check", "-vp", "gemini"], ["check", "--", "a"], ["check", "--provider"],
    ["check", "--provider", "-v"], ["check", "-pgemini"], ["check", "-p=gemini"],
    ["check", "--format", "yaml"], ["check", "--fail-on", "ERROR"],
    ["check", "--timeout", "0.05"], ["check", "--timeout", "1e3"], ["check", "--timeout", "x"],
    ["check", "a.json", "-x"], ["transform", "--verbose"], ["transform", "--format", "json"],
    ["diff"], ["diff", "--json"], ["diff", "-t", "x", "read_files"], ["rules"], [],
    ["Check", "a.json"],
])
def test_anything_else_goes_to_typer(args: list[str]) -> None:
    assert read_command_line(args) is None


# --- both paths, same output --------------------------------------------------------------

_VALUES = {  # the first of each is one the command accepts
    "provider": ["gemini", "openai-strict", "all", "gemini,anthropic", "bogus", ""],
    "tool": ["read_*", "nothing-matches"],
    "output_format": ["text", "json", "markdown", "github", "sarif", "yaml"],
    "select": ["REF", "UNI001,REF002", "NOPE"],
    "ignore": ["UNI", "REF001"],
    "fail_on": ["error", "warning", "info", "fatal"],
    "baseline": ["missing-baseline.json"],
    "write_baseline": ["written.json", "tools.json", "sub/mixed.json"],
    "output": ["written.json", "tools.json", "sub/mixed.json", "no-such-dir/out.json"],
    "env": ["K=V"],
    "server": ["no-such-command-schema-compat"],
    "url": ["http://127.0.0.1:9/mcp"],  # port 9 (discard) is closed: refused at once
    "sse": ["http://127.0.0.1:9/sse"],
    "cwd": ["."],
    "header": ["A: b"],
    "config": ["missing-config.json"],
    "name": ["github"],
    "timeout": ["5", "0.05", "abc"],
    "request": ["all", "per-source", "auto", "bogus"],
    "strict_first": ["read_*"],
    "name_prefix": ["mcp", "server", "none", "bogus"],
    "exclude_tool": ["read_*", "nothing-matches"],
    "client": ["cursor", "claude-code", "copilot-cli", "zed", "bogus"],
    "to": ["gemini", "anthropic", "openai-chat", "openai-responses", "bogus"],
    "path": ["$.properties", "$.nope", "$[["],
}
_POSITIONAL = {"sources": ["tools.json", "missing.json", "-", "sub"],
               "tool_name": ["read_files", "get_forecast", "nothing"]}


@st.composite
def _command_lines(draw: st.DrawFn) -> list[str]:
    """A command, then option and positional tokens in any order, written every way click
    takes them, plus an occasional form the short path must hand to typer."""
    name = draw(st.sampled_from(PLAIN_COMMANDS))
    flags = flag_table(name)
    args = [name]
    if name == "diff" and draw(st.integers(0, 9)):
        args.append(draw(st.sampled_from(_POSITIONAL["tool_name"])))
    usable = [f for f, s in flags.items() if s.kind == "flag" or s.param in _VALUES]
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            args.append(draw(st.sampled_from(_POSITIONAL["sources"])))
            continue
        flag = draw(st.sampled_from(usable))
        spec = flags[flag]
        if spec.kind == "flag":
            args.append(flag)
            continue
        value = draw(st.sampled_from(_VALUES[spec.param]))
        if flag.startswith("--") and draw(st.booleans()):
            args.append(f"{flag}={value}")
        else:
            args += [flag, value]
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(1, len(args))),
                    draw(st.sampled_from(["--", "-vj", "--json=1", "--provider", "-x"])))
    return args


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("argv")
    shutil.copy(REPO_ROOT / "examples" / "fs_read_files.json", here / "tools.json")
    (here / "sub").mkdir()
    shutil.copy(REPO_ROOT / "examples" / "mixed.json", here / "sub" / "mixed.json")
    return here


def _stamp() -> str:
    return "2026-01-02T03:04:05Z"


def _run_in(workdir: Path, main: Callable[[], None], args: list[str]
            ) -> tuple[int, str, str, dict[str, str]]:
    """What a run printed, and every file it wrote or changed (each put back as it was)."""
    before = {p: p.read_bytes() for p in workdir.rglob("*") if p.is_file()}
    # one clock for both paths: a JSON report's `generated_at` has seconds, and two runs
    # may straddle one
    with contextlib.chdir(workdir), mock.patch.object(report_json, "_now", _stamp):
        code, out, err = run_main(main, args, b"{}")
    changed = {}
    for path in [p for p in workdir.rglob("*") if p.is_file()]:
        data = path.read_bytes()
        if before.get(path) != data:
            changed[str(path.relative_to(workdir))] = data.decode("utf-8", "replace")
            if path in before:
                path.write_bytes(before[path])
            else:
                path.unlink()
    return code, out, err, changed


def _each_option() -> list[list[str]]:
    """Every option of every command once, with a usable value, on the example file."""
    lines = []
    for name in PLAIN_COMMANDS:
        for flag, spec in flag_table(name).items():
            tool = ["read_files"] if name == "diff" else []
            value = [] if spec.kind == "flag" else [_VALUES[spec.param][0]]
            lines.append([name, *tool, flag, *value, "tools.json"])
    return lines


@pytest.mark.parametrize("args", _each_option(), ids=" ".join)
def test_each_option_means_the_same_on_both_paths(workdir: Path, args: list[str]) -> None:
    assert read_command_line(args) is not None
    assert _run_in(workdir, entry.main, args) == _run_in(workdir, cli.main, args)


# Every option is compared once above; these are combinations of them (100: about a second).
@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(args=_command_lines())
def test_both_paths_print_and_write_the_same(workdir: Path, args: list[str]) -> None:
    assert _run_in(workdir, entry.main, args) == _run_in(workdir, cli.main, args), args


@pytest.mark.parametrize("args", [["check", "--json"], ["transform", "-q"]])
def test_a_reader_that_leaves_early_gets_the_same_exit_on_both_paths(args: list[str]) -> None:
    """`schema-compat check --json big.json | head`: the run's own exit code (as when all of
    its output is read), nothing on stderr, whether or not typer read the command line
    (`--timeout=1e3` sends it there)."""
    big = str(REPO_ROOT / "tests" / "data" / "corpus" / "servers" / "brave-search-mcp-server.json")
    outcomes = []
    for extra in ([], ["--timeout=1e3"]):
        assert (read_command_line([*args, *extra, big]) is None) == bool(extra)
        proc = subprocess.Popen([sys.executable, "-m", "schema_compat", *args, *extra, big],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO_ROOT)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(10)
        proc.stdout.close()
        stderr = proc.stderr.read()
        outcomes.append((proc.wait(timeout=60), stderr))
    whole = subprocess.run([sys.executable, "-m", "schema_compat", *args, big],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO_ROOT,
                           timeout=60, check=False).returncode
    assert outcomes[0] == outcomes[1] == (whole, b"")
