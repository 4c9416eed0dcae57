"""OpenAI function tools without `strict` (Chat Completions and Responses).

docs/providers.md OAI. Keywords are advisory here (OAI-11), so only what makes the request
fail is checked: the tool name (OAI-01/02), the root shape (OAI-06/07), arrays without
`items`, also where a type list allows an array (OAI-08), objects without `properties`
(OAI-10), malformed schemas (OAI-09), 128 tools (OAI-04) and the 1,024-character
description limit (OAI-05). Rules known from issues only are warnings.
"""

from __future__ import annotations

from .base import Profile
from .order import profile_order

NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,64}$"
NAME_RULE = "letters, digits, _ and - only; 1 to 64 characters"

OPENAI = Profile(
    name="openai",
    short="OAI",
    title="OpenAI function tools",
    target="tools[].function.parameters (JSON Schema, non-strict)",
    strict_flag=False,
    rules=profile_order("openai", {
        "LIM001", "NAM001", "NAM002", "NAM003", "NAM004", "OBJ010", "ROOT001", "ROOT002", "ROOT003",
        "TYP003", "TYP004", "TYP007", "TYP008", "TYP009", "UNI009", "VAL005",
    }),
    severity={"ROOT001": "warning", "TYP004": "warning", "TYP008": "warning"},
    allowed_keywords=frozenset(),
    name_pattern=NAME_PATTERN,
    name_rule=NAME_RULE,
    formats=None,
    max_tools=128,
    max_tools_source="OAI-04",
    max_description=1024,
    nullable_keyword=False,
    sources=("openai/openai-python FunctionDefinition", "docs/providers.md#openai"),
    facts=("OAI",),
    notes="Other keywords are accepted and only advisory; root unions and arrays without "
          "items are refused (seen in issues, so warnings).",
)

# OpenAI's request shape and rules without OpenAI's own limits (128 tools, 1,024-character
# descriptions), which the providers taking the same shape do not document: their start.
OPENAI_SHAPE = OPENAI._replace(max_tools=None, max_tools_source="", max_description=None)
