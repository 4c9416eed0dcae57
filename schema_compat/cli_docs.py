"""docs/cli.md: every command's `--help`, as a page.

The help is what typer builds from the one option table (options.py), rendered here at a fixed
width so that the page is the same on every machine; `make docs` writes it and a test fails
when it is stale, so the reference cannot drift from the command line.
"""

from __future__ import annotations

import sys
from typing import Any

DOCS_FILE = "docs/cli.md"
_WIDTH = 100


def generate() -> str:
    """The page: the top-level help, then each command's, in the order `--help` lists them."""
    import typer

    from .cli import app

    # typer may carry a click of its own: its context class is taken from the command
    group: Any = typer.main.get_command(app)
    root = group.context_class(group, info_name="schema-compat", terminal_width=_WIDTH,
                               max_content_width=_WIDTH)
    parts = ["# Command-line reference\n",
             "Generated from the option table by `make docs`; the same text as each "
             "command's `--help`.\n",
             "```text\n" + group.get_help(root).rstrip() + "\n```\n"]
    for name in group.list_commands(root):
        command = group.get_command(root, name)
        if command is None or command.hidden:
            continue
        ctx = command.context_class(command, parent=root, info_name=name,
                                    terminal_width=_WIDTH, max_content_width=_WIDTH)
        parts.append(f"## {name}\n")
        parts.append("```text\n" + command.get_help(ctx).rstrip() + "\n```\n")
    return "\n".join(parts)


def write(path: str = DOCS_FILE) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(generate())


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else DOCS_FILE)
