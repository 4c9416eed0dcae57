"""Which JSON Schema keywords hold subschemas and which hold plain data.

This table is the only place that knows it. Everything else asks the walker, so a property
*named* `format` or `$ref` is never mistaken for a keyword, and the values of `default`,
`const`, `enum` and `examples` are never searched for references.
"""

from __future__ import annotations

from typing import Any

# keyword -> one subschema
SCHEMA_KEYWORDS = frozenset(
    {
        "additionalProperties",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contains",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "contentSchema",
    }
)
# keyword -> {name: subschema}
SCHEMA_MAP_KEYWORDS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
# keyword -> [subschema, ...]
SCHEMA_LIST_KEYWORDS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
# `items` is one subschema (2020-12) or a list of them (draft 4-7 tuples);
# `dependencies` maps names to a subschema or to a list of property names.
MIXED_KEYWORDS = frozenset({"items", "dependencies"})

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

# Keywords that only constrain one JSON type; used when a node is split per type.
TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset(
        {"minLength", "maxLength", "pattern", "format", "contentMediaType", "contentEncoding"}
    ),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}
    ),
    "integer": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}
    ),
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "contains",
            "minContains",
            "maxContains",
            "additionalItems",
            "unevaluatedItems",
        }
    ),
    "object": frozenset(
        {
            "properties",
            "required",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
            "propertyOrdering",
        }
    ),
    "boolean": frozenset(),
    "null": frozenset(),
}
ALL_TYPE_KEYWORDS = frozenset().union(*TYPE_KEYWORDS.values())


# keyword -> how its value holds subschemas (a map, a list, one, or `MIXED_KEYWORDS`'s
# either): one dict lookup per key on the walks' hot path
MAP, LIST, ONE, MIXED = 1, 2, 3, 4
HOLDS: dict[str, int] = {
    **{k: MIXED for k in MIXED_KEYWORDS},
    **{k: ONE for k in SCHEMA_KEYWORDS},
    **{k: LIST for k in SCHEMA_LIST_KEYWORDS},
    **{k: MAP for k in SCHEMA_MAP_KEYWORDS},
}


_SCHEMA_TYPES = frozenset({dict, bool})


def not_schemas(node: dict[str, Any]) -> list[tuple[str, tuple[Any, ...], Any]]:
    """What the node's subschema positions hold that is not a schema (a dict or a boolean):
    (keyword, path below the node, value), a whole map or list where it is not one."""
    bad: list[tuple[str, tuple[Any, ...], Any]] = []
    holds = HOLDS.get
    for key, value in node.items():
        kind = holds(key)
        if kind is None or key == "dependencies":  # (it may map a name to a list of names)
            continue
        if kind == MAP:
            if not isinstance(value, dict):
                bad.append((key, (key,), value))
            elif not _SCHEMA_TYPES.issuperset(map(type, value.values())):  # else all fine
                bad.extend((key, (key, n), v) for n, v in value.items()
                           if not isinstance(v, (dict, bool)))
        elif kind == LIST:
            if not isinstance(value, list):
                bad.append((key, (key,), value))
            elif not _SCHEMA_TYPES.issuperset(map(type, value)):
                bad.extend((key, (key, i), v) for i, v in enumerate(value)
                           if not isinstance(v, (dict, bool)))
        elif not isinstance(value, (dict, bool)) and not (
                key == "items" and isinstance(value, list)):
            bad.append((key, (key,), value))
    return bad
