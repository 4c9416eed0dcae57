"""Small questions rules ask about a node: its type, whether it is an object, ..."""

from __future__ import annotations

from typing import Any

from ..schema.keywords import JSON_TYPES


def single_type(node: Any) -> str | None:
    """The node's type when it is one plain JSON type, else None."""
    if isinstance(node, dict):
        t = node.get("type")
        if isinstance(t, str) and t in JSON_TYPES:
            return t
    return None


def is_null_schema(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    if node.get("type") == "null":
        return True
    if "const" in node and node["const"] is None and len(node) == 1:
        return True
    return node.get("enum") == [None] and "type" not in node


def looks_object(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    t = node.get("type")
    return t == "object" or (t is None and ("properties" in node or "required" in node))



def is_object_schema(node: Any) -> bool:
    """Whether the node describes objects: it looks like one (`looks_object`) or its type
    list includes "object"."""
    if not isinstance(node, dict):
        return False
    t = node.get("type")
    return looks_object(node) or (isinstance(t, list) and "object" in t)

def infer_type(node: dict[str, Any]) -> str | None:
    """The type a typeless node evidently has, from its other keywords; None if any."""
    if any(k in node for k in ("properties", "required", "additionalProperties",
                               "patternProperties", "minProperties", "maxProperties",
                               "propertyNames")):
        return "object"
    if any(k in node for k in ("items", "prefixItems", "minItems", "maxItems", "uniqueItems",
                               "contains")):
        return "array"
    values: list[Any] | None = None
    if isinstance(node.get("enum"), list) and node["enum"]:
        values = [v for v in node["enum"] if v is not None]
    elif "const" in node and node["const"] is not None:
        values = [node["const"]]
    elif "const" in node:
        return "null"  # `const: null`: null alone is accepted
    if values == []:
        return "null"  # `enum: [null]`, likewise
    if values:
        types = {value_type(v) for v in values}
        if types == {"integer", "number"}:
            return "number"
        if len(types) == 1:
            return types.pop()
        return None
    if any(k in node for k in ("minLength", "maxLength", "pattern", "format")):
        fmt = node.get("format")
        if fmt in ("int32", "int64"):
            return "integer"
        if fmt in ("float", "double"):
            return "number"
        return "string"
    if any(k in node for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                               "multipleOf")):
        return "number"
    return None


def value_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
