"""`schema-compat diff`: the command's work, from its options to an exit status.

Apart from the typer app for the same reason as commands/check.py: a plain command line
(commands/argv.py) runs it without importing typer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Collection
from typing import Any, NamedTuple, NoReturn

from .exits import EXIT_OK, EXIT_USAGE, fail, print_errors
from .inputs import LiveOpts, load_inputs, one_tool
from .plans import one_provider_plan
from .running import make_report, run_tools


class DiffOptions(NamedTuple):
    """Every option of `diff` (options.py holds their flags, defaults and help)."""

    tool_name: str
    sources: list[str] | None
    provider: str
    json_out: bool
    full: bool  # every line, no block folded
    select: list[str] | None
    ignore: list[str] | None
    lossless_only: bool
    live: LiveOpts  # --server, --url, ... (the same for every command)


def run_diff(options: DiffOptions, given: Collection[str]) -> int:
    """The exit status of a `diff`; `given` names the options the command line set."""
    (tool_name, sources, provider, json_out, full, select, ignore, lossless_only,
     live) = options
    plan, per_tool = one_provider_plan(given, provider, select, ignore, lossless_only)
    if not sources and not live.given() and _is_source(tool_name):
        _fail_missing_tool(tool_name)
    loaded, errors = load_inputs(sources, live)
    print_errors(errors)
    tools = [t for s in loaded for t in s.tools]
    chosen = [t for t in tools if t.name == tool_name]
    if not chosen:
        where = ", ".join(sources or []) or ", ".join(s.label for s in loaded) or "the sources"
        fail(f"no tool named {tool_name!r} in {where}",
             f"tools here: {_names(tools)}" if tools else "no tools were read")
    holders = list(dict.fromkeys(t.source for t in chosen))
    if len(holders) > 1:
        fail(f"tool {tool_name!r} is in {len(holders)} sources: {', '.join(holders)}",
             _choose_hint(tool_name, holders[0], live))
    results = run_tools([one_tool(chosen, tool_name)], plan, per_tool)
    report = make_report(plan.profile.name, results, errors,
                         lossless_only=plan.lossless_only)
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

        render_diff(results[0], make_console(), full=full)
    return EXIT_USAGE if errors else EXIT_OK


def _names(tools: list[Any], most: int = 10) -> str:
    names = list(dict.fromkeys(t.name for t in tools))
    return ", ".join(names[:most]) + (", …" if len(names) > most else "")


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _choose_hint(tool_name: str, first: str, live: LiveOpts) -> str:
    """How to name one source of several that serve the same tool."""
    if os.path.exists(first):
        return (f"give only the one to show, e.g. schema-compat diff {_quote(tool_name)} "
                f"{_quote(first)}")
    if live.config:
        return "pick one server with --name NAME, or give only that one SOURCE"
    return "give only the server or file to show"


def _is_source(name: str) -> bool:
    """True when `diff`'s TOOL argument is a SOURCE: a file or directory that exists, or -."""
    return name == "-" or os.path.exists(name)


def _fail_missing_tool(path: str) -> NoReturn:
    """`diff tools.json`: the TOOL was left out. Names a few tools of the file, when it can
    be read, so the next command line can be typed at once."""
    hint = f"give the tool first: schema-compat diff TOOL {_quote(path)}"
    if path != "-":
        from ..extract.files import load_sources

        loaded, _ = load_sources([path])
        tools = [t for s in loaded for t in s.tools]
        if tools:
            hint = (f"give the tool first, e.g. schema-compat diff {_quote(tools[0].name)} "
                    f"{_quote(path)}; tools in {path}: {_names(tools, 6)}")
    fail(f"no TOOL given: {path!r} is a SOURCE, and diff shows one tool of it", hint)
