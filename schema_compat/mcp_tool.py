"""The one conversion between a tool object and a `ToolDef`, in both directions.

A tool reaches the engine from a file (any shape `extract/files` reads), from library code
(an MCP tool dict or the MCP SDK's `Tool`, `api`), or from a live `tools/list` answer the
proxy relays. Each must become the same `ToolDef`, or `check` on a file, `check()` in code
and the proxy would judge one tool three ways. The rule, kept here only:

- a name that is not a string becomes the placeholder `<tool N>` (N its index), so the
  name rules report the tool instead of a `str()` of whatever was there;
- a description that is not a string is no description (NAM003 says so);
- the schema is taken as it is, whatever its JSON type: the rules judge it;
- `raw` is the tool object itself, so a writer can give back its other fields;
- the schema is JSON Schema, as MCP says, unless the tool's `_meta` names the OpenAPI
  dialect (`DIALECT_KEY`): `transform` marks so a schema it wrote for a provider that reads
  OpenAPI's `nullable` (gemini, vertex, portable), so that the listing read again means what
  it was written to mean (`with_dialect`).

The way back, a result as one MCP tool object, is here too (`mcp_entry`): the transform's
MCP listing of several sources and the request planner's MCP listing write the same entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .model import JSON_SCHEMA, OPENAPI, ToolDef

__all__ = ["DIALECT_KEY", "SdkTool", "ToolLike", "empty_schema",
           "from_mcp", "from_sdk", "mcp_entry", "placeholder_name", "tool_def", "tooldefs",
           "with_dialect"]

# The `_meta` key of an MCP tool that names the dialect its schema is written in (`_meta`
# keys under a prefix of one's own are the extension point the MCP specification gives).
DIALECT_KEY = "schema-compat/dialect"


@runtime_checkable
class SdkTool(Protocol):
    """The MCP SDK's `mcp.types.Tool` (a pydantic model): `name` and `input_schema`."""

    name: str
    input_schema: Any


# What the library takes as a tool: an MCP tool dict, a ToolDef or the SDK's `Tool`.
ToolLike = ToolDef | Mapping[str, Any] | SdkTool


def placeholder_name(index: int) -> str:
    """The name a tool without a string name is known by in reports."""
    return f"<tool {index}>"


def tool_def(name: Any, schema: Any, description: Any, *, index: int, source: str = "",
             raw: Mapping[str, Any] | None = None, schema_optional: bool = False,
             dialect: str = JSON_SCHEMA) -> ToolDef:
    """A ToolDef from a tool's fields as found, whatever their JSON types (see above)."""
    return ToolDef(
        name=name if isinstance(name, str) else placeholder_name(index),
        schema=schema,
        description=description if isinstance(description, str) else None,
        source=source,
        index=index,
        raw=raw,
        schema_optional=schema_optional,
        dialect=dialect,
    )


def _marked_dialect(entry: Mapping[str, Any]) -> str:
    meta = entry.get("_meta")
    return OPENAPI if isinstance(meta, Mapping) and meta.get(DIALECT_KEY) == OPENAPI \
        else JSON_SCHEMA


def with_dialect(entry: dict[str, Any], dialect: str) -> dict[str, Any]:
    """`entry`, an MCP tool object whose schema was written in `dialect`, saying so in its
    `_meta` where that is OpenAPI's (its other `_meta` keys kept); changed in place. A
    JSON Schema one is left as it is: that is what MCP reads a schema as anyway."""
    if dialect == OPENAPI:
        meta = entry.get("_meta")
        entry["_meta"] = {**(meta if isinstance(meta, Mapping) else {}), DIALECT_KEY: OPENAPI}
    return entry


def from_mcp(entry: Any, index: int, source: str = "") -> ToolDef:
    """One entry of an MCP `tools/list` result's `tools`; an entry that is not an object is
    a nameless tool without a schema, for the rules to report."""
    if not isinstance(entry, Mapping):
        return ToolDef(name=placeholder_name(index), schema=None, source=source, index=index,
                       raw={})
    return tool_def(entry.get("name"), entry.get("inputSchema"), entry.get("description"),
                    index=index, source=source, raw=entry, dialect=_marked_dialect(entry))


def from_sdk(tool: SdkTool, index: int, source: str = "") -> ToolDef:
    """The MCP SDK's `Tool`: its fields as `from_mcp` reads them, `raw` its JSON dump."""
    dump = getattr(tool, "model_dump", None)
    raw: Mapping[str, Any] = (dump(by_alias=True, exclude_none=True, mode="json")
                              if callable(dump) else {"name": tool.name})
    return tool_def(tool.name, tool.input_schema, getattr(tool, "description", None),
                    index=index, source=source, raw=raw, dialect=_marked_dialect(raw))


def tooldefs(tools: Sequence[ToolLike]) -> list[ToolDef]:
    """ToolDefs for the engine, each tool read as a file's would be (`mcp_tool`); a schema
    nested deeper than the file loader accepts is refused here too (ValueError), since the
    engine's walkers recurse and would hit RecursionError."""
    from .jsonio import MAX_DEPTH, too_deep

    if isinstance(tools, Mapping | str | bytes):
        raise TypeError("tools must be a sequence of tools (a `tools/list` result's "
                        "`tools` list), not a single mapping or string")
    out = []
    for i, t in enumerate(tools):
        if isinstance(t, ToolDef):
            out.append(t)
        elif isinstance(t, Mapping):
            out.append(from_mcp(t, i))
        elif isinstance(t, SdkTool):
            out.append(from_sdk(t, i))
        else:
            raise TypeError(f"tools[{i}] is a {type(t).__name__}: expected an MCP tool dict, "
                            "a ToolDef or an mcp.types.Tool")
        if too_deep(out[-1].schema):
            raise ValueError(f"tool {out[-1].name!r}: input schema nested deeper than "
                             f"{MAX_DEPTH} levels")
    return out


def empty_schema() -> dict[str, Any]:
    """A new schema for a tool without arguments where one is required (MCP's
    `inputSchema`, Anthropic's `input_schema`, OpenAI's `parameters`): an empty object."""
    return {"type": "object", "properties": {}}


def mcp_entry(tool: ToolDef, name: str, schema: Any, dialect: str = JSON_SCHEMA,
              ) -> dict[str, Any]:
    """`tool` as one MCP tool object named `name` with `schema`, written in `dialect`, as
    its `inputSchema` (`with_dialect`).

    An MCP-shaped original keeps its other fields (`title`, `annotations`, `outputSchema`,
    ...); a tool from another shape keeps its description. A tool without a schema gets
    the empty object schema, since MCP requires one."""
    raw, text = tool.raw, tool.description
    entry: dict[str, Any] = dict(raw) if "inputSchema" in raw else (
        {"description": text} if isinstance(text, str) and text else {})
    entry["name"] = name
    entry["inputSchema"] = schema if schema is not None else empty_schema()
    return with_dialect(entry, dialect)
