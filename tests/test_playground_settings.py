"""`schema-compat serve` applies the nearest settings file (`.schema-compat.toml`) as
`check` and `transform` do: the providers it names come first in the matrix, and each
profile's rules, lossless-only and per-tool ignores are those of the file. Checked against
the CLI run in the same folder, through real HTTP to the served page."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "servers"))

from playground_launch import (
    FS_READ_FILES,
    PY,
    Served,
    cli_env,
    playground,
    request,
    transform_cli,
)

from schema_compat.profiles import PROFILES

SETTINGS = """\
provider = ["openai-strict", "gemini"]
ignore = ["ANN002", "OBJ003"]
lossless-only = true

[per-tool-ignores]
"read_*" = ["REF"]
"""
# the settings file's providers first, then every other profile in its usual order
ORDER = ["openai-strict", "gemini", *(p for p in PROFILES if p not in ("openai-strict",
                                                                       "gemini"))]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("playground-settings")
    (root / ".schema-compat.toml").write_text(SETTINGS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[Served]:
    with playground(folder) as s:
        yield s


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "schema_compat", *args], capture_output=True, text=True,
                          cwd=cwd, env=cli_env(cwd), check=False, timeout=120)


def _check_json(provider: str, cwd: Path) -> dict[str, Any]:
    proc = _cli("check", str(FS_READ_FILES), "-p", provider, "--json", cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    data.pop("generated_at")
    return data


def _run(served: Served) -> dict[str, Any]:
    answer = request(served, "POST", "api/analyze", headers={"Origin": served.origin},
                     body={"text": FS_READ_FILES.read_text(encoding="utf-8"),
                           "label": str(FS_READ_FILES)})
    assert answer.status == 200, answer.body
    data: dict[str, Any] = answer.json()
    return data


def test_the_settings_providers_come_first_and_the_file_is_named(served: Served,
                                                                  folder: Path) -> None:
    data = _run(served)
    assert [p["name"] for p in data["providers"]] == ORDER
    assert data["settings"] == str(folder / ".schema-compat.toml")


@pytest.mark.parametrize("provider", ["openai-strict", "gemini", "anthropic-strict"])
def test_reports_and_downloads_are_what_check_and_transform_give_there(
        served: Served, folder: Path, tmp_path: Path, provider: str) -> None:
    run_id = _run(served)["run"]
    answer = request(served, "GET", f"api/report?run={run_id}&provider={provider}"
                                    "&format=json")
    assert answer.status == 200
    report = answer.json()
    report.pop("generated_at")
    expected = _check_json(provider, folder)
    assert report == expected
    # the file made a difference: without it, check reports otherwise
    assert _check_json(provider, tmp_path) != expected
    codes = {i["code"] for t in report["tools"] for i in t["issues"]}
    assert not codes & {"ANN002", "OBJ003"}
    [read_files] = [t for t in report["tools"] if t["name"] == "read_files"]
    assert not any(i["code"].startswith("REF") for i in read_files["issues"])
    download = request(served, "GET", f"api/transformed?run={run_id}&provider={provider}")
    assert download.status == 200
    assert download.body.decode("utf-8") == transform_cli(FS_READ_FILES, provider, folder)


def test_lossless_only_leaves_the_lossy_fixes_undone(served: Served, tmp_path: Path
                                                     ) -> None:
    """With lossless-only from the file, every change made to a schema is lossless (the
    request planner's own decisions, such as sending a tool without `strict`, are tool-level
    and stay); without it, the same listing gets lossy or hinted schema changes."""
    run_id = _run(served)["run"]
    kinds = set()
    for provider in ORDER:
        cell = request(served, "GET", f"api/cell?run={run_id}&provider={provider}&tool=0"
                       ).json()
        kinds |= {c["safety"] for c in cell["changes"] if c["scope"] == "schema"}
    assert kinds == {"lossless"}
    elsewhere = {c["safety"] for c in _check_json("anthropic-strict", tmp_path)["tools"][0][
        "transforms_applied"]}
    assert elsewhere - {"lossless"}


def test_a_bad_settings_file_is_one_line_naming_it(tmp_path: Path) -> None:
    (tmp_path / ".schema-compat.toml").write_text('provider = "gemnii"\n', encoding="utf-8")
    (tmp_path / "home").mkdir()
    proc = subprocess.run([PY, "-m", "schema_compat", "serve", "--no-open", "--port", "0"],
                          cwd=tmp_path, env=cli_env(tmp_path / "home"), capture_output=True,
                          text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(
        f"schema-compat: error: {tmp_path / '.schema-compat.toml'}: unknown provider 'gemnii'")
    assert len(proc.stderr.splitlines()) == 1
