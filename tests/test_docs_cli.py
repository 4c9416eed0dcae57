"""docs/cli.md is each command's `--help` as the option table makes it, and current."""

from __future__ import annotations

from pathlib import Path

from inprocess import cli_in_process

from schema_compat.docs import generate, write_docs
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


def test_make_docs_writes_every_generated_page_as_committed(tmp_path: Path) -> None:
    """`python -m schema_compat.docs ROOT` (`make docs`) writes the pages under ROOT/docs;
    into an empty folder, they are the committed ones, and no rule or check page is missing."""
    write_docs(str(tmp_path))
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*.md")}
    for folder in ("rules", "breaking"):
        assert {p.relative_to(REPO_ROOT) for p in (REPO_ROOT / "docs" / folder).glob("*.md")} \
            == {p for p in written if p.parent.name == folder}
    assert Path("docs/cli.md") in written and Path("docs/providers.md") in written
    for page in written:
        assert (tmp_path / page).read_text("utf-8") == (REPO_ROOT / page).read_text("utf-8"), page
