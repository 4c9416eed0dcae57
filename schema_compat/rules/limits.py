"""LIM: limits on how big a schema or a request may be, and how many tools it may hold.

A limit is a fact about the provider's capacity, not about a keyword, so no rewrite of a
schema can honour it without changing what the tool means: these rules report and never
fix; splitting or flattening is for the server's author. Counts over a request (tools, strict
tool use's optional parameters and unions) are tool rules that see the tools before the one
judged; sizes of one schema (strict mode's nesting depth, property and enum counts) are
document rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..schema.shape import is_object_schema
from ..schema.walker import iter_nodes
from . import doc_examples
from .base import Hit, NodeContext, Rule, RuleDocs


def detect_too_many_tools(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    limit = ctx.profile.max_tools
    if limit is not None and tool.position >= limit:
        # a client's count (profiles/clients.py) comes with its name and source
        client, _, source = ctx.profile.max_tools_source.partition(": ")
        if ctx.profile.client and client == ctx.profile.client:
            yield Hit(f"tool {tool.position + 1} of {tool.total}: the client {client} takes "
                      f"at most {limit} per request ({source})", (), None)
        else:
            yield Hit(f"tool {tool.position + 1} of {tool.total}: the provider accepts at "
                      f"most {limit} per request", (), None)


def _object_depth(schema: Any) -> int:
    depth = 0
    for path, node in iter_nodes(schema):
        if is_object_schema(node):
            depth = max(depth, 1 + sum(1 for p in path if p == "properties"))
    return depth


def detect_strict_nesting_depth(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    depth = _object_depth(node)
    if depth > 10:
        yield Hit(f"objects nest {depth} levels deep; strict mode allows 10", (), None)


def _sizes(schema: Any) -> tuple[int, int, int]:
    props = chars = enums = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        for key in ("properties", "$defs", "definitions"):
            if isinstance(node.get(key), dict):
                chars += sum(len(k) for k in node[key])
                if key == "properties":
                    props += len(node[key])
        if isinstance(node.get("enum"), list):
            enums += len(node["enum"])
            chars += sum(len(v) for v in node["enum"] if isinstance(v, str))
        if isinstance(node.get("const"), str):
            chars += len(node["const"])
    return props, chars, enums


def detect_strict_schema_size(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    props, chars, enums = _sizes(node)
    if props > 5000:
        yield Hit(f"{props} object properties; strict mode allows 5,000", (), None)
    if chars > 120_000:
        yield Hit(f"{chars} characters of property names, definition names, enum and const "
                  "values; strict mode allows 120,000", (), None)
    if enums > 1000:
        yield Hit(f"{enums} enum values; strict mode allows 1,000", (), None)


def _complexity(schema: Any) -> tuple[int, int]:
    optional = unions = 0
    for _, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("properties"), dict):
            raw = node.get("required")
            # a set: a list searched for each property is quadratic
            req = {r for r in raw if isinstance(r, str)} if isinstance(raw, list) else set()
            optional += sum(1 for k in node["properties"] if k not in req)
        if isinstance(node.get("anyOf"), list) or isinstance(node.get("type"), list):
            unions += 1
    return optional, unions


def tally_complexity(schema: Any) -> dict[str, int]:
    optional, unions = _complexity(schema)
    return {"optional": optional, "unions": unions}


def detect_strict_complexity(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    """Flag the tool whose schema takes the request past a limit, and every one after it."""
    own = tally_complexity(tool.schema)
    before = tool.tallies_before
    for key, limit, what in (("optional", 24, "optional parameters"),
                             ("unions", 16, "parameters with `anyOf` or a type list")):
        total = before.get(key, 0) + own[key]
        if total > limit and own[key]:
            earlier = before.get(key, 0)
            yield Hit(f"{own[key]} {what} here"
                      + (f", {total} with the {earlier} of the tools listed before it"
                         if earlier else "")
                      + f"; strict tool use allows {limit} per request", (), None)


RULES: list[Rule] = [
    Rule(
        code="LIM001", name="too-many-tools", severity="error", scope="tool",
        message="more tools than one request may declare", safety=None, fix_title=None,
        detect=detect_too_many_tools,
        docs=RuleDocs(
            what="Tools past the provider's per-request limit (512 function declarations "
                 "for Gemini; for Anthropic strict tool use, 20 tools with `strict: true`, "
                 "which `check` and `transform` count over the tools sent strict only). "
                 "With `--client`, the client's own count where it is lower (Cursor 40, "
                 "Windsurf 50, VS Code 128: `schema-compat profiles` cites each).",
            error="* tools[0].function_declarations: [FIELD_INVALID] At most 512 function "
                  "declarations can be specified.",
            fix="Send a subset (`--tool` selects some); the docs advise 10-20 active tools. "
                "Under `anthropic-strict`, `transform` sends the tools past the 20 strict "
                "ones without `strict` (hinted), and `check` says so of each, as this "
                "code; as info where strict decoding would enforce nothing on the tool.",
            before=doc_examples.many_tools(21), passing=doc_examples.many_tools(20),
            profile="anthropic-strict",
            sources=("[GEM-18](../providers.md#gem-18)", "google-gemini/gemini-cli#19083"),
        ),
    ),
    Rule(
        code="LIM002", name="strict-nesting-depth", severity="error", scope="document",
        message="objects nest deeper than strict mode allows", safety=None, fix_title=None,
        detect=detect_strict_nesting_depth,
        docs=RuleDocs(
            what="Objects nested more than 10 levels deep under OpenAI strict mode.",
            error="Invalid schema: objects nested more than 10 levels (message unverified).",
            fix="Flatten the schema in the server; schema-compat does not restructure it.",
            before=doc_examples.nested_objects(11), passing=doc_examples.nested_objects(10),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM003", name="strict-schema-size", severity="error", scope="document",
        message="the schema is larger than strict mode allows", safety=None, fix_title=None,
        detect=detect_strict_schema_size,
        docs=RuleDocs(
            what="More than 5,000 object properties, more than 120,000 characters of "
                 "property names, definition names, enum and const values, or more than "
                 "1,000 enum values, under OpenAI strict mode (documented; checked per tool, "
                 "while OpenAI counts them per schema).",
            error="Invalid schema: limits exceeded (message unverified).",
            fix="Split the tool or shorten its enums in the server.",
            before=doc_examples.big_enum(1001), passing=doc_examples.big_enum(1000),
            sources=("[OAIS-11](../providers.md#oais-11)",),
        ),
    ),
    Rule(
        code="LIM004", name="strict-complexity", severity="error", scope="tool",
        message="more optional parameters or unions than strict tool use allows per request",
        safety=None, fix_title=None, detect=detect_strict_complexity, tally=tally_complexity,
        docs=RuleDocs(
            what="More than 24 optional parameters, or more than 16 parameters using `anyOf` "
                 "or a type list, summed over the strict tools of one request (Anthropic "
                 "strict tool use; a tool its listing sends without `strict` does not "
                 "count). `check` and `transform` plan the request: each tool left out of "
                 "the budgets is flagged. The library's `check()` takes the tools of one "
                 "source as one request, every one strict: the tool that crosses a limit is "
                 "flagged, and every later one that adds to it.",
            error="400 invalid_request_error (schema too complex).",
            fix="`transform` sends the tool without `strict` (hinted: wider, kept), its "
                "schema for `anthropic`. Else mark fewer tools strict, send fewer tools per "
                "request, or require more parameters.",
            before=doc_examples.union_params(17), passing=doc_examples.union_params(16),
            sources=("[ANTS-05](../providers.md#ants-05)", "genkit-ai/genkit#5230"),
        ),
    ),
]
