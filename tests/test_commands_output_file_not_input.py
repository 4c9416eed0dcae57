"""An output (`transform -o`, `check --write-baseline`) is never a file the command read: a
source, a client config named by --config or found here, or the settings file in force. The
same file on disk counts, whatever name reaches it (a symlink, a hard link); it is refused in
one line, exit 2, with the file left byte for byte as it was (`transform --force` overrides).

The client config names the example server (examples/fs_server.py), started for real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
# the example's listing, served without the SDK
LISTING = REPO_ROOT / "tests" / "servers" / "listing_server.py"
TOOLS = REPO_ROOT / "examples" / "fs_read_files.json"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    config = {"mcpServers": {"fs": {"command": sys.executable, "args": [str(LISTING)]}}}
    (tmp_path / ".mcp.json").write_text(json.dumps(config, indent=2) + "\n")
    (tmp_path / "tools.json").write_bytes(TOOLS.read_bytes())
    return tmp_path


def _refused(proc: subprocess.CompletedProcess[str], option: str, name: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"schema-compat: error: {option} {name} is one of the inputs"), line


@pytest.mark.parametrize("alias", ["same", "symlink", "hardlink"])
def test_transform_does_not_write_over_the_client_config_it_read(project: Path,
                                                                  alias: str) -> None:
    before = (project / ".mcp.json").read_bytes()
    out = {"same": ".mcp.json", "symlink": "link.json", "hardlink": "hard.json"}[alias]
    if alias == "symlink":
        (project / out).symlink_to(".mcp.json")
    elif alias == "hardlink":
        os.link(project / ".mcp.json", project / out)
    proc = cli_in_process("transform", "--config", ".mcp.json", "-o", out, cwd=project)
    _refused(proc, "-o", out)
    assert "add --force" in proc.stderr
    assert (project / ".mcp.json").read_bytes() == before


def test_transform_force_writes_over_the_config_as_asked(project: Path) -> None:
    proc = cli_in_process("transform", "--config", ".mcp.json", "-o", ".mcp.json", "--force",
                          cwd=project)
    assert proc.returncode == 0, proc.stderr
    written = json.loads((project / ".mcp.json").read_text())
    assert [t["name"] for t in written["tools"]] == ["read_files", "propose_and_review"]


@pytest.mark.parametrize("named", [True, False])
def test_write_baseline_does_not_write_over_the_client_config(project: Path,
                                                              named: bool) -> None:
    """Named by --config, or found here by a bare `check`."""
    before = (project / ".mcp.json").read_bytes()
    args = ["--config", ".mcp.json"] if named else []
    proc = cli_in_process("check", *args, "--write-baseline", ".mcp.json", cwd=project)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1].startswith(
        "schema-compat: error: --write-baseline .mcp.json is one of the inputs")
    assert (project / ".mcp.json").read_bytes() == before


@pytest.mark.parametrize("settings", [".schema-compat.toml", "pyproject.toml"])
def test_the_settings_file_in_force_is_an_input(project: Path, settings: str) -> None:
    text = ('provider = "gemini"\n' if settings.startswith(".")
            else '[project]\nname = "x"\n\n[tool.schema-compat]\nprovider = "gemini"\n')
    (project / settings).write_text(text)
    for command in (["transform", "tools.json", "-o", settings],
                    ["check", "tools.json", "--write-baseline", settings]):
        proc = cli_in_process(*command, cwd=project)
        _refused(proc, command[2], settings)
        assert (project / settings).read_text() == text


def test_a_hard_link_to_a_source_file_is_refused(project: Path) -> None:
    os.link(project / "tools.json", project / "copy.json")
    proc = cli_in_process("transform", "tools.json", "-o", "copy.json", cwd=project)
    _refused(proc, "-o", "copy.json")
    assert (project / "copy.json").read_bytes() == TOOLS.read_bytes()


def test_an_output_that_is_no_input_is_written(project: Path) -> None:
    proc = cli_in_process("transform", "tools.json", "-o", "out.json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((project / "out.json").read_text())["tools"]
    proc = cli_in_process("check", "tools.json", "--write-baseline", "base.json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "base.json").is_file()
