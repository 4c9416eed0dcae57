"""Tool-level rules: names, duplicate names, descriptions, how many tools.

Renaming changes what the model calls, so it is lossy and recorded in the report's name
map; a client or proxy maps calls back through it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

from . import doc_examples
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs


class ToolInfo(NamedTuple):
    """What tool rules look at: one tool among its siblings in the same run."""

    name: str
    description: str | None
    position: int  # 0-based position among all tools of the run
    # Names of the tools before this one (after renaming), as a set: asked "is it taken?" once
    # per tool, which over a listing of n tools must not cost n each time. The engine hands
    # over its running set; it is read during this tool's turn only.
    names_before: AbstractSet[str]
    total: int
    schema: Any = None  # the tool's schema (the transformed one when judging the result)
    # per-request sums of the tools before this one, for rules with a `tally`
    tallies_before: Mapping[str, int] = {}  # one shared default: read only, never mutated


def sanitize(name: str, pattern: re.Pattern[str], max_len: int, allowed: str,
             letter_first: bool = True) -> str:
    """Replace what the pattern forbids with `_`; keep it unique-ish when cut to length."""
    import hashlib  # here: loading OpenSSL costs ~10 ms at start-up, and few runs rename

    cleaned = re.sub(f"[^{allowed}]", "_", name) or "_"
    if letter_first and not re.match(r"[A-Za-z_]", cleaned):
        cleaned = "_" + cleaned
    if len(cleaned) > max_len:
        digest = hashlib.sha1(name.encode()).hexdigest()[:6]
        cleaned = cleaned[: max_len - 7] + "_" + digest
    return cleaned if pattern.fullmatch(cleaned) else "_" + hashlib.sha1(
        name.encode()).hexdigest()[:12]


def _allowed_chars(ctx: NodeContext) -> str:
    # The character class of the profile's pattern, e.g. "A-Za-z0-9_.:-".
    m = re.search(r"\[([^\]]+)\]\{", ctx.profile.name_pattern)
    return m.group(1) if m else "A-Za-z0-9_-"


def _max_len(ctx: NodeContext) -> int:
    m = re.search(r"\{(\d+),(\d+)\}", ctx.profile.name_pattern)
    if not m:
        return 64
    return int(m.group(2)) + (1 if _letter_first(ctx) else 0)


def _letter_first(ctx: NodeContext) -> bool:
    return ctx.profile.name_pattern.startswith("^[A-Za-z_]")


def detect_name(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not ctx.profile.name_regex.fullmatch(tool.name):
        yield Hit(f"tool name {tool.name!r} breaks the provider's rule: "
                  f"{ctx.profile.name_rule}", (), "name")


def fix_name(tool: Any, ctx: NodeContext) -> Fixed:
    new = sanitize(tool.name, ctx.profile.name_regex, _max_len(ctx), _allowed_chars(ctx),
                   _letter_first(ctx))
    return Fixed(new, (Edit((), "lossy", f"renamed {tool.name!r} → {new!r}", accepts="equal",
                            told="lost"),))


def detect_duplicate(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    if tool.name in tool.names_before:
        yield Hit(f"another tool is already named {tool.name!r}", (), "name")


def fix_duplicate(tool: Any, ctx: NodeContext) -> Fixed:
    n = 2
    while True:
        suffix = f"_{n}"
        new = tool.name[: _max_len(ctx) - len(suffix)] + suffix
        if new not in tool.names_before:
            break
        n += 1
    return Fixed(new, (Edit((), "lossy", f"renamed the duplicate {tool.name!r} → {new!r}",
                            accepts="equal", told="lost"),))


def detect_description(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    text = tool.description  # asked twice per tool: no stripped copy of a long description
    if not (isinstance(text, str) and text and not text.isspace()):
        yield Hit("the tool has no description; the model has only its name to go on",
                  (), "description")


def detect_long_description(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    limit = ctx.profile.max_description
    if limit is not None and isinstance(tool.description, str) and len(tool.description) > limit:
        yield Hit(f"the description has {len(tool.description)} characters; the provider "
                  f"has refused more than {limit}", (), "description")


def detect_too_many(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    limit = ctx.profile.max_tools
    if limit is not None and tool.position >= limit:
        yield Hit(f"tool {tool.position + 1} of {tool.total}: the provider accepts at most "
                  f"{limit} per request", (), None)


RULES: list[Rule] = [
    Rule(
        code="NAM001", name="invalid-tool-name", severity="error", scope="tool",
        message="tool name breaks the provider's rule", safety="lossy", accepts="equal",
        told="lost",
        fix_title="Rename (recorded in the name map)", detect=detect_name, fix=fix_name,
        docs=RuleDocs(
            what="A tool name with characters or a length the provider refuses: slashes, "
                 "spaces, a leading digit, more than 64 characters for Gemini.",
            error="* tools[0].function_declarations[53].name: [FIELD_INVALID] Invalid "
                  "function name. Must start with a letter or an underscore. Must be a-z, "
                  "A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or dashes (-), "
                  "with a maximum length of 64.",
            fix="Replace forbidden characters with `_`, prefix `_` where the first "
                "character is not allowed, shorten with a hash suffix. Lossy: calls must be "
                "mapped back through the report's `name_map`.",
            before=doc_examples.tools(doc_examples.tool("files/read")),
            after=doc_examples.tools(doc_examples.tool("files_read")),
            sources=("[GEM-19](../providers.md#gem-19)", "kaitranntt/ccs#25"),
        ),
    ),
    Rule(
        code="NAM002", name="duplicate-tool-name", severity="error", scope="tool",
        message="two tools share a name", safety="lossy", accepts="equal", told="lost",
        fix_title="Rename with a numeric suffix", detect=detect_duplicate, fix=fix_duplicate,
        docs=RuleDocs(
            what="A name used by an earlier tool of the same run, including after renaming "
                 "(`a/b` and `a_b` both become `a_b`).",
            error="Duplicate function declaration found: <name>",
            fix="Add `_2`, `_3`, … (lossy; recorded in the name map).",
            before=doc_examples.tools(doc_examples.tool("search", "Search files."),
                                     doc_examples.tool("search", "Search issues.")),
            after=doc_examples.tools(doc_examples.tool("search", "Search files."),
                                    doc_examples.tool("search_2", "Search issues.")),
            sources=("[GEM-19](../providers.md#gem-19)",),
        ),
    ),
    Rule(
        code="NAM003", name="missing-description", severity="info", scope="tool",
        message="tool has no description", safety=None, fix_title=None,
        detect=detect_description,
        docs=RuleDocs(
            what="A tool without a description. The Gemini proto marks it required; "
                 "enforcement is unverified, so this is informational.",
            error="(none observed)",
            fix="Write one in the server.",
            before=doc_examples.tools(doc_examples.tool("read_file", None)),
            passing=doc_examples.tools(doc_examples.tool("read_file")),
            sources=("[GEM-20](../providers.md#gem-20)",),
        ),
    ),
    Rule(
        code="LIM001", name="too-many-tools", severity="error", scope="tool",
        message="more tools than one request may declare", safety=None, fix_title=None,
        detect=detect_too_many,
        docs=RuleDocs(
            what="Tools past the provider's per-request limit (512 function declarations "
                 "for Gemini).",
            error="* tools[0].function_declarations: [FIELD_INVALID] At most 512 function "
                  "declarations can be specified.",
            fix="Send a subset (`--tool` selects some); the docs advise 10-20 active tools.",
            before=doc_examples.many_tools(21), passing=doc_examples.many_tools(20),
            profile="anthropic-strict",
            sources=("[GEM-18](../providers.md#gem-18)", "google-gemini/gemini-cli#19083"),
        ),
    ),
    Rule(
        code="NAM004", name="description-too-long", severity="warning", scope="tool",
        message="tool description longer than the provider has accepted", safety=None,
        fix_title=None, detect=detect_long_description,
        docs=RuleDocs(
            what="A tool description longer than the provider's observed limit (1,024 "
                 "characters for OpenAI function tools, seen 2024-11 to 2025-04 and reported "
                 "lifted for newer models in 2026). Observed in issues only, not documented, "
                 "so this is a warning.",
            error="Invalid 'tools[13].function.description': string too long. Expected a "
                  "string with maximum length 1024, but got a string with length 1103 "
                  "instead.",
            fix="Shorten it in the server (schema-compat does not cut descriptions: the "
                "part cut away may be the part the model needs).",
            before=doc_examples.tools(doc_examples.tool("read_file", "Read a file. " * 85)),
            passing=doc_examples.tools(doc_examples.tool("read_file", "Read a file. " * 78)),
            sources=("[OAI-05](../providers.md#oai-05)", "OpenHands/OpenHands#4838",
                     "getsentry/sentry-mcp#106"),
        ),
    ),
]
