"""`check` read without typer (commands/check_argv.py) must mean what typer would make of the
same command line: its table is held to the typer command's own options here, and the output
of both paths is compared for many command lines, including ones the short path hands back.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer.main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schema_compat import cli, entry
from schema_compat.commands.check import CheckOptions
from schema_compat.commands.check_argv import CHECK_OPTIONS, parse_check

REPO_ROOT = Path(__file__).resolve().parent.parent
# main() raises the limit to this on start; doing it once here keeps hypothesis from warning
# that the limit changed during a test.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
EXAMPLE = REPO_ROOT / "examples" / "fs_read_files.json"


def _check_command() -> Any:
    """The click command typer builds for `check` (typer 0.28 vendors click: its classes
    are read by their attributes, not imported)."""
    return typer.main.get_command(cli.app).commands["check"]  # type: ignore[attr-defined]


def test_table_names_every_option_of_the_typer_command_and_nothing_else() -> None:
    options = [p for p in _check_command().params if p.param_type_name == "option"]
    declared = {flag: p for p in options for flag in [*p.opts, *p.secondary_opts]}
    assert set(CHECK_OPTIONS) == set(declared)
    for flag, spec in CHECK_OPTIONS.items():
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
            assert spec.kind == "seconds", flag
            assert param.type.min == 0.1 and not param.type.min_open, flag
        else:
            assert spec.kind == "value", flag


def test_defaults_are_the_typer_command_defaults() -> None:
    declared = {name: p.default for name, p in inspect.signature(cli.check).parameters.items()
                if name != "ctx"}
    assert declared == CheckOptions._field_defaults


@pytest.mark.parametrize(("args", "expected", "set_by_args"), [
    ([], CheckOptions(), set()),
    (["a.json", "-", "b"], CheckOptions(sources=["a.json", "-", "b"]), {"sources"}),
    (["--provider=openai", "-t", "x", "--tool", "y*", "a.json", "--json"],
     CheckOptions(sources=["a.json"], provider="openai", tool=["x", "y*"], json_out=True),
     {"sources", "provider", "tool", "json_out"}),
    (["-f", "sarif", "--fail-on", "warning", "--timeout", "2.5", "--provider="],
     CheckOptions(output_format="sarif", fail_on="warning", timeout=2.5,
                  provider=""),
     {"output_format", "fail_on", "timeout", "provider"}),
    (["--tool", "-", "--select", "REF", "--select", "UNI001"],
     CheckOptions(tool=["-"], select=["REF", "UNI001"]), {"tool", "select"}),
])
def test_plain_command_lines_are_read(args: list[str], expected: CheckOptions,
                                      set_by_args: set[str]) -> None:
    assert parse_check(args) == (expected, frozenset(set_by_args))


@pytest.mark.parametrize("args", [
    ["--help"], ["-h"], ["--provder", "x"], ["--json=yes"], ["-vp", "gemini"], ["--", "a"],
    ["--provider"], ["--provider", "-v"], ["-pgemini"], ["-p=gemini"], ["--format", "yaml"],
    ["--fail-on", "ERROR"], ["--timeout", "0.05"], ["--timeout", "1e3"], ["--timeout", "x"],
    ["a.json", "-x"],
])
def test_anything_else_goes_to_typer(args: list[str]) -> None:
    assert parse_check(args) is None


# --- both paths, same output --------------------------------------------------------------

def _run(main: Callable[[], None], args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = {"NO_COLOR": "1", "COLUMNS": "100", "SCHEMA_COMPAT_DEBUG": "1"}
    with mock.patch.object(sys, "argv", ["schema-compat", *args]), \
            mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{}"))), \
            mock.patch.dict(os.environ, env), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


_VALUES = {
    "provider": ["gemini", "openai-strict", "all", "gemini,anthropic", "bogus", ""],
    "tool": ["read_*", "nothing-matches"],
    "output_format": ["text", "json", "markdown", "github", "sarif", "yaml"],
    "select": ["REF", "UNI001,REF002", "NOPE"],
    "ignore": ["UNI", "REF001"],
    "fail_on": ["error", "warning", "info", "fatal"],
    "baseline": ["missing-baseline.json"],
    "write_baseline": ["written-baseline.json", "tools.json"],
    "env": ["K=V"],
    "cwd": ["."],
    "header": ["A: b"],
    "config": ["missing-config.json"],
    "name": ["github"],
    "timeout": ["5", "0.05", "abc"],
}
_SOURCES = ["tools.json", "missing.json", "-", "sub"]


@st.composite
def _command_lines(draw: st.DrawFn) -> list[str]:
    """Option and SOURCE tokens in any order, written every way click takes them, plus an
    occasional form the short path must hand to typer."""
    args: list[str] = []
    usable = [f for f, s in CHECK_OPTIONS.items() if s.kind == "flag" or s.param in _VALUES]
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            args.append(draw(st.sampled_from(_SOURCES)))
            continue
        flag = draw(st.sampled_from(usable))
        spec = CHECK_OPTIONS[flag]
        if spec.kind == "flag":
            args.append(flag)
            continue
        value = draw(st.sampled_from(_VALUES[spec.param]))
        if flag.startswith("--") and draw(st.booleans()):
            args.append(f"{flag}={value}")
        else:
            args += [flag, value]
    if draw(st.integers(0, 9)) == 0:
        args.insert(draw(st.integers(0, len(args))),
                    draw(st.sampled_from(["--", "-vj", "--json=1", "--provider", "-x"])))
    return args


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("argv")
    shutil.copy(EXAMPLE, here / "tools.json")
    (here / "sub").mkdir()
    shutil.copy(REPO_ROOT / "examples" / "mixed.json", here / "sub" / "mixed.json")
    return here


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(args=_command_lines())
def test_both_paths_print_the_same(workdir: Path, args: list[str]) -> None:
    with contextlib.chdir(workdir):
        for leftover in workdir.glob("written-baseline.json"):
            leftover.unlink()
        short = _run(entry.main, ["check", *args])
        for leftover in workdir.glob("written-baseline.json"):
            leftover.unlink()
        typer_path = _run(cli.main, ["check", *args])
    assert short == typer_path, args
