"""`schema-compat diff`: the command's work, from its options to an exit status.

Apart from the typer app for the same reason as commands/check.py: a plain command line
(commands/argv.py) runs it without importing typer.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from typing import NamedTuple

from .common import (
    EXIT_OK,
    EXIT_USAGE,
    LiveOpts,
    fail,
    load_inputs,
    make_report,
    one_provider_plan,
    print_errors,
    run_tools,
)


class DiffOptions(NamedTuple):
    """Every option of `diff`, with the defaults typer declares for it in cli.py."""

    tool_name: str
    sources: list[str] | None = None
    provider: str = "gemini"
    json_out: bool = False
    select: list[str] | None = None
    ignore: list[str] | None = None
    lossless_only: bool = False
    live: LiveOpts = LiveOpts()  # --server, --url, ... (the same for every command)


def run_diff(options: DiffOptions, given: Collection[str]) -> int:
    """The exit status of a `diff`; `given` names the options the command line set."""
    (tool_name, sources, provider, json_out, select, ignore, lossless_only, live) = options
    plan, per_tool = one_provider_plan(given, provider, select, ignore, lossless_only)
    loaded, errors = load_inputs(sources, live)
    print_errors(errors)
    tools = [t for s in loaded for t in s.tools]
    chosen = [t for t in tools if t.name == tool_name]
    if not chosen:
        names = ", ".join(t.name for t in tools[:10]) + (", …" if len(tools) > 10 else "")
        where = ", ".join(sources or []) or ", ".join(s.label for s in loaded) or "the sources"
        fail(f"no tool named {tool_name!r} in {where}",
             f"tools here: {names}" if names else "no tools were read")
    results = run_tools(chosen[:1], plan, per_tool)
    report = make_report(plan.profile.name, results, errors)
    if json_out:
        import json

        from ..report.json import report_to_dict
        from ..structural_diff import structural_diff

        data = report_to_dict(report)
        data["tools"][0]["structural_diff"] = structural_diff(
            results[0].tool.schema, results[0].transformed_schema)
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        from ..report.diff import render_diff
        from ..report.text import make_console

        render_diff(results[0], make_console())
    return EXIT_USAGE if errors else EXIT_OK
