"""`schema-compat explain`: a provider's error message mapped back to the tool, the JSONPath
in its schema, the rule that covers it and the fix.

The error text is read by schema_compat/explain.py (its shapes are data there); the SOURCE
is read as `check` reads it. Exit 0 when the error was mapped to a tool (a limit of the
whole request, such as OpenAI's 128 tools: to its rule), 1 when the text is not understood
or names a tool or place the sources do not hold, 2 for bad usage.
"""

from __future__ import annotations

import json
import shlex
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

from ..report.styled import printable
from .exits import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, print_errors
from .inputs import LiveOpts, load_inputs
from .providers import provider_plan
from .running import run_tools

if TYPE_CHECKING:
    from ..explain import Explanation
    from ..extract.files import LoadedSource

# The keys of the --json answer, every one present in each answer (null when not known).
_KEYS = ("provider", "profile", "sent", "shape", "tool", "tool_index", "source", "path", "pointer",
         "keyword", "rule", "fix", "matched", "node", "problem", "inferred")
# How much of a schema node the text report shows when no rule covers it.
_NODE_CHARS = 400


class ExplainOptions(NamedTuple):
    """Every option of `explain` (options.py holds their flags, defaults and help)."""

    error: str
    sources: list[str] | None
    provider: str | None
    sent: str
    json_out: bool
    live: LiveOpts


def run_explain(options: ExplainOptions) -> int:
    """The exit status of an `explain`: 0 when the error was mapped to a tool (or a
    request-wide limit to its rule), 1 when the text is not understood or names something
    the sources do not hold, 2 for bad usage (the sources are read before the text, so
    that bad usage always says so)."""
    from ..explain import MAX_ERROR_CHARS, explain, infer_profile, parse_error, understood
    from ..model import ToolDef
    from ..profiles import PROFILES

    if options.provider is not None:
        provider_plan(options.provider, None, None, False)  # a bad name exits 2 here
    loaded, errors = load_inputs(options.sources, options.live)
    if errors:
        print_errors(errors)
        return EXIT_USAGE
    parsed = parse_error(options.error)
    if parsed is None:
        line = ("the error text has no shape explain understands "
                f"(the first {MAX_ERROR_CHARS} characters are read); {understood()}")
        if options.json_out:
            _write_json({**dict.fromkeys(_KEYS), "sent": options.sent, "matched": False,
                         "problem": line})
        else:
            print(f"schema-compat: {line}", file=sys.stderr)
        return EXIT_FINDINGS
    tools = [t for s in loaded for t in s.tools]
    profile = (options.provider or infer_profile(parsed.shape, list(PROFILES))).lower()
    plan = provider_plan(profile, None, None, False)
    transformed = options.sent == "transformed"
    results = run_tools(tools, plan, keep_schemas=transformed)
    if transformed:  # the request carried these: their names, schemas and what is left
        tools = [ToolDef(r.transformed_name, r.transformed_schema, r.tool.description,
                         r.tool.source, r.tool.index, dialect=plan.dialect) for r in results]
        results = run_tools(tools, plan, keep_schemas=False)
    found = explain(parsed, tools, results, profile, _gemini_groups(loaded))
    command = "" if transformed else transform_command(profile, options)
    if options.json_out:
        _write_json(_to_dict(found, loaded, command, options.sent))
    else:
        sys.stdout.write(_to_text(found, loaded, command, options.sent))
    mapped = found.tool is not None or found.finding is not None  # a request-wide limit
    return EXIT_OK if mapped and not found.problem else EXIT_FINDINGS


def _gemini_groups(loaded: list[LoadedSource]) -> list[int]:
    """How many function declarations each entry of a Gemini `tools` list holds, when the
    one source is such a list (bare, or a request's `tools`); else none."""
    if len(loaded) != 1 or loaded[0].shape != "gemini":
        return []
    document = loaded[0].document
    entries = document.get("tools") if isinstance(document, dict) else document
    if not isinstance(entries, list):
        return []
    counts = []
    for entry in entries:
        keys = ("functionDeclarations", "function_declarations")
        declarations: Any = next((entry[k] for k in keys
                                  if isinstance(entry, dict) and k in entry), [])
        counts.append(len(declarations) if isinstance(declarations, list) else 0)
    return counts if sum(counts) == len(loaded[0].tools) else []


