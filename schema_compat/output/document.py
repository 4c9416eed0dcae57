"""The document `transform` writes for its results.

One source comes back in its own shape (`iter_write_back`), so the output can replace the input
as it is; the tools of several sources have no one shape to go back to, and are written as
one MCP `tools/list` result. The document is written in pieces while each tool is
transformed (`document_pieces`), so a large listing is never held twice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..jsonio import has_surrogate, iter_indented
from ..mcp_tool import mcp_entry
from ..model import written_dialect
from .results import Taken
from .write_back import Written, iter_write_back

if TYPE_CHECKING:
    from ..extract.files import LoadedSource
    from ..model import ToolDef, ToolResult
    from ..profiles import Profile

__all__ = ["document_pieces", "results_pieces"]


def sent_strict(result: ToolResult, profile: Profile) -> bool | None:
    """Whether a tool the request planner settled under a strict budget is sent strict
    (its result is for the request's profile) or without `strict` (for the budget's
    fallback); None for other profiles, whose documents keep what they said."""
    if profile.strict_budget is None:
        return None
    return result.profile == profile.name


def document_pieces(loaded: Sequence[LoadedSource], tools: Sequence[ToolDef], taken: Taken,
                    profile: Profile) -> Iterator[str]:
    """The text of the document for `tools` (of `loaded`, transformed for `profile`) in
    pieces, each tool's result taken from `taken` only when its place is written.

    A lone surrogate (`"\\ud800"` parses fine) cannot be written as UTF-8, and a stream
    must choose before its first piece: when any input holds one, the whole text is
    written with `\\u` escapes (the same JSON value), even if the transform drops it."""
    ensure_ascii = any(has_surrogate(src.document) for src in loaded)
    if len(loaded) == 1:
        src = loaded[0]

        def take(index: int) -> Written:
            r = taken.take(src.label, index)
            return r.transformed_name, _schema_for(r, src.shape), sent_strict(r, profile)

        return iter_write_back(src, [t.index for t in tools if t.source == src.label], take,
                               gemini_field=profile.wire_field, ensure_ascii=ensure_ascii,
                               dialect=written_dialect(profile.nullable_keyword))
    places = [("tools", i) for i in range(len(tools))]
    return iter_indented({"tools": [None] * len(tools)}, ensure_ascii=ensure_ascii,
                         holes=places, fill=lambda _: _mcp_tool(taken.next(), profile))


def results_pieces(loaded: Sequence[LoadedSource], results: Sequence[ToolResult],
                   profile: Profile) -> Iterator[str]:
    """`document_pieces` for results already run (by the request planner, the playground),
    in the order of their tools."""
    return document_pieces(loaded, [r.tool for r in results],
                           Taken(iter(results), keep_schemas=True), profile)


def _mcp_tool(result: ToolResult, profile: Profile) -> dict[str, Any]:
    entry = mcp_entry(result.tool, result.transformed_name, result.transformed_schema,
                      written_dialect(profile.nullable_keyword))
    if sent_strict(result, profile) is False:  # as write_back._with_strict marks it
        entry["strict"] = False
    return entry


def _schema_for(result: ToolResult, shape: str) -> Any:
    """A Gemini declaration for a tool without arguments omits `parameters` entirely."""
    schema = result.transformed_schema
    if shape == "gemini" and isinstance(schema, dict) and schema.get("type") == "object" \
            and not schema.get("properties") and len(schema) <= 2:
        return None
    return schema
