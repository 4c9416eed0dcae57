"""The pages of docs/ made from the code, which `make docs` writes and tests compare:
docs/cli.md (every command's `--help`), docs/rules/ (report/rule_docs.py), docs/breaking/
(report/breaking_docs.py) and docs/providers.md (report/provider_docs.py).

The CLI's help is what typer builds from the one option table (options.py), rendered here at
a fixed width so that the page is the same on every machine: the reference cannot drift from
the command line.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_WIDTH = 100


def generate() -> str:
    """docs/cli.md: the top-level help, then each command's, in the order `--help` lists
    them."""
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
        ctx = command.context_class(command, parent=root, info_name=name,
                                    terminal_width=_WIDTH, max_content_width=_WIDTH)
        parts.append(f"## {name}\n")
        parts.append("```text\n" + command.get_help(ctx).rstrip() + "\n```\n")
    return "\n".join(parts)


def write_pages(directory: str, pages: dict[str, str], *, prune: bool = True) -> None:
    """Write `pages` (file name -> text) into `directory`; with `prune`, remove the `.md`
    pages it holds that are no longer among them (a rule or check that went)."""
    os.makedirs(directory, exist_ok=True)
    for stale in set(os.listdir(directory)) - set(pages) if prune else ():
        if stale.endswith(".md"):
            os.remove(os.path.join(directory, stale))
    for name, text in pages.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)


def write_docs(root: str) -> None:
    """Every generated page, into the docs/ folder of the checkout at `root`."""
    from .profiles import PROFILES
    from .report import breaking_docs, provider_docs, rule_docs
    from .rules.registry import ALL_RULES

    docs = os.path.join(root, "docs")
    write_pages(os.path.join(docs, "rules"), rule_docs.generate(PROFILES.values(), ALL_RULES))
    write_pages(os.path.join(docs, "breaking"), breaking_docs.generate())
    write_pages(docs, {"cli.md": generate(), "providers.md": provider_docs.generate()},
                prune=False)


if __name__ == "__main__":
    write_docs(sys.argv[1] if len(sys.argv) > 1 else ".")
