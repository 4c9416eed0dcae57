"""The document `transform` writes for its results.

One source comes back in its own shape (`write_back`), so the output can replace the input
as it is; the tools of several sources have no one shape to go back to, and are written as
one MCP `tools/list` result. The document is built whole (`transformed_document`) or
written in pieces while each tool is transformed (`document_pieces`): both give the same
text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..mcp_tool import mcp_entry
from ..model import written_dialect

if TYPE_CHECKING:
    from ..extract.files import LoadedSource
    from ..model import ToolDef, ToolResult
    from ..profiles import Profile
    from .results import Taken

__all__ = ["document_pieces", "transformed_document"]


def transformed_document(loaded: Sequence[LoadedSource], results: Sequence[ToolResult],
                         profile: Profile) -> Any:
    """The document for `results` (tools of `loaded`, transformed for `profile`)."""
    from .write_back import write_back

    if len(loaded) == 1:
        src = loaded[0]
        replacements = {r.tool.index: (r.transformed_name, _schema_for(r, src.shape))
                        for r in results if r.tool.source == src.label}
        strict = {r.tool.index: flag for r in results if r.tool.source == src.label
                  for flag in [sent_strict(r, profile)] if flag is not None}
        return write_back(src, replacements, gemini_field=profile.wire_field,
                          strict=strict, dialect=written_dialect(profile.nullable_keyword))
    return {"tools": [_mcp_tool(r, profile) for r in results]}


def sent_strict(result: ToolResult, profile: Profile) -> bool | None:
    """Whether a tool the request planner settled under a strict budget is sent strict
    (its result is for the request's profile) or without `strict` (for the budget's
    fallback); None for other profiles, whose documents keep what they said."""
    if profile.strict_budget is None:
        return None
    return result.profile == profile.name


def document_pieces(loaded: Sequence[LoadedSource], tools: Sequence[ToolDef], taken: Taken,
                    profile: Profile) -> Iterator[str]:
    """The text of `dump_json(transformed_document(...))` in pieces, each tool transformed
    (by `taken`) only when its place in the document is written."""
    from ..jsonio import iter_indented
    from .write_back import iter_write_back

    if len(loaded) == 1:
        src = loaded[0]

        def take(index: int) -> tuple[str, Any]:
            r = taken.take(src.label, index)
            return r.transformed_name, _schema_for(r, src.shape)

        return iter_write_back(src, [t.index for t in tools if t.source == src.label], take,
                               gemini_field=profile.wire_field,
                               dialect=written_dialect(profile.nullable_keyword))
    places = [("tools", i) for i in range(len(tools))]
    return iter_indented({"tools": [None] * len(tools)}, ensure_ascii=False, holes=places,
                         fill=lambda _: _mcp_tool(taken.next(), profile))


def _mcp_tool(result: ToolResult, profile: Profile) -> dict[str, Any]:
    entry = mcp_entry(result.tool, result.transformed_name, result.transformed_schema,
                      written_dialect(profile.nullable_keyword))
    if sent_strict(result, profile) is False:  # as write_back marks it
        entry["strict"] = False
    return entry


def _schema_for(result: ToolResult, shape: str) -> Any:
    """A Gemini declaration for a tool without arguments omits `parameters` entirely."""
    schema = result.transformed_schema
    if shape == "gemini" and isinstance(schema, dict) and schema.get("type") == "object" \
            and not schema.get("properties") and len(schema) <= 2:
        return None
    return schema
