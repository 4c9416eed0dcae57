"""Settings from `.schema-compat.toml` / `[tool.schema-compat]`: found by walking up, flags win,
`--show-config` says where each value came from, bad files are one-line errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inprocess import cli_in_process

from schema_compat.settings import (
    FileSettings,
    SettingsError,
    find_settings_file,
    resolve,
    validate,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
FS_PATH = REPO_ROOT / "examples" / "fs_read_files.json"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` in `cwd`, 120 columns, in-process (no interpreter start-up)."""
    return cli_in_process(*args, cwd=cwd, columns=120)


def _codes(proc: subprocess.CompletedProcess[str]) -> dict[str, list[str]]:
    data = json.loads(proc.stdout)
    return {t["name"]: [i["code"] for i in t["issues"]] for t in data["tools"]}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with tools.json and a nested working directory below the settings."""
    (tmp_path / "tools.json").write_text(FS_PATH.read_text("utf-8"), "utf-8")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    return tmp_path


def test_pyproject_table_found_from_a_subdirectory(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.schema-compat]\nprovider = "openai-strict"\n'
        'ignore = ["OBJ009"]\nfail-on = "warning"\n', "utf-8")
    cwd = project / "sub" / "deeper"
    proc = cli(cwd, "check", "--json", "../../tools.json")
    data = json.loads(proc.stdout)
    assert data["provider"] == "openai-strict"
    assert all("OBJ009" not in codes for codes in _codes(proc).values())
    shown = cli(cwd, "check", "--show-config", "-p", "gemini").stdout.splitlines()
    assert shown[0] == f"# settings file: {project / 'pyproject.toml'} [tool.schema-compat]"
    assert 'provider = "gemini"' in shown[1] and shown[1].endswith("# --provider")
    assert any(ln.startswith('ignore = ["OBJ009"]') and ln.endswith("# pyproject.toml")
               for ln in shown)
    assert any(ln.startswith('fail-on = "warning"') and ln.endswith("# pyproject.toml")
               for ln in shown)
    assert any(ln.startswith("lossless-only = false") and ln.endswith("# default")
               for ln in shown)


def test_fail_on_from_the_file_and_overridden_by_the_flag(project: Path) -> None:
    tool = {"name": "t", "description": "d", "inputSchema": {"type": "object",
                                                              "properties": {}}}
    (project / "warn.json").write_text(json.dumps(tool), "utf-8")
    assert cli(project, "check", "warn.json").returncode == 0  # OBJ007 is a warning
    (project / ".schema-compat.toml").write_text('fail-on = "warning"\n', "utf-8")
    assert cli(project, "check", "warn.json").returncode == 1
    assert cli(project, "check", "--fail-on", "error", "warn.json").returncode == 0


def test_dotfile_wins_over_pyproject_in_the_same_directory(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.schema-compat]\nprovider = "vertex"\n')
    (project / ".schema-compat.toml").write_text('provider = ["gemini", "openai"]\n')
    found = find_settings_file(project / "sub")
    assert found == (project / ".schema-compat.toml", "")
    data = json.loads(cli(project, "check", "--json", "tools.json").stdout)
    assert data["matrix"]["providers"] == ["gemini", "openai"]


def test_pyproject_without_the_table_is_passed_over(project: Path) -> None:
    (project / "sub" / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    (project / ".schema-compat.toml").write_text('select = ["REF001"]\n')
    proc = cli(project / "sub", "check", "--json", "../tools.json")
    assert set(c for codes in _codes(proc).values() for c in codes) == {"REF001"}


@pytest.mark.parametrize("header", [
    "[tool.schema-compat]", '[tool."schema-compat"]', "[tool.'schema-compat']",
    '[tool."schema\\u002Dcompat"]', '[tool."\\U00000073chema-compat"]',
    "[ tool . 'schema-compat' ]", "[tool]\nschema-compat.fail-on = 'info'",
    '[tool]\n"schema-compat" = {}', "tool = { schema-compat = {} }",
])
def test_pyproject_table_is_found_however_its_name_is_written(tmp_path: Path,
                                                                header: str) -> None:
    """Only a pyproject.toml that cannot name the table is passed over unparsed."""
    (tmp_path / "pyproject.toml").write_text(f'{header}\nprovider = "vertex"\n', "utf-8")
    assert find_settings_file(tmp_path) == (tmp_path / "pyproject.toml",
                                            "[tool.schema-compat]")


def _walk_with_pathlib(start: Path) -> tuple[Path, str] | None:
    """The walk as pathlib spells it: `start` and each of its `parents`."""
    for directory in (start, *start.parents):
        if (directory / ".schema-compat.toml").is_file():
            return directory / ".schema-compat.toml", ""
        if "[tool.schema-compat]" in ((directory / "pyproject.toml").read_text("utf-8")
                                      if (directory / "pyproject.toml").is_file() else ""):
            return directory / "pyproject.toml", "[tool.schema-compat]"
    return None


def test_the_walk_finds_what_pathlib_parents_would(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk uses os.path (pathlib costs milliseconds of start-up): from an absolute or a
    relative start, as text or a Path, it visits the same directories, and by default starts
    from the current directory."""
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / ".schema-compat.toml").write_text('select = ["REF"]\n', "utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.schema-compat]\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    starts = [tmp_path / "a" / "b" / "c", Path("a/b/c"), Path("a"), Path("."), Path("x/../a/b"),
              tmp_path, Path("b")]
    for start in starts:
        expected = _walk_with_pathlib(start)
        assert find_settings_file(start) == expected, start
        assert find_settings_file(str(start)) == expected, start
    assert find_settings_file(Path("a/b/c")) == (Path("a/.schema-compat.toml"), "")
    monkeypatch.chdir(tmp_path / "a" / "b")
    found = find_settings_file()
    assert found == (tmp_path / "a" / ".schema-compat.toml", "")
    assert str(found[0]) == str(Path.cwd().parent / ".schema-compat.toml")


