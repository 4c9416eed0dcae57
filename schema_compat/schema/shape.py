"""Small questions about a node: its type, whether it is an object, whether no value can
meet two branches of a union, ..."""

from __future__ import annotations

import json
from difflib import get_close_matches
from typing import Any

from .keywords import JSON_TYPES
from .refs import local_target


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


def is_number(value: Any) -> bool:
    """A JSON number: an int or a float, not a boolean (which Python counts as an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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


def distinct_types(branches: list[Any]) -> bool:
    """Whether no value can match two of the branches by their types alone: one plain type
    each, all different, not integer beside number."""
    types = [single_type(b) for b in branches]
    return None not in types and len(set(types)) == len(types) \
        and not {"integer", "number"} <= set(types)


def exclusive_branches(branches: list[Any], root: Any = None) -> bool:
    """Whether no value can match two branches, so that `anyOf` accepts what `oneOf` did:
    branches of distinct plain types (`distinct_types`), or objects told apart by a
    discriminator (Pydantic's and Zod's tagged unions, often as `$ref`s into `$defs`)."""
    return distinct_types(branches) or _discriminated(
        [local_target(b, root) or b for b in branches])


def _discriminated(branches: list[Any]) -> bool:
    """Objects (`type: object`) that all require one property, each allowing it a single
    value (`const`, or a one-value `enum`) that no other branch allows."""
    if len(branches) < 2 or not all(single_type(b) == "object" for b in branches):
        return False
    common: set[str] | None = None
    for b in branches:
        props, required = b.get("properties"), b.get("required")
        if not isinstance(props, dict) or not isinstance(required, list):
            return False
        tags = {p for p in required if isinstance(p, str) and _single_value(props.get(p))}
        common = tags if common is None else common & tags
    for name in sorted(common or ()):
        values = {json.dumps(_single_value(b["properties"][name]), sort_keys=True)
                  for b in branches}
        if len(values) == len(branches):
            return True
    return False


def _single_value(schema: Any) -> tuple[Any] | None:
    """The one value a schema allows, in a tuple (it may be null), if it allows one."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        value = schema["const"]
    elif isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1:
        value = schema["enum"][0]
    else:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 1.0 is 1 to JSON Schema
    return (value,)


# --- what a `type` value names ---------------------------------------------------------

_SYNONYMS = {
    "str": "string", "text": "string", "int": "integer", "long": "integer",
    "float": "number", "double": "number", "bool": "boolean", "dict": "object",
    "map": "object", "list": "array", "tuple": "array",
}


def type_named(t: Any, node: dict[str, Any]) -> str | None:
    """The JSON type a `type` value names: itself in any case, a synonym's (`int`), or
    the type of the node's enum (`type: enum`); None where it names none."""
    if isinstance(t, str):
        low = t.lower()
        if low in JSON_TYPES:
            return low
        if low in _SYNONYMS:
            return _SYNONYMS[low]
        if low == "enum" and isinstance(node.get("enum"), list):
            return infer_type(node)
    return None


def nearest_type(t: Any) -> str | None:
    """The JSON type name `t` is most likely a typo of (by difflib's likeness), if any."""
    if not isinstance(t, str):
        return None
    near = get_close_matches(t.lower(), sorted(JSON_TYPES), n=1)
    return near[0] if near else None


def values_of_type(node: dict[str, Any], inferred: str) -> bool:
    """Whether adding `type: inferred` keeps the values accepted because the node's
    `enum`/`const` allows only values of that type (and null)."""
    values = node["enum"] if isinstance(node.get("enum"), list) else \
        [node["const"]] if "const" in node else None
    if values is None:
        return False
    if inferred == "integer":
        # 2020-12 counts a number with a zero fractional part (1.0) as an integer
        return all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                   or (isinstance(v, float) and v.is_integer()) for v in values)
    kinds = {"string": (str,), "number": (int, float), "null": (),
             "boolean": (bool,), "object": (dict,), "array": (list,)}.get(inferred, ())
    return all(v is None or (isinstance(v, kinds) and (inferred == "boolean") ==
                             isinstance(v, bool)) for v in values)
