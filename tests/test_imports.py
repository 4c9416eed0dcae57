"""Import guard: the file path of the CLI must not pull in heavy or optional modules.

Each case runs the CLI in-process in a fresh interpreter (a subprocess, so nothing imported by
pytest leaks in) and prints which top-level packages ended up in `sys.modules`.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

# The start-up budget (docs/performance.md): typer 0.29 imports pydantic for every command
# (pyproject.toml keeps typer below it); jsonref (which follows the `$ref`s that are not plain
# `#/$defs/Name` pointers) is imported without requests; `--version` is answered before typer
# and rich are imported at all.
HEAVY = ("mcp", "deepdiff", "jsonschema", "google", "pydantic", "requests", "jsonpath_ng")
WATCHED = (*HEAVY, "typer", "rich", "jsonref")

# Runs `schema-compat ARGV...` as the console script would, then reports the watched modules
# that were imported, together with the exit code.
_PROBE = """
import contextlib, io, json, runpy, sys
sys.argv = ["schema-compat", *json.loads(sys.argv[1])]
code = 0
out, err = io.StringIO(), io.StringIO()
try:
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        runpy.run_module("schema_compat", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
print(json.dumps({"code": code, "modules": sorted(sys.modules), "stderr": err.getvalue()}))
"""


def _modules(*args: str, cwd: Path = REPO_ROOT) -> tuple[int, set[str], str]:
    """The exit code, every module imported (full dotted names) and stderr."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(list(args))],
        capture_output=True, text=True, cwd=cwd, env=env, check=False, timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return data["code"], set(data["modules"]), data["stderr"]


def _imported(*args: str) -> tuple[int, set[str], str]:
    """The exit code, the WATCHED top-level packages imported and stderr."""
    code, modules, stderr = _modules(*args)
    return code, {name.split(".")[0] for name in modules} & set(WATCHED), stderr


def test_help_imports_nothing_heavy() -> None:
    code, heavy, _ = _imported("--help")
    assert code == 0
    assert heavy == {"typer"}  # help is plain text (rich_markup_mode=None): no rich


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_is_answered_before_typer_is_imported(flag: str) -> None:
    code, imported, _ = _imported(flag)
    assert code == 0
    assert imported == set()


def test_version_with_a_command_still_goes_through_the_cli() -> None:
    """Only the bare flag takes the short cut; anything else is typer's to parse."""
    code, imported, _ = _imported("--version", "check")
    assert code == 0
    assert "typer" in imported


@pytest.mark.parametrize("module", HEAVY)
def test_check_file_does_not_import(module: str) -> None:
    code, heavy, stderr = _imported("check", "examples/fs_read_files.json")
    assert code == 1, stderr  # the example has findings: proves the check really ran
    assert module not in heavy


def _escaped_ref_tool(tmp_path: Path) -> str:
    """A tool whose `$ref` has a JSON Pointer escape (`~1` for `/`): jsonref follows it."""
    tool = {"name": "t", "inputSchema": {
        "type": "object", "properties": {"p": {"$ref": "#/$defs/a~1b"}},
        "$defs": {"a/b": {"type": ["string", "null"]}}}}
    path = tmp_path / "escaped.json"
    path.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    return str(path)


def test_plain_defs_references_are_followed_without_jsonref() -> None:
    """`#/$defs/Name` pointers are plain key lookups: jsonref is imported only for the rest."""
    code, imported, stderr = _imported("check", "examples/fs_read_files.json")
    assert code == 1, stderr  # the example's `$ref`s are flagged: they were followed
    assert "jsonref" not in imported


def test_a_pointer_with_escapes_is_followed_by_jsonref(tmp_path: Path) -> None:
    """jsonref resolves what is more than key lookups; the tool's `$ref` was followed (its
    finding is reported), and the usual pointer above never imports it."""
    code, imported, stderr = _imported("check", _escaped_ref_tool(tmp_path))
    assert code == 1, stderr
    assert "jsonref" in imported


@pytest.mark.parametrize("args", [["check"], ["check", "--verbose"], ["transform"]])
def test_text_report_through_a_pipe_does_not_import_rich(args: list[str]) -> None:
    """Nothing is styled through a pipe: report/styled.py writes the report (and the
    transform summary on stderr) itself, and measures ASCII text without rich's cell
    widths."""
    code, modules, stderr = _modules(*args, "examples/fs_read_files.json")
    assert code in (0, 1), stderr
    assert {name.split(".")[0] for name in modules}.isdisjoint({"rich"})
    assert "schema_compat.report.styled" in modules  # the report was printed


def test_check_of_a_file_imports_only_what_it_uses(tmp_path: Path) -> None:
    """In a project without settings (its pyproject.toml lists schema-compat as a
    dependency) a check of a file through a pipe reads no TOML, styles nothing and writes
    no file: tomllib, rich and the output-file guard stay unimported (start-up budget)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "server"\ndependencies = ["schema-compat>=0.1"]\n', "utf-8")
    example = str(REPO_ROOT / "examples" / "fs_read_files.json")
    code, modules, stderr = _modules("check", example, cwd=tmp_path)
    assert code == 1, stderr  # the example has findings: the check ran and printed them
    assert "schema_compat.report.styled" in modules
    tops = {name.split(".")[0] for name in modules}
    assert tops.isdisjoint({"tomllib", "rich"})
    assert "schema_compat.commands.output_file" not in modules


def test_check_json_does_not_read_package_data() -> None:
    """Only report_json_schema() reads the shipped schema; importlib.resources (with tempfile
    and random behind it) stays off the `check --json` path."""
    code, modules, stderr = _modules("check", "--json", "examples/fs_read_files.json")
    assert code == 1, stderr
    assert "schema_compat.report.json" in modules
    assert "importlib.resources" not in modules


def test_check_json_does_not_import_rich() -> None:
    code, imported, stderr = _imported("check", "--json", "examples/fs_read_files.json")
    assert code == 1, stderr
    assert "rich" not in imported


def test_transform_file_does_not_import_live_or_diff_modules() -> None:
    code, heavy, stderr = _imported("transform", "--quiet", "examples/fs_read_files.json")
    assert code == 0, stderr
    assert heavy & set(HEAVY) == set()


def test_diff_json_does_import_deepdiff() -> None:
    """The guard above would notice: `diff --json` is the one path that needs deepdiff."""
    code, heavy, stderr = _imported("diff", "--json", "read_files",
                                    "examples/fs_read_files.json")
    assert code == 0, stderr
    assert "deepdiff" in heavy
    assert "mcp" not in heavy


# What a one-tool `check` runs, in library terms: settings, load, engine, both reports.
_CHECK_PATH_PROBE = """
import io, sys
from schema_compat.engine import make_ruleset, run_ruleset
from schema_compat.extract.files import load_sources
from schema_compat.model import Report
from schema_compat.report.json import write_json
from schema_compat.report.text import render_check, text_output
from schema_compat.settings import find_settings_file

assert find_settings_file() is None
loaded, errors = load_sources(["examples/fs_read_files.json"])
report = Report("gemini", tuple(run_ruleset([t for s in loaded for t in s.tools],
                                         make_ruleset("gemini"))), tuple(errors))
assert report.results[0].findings and report.results[0].changes
write_json(report, io.StringIO())
render_check(report, text_output())
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


def test_check_path_imports_no_avoidable_stdlib_module(tmp_path: Path) -> None:
    """`dataclasses` (with inspect, ast, dis, tokenize), pathlib (with urllib.parse and
    ipaddress), datetime and jsonref cost milliseconds of every `check`'s start-up: the
    records are named tuples and small classes, and the rest is imported where needed. `-S`
    with site-packages on PYTHONPATH: the editable install's import hook, which site would
    load from its .pth file, imports pathlib itself."""
    path = os.pathsep.join([str(REPO_ROOT), *site.getsitepackages()])
    env = {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1"}
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "fs_read_files.json").write_bytes(
        (REPO_ROOT / "examples" / "fs_read_files.json").read_bytes())
    proc = subprocess.run([sys.executable, "-S", "-c", _CHECK_PATH_PROBE], capture_output=True,
                          text=True, cwd=tmp_path, env=env, check=False, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert "schema_compat.rules.registry" in proc.stderr.split()
    avoidable = {"dataclasses", "inspect", "pathlib", "urllib.parse", "ipaddress", "datetime",
                 "jsonref"}
    assert avoidable.isdisjoint(proc.stderr.split())


_CLI_PATH_PROBE = """
import contextlib, io, sys
from schema_compat.entry import main
sys.argv = ["schema-compat", *sys.argv[1:]]
try:
    with contextlib.redirect_stdout(io.StringIO()):
        main()
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["check"], ["check", "--json"], ["transform", "-q"]])
def test_plain_commands_import_no_avoidable_module(tmp_path: Path, args: list[str]) -> None:
    """The same through the command line as users run it: nothing the commands add (settings
    discovery, the reports, the exit code) brings those modules back. (typer, which reads the
    command line, imports inspect, pathlib, urllib.parse, ipaddress and datetime itself.)"""
    path = os.pathsep.join([str(REPO_ROOT), *site.getsitepackages()])
    env = {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1"}
    example = tmp_path / "tools.json"
    example.write_bytes((REPO_ROOT / "examples" / "fs_read_files.json").read_bytes())
    proc = subprocess.run([sys.executable, "-S", "-c", _CLI_PATH_PROBE, *args, str(example)],
                          capture_output=True, text=True, cwd=tmp_path, env=env, check=False,
                          timeout=30)
    modules = proc.stderr.split()
    assert "schema_compat.engine" in modules, proc.stderr
    avoidable = {"dataclasses", "jsonref"}
    assert avoidable.isdisjoint(modules), avoidable & set(modules)


def _proxy_imports(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """`schema-compat proxy --config CONFIG ARGS` with its client gone at once (stdin is
    /dev/null): its exit code, the modules it imported (-X importtime: the proxy exits by
    os._exit, after which nothing prints) and its other stderr lines."""
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"gone": {"command": "no-such-mcp-server"}}}),
                      encoding="utf-8")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "schema_compat", "proxy",
                           "--config", str(config), *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=REPO_ROOT, check=False,
                          timeout=60)
    lines = proc.stderr.splitlines()
    imported = {line.rsplit("|", 1)[-1].strip() for line in lines
                if line.startswith("import time:")}
    return proc.returncode, imported, "\n".join(
        line for line in lines if not line.startswith("import time:"))


def test_proxy_config_serves_the_servers_that_start(tmp_path: Path) -> None:
    """A server of the config that cannot start is named, and the gateway serves the rest
    (here none) until the client leaves."""
    code, imported, err = _proxy_imports(tmp_path, "--name", "g*", "-p", "openai")
    assert code == 0, err
    assert "schema_compat.proxy.gateway_serve" in imported
    assert "gone: not served: command not found: no-such-mcp-server" in err


def test_proxy_config_with_an_unknown_provider_starts_no_server(tmp_path: Path) -> None:
    code, _, err = _proxy_imports(tmp_path, "-p", "nope")
    assert code == 2
    assert err.splitlines() == ["schema-compat: error: unknown provider 'nope' (choose one of: "
                                + err.split("choose one of: ", 1)[1]]
    assert "not served" not in err  # no server was started
