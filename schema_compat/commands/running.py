"""Running the engine over a command's tools (with a spinner on a terminal when there are
many) and gathering the results into a report.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..requests.request import tool_plans

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..model import Report, RequestInfo, SourceError, ToolResult


def run_tools(tools: list[Any], plan: RuleSet, per_tool: dict[str, list[str]] | None = None, *,
              keep_schemas: bool = True, keep_changes: bool = True) -> list[ToolResult]:
    """The engine's results, each tool under the plan less its per-tool ignores; without
    `keep_changes`, changes that are not lossy are kept only as counts (`gathered`)."""
    from ..engine import iter_ruleset
    from ..output.results import gathered

    plan_for = tool_plans(plan, per_tool)
    with busy(len(tools)):
        return gathered(iter_ruleset(tools, plan, plan_for, keep_schemas=keep_schemas),
                        keep_changes)


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
                requests: tuple[RequestInfo, ...] = (), lossless_only: bool = False,
                client: str = "", client_from: str = "") -> Report:
    """The report, built once with all it holds: `loaded` adds what each live server said
    of its protocol; `requests`, each request's limits and decisions; `lossless_only`, that
    the run refused every fix that is not lossless; `client`, the MCP client whose limits
    joined the provider's and `client_from`, the config it was inferred from."""
    from ..model import Report

    servers = tuple(s.server for s in loaded or () if s.server is not None)
    return Report(provider, tuple(results), tuple(errors), servers, requests,
                  lossless_only=lossless_only, client=client, client_from=client_from)
