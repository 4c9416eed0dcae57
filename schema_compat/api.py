"""The library API: the same pipeline as the CLI, for code that registers tools.

Server authors call it at registration time (fs-mcp's case): `transform(tools, "gemini")`
before the tools are served, `check(tools)` in a test. Tools may be MCP tool dicts (as in a
`tools/list` result), ToolDefs, or the MCP SDK's own `Tool` objects; results are the frozen,
typed records (named tuples) of `schema_compat.model`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import run
from .mcp_tool import ToolLike, tooldefs
from .model import Report, SourceError, ToolDef, ToolResult

__all__ = ["ToolLike", "check", "load_tools", "transform"]


def load_tools(*paths: str) -> tuple[list[ToolDef], list[SourceError]]:
    """Every tool in the given files, directories or `-`, and the sources that failed."""
    from .extract.files import load_sources

    sources, errors = load_sources(list(paths))
    return [t for s in sources for t in s.tools], errors


def check(tools: Sequence[ToolLike], provider: str = "gemini", *,
          select: list[str] | None = None, ignore: list[str] | None = None) -> Report:
    """Findings for each tool against one provider: `report.results[i].findings`, each with
    its rule code, severity, path and fix safety; `results[i].status` says whether the
    provider would accept the tool as published."""
    return Report(provider, tuple(run(tooldefs(tools), provider, select=select,
                                      ignore=ignore)))


def transform(tools: Sequence[ToolLike], provider: str = "gemini", *,
              lossless_only: bool = False, select: list[str] | None = None,
              ignore: list[str] | None = None) -> list[ToolResult]:
    """One result per tool, in order: `transformed_name`, `transformed_schema`, `changes`
    (each with rule code, path, safety and effect: `accepts`, `told`), `remaining` findings
    and `fix_status`.

    `lossless_only=True` applies only lossless changes: the arguments the transformed schema
    accepts are exactly those the original accepts, and nothing is renamed.
    """
    return run(tooldefs(tools), provider, select=select, ignore=ignore,
               lossless_only=lossless_only)
