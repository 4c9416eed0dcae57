"""Running the engine over a command's tools (with a spinner on a terminal when there are
many) and gathering the results into a report.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .plans import per_tool_plans

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..model import Report, SourceError, ToolResult


def run_tools(tools: list[Any], plan: RuleSet, per_tool: dict[str, list[str]] | None = None, *,
              keep_schemas: bool = True, keep_changes: bool = True,
              plan_for: Callable[[Any], RuleSet] | None = None) -> list[ToolResult]:
    """The engine's results; without `keep_changes`, changes that are not lossy are kept
    only as counts (see `compact_changes`), for reports that show no more. `plan_for`
    gives each tool its plan (else the plan less its per-tool ignores)."""
    from ..engine import iter_ruleset, run_ruleset

    if plan_for is None and per_tool:
        plan_for = per_tool_plans(plan, per_tool)
    with busy(len(tools)):
        if keep_changes:
            return run_ruleset(tools, plan, plan_for, keep_schemas=keep_schemas)
        from ..output.results import compact_changes

        shared: dict[Any, Any] = {}
        return [compact_changes(r, shared)
                for r in iter_ruleset(tools, plan, plan_for, keep_schemas=keep_schemas)]


@contextlib.contextmanager
def busy(count: int, spin: bool = True) -> Iterator[None]:
    """A spinner on a terminal's stderr while many tools are checked."""
    if spin and count >= 200 and sys.stderr.isatty():
        from ..report.text import make_console

        with make_console(stderr=True).status(f"Checking {count} tools…"):
            yield
    else:
        yield


def make_report(provider: str, results: list[ToolResult], errors: list[SourceError],
                loaded: list[LoadedSource] | None = None, *,
                lossless_only: bool = False) -> Report:
    """`loaded` adds what each live server said of its protocol to the report;
    `lossless_only`, that the run refused every fix that is not lossless."""
    from ..model import Report

    servers = tuple(s.server for s in loaded or () if s.server is not None)
    return Report(provider, tuple(results), tuple(errors), servers,
                  lossless_only=lossless_only)
