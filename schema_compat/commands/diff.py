"""`schema-compat diff`: the command's work, from its options to an exit status."""

from __future__ import annotations

import os
import sys
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

from .exits import EXIT_OK, EXIT_USAGE, fail, print_errors
from .inputs import LiveOpts, load_inputs, one_tool
from .providers import one_provider_plan, resolve_settings
from .running import make_report, run_tools

if TYPE_CHECKING:
    from ..model import ToolResult


class DiffOptions(NamedTuple):
    """Every option of `diff` (options.py holds their flags, defaults and help)."""

    tool_name: str
    sources: list[str] | None
    provider: str
    json_out: bool
    full: bool  # every line, no block folded
    path: str | None  # a JSONPath: only the nodes it matches
    select: list[str] | None
    ignore: list[str] | None
    lossless_only: bool
    live: LiveOpts  # --server, --url, ... (the same for every command)


def run_diff(options: DiffOptions, given: Collection[str]) -> int:
    """The exit status of a `diff`; `given` names the options the command line set."""
    tool_name, sources, path, live = options.tool_name, options.sources, options.path, options.live
    plan, per_tool = one_provider_plan(resolve_settings(given, **options._asdict()))
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
    if path is not None:
        results = [_focused(results[0], path)]
    report = make_report(plan.profile.name, results, errors,
                         lossless_only=plan.lossless_only)
    if options.json_out:
        import json

        from ..report.json import report_to_dict
        from ..structural_diff import structural_diff

        data = report_to_dict(report)
        data["tools"][0]["structural_diff"] = structural_diff(
            results[0].tool.schema, results[0].transformed_schema)
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        from ..console import make_console
        from ..report.diff import render_diff

        render_diff(results[0], make_console(), full=options.full)
    return EXIT_USAGE if errors else EXIT_OK


def _focused(result: ToolResult, expression: str) -> ToolResult:
    """`result` narrowed to the one node `expression` matches in the original schema: that
    node beside the node at the same path of the transformed schema (null where the
    transform left none), with the changes made at or below it, their paths from it."""
    from ..model import ToolDef
    from ..paths import find, jsonpath, resolve

    try:
        found = find(expression, result.tool.schema)
    except ValueError as exc:
        fail(f"--path {expression!r} is not a JSONPath: {exc}",
             "e.g. --path '$.properties.files'")
    if len(found) != 1:
        what = "nothing" if not found else \
            f"{len(found)} nodes ({', '.join(map(jsonpath, found[:3]))})"
        fail(f"--path {expression!r} matches {what} in the original schema of "
             f"{result.tool.name!r}", "give a JSONPath of one node, e.g. '$.properties.NAME'")
    [at] = found
    try:
        after = resolve(result.transformed_schema, at)
    except (KeyError, IndexError, TypeError):
        after = None
    node = resolve(result.tool.schema, at)
    changes = tuple(c._replace(path=c.path[len(at):]) for c in result.changes
                    if c.scope == "schema" and c.path[:len(at)] == at)
    tool = result.tool
    narrowed = ToolDef(tool.name, node, tool.description, tool.source, tool.index, tool.raw,
                       tool.schema_optional, tool.dialect)
    return result._replace(tool=narrowed, transformed_schema=after, changes=changes)


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
