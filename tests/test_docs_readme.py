"""The README's commands run as written: those on the bundled examples, in a clone, and
print what the README shows; the live example of `transform --server` after `make demo`
(its interpreter is the one `make demo` installs the MCP SDK into: a bare `python` has no
SDK after the README's pipx install); and `make demo` installs quietly."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
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


def test_make_demo_installs_quietly() -> None:
    """`make demo` depends on the install rule: each pip install in it is --quiet (pip still
    prints its errors), so the demo's output is the demo's."""
    stamp = _make_variable("STAMP")
    installs = [step for step in _recipe("$(STAMP)") if "pip install" in step]
    assert installs and stamp
    assert all("--quiet" in step.split() for step in installs), installs
    demo = re.search(r"^demo:(.*)$", MAKEFILE, re.M)
    assert demo and "install" in demo.group(1).split("##")[0]


def _blocks(language: str) -> list[str]:
    """The README's fenced blocks of `language` ("" for those that name none)."""
    return [text for lang, text in re.findall(r"^```(\w*)\n(.*?)^```", README, re.M | re.S)
            if lang == language]


# What a clone alone cannot run: your own server, a package fetched from npm, the shell.
_NOT_OFFLINE = ("server.py", "npx ", "--install-completion")
OFFLINE = [line.split("  #", 1)[0].strip() for block in _blocks("sh")
           for line in block.splitlines()
           if line.startswith("schema-compat ") and not any(s in line for s in _NOT_OFFLINE)]


def test_the_readme_shows_commands_on_the_bundled_examples() -> None:
    assert len(OFFLINE) >= 3 and all("examples/" in line for line in OFFLINE), OFFLINE


@pytest.mark.parametrize("line", OFFLINE)
def test_each_readme_command_on_the_examples_runs_as_written(tmp_path: Path, line: str) -> None:
    """Run from a folder holding the examples as a clone does (an output it writes, such as
    `-o tools.json`, lands there): it reads its input, writes what it says, and ends with
    0 or 1 (findings), never 2."""
    (tmp_path / "examples").symlink_to(REPO_ROOT / "examples")
    args = shlex.split(line)[1:]
    proc = cli_in_process(*args, cwd=tmp_path, columns=100)
    assert proc.returncode in (0, 1) and "error:" not in proc.stderr, (proc.returncode,
                                                                       proc.stderr)
    if "-o" in args:
        assert json.loads((tmp_path / args[args.index("-o") + 1]).read_text("utf-8"))


def test_the_check_output_shown_is_what_check_prints() -> None:
    """The output block after the first `check` example is that command's output on a
    100-column terminal, `...` standing for the lines left out."""
    [command] = [line for line in OFFLINE if line.startswith("schema-compat check ")][:1]
    shown = next(b for b in _blocks("") if b.startswith("read_files "))
    proc = cli_in_process(*shlex.split(command)[1:], columns=100)
    assert proc.returncode == 1, proc.stderr
    printed = proc.stdout.splitlines()
    kept = [line for line in shown.splitlines() if line.strip() != "..."]
    assert kept and [line for line in kept if line not in printed] == []
    first, last = printed.index(kept[0]), printed.index(kept[-1])
    assert first < last and printed[first:first + 2] == kept[:2]