def _write_json(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _source_of(found: Explanation, loaded: list[LoadedSource]) -> str:
    tool = found.tool
    return tool.source if tool is not None and tool.source else ", ".join(
        s.label for s in loaded)


def _to_dict(found: Explanation, loaded: list[LoadedSource], command: str,
             sent: str) -> dict[str, Any]:
    """The --json answer: the tool, JSONPath and pointer, the rule and its fix; `matched`
    says whether a rule covers the place the error blames."""
    from ..paths import jsonpath, pointer

    shape, finding, tool = found.parsed.shape, found.finding, found.tool
    located = tool is not None and found.located is not None
    return {
        "provider": shape.provider, "profile": found.profile, "sent": sent,
        "shape": shape.name,
        "tool": tool.name if tool is not None else None, "tool_index": found.tool_index,
        "source": _source_of(found, loaded) if tool is not None else None,
        "path": jsonpath(found.target) if located else None,
        "pointer": pointer(found.target) if located else None,
        "keyword": found.located.keyword if found.located is not None else None,
        "rule": None if finding is None else {
            "code": finding.code, "name": finding.rule, "severity": finding.severity,
            "message": finding.message, "path": jsonpath(finding.path),
            "pointer": pointer(finding.path)},
        "fix": None if finding is None or finding.fix_title is None else {
            "title": finding.fix_title, "safety": finding.fix_safety,
            "accepts": (finding.fix_effect or ("", ""))[0],
            "told": (finding.fix_effect or ("", ""))[1], "command": command or None},
        "matched": finding is not None,
        "node": found.node if located and finding is None and not found.problem else None,
        "problem": found.problem or None,
        "inferred": found.inferred or None,
    }


def _to_text(found: Explanation, loaded: list[LoadedSource], command: str, sent: str) -> str:
    """One block: tool, JSONPath, rule code and name, what to do."""
    from ..paths import jsonpath

    shape, finding, tool = found.parsed.shape, found.finding, found.tool
    lines = [f"error:  {shape.provider}: {shape.name}, read against the {sent} schemas, "
             f"checked with the {found.profile} rules"]
    if tool is None and finding is None:
        lines.append(f"tool:   not found: {printable(found.problem)}")
        return "\n".join(lines) + "\n"
    if tool is None:
        lines.append(f"tool:   none: {printable(found.inferred)}")
    else:
        where = f"index {found.tool_index} in {_source_of(found, loaded)}"
        lines.append(f"tool:   {printable(tool.name)} ({printable(where)})")
        if found.inferred:
            lines.append(f"        {printable(found.inferred)}")
        lines.append(f"path:   {printable(jsonpath(found.target))}")
    if found.problem:
        lines.append(f"        not found: {printable(found.problem)}")
        return "\n".join(lines) + "\n"
    if finding is None:
        shown = json.dumps(found.node, ensure_ascii=False)
        if len(shown) > _NODE_CHARS:
            shown = shown[:_NODE_CHARS] + "…"
        lines += [f"rule:   none of {found.profile}'s rules covers this place",
                  f"node:   {printable(shown)}",
                  f"do:     compare it with `schema-compat rules -p {found.profile}`"]
        return "\n".join(lines) + "\n"
    lines.append(f"rule:   {finding.code} {finding.rule} ({finding.severity}): "
                 f"{printable(finding.message)}")
    if tool is not None and finding.path != found.target:
        lines.append(f"        found at {printable(jsonpath(finding.path))}")
    if not command:
        lines.append(f"do:     the transform leaves this as it is: `schema-compat rule "
                     f"{finding.code}` says what to change in the server's schema")
    elif finding.fix_title is None:
        lines.append(f"do:     no automatic fix; `schema-compat rule {finding.code}` says "
                     "what to change")
    else:
        accepts, told = finding.fix_effect or ("", "")
        lines += [f"fix:    {finding.fix_title} ({finding.fix_safety}: arguments accepted "
                  f"{accepts}, model told {told})",
                  f"do:     {command}"]
    return "\n".join(lines) + "\n"


def transform_command(profile: str, options: ExplainOptions) -> str:
    """The transform that fixes it, on the same sources; --env and --header values (which
    may hold secrets) and a URL's credentials and query are left out."""
    from urllib.parse import urlsplit

    words = ["schema-compat", "transform", "-p", profile, *(options.sources or [])]
    live = options.live
    for flag, values in (("--server", live.server), ("--config", live.config),
                         ("--name", live.name)):
        for value in values or []:
            words += [flag, value]
    for flag, values in (("--url", live.url), ("--sse", live.sse)):
        for value in values or []:
            parts = urlsplit(value)
            bare = parts._replace(netloc=parts.netloc.rpartition("@")[2], query="",
                                  fragment="").geturl()
            words += [flag, bare]
    out = "-o " + shlex.quote(f"tools.{profile}.json")
    text = " ".join(shlex.quote(w) for w in words) + " " + out
    if live.env or live.header or live.cwd:
        text += "  (with your --env/--cwd/--header)"
    return printable(text)
