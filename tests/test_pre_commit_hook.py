"""`.pre-commit-hooks.yaml`: the hook pre-commit would run, run the way pre-commit runs it
(its entry with the matching staged file names appended, from the repository root)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
FS = REPO_ROOT / "examples" / "fs_read_files.json"


def _hook() -> dict[str, Any]:
    hooks = yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert isinstance(hooks, list)
    [hook] = [h for h in hooks if h["id"] == "schema-compat"]
    return dict(hook)


def test_hook_definition() -> None:
    hook = _hook()
    assert hook["language"] == "python"  # pre-commit installs this package into its env
    assert set(hook) >= {"id", "name", "entry", "language"}
    command, *args = shlex.split(hook["entry"])
    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "scripts"]
    assert command in scripts and args == ["check"]


def test_hook_files_pattern() -> None:
    pattern = re.compile(_hook()["files"])
    for name in ("tools.json", "snapshots/mcp-tools.json", "fs.tools.json",
                 "a/b/tools.gemini.json"):
        assert pattern.search(name), name
    for name in ("package.json", "tsconfig.json", "tools/config.json", ".vscode/mcp.json"):
        assert not pattern.search(name), name


def _run_hook(cwd: Path, *files: str) -> subprocess.CompletedProcess[str]:
    hook = _hook()
    command, *args = shlex.split(hook["entry"])
    script = Path(sys.executable).parent / command
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([str(script), *args, *hook.get("args", []), *files], cwd=cwd,
                          env=env, capture_output=True, text=True, check=False)


def test_hook_fails_a_commit_with_an_incompatible_snapshot(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(FS.read_text("utf-8"), "utf-8")
    proc = _run_hook(tmp_path, "tools.json")
    assert proc.returncode == 1
    assert "read_files" in proc.stdout and "REF001" in proc.stdout


def test_hook_passes_a_clean_snapshot_and_reads_project_settings(tmp_path: Path) -> None:
    tool = {"name": "ok", "description": "Fine.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}), "utf-8")
    assert _run_hook(tmp_path, "tools.json").returncode == 0
    # The project's settings apply: with `fail-on = "info"`, a missing description fails.
    del tool["description"]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}), "utf-8")
    assert _run_hook(tmp_path, "tools.json").returncode == 0
    (tmp_path / "pyproject.toml").write_text('[tool.schema-compat]\nfail-on = "info"\n')
    assert _run_hook(tmp_path, "tools.json").returncode == 1


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.slow
def test_real_pre_commit_runs_the_hook(tmp_path: Path) -> None:
    """pre-commit itself installs this repository as a hook (into its own virtualenv, from
    the package index) and runs it on the staged snapshot, passing over package.json."""
    user = tmp_path / "user-repo"
    user.mkdir()
    _git(user, "init", "-q")
    (user / "tools.json").write_text(FS.read_text("utf-8"), "utf-8")
    (user / "package.json").write_text('{"name": "not-tools"}', "utf-8")
    _git(user, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)

    def try_repo() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO_ROOT),
                               "schema-compat", "--all-files", "--color", "never"], cwd=user,
                              env=env, capture_output=True, text=True, check=False,
                              timeout=600)

    proc = try_repo()
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"^schema-compat\.+Failed$", proc.stdout, re.M), proc.stdout
    assert "REF001" in proc.stdout and "package.json" not in proc.stdout.split("Failed")[1]

    tool = {"name": "ok", "description": "Fine.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    (user / "tools.json").write_text(json.dumps({"tools": [tool]}), "utf-8")
    _git(user, "add", ".")
    proc = try_repo()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^schema-compat\.+Passed$", proc.stdout, re.M), proc.stdout
