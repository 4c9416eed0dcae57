"""Strict modes: OpenAI Structured Outputs (`strict: true`) and Anthropic strict tool use.

docs/providers.md OAIS and ANTS. Rules documented by the provider are errors; those known
only from issues or unverified (`oneOf`, `default`, arrays without `items`, the older-docs
keyword list, unknown keywords) are warnings, still fixed by transform.
"""

from __future__ import annotations

from .anthropic import NAME_PATTERN as ANTHROPIC_NAME
from .anthropic import NAME_RULE as ANTHROPIC_RULE
from .base import OPAQUE, Profile, StrictBudget
from .openai import NAME_PATTERN as OPENAI_NAME
from .openai import NAME_RULE as OPENAI_RULE
from .order import profile_order

_WARN = ("ROOT002", "TYP004", "TYP008", "UNI008", "ANN001", "ANN002", "ANN003",
         "ANN004", "ANN005", "OBJ002", "OBJ003", "OBJ004", "OBJ005", "CON003", "CON004",
         "CON005")

OPENAI_STRICT = Profile(
    name="openai-strict",
    short="OAI-S",
    title="OpenAI Structured Outputs (strict function tools)",
    target="tools[].function.parameters with strict: true",
    strict_flag=True,
    rules=profile_order("openai-strict", {
        "ANN001", "ANN002", "ANN003", "ANN004", "ANN005", "CON003", "CON004", "CON005",
        "CON006", "LIM001", "LIM002", "LIM003", "ROOT003", "NAM001", "NAM002", "NAM003", "NAM004",
        "OBJ002", "OBJ003", "OBJ004", "OBJ005", "OBJ006", "OBJ008", "OBJ009", "OBJ010",
        "REF004", "REF005", "REF009", "REF010", "ROOT001", "ROOT002", "TYP002", "TYP003",
        "TYP004", "TYP005", "TYP007", "TYP008", "TYP009", "UNI004", "UNI005", "UNI006",
        "UNI008", "UNI009", "VAL005",
    }),
    severity={**{c: "warning" for c in _WARN}, "ROOT002": "error", "CON006": "warning"},
    allowed_keywords=frozenset({
        "type", "description", "title", "enum", "const", "properties", "required",
        "additionalProperties", "items", "anyOf", "$ref", "$defs", "definitions", "pattern",
        "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "minItems", "maxItems", "minLength", "maxLength",
    }),
    name_pattern=OPENAI_NAME,
    name_rule=OPENAI_RULE,
    formats={"string": frozenset({"date-time", "time", "date", "duration", "email",
                                  "hostname", "ipv4", "ipv6", "uuid"})},
    max_tools=128,
    max_tools_source="OAI-04",
    max_description=1024,
    non_strict="openai",
    nullable_keyword=False,
    opaque_keywords=OPAQUE,
    sources=("developers.openai.com/api/docs/guides/structured-outputs (Supported schemas)",
             "openai/openai-python lib/_pydantic.py _ensure_strict_json_schema",
             "docs/providers.md#openai-strict"),
    facts=("OAIS", "OAI"),
    notes="Every object closed and every property required (optional ones nullable); "
          "`$ref`/`$defs` and recursion kept; 10 levels, 5,000 properties, 120,000 "
          "characters, 1,000 enum values.",
)

ANTHROPIC_STRICT = Profile(
    name="anthropic-strict",
    short="ANT-S",
    title="Anthropic strict tool use",
    target="tools[].input_schema with strict: true",
    strict_flag=True,
    rules=profile_order("anthropic-strict", {
        "ANN001", "ANN002", "ANN003", "ANN004", "CON001", "CON002", "CON003", "CON004",
        "CON005", "CON006", "CON007", "LIM001", "LIM004", "ROOT003", "NAM001", "NAM002", "NAM003",
        "OBJ002", "OBJ003", "OBJ004", "OBJ005", "OBJ006", "OBJ008", "REF001", "REF002",
        "REF003", "REF004", "REF005", "REF006", "ROOT001", "ROOT002", "TYP002", "TYP003",
        "TYP004", "TYP005", "TYP007", "TYP008", "TYP009", "UNI004", "UNI005", "UNI006",
        "UNI008", "UNI009", "VAL005",
    }),
    severity={**{c: "warning" for c in _WARN if c != "ROOT002"}, "ROOT001": "warning"},
    allowed_keywords=frozenset({
        "type", "description", "title", "enum", "const", "properties", "required",
        "additionalProperties", "items", "anyOf", "allOf", "default", "format", "pattern",
        "minItems",
    }),
    name_pattern=ANTHROPIC_NAME,
    name_rule=ANTHROPIC_RULE,
    formats={"string": frozenset({"date-time", "time", "date", "duration", "email",
                                  "hostname", "uri", "ipv4", "ipv6", "uuid"})},
    max_tools=20,
    # ANTS-05 (structured-outputs#schema-complexity-limits): at most 20 tools with
    # `strict: true`, 24 optional parameters and 16 parameters using `anyOf` or a type
    # list, summed over the strict tools ("Non-strict tools don't count").
    strict_budget=StrictBudget(20, 24, 16, "anthropic", "ANTS-05"),
    non_strict="anthropic",
    nullable_keyword=False,
    opaque_keywords=OPAQUE,
    sources=("platform.claude.com/docs/en/build-with-claude/structured-outputs",
             "anthropics/anthropic-sdk-python lib/_parse/_transform.py",
             "docs/providers.md#anthropic-strict"),
    facts=("ANTS", "ANT"),
    notes="Every object closed; no recursion (cut like gemini); no numeric or length "
          "bounds; at most 20 strict tools, 24 optional parameters and 16 unions per "
          "request (the tools of one source taken as one request).",
)
