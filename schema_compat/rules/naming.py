"""NAM: what the model knows a tool by, its name and its description.

Providers restrict the characters and length of a tool's name and require names to be
unique in a request. Renaming changes what the model calls, so it is lossy and recorded in
the report's name map; a client or proxy maps calls back through it. Descriptions are
the server's words and are never rewritten: a missing or over-long one is reported only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..profiles.base import name_parts
from . import doc_examples
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs


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


def detect_invalid_tool_name(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not ctx.profile.name_regex.fullmatch(tool.name):
        yield Hit(f"tool name {tool.name!r} breaks the provider's rule: "
                  f"{ctx.profile.name_rule}", (), "name")


def fix_invalid_tool_name(tool: Any, ctx: NodeContext) -> Fixed:
    letter_first, allowed, max_len = name_parts(ctx.profile.name_pattern)
    new = sanitize(tool.name, ctx.profile.name_regex, max_len, allowed, letter_first)
    return Fixed(new, (Edit((), "lossy", f"renamed {tool.name!r} → {new!r}", accepts="equal",
                            told="lost"),))


def detect_duplicate_tool_name(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    if tool.name in tool.names_before:
        yield Hit(f"another tool is already named {tool.name!r}", (), "name")


def fix_duplicate_tool_name(tool: Any, ctx: NodeContext) -> Fixed:
    longest = name_parts(ctx.profile.name_pattern)[2]
    n = 2
    while True:
        suffix = f"_{n}"
        new = tool.name[: longest - len(suffix)] + suffix
        if new not in tool.names_before:
            break
        n += 1
    return Fixed(new, (Edit((), "lossy", f"renamed the duplicate {tool.name!r} → {new!r}",
                            accepts="equal", told="lost"),))


def detect_missing_description(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    text = tool.description  # asked twice per tool: no stripped copy of a long description
    if not (isinstance(text, str) and text and not text.isspace()):
        yield Hit("the tool has no description; the model has only its name to go on",
                  (), "description")


def detect_description_too_long(tool: Any, ctx: NodeContext) -> Iterable[Hit]:
    limit = ctx.profile.max_description
    if limit is not None and isinstance(tool.description, str) and len(tool.description) > limit:
        yield Hit(f"the description has {len(tool.description)} characters; "
                  + (ctx.profile.max_description_note
                     or f"the provider has refused more than {limit}"), (), "description")


RULES: list[Rule] = [
    Rule(
        code="NAM001", name="invalid-tool-name", severity="error", scope="tool",
        message="tool name breaks the provider's rule", safety="lossy", accepts="equal",
        told="lost",
        fix_title="Rename (recorded in the name map)", detect=detect_invalid_tool_name,
        fix=fix_invalid_tool_name,
        docs=RuleDocs(
            what="A tool name with characters or a length the provider refuses: slashes, "
                 "spaces, a leading digit, more than 64 characters for Gemini. With "
                 "`--client`, what the client refuses too: Copilot CLI's `.` and `/` "
                 "(github/copilot-cli#1879), Claude Code's 64 characters counted with its "
                 "`mcp__server__` prefix (anthropics/claude-code#19882).",
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
        fix_title="Rename with a numeric suffix", detect=detect_duplicate_tool_name,
        fix=fix_duplicate_tool_name,
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
        detect=detect_missing_description,
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
        code="NAM004", name="description-too-long", severity="warning", scope="tool",
        message="tool description longer than the provider has accepted", safety=None,
        fix_title=None, detect=detect_description_too_long,
        docs=RuleDocs(
            what="A tool description longer than the provider's observed limit (1,024 "
                 "characters for OpenAI function tools, seen 2024-11 to 2025-04 and reported "
                 "lifted for newer models in 2026). Observed in issues only, not documented, "
                 "so this is a warning. With `--client claude-code`, the 2,048 characters "
                 "past which Claude Code cuts a description without a word "
                 "(anthropics/claude-code#41593).",
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
