"""Builders for rule examples too large to write out: limits are only crossed by big inputs.

The docs pages shorten long lists, wide objects and long strings when they show these;
the tests run the full examples.
"""

from __future__ import annotations

from typing import Any

_PARAMS = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


def tool(name: str, description: str | None = "Read a file.",
         schema: Any = None) -> dict[str, Any]:
    """One MCP tool entry."""
    out: dict[str, Any] = {"name": name}
    if description is not None:
        out["description"] = description
    out["inputSchema"] = schema if schema is not None else dict(_PARAMS)
    return out


def tools(*entries: dict[str, Any]) -> dict[str, Any]:
    """An MCP `tools/list` result: what tool-level examples are written as."""
    return {"tools": list(entries)}


def many_tools(count: int) -> dict[str, Any]:
    return tools(*(tool(f"tool_{i}", f"Tool number {i}.") for i in range(1, count + 1)))


def nested_objects(depth: int) -> dict[str, Any]:
    """`depth` objects, each the only property of the one above."""
    node: dict[str, Any] = {"type": "string"}
    for level in range(depth, 0, -1):
        node = {"type": "object", "properties": {f"level{level}": node},
                "required": [f"level{level}"], "additionalProperties": False}
    return node


def big_enum(count: int) -> dict[str, Any]:
    return {"type": "object", "properties": {"code": {
        "type": "string", "enum": [f"C{i:04d}" for i in range(count)]}},
        "required": ["code"], "additionalProperties": False}


def union_params(count: int) -> dict[str, Any]:
    """A strict tool with `count` required parameters that each take a string or a number."""
    names = [f"p{i}" for i in range(1, count + 1)]
    return tools(tool("compare", "Compare values.", {
        "type": "object",
        "properties": {n: {"anyOf": [{"type": "string"}, {"type": "number"}]} for n in names},
        "required": names, "additionalProperties": False}))


def ref_fan_out(levels: int) -> dict[str, Any]:
    """Each definition refers to the next one twice: 2**levels nodes once inlined."""
    defs: dict[str, Any] = {f"L{levels}": {"type": "string"}}
    for i in range(levels - 1, -1, -1):
        ref = {"$ref": f"#/$defs/L{i + 1}"}
        defs[f"L{i}"] = {"type": "object", "properties": {"a": dict(ref), "b": dict(ref)}}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}},
            "$defs": dict(sorted(defs.items(), key=lambda kv: int(kv[0][1:])))}
