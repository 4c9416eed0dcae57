"""Per-request limits: what one request may hold, summed over its tools.

A client sends the tools of all its servers in one request, so these limits are per
request, not per tool (docs/providers.md §7 "Request-level limits side by side"):

- Anthropic strict tool use (ANTS-05, structured-outputs#schema-complexity-limits): at most
  20 tools with `strict: true`, 24 optional parameters and 16 parameters using `anyOf` or a
  type list, summed over the strict tools ("Non-strict tools don't count"). No tool count
  is documented for Anthropic.
- Tool counts: OpenAI 128 (OAI-04), Vertex AI 128 (VTX-08), Gemini API 512 (GEM-18).

Optional parameters and unions are counted as rule LIM004 counts them
(`rules.limits.tally_complexity`), so the planner and the check agree.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..profiles import Profile
from ..rules.limits import tally_complexity


class StrictBudget(NamedTuple):
    """A profile whose strict tools share per-request budgets; tools left out of them are
    sent without `strict`, with schemas for the `fallback` profile."""

    strict_tools: int
    optional: int
    unions: int
    fallback: str
    source: str


BUDGETS: dict[str, StrictBudget] = {
    "anthropic-strict": StrictBudget(20, 24, 16, "anthropic", "ANTS-05"),
}

# Where a profile's tool count comes from (its `max_tools`), for messages.
COUNT_SOURCES: dict[str, str] = {
    "gemini": "GEM-18", "gemini-json": "GEM-18", "vertex": "VTX-08", "openai": "OAI-04",
    "openai-strict": "OAI-04", "portable": "OAI-04, VTX-08",
}


def strict_budget(profile: Profile) -> StrictBudget | None:
    return BUDGETS.get(profile.name)


def max_tools(profile: Profile) -> int | None:
    """The number of tools one request may declare. A profile with a strict budget counts
    its strict tools there (its `max_tools` is that budget), not all tools."""
    return None if profile.name in BUDGETS else profile.max_tools


def costs(schema: Any) -> tuple[int, int]:
    """(optional parameters, parameters with `anyOf` or a type list) of one schema."""
    found = tally_complexity(schema)
    return found["optional"], found["unions"]