@pytest.mark.parametrize("text", [
    '[project]\nname = "x"\ndependencies = ["schema-compat"]\n',  # parsed: no table
    '[project]\nname = "x"\n',  # cannot name the table: not parsed
    '[project]\nname = "schema-compat"\n',  # the name as a value only: not parsed
    '[project\nname = "schema-compat"\n',  # broken: only the header would count
])
def test_pyproject_without_the_table_is_never_the_settings_file(tmp_path: Path,
                                                                 text: str) -> None:
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    assert find_settings_file(tmp_path) is None


@pytest.mark.parametrize("text", [
    '[project]\nname = "x"\n',
    '[project]\nname = "schema-compat"\ndependencies = ["schema-compat>=0.1"]\n',
])
def test_toml_is_not_imported_without_a_settings_file(tmp_path: Path, text: str) -> None:
    """A pyproject.toml that names schema-compat only as a value (the project itself, a
    dependency) is not parsed: start-up in such a project does not pay for tomllib."""
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    probe = ("import sys; from pathlib import Path; from schema_compat.settings import "
             "find_settings_file; assert find_settings_file(Path.cwd()) is None; "
             "print('tomllib' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_per_tool_ignores(project: Path) -> None:
    (project / ".schema-compat.toml").write_text(
        '[per-tool-ignores]\n"read_*" = ["UNI001", "REF"]\n')
    codes = _codes(cli(project, "check", "--json", "tools.json"))
    assert codes["read_files"] == []
    assert set(codes["propose_and_review"]) == {"REF001", "REF002", "UNI001"}
    # The transform of the ignored tool leaves those rules' nodes alone too.
    data = json.loads(cli(project, "check", "--json", "tools.json").stdout)
    read = next(t for t in data["tools"] if t["name"] == "read_files")
    assert read["transformed_schema"] == read["original_schema"]


def test_flag_select_replaces_the_files(project: Path) -> None:
    (project / ".schema-compat.toml").write_text('select = ["REF001"]\n')
    proc = cli(project, "check", "--json", "--select", "UNI001", "tools.json")
    assert set(c for codes in _codes(proc).values() for c in codes) == {"UNI001"}


@pytest.mark.parametrize(("text", "needle"), [
    ('provider = 3\n', "provider must be a profile name"),
    ('colour = "red"\n', "unknown setting 'colour'"),
    ('fail-on = "fatal"\n', "fail-on must be one of"),
    ('lossless-only = "yes"\n', "lossless-only must be true or false"),
    ('select = [1]\n', "select must be a list"),
    ('sources = 3\n', "sources must be a list of JSON files"),
    ('sources = [""]\n', "sources must be a list of JSON files"),
    ('per-tool-ignores = ["a"]\n', "per-tool-ignores must be a table"),
    ('provider = "gemini\n', "not valid TOML"),
    ('provider = "nope"\n', ".schema-compat.toml: unknown provider 'nope'"),
    ('provider = ["gemini", "nope"]\n', ".schema-compat.toml: unknown provider 'nope'"),
    ('ignore = ["XYZ"]\n', ".schema-compat.toml: unknown rule 'XYZ' in ignore"),
    ('[per-tool-ignores]\n"x" = ["NOPE9"]\n', "unknown rule 'NOPE9' in per-tool-ignores"),
    ('client = "  "\n', "client must be an MCP client's name"),
])
def test_bad_settings_are_one_line_errors(project: Path, text: str, needle: str) -> None:
    (project / ".schema-compat.toml").write_text(text, "utf-8")
    proc = cli(project, "check", "tools.json")
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert needle in line
    assert "Traceback" not in proc.stderr
    if "TOML" in needle or "setting" in needle or "must be" in needle:
        assert ".schema-compat.toml" in line


def test_a_settings_file_that_is_not_utf8_or_a_table_that_is_not_one(project: Path) -> None:
    (project / ".schema-compat.toml").write_bytes(b'provider = "gemini\xff"\n')
    [line] = cli(project, "check", "tools.json").stderr.splitlines()
    assert line.startswith(f"schema-compat: error: {project / '.schema-compat.toml'}: not UTF-8")
    (project / ".schema-compat.toml").unlink()
    (project / "pyproject.toml").write_text("[tool]\nschema-compat = 3\n", "utf-8")
    proc = cli(project, "check", "tools.json")
    assert proc.returncode == 2
    assert "pyproject.toml: [tool.schema-compat] must be a table" in proc.stderr


def test_sources_may_be_one_file_name(project: Path) -> None:
    """`sources = "tools.json"`: one file, as a list of one (a comma is part of a name)."""
    (project / ".schema-compat.toml").write_text('sources = "tools.json"\n', "utf-8")
    proc = cli(project, "check", "--json")
    assert proc.returncode == 1, proc.stderr
    assert {t["name"] for t in json.loads(proc.stdout)["tools"]} == {"read_files",
                                                                    "propose_and_review"}


def test_sources_from_the_file_are_read_by_a_bare_check_from_the_files_folder(
        project: Path) -> None:
    """Named from the settings file's folder (a comma is part of a file name); flags and a
    SOURCE given win."""
    (project / "a,b.json").write_text(FS_PATH.read_text("utf-8"), "utf-8")
    (project / ".schema-compat.toml").write_text('sources = ["tools.json", "a,b.json"]\n')
    bare = cli(project / "sub", "check", "--json")
    assert bare.returncode == 1, bare.stderr
    assert sorted({t["source"] for t in json.loads(bare.stdout)["tools"]}) == [
        "../a,b.json", "../tools.json"]
    named = cli(project / "sub", "check", "--json", "../tools.json")
    assert {t["source"] for t in json.loads(named.stdout)["tools"]} == {"../tools.json"}
    shown = cli(project, "check", "--show-config").stdout
    assert re.search(r'^sources = \["tools.json", "a,b.json"\] +# \.schema-compat\.toml$',
                     shown, re.M), shown


def test_show_config_without_a_file(tmp_path: Path) -> None:
    proc = cli(tmp_path, "check", "--show-config", "--lossless-only")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("# no settings file found")
    assert any(ln.startswith("lossless-only = true") and ln.endswith("# --lossless-only")
               for ln in lines)
    assert any(ln.startswith('provider = "gemini"') and ln.endswith("# default")
               for ln in lines)


def test_resolve_and_validate_directly() -> None:
    values: dict[str, Any] = validate({"lossless_only": True, "select": "REF,UNI"}, "f")
    assert values == {"lossless-only": True, "select": ["REF", "UNI"]}
    settings = resolve(FileSettings(Path("/p/.schema-compat.toml"), "", values),
                       {"select": ["TYP"]})
    assert settings["select"] == ["TYP"]
    assert settings.values["select"].origin == "--select"
    assert settings.values["lossless-only"].origin == ".schema-compat.toml"
    with pytest.raises(SettingsError, match="f: provider must be"):
        validate({"provider": []}, "f")


def test_transform_and_diff_use_the_settings_provider(project: Path) -> None:
    (project / ".schema-compat.toml").write_text('provider = "openai-strict"\n')
    data = json.loads(cli(project, "transform", "--json", "tools.json").stdout)
    assert data["provider"] == "openai-strict"
    assert "for openai-strict" in cli(project, "diff", "read_files", "tools.json").stdout
    flag = json.loads(cli(project, "transform", "--json", "-p", "vertex", "tools.json").stdout)
    assert flag["provider"] == "vertex"


def test_transform_refuses_a_provider_list_from_the_file(project: Path) -> None:
    (project / ".schema-compat.toml").write_text('provider = ["gemini", "openai"]\n')
    proc = cli(project, "transform", "tools.json")
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert "provider names several providers; this command takes one" in line
    assert "--provider" in line


def test_per_tool_ignores_apply_to_transform(project: Path) -> None:
    (project / ".schema-compat.toml").write_text('[per-tool-ignores]\n"read_*" = ["REF", "UNI"]\n')
    data = json.loads(cli(project, "transform", "--json", "tools.json").stdout)
    read, propose = data["tools"]
    assert read["transforms_applied"] == []
    assert {c["code"] for c in propose["transforms_applied"]} >= {"REF001", "UNI001"}
