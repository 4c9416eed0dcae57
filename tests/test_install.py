"""Installing the command as the README says: shell completion for bash, zsh and fish, and
the one-line error (with the README's own install command) when the `live` extra is missing.

The completion scripts are installed into a temporary HOME by the installed `schema-compat`
command and answered by it, as a shell would ask; bash itself runs the bash script.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
COMMAND = str(BIN / "schema-compat")
# The console script runs the tree under test (the compiled copy under `make test-compiled`),
# not whatever the environment's editable install points at.
_TREE = os.pathsep.join([str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("_SCHEMA_COMPAT")}
    env.update(HOME=str(home), PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
               NO_COLOR="1", PYTHONPATH=_TREE, **extra)
    return env


def _ask(shell: str, home: Path, **extra: str) -> list[str]:
    """What the installed command answers a `shell` completion request (the words asked
    about are in `extra`, as the shell's script passes them)."""
    env = _env(home, _SCHEMA_COMPAT_COMPLETE=f"complete_{shell}", **extra)
    proc = subprocess.run([COMMAND], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_installs_from_bash_and_completes_commands_and_providers(
        tmp_path: Path) -> None:
    # run from bash, as a user would: the shell is detected from the parent process (a
    # second command keeps bash from exec'ing the first in its place, which would leave
    # whatever started bash, e.g. make's sh, as the parent)
    install = subprocess.run(["bash", "-c", "schema-compat --install-completion; exit $?"],
                             env=_env(tmp_path), capture_output=True, text=True, timeout=60,
                             check=False)
    assert install.returncode == 0, install.stderr
    script = tmp_path / ".bash_completions" / "schema-compat.sh"
    assert script.is_file()
    assert str(script) in (tmp_path / ".bashrc").read_text()

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        probe = (f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
                 '_schema_compat_completion schema-compat; printf "%s\\n" "${COMPREPLY[@]}"')
        proc = subprocess.run(["bash", "-c", probe], env=_env(tmp_path), capture_output=True,
                              text=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()

    assert complete("schema-compat", "ch") == ["check"]
    assert set(complete("schema-compat", "")) >= {"check", "transform", "diff", "init"}
    assert complete("schema-compat", "check", "--prov") == ["--provider"]
    assert complete("schema-compat", "check", "-p", "openai") == ["openai", "openai-strict"]


@pytest.mark.parametrize(("shell", "path", "marker"), [
    ("zsh", ".zfunc/_schema-compat", "#compdef schema-compat"),
    ("fish", ".config/fish/completions/schema-compat.fish", "complete --command schema-compat"),
])
def test_zsh_and_fish_completion_install_and_answer(tmp_path: Path, shell: str, path: str,
                                                    marker: str) -> None:
    # typer's switch for naming the shell instead of detecting it from the parent process
    named = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    proc = subprocess.run([COMMAND, "--install-completion", shell],
                          env=_env(tmp_path, **named), capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert marker in (tmp_path / path).read_text()
    if shell == "zsh":
        answer = _ask("zsh", tmp_path, _TYPER_COMPLETE_ARGS="schema-compat tra")
        assert any('"transform"' in line for line in answer), answer
    else:
        answer = _ask("fish", tmp_path, _TYPER_COMPLETE_ARGS="schema-compat tra",
                      _TYPER_COMPLETE_FISH_ACTION="get-args")
        assert [line.split("\t")[0] for line in answer] == ["transform"]


def test_completion_is_offered_in_the_help() -> None:
    proc = subprocess.run([COMMAND, "--help"], env=_env(Path.home(), COLUMNS="100"),
                          capture_output=True, text=True, timeout=60, check=False)
    assert "--install-completion" in proc.stdout and "--show-completion" in proc.stdout


# --- the live extra missing ----------------------------------------------------------------


def _without_mcp(tmp_path: Path) -> dict[str, str]:
    """An environment in which `import mcp` fails as it does when the SDK is not installed."""
    stub = tmp_path / "no-sdk" / "mcp"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'mcp'\", name='mcp')\n")
    env = _env(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(stub.parent), env["PYTHONPATH"]])
    return env


INSTALL_LIVE = "pipx install --force '.[live]'"


@pytest.mark.parametrize("args", [
    ("check", "--server", f"{sys.executable} examples/fs_server.py"),
    ("proxy", "--url", "http://127.0.0.1:9/mcp"),  # a stdio upstream needs no SDK
])
def test_a_missing_live_extra_says_how_to_install_it_as_the_readme_does(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    proc = subprocess.run([COMMAND, *args], env=_without_mcp(tmp_path), cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "the MCP SDK" in lines[0] and "not installed" in lines[0]
    assert INSTALL_LIVE in lines[0]
    assert "schema-compat[live]'" not in lines[0]  # no package index has the project


def test_the_readme_gives_the_same_install_commands() -> None:
    assert "pipx install '.[live]'" in README
    assert INSTALL_LIVE in README
    assert "schema-compat --install-completion" in README
    assert "pip install 'schema-compat[live]'" not in README
