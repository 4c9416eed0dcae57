"""One schema for every profile's plain form: gemini, vertex, openai and anthropic.

Gemini `parameters` is the narrowest keyword set (no references, no unions, string enums, a
few formats), and what it leaves (`nullable` aside, an OpenAPI word the others accept and
ignore) is plain JSON Schema that Vertex, OpenAI and Anthropic take. On top of it come the
strictest tool-level limits: the portable name `^[A-Za-z_][A-Za-z0-9_-]{0,63}$` (no dots or
colons, 64 characters, letter first), 128 tools, 1,024-character descriptions; and Vertex's
types (no `null` type: VTX-10, where Gemini's has one since 2025-04). The strict profiles
are not covered: their `required`/`additionalProperties` demands change what a non-strict
provider is told.
"""

from __future__ import annotations

from .gemini import ENABLED, GEMINI
from .order import profile_order
from .vertex import TYPES as VERTEX_TYPES

PORTABLE = GEMINI._replace(
    name="portable",
    short="PORT",
    title="Portable (gemini, vertex, openai, anthropic)",
    target="one parameters schema for every non-strict profile",
    rules=profile_order("portable", ENABLED | {"NAM004"}),
    severity={"NAM004": "warning"},
    name_pattern=r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
    name_rule="start with a letter or underscore; letters, digits, _ and - only; at most 64 "
              "characters",
    max_tools=128,
    max_tools_source="OAI-04, VTX-08",
    max_description=1024,
    types=VERTEX_TYPES,  # Vertex's `Type` has no NULL (VTX-10); Gemini's has since 2025-04
    sources=("docs/providers.md#portable",),
    facts=("GEM", "VTX", "OAI", "ANT"),
    notes="Accepted by gemini, vertex, openai and anthropic (non-strict): gemini's schema "
          "rules with the strictest name, tool-count and description limits, and no `null` "
          "type (Vertex).",
    generation="Gemini 2.x and 3 (Gemini API and Vertex AI), OpenAI, Anthropic",
)
