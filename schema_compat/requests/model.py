"""The records a request plan is made of: every tool as it is sent, every limit with its
use, every decision with its reason."""

from __future__ import annotations

from typing import NamedTuple

from ..model import Decision, RequestInfo, RequestLimit, ToolDef, ToolResult
from .names import held_twice


class PlanError(ValueError):
    """A request that cannot be planned as asked (too many tools, a glob that matches
    nothing): the message says what to choose."""


__all__ = ["Decision", "PlanError", "PlannedTool", "RequestLimit", "RequestPlan"]


class PlannedTool(NamedTuple):
    """A tool as it goes into the request."""

    result: ToolResult  # transformed_name is the name sent; profile the one it is valid for
    server: str  # the server's name, as prefixes use it
    name: str  # the name sent
    strict: bool | None  # None: the provider has no strict flag
    score: int  # what strict decoding gains on it (see strict.gain)


class RequestPlan(NamedTuple):
    """One request: its tools, its limits with their use, and the decisions taken."""

    provider: str
    tools: tuple[PlannedTool, ...]
    limits: tuple[RequestLimit, ...]
    decisions: tuple[Decision, ...]
    name_prefix: str = "none"
    excluded: tuple[ToolDef, ...] = ()

    @property
    def name_map(self) -> dict[str, str]:
        """Sent name -> the tool's own name, for every tool sent under another name."""
        return {t.name: t.result.tool.name for t in self.tools
                if t.name != t.result.tool.name}

    def route(self, sent: str) -> tuple[str, str] | None:
        """(source, the tool's own name) a call to `sent` goes to (None: no such tool)."""
        for t in self.tools:
            if t.name == sent:
                return t.result.tool.source, t.result.tool.name
        return None

    @property
    def over(self) -> tuple[RequestLimit, ...]:
        return tuple(limit for limit in self.limits if limit.over)

    def clashes(self) -> tuple[str, ...]:
        """The names more than one tool of the request asked for (each settled apart)."""
        return held_twice(t.result.tool.name for t in self.tools)

    def info(self) -> RequestInfo:
        """The request as the reports show it."""
        sources = tuple(dict.fromkeys(t.result.tool.source for t in self.tools))
        return RequestInfo(sources, self.limits, self.clashes(), self.decisions,
                           self.name_prefix)
