"""Claude tool use without `strict` (Messages API `tools[].input_schema`).

docs/providers.md ANT: names `^[a-zA-Z0-9_-]{1,128}$` (ANT-01), a root `type` (ANT-03), no
root `anyOf`/`oneOf`/`allOf` (ANT-04, observed only: a warning), a valid 2020-12 document
(ANT-05, observed only: warnings). No tool count or description limit is documented.
"""

from __future__ import annotations

from .base import Profile
from .order import profile_order

NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,128}$"
NAME_RULE = "letters, digits, _ and - only; 1 to 128 characters"

ANTHROPIC = Profile(
    name="anthropic",
    short="ANT",
    title="Anthropic tool use",
    target="tools[].input_schema (JSON Schema 2020-12)",
    strict_flag=False,
    rules=profile_order("anthropic", {
        "NAM001", "NAM002", "NAM003", "ROOT001", "ROOT002", "ROOT003", "TYP003", "TYP007",
        "TYP008", "TYP009", "UNI009", "VAL005",
    }),
    severity={"ROOT001": "warning", "TYP008": "warning"},
    allowed_keywords=frozenset(),
    name_pattern=NAME_PATTERN,
    name_rule=NAME_RULE,
    nullable_keyword=False,
    sources=("platform.claude.com/docs/agents-and-tools/tool-use/define-tools",
             "docs/providers.md#anthropic"),
    facts=("ANT",),
    notes="Keywords are hints only; the root must be one object. claude.ai and Claude "
          "Desktop connectors still cut names at 64 characters (use `portable` for them).",
)
