"""The library API: the same pipeline as the CLI, for code that registers tools."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .engine import run
from .model import Report, SourceError, ToolDef, ToolResult


def load_tools(*paths: str) -> tuple[list[ToolDef], list[SourceError]]:
    """Every tool in the given files, directories or `-`, and the sources that failed."""
    from .extract.files import load_sources

    sources, errors = load_sources(list(paths))
    return [t for s in sources for t in s.tools], errors


def _tooldefs(tools: Sequence[ToolDef | Mapping[str, Any]]) -> list[ToolDef]:
    """ToolDefs for the engine; a schema nested deeper than the file loader accepts is refused
    here too (ValueError), since the engine's walkers recurse and would hit RecursionError."""
    from .jsonio import MAX_DEPTH, too_deep

    out = []
    for i, t in enumerate(tools):
        if isinstance(t, ToolDef):
            out.append(t)
        else:
            out.append(ToolDef(name=str(t.get("name", f"<tool {i}>")),
                               schema=t.get("inputSchema"), description=t.get("description"),
                               index=i, raw=t))
        if too_deep(out[-1].schema):
            raise ValueError(f"tool {out[-1].name!r}: input schema nested deeper than "
                             f"{MAX_DEPTH} levels")
    return out


def check(tools: Sequence[ToolDef | Mapping[str, Any]], provider: str = "gemini", *,
          select: list[str] | None = None, ignore: list[str] | None = None) -> Report:
    """Findings for each tool (MCP tool dicts or ToolDefs) against one provider."""
    return Report(provider, tuple(run(_tooldefs(tools), provider, select=select,
                                      ignore=ignore)))


def transform(tools: Sequence[ToolDef | Mapping[str, Any]], provider: str = "gemini", *,
              lossless_only: bool = False, select: list[str] | None = None,
              ignore: list[str] | None = None) -> list[ToolResult]:
    """Transformed schemas with their change logs (`result.transformed_schema`)."""
    return run(_tooldefs(tools), provider, select=select, ignore=ignore,
               lossless_only=lossless_only)
