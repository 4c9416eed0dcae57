"""docs/cli.md is each command's `--help` as the option table makes it, and current."""

from __future__ import annotations

from pathlib import Path

from inprocess import cli_in_process

from schema_compat.docs import generate
from schema_compat.options import COMMANDS

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_docs_cli_is_generated_and_current() -> None:
    assert (REPO_ROOT / "docs" / "cli.md").read_text("utf-8") == generate(), \
        "docs/cli.md is stale: make docs"


def test_every_command_and_flag_of_the_table_is_on_the_page() -> None:
    page = generate()
    for command, params in COMMANDS.items():
        section = page.split(f"\n## {command}\n", 1)[1].split("\n## ", 1)[0]
        for param in params:
            for flag in getattr(param, "flags", ()):
                assert flag in section, (command, flag)


def test_the_page_says_what_help_says() -> None:
    """A line of `check --help` as the command prints it is on the page (the page is the
    help, not a description of it)."""
    proc = cli_in_process("check", "--help")
    assert proc.returncode == 0
    usage = next(line for line in proc.stdout.splitlines() if line.startswith("Usage:"))
    # the program's name is the runner's in-process; what follows it is the command's
    assert "schema-compat check " + usage.split(" check ", 1)[1] in generate()
