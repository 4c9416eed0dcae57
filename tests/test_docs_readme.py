"""The README's live example of `transform --server` runs as written after `make demo`: its
interpreter is the one `make demo` installs the MCP SDK into (a bare `python` has no SDK
after the README's pipx install), and `make demo` installs quietly."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

from inprocess import cli_in_process

REPO_ROOT = Path(__file__).resolve().parent.parent
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")


def _make_variable(name: str) -> str:
    match = re.search(rf"^{name} := (.*)$", MAKEFILE, re.M)
    assert match, name
    return match.group(1).strip()


def _recipe(target: str) -> list[str]:
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", MAKEFILE, re.M)
    assert match, target
    return [line.strip() for line in match.group(1).splitlines()]


def test_the_transform_server_example_uses_the_demo_interpreter(tmp_path: Path) -> None:
    [line] = [ln for ln in README.splitlines()
              if ln.startswith("schema-compat transform --server ")]
    words = shlex.split(line.split("  #", 1)[0])
    server = words[words.index("--server") + 1]
    interpreter, script = shlex.split(server)
    demo_python = _make_variable("BIN").replace("$(VENV)", _make_variable("VENV")) + "/python"
    assert interpreter == demo_python, (interpreter, demo_python)
    assert any(f'"$(BIN)/python {script}"' in step for step in _recipe("demo"))
    # and the command works with that interpreter: the test's own is the same environment
    out = tmp_path / "tools.json"
    proc = cli_in_process("transform", "--server", f"{sys.executable} {script}", "-o", str(out),
                          "--timeout", "60")
    assert proc.returncode == 0, proc.stderr
    assert "read_files" in [t["name"] for t in json.loads(out.read_text())["tools"]]


def test_the_readme_does_not_call_the_transformed_tools_a_snapshot() -> None:
    [line] = [ln for ln in README.splitlines()
              if ln.startswith("schema-compat transform --server ")]
    assert "snapshot" not in line


def test_make_demo_installs_quietly() -> None:
    """`make demo` depends on the install rule: each pip install in it is --quiet (pip still
    prints its errors), so the demo's output is the demo's."""
    stamp = _make_variable("STAMP")
    installs = [step for step in _recipe("$(STAMP)") if "pip install" in step]
    assert installs and stamp
    assert all("--quiet" in step.split() for step in installs), installs
    demo = re.search(r"^demo:(.*)$", MAKEFILE, re.M)
    assert demo and "install" in demo.group(1).split("##")[0]
