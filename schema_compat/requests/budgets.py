"""Per-request limits: what one request may hold, summed over its tools.

A client sends the tools of all its servers in one request, so these limits are per
request, not per tool (docs/providers.md §7 "Request-level limits side by side"). Their
figures are the profiles' (`Profile.max_tools`, `Profile.strict_budget`, with the ids of
their sources): a tool count (OpenAI 128, Vertex AI 128, Gemini API 512; none documented
for Anthropic), and for Anthropic strict tool use the budgets its strict tools share.

Optional parameters and unions are counted as rule LIM004 counts them
(`rules.limits.tally_complexity`), so the planner and the check agree.
"""

from __future__ import annotations

from typing import Any

from ..profiles import Profile, StrictBudget
from ..rules.limits import tally_complexity


def strict_budget(profile: Profile) -> StrictBudget | None:
    return profile.strict_budget


def max_tools(profile: Profile) -> int | None:
    """The number of tools one request may declare. A profile with a strict budget counts
    its strict tools there (its `max_tools` is that budget), not all tools: only a client's
    count (`client_max_tools`) limits all of them."""
    return profile.client_max_tools if profile.strict_budget is not None else profile.max_tools


def costs(schema: Any) -> tuple[int, int]:
    """(optional parameters, parameters with `anyOf` or a type list) of one schema."""
    found = tally_complexity(schema)
    return found["optional"], found["unions"]
