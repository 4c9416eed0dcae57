"""A provider profile is data: which rules apply, how strictly, and the provider's limits."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from ..model import Severity

# JSON Schema's keywords holding subschemas that the JSON Schema dialects (gemini-json, the
# strict modes) lack: transform removes their subschemas whole, and describes them.
OPAQUE = frozenset({
    "not", "if", "then", "else", "contains", "propertyNames", "patternProperties",
    "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems",
})


def name_parts(pattern: str) -> tuple[bool, str, int]:
    """(first character a letter or `_`, the character class, the longest name) of a
    profile's name pattern, which is `^[A-Za-z_][CLASS]{0,N}$` or `^[CLASS]{1,N}$`."""
    letter_first = pattern.startswith("^[A-Za-z_]")
    chars = re.search(r"\[([^\]]+)\]\{", pattern)
    length = re.search(r"\{(\d+),(\d+)\}", pattern)
    longest = int(length.group(2)) + (1 if letter_first else 0) if length else 64
    return letter_first, chars.group(1) if chars else "A-Za-z0-9_-", longest


class StrictBudget(NamedTuple):
    """Per-request budgets that a profile's strict tools share; tools left out of them are
    sent without `strict`, with schemas for the `fallback` profile. `source` is the
    docs/providers.md id the figures come from."""

    strict_tools: int
    optional: int
    unions: int
    fallback: str
    source: str


class Profile(NamedTuple):
    name: str
    title: str
    target: str  # the request field the schema is sent in
    rules: tuple[str, ...]  # rule codes in fix order: order.profile_order of those enabled
    allowed_keywords: frozenset[str]
    name_pattern: str
    name_rule: str  # the name rule in words, for messages
    severity: Mapping[str, Severity] = {}  # one shared default: read only, never mutated
    # type -> formats the provider takes; None: any `format` value is fine
    formats: Mapping[str, frozenset[str]] | None = None
    max_tools: int | None = None
    # The docs/providers.md id(s) `max_tools` comes from, for messages; "" where it has none.
    max_tools_source: str = ""
    max_description: int | None = None  # characters of a tool description
    # What NAM004 says of `max_description` when a client set it ("" : the provider's).
    max_description_note: str = ""
    nullable_keyword: bool = True  # OpenAPI `nullable: true` instead of a null type
    # The `type` names the provider's schema takes (TYP003 flags the others); None: every
    # JSON Schema type.
    types: frozenset[str] | None = None
    # The subschemas an `allOf` may hold (UNI004 flags one with more); 0: no `allOf` at all.
    all_of_branches: int = 0
    unroll_depth: int = 3
    max_inlined_nodes: int = 50_000
    max_inlined_depth: int = 100
    # Keywords whose subschemas transform removes whole (and describes): not rewritten first.
    opaque_keywords: frozenset[str] = frozenset()
    sources: tuple[str, ...] = ()
    # The groups of docs/providers.md facts (ID prefixes: GEM, OAI) it rests on.
    facts: tuple[str, ...] = ()
    notes: str = ""
    # The models and endpoint the profile describes ("Vertex AI; Gemini 2.x and 3"), where
    # providers' generations differ (docs/providers.md GEN); "" where that is not known.
    generation: str = ""
    # rule code -> the generations its findings hold for, where narrower than `generation`
    # (with the docs/providers.md id saying so); the rule pages print both.
    generations: Mapping[str, str] = {}
    short: str = ""  # a column label for narrow terminals (the matrix); defaults to name
    # The field of a Gemini function declaration that carries this profile's schemas:
    # `parameters` (Gemini's OpenAPI subset) or `parametersJsonSchema` (JSON Schema). A
    # document of declarations is written back with it, and `transform --to gemini` sends
    # it. Profiles of other providers keep `parameters`, the field their schemas take there.
    wire_field: str = "parameters"
    # The `strict` field a request gives every tool of this profile, where no strict budget
    # decides it tool by tool: True (strict profiles), False (OpenAI and Anthropic without
    # strict mode), None where the provider's declarations have no such field.
    strict_flag: bool | None = None
    # Whether a Chat Completions request's tools carry that `strict` field: xAI's tools are
    # strict unasked and `strict: true` has been refused (XAI-01, XAI-02), so none is sent.
    strict_field: bool = True
    # Budgets the strict tools of one request share (Anthropic strict tool use): the planner
    # sends as many tools strict as they allow, the others without `strict`, and counts
    # tools against `strict_tools` instead of `max_tools`. None: no such budgets.
    strict_budget: StrictBudget | None = None
    # The profile of a tool a request sends without `strict` (a strict profile's plain
    # counterpart; a strict budget's `fallback`): `check` checks a tool whose entry says
    # `strict: false` for it. "": the provider has no strict flag, or it is this profile.
    non_strict: str = ""
    # The MCP client whose limits are folded in (profiles/clients.py's `with_client`), and
    # its tool count where the profile's `max_tools` counts strict tools only; "": none.
    client: str = ""
    client_max_tools: int | None = None

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def name_regex(self) -> re.Pattern[str]:
        return re.compile(self.name_pattern)  # compiled once: `re` keeps what it compiled
