"""Which JSON Schema keywords hold subschemas and which hold plain data.

This table is the only place that knows it. Everything else asks the walker, so a property
*named* `format` or `$ref` is never mistaken for a keyword, and the values of `default`,
`const`, `enum` and `examples` are never searched for references.
"""

from __future__ import annotations

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

