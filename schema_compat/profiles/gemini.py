"""Gemini API `functionDeclarations[].parameters`: the OpenAPI-3.0 subset `Schema` object.

Field list from google/ai/generativelanguage/v1beta/content.proto (see docs/providers.md
§1.1). Unions are merged away although the API has taken `anyOf` since 2025-04: clients
that predate it (LangChain's converter) still refuse them.
"""

from __future__ import annotations

from .base import Profile

SCHEMA_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems",
    "maxItems", "properties", "required", "minProperties", "maxProperties", "minimum",
    "maximum", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
    "default",
})

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$"
NAME_RULE = ("start with a letter or underscore; letters, digits, _ . : - only; at most 64 "
             "characters")

# Order matters: on each node the first rule that fires is fixed, then all are re-checked.
RULE_ORDER = (
    "REF006", "REF004", "REF005", "REF003", "REF001", "REF002",
    "TYP009", "TYP008", "VAL005", "TYP005", "ANN001", "ANN003", "VAL001", "TYP003", "TYP001",
    "UNI004", "UNI001", "VAL003", "UNI002", "UNI003", "CON005", "TYP002", "TYP007",
    "VAL002", "CON001", "CON002", "CON003", "CON004", "CON006",
    "OBJ001", "OBJ002", "OBJ003", "OBJ004", "OBJ005", "UNI005", "UNI006", "OBJ006",
    "TYP004", "TYP006", "ANN002", "ANN004", "OBJ007", "CNV001",
    "NAM001", "NAM002", "NAM003", "LIM001",
)

# The formats the OpenAPI `Schema` of Gemini (and Vertex) takes, per type.
FORMATS = {
    "string": frozenset({"enum", "date-time"}),
    "integer": frozenset({"int32", "int64"}),
    "number": frozenset({"float", "double"}),
}
# Subschemas removed whole and described: the dialect has no field for them.
OPAQUE = frozenset({
    "not", "if", "then", "else", "contains", "propertyNames", "patternProperties",
    "additionalProperties", "dependentSchemas", "dependencies", "unevaluatedProperties",
    "unevaluatedItems", "additionalItems",
})

GEMINI = Profile(
    name="gemini",
    short="GEM",
    title="Gemini API parameters",
    target="functionDeclarations[].parameters (OpenAPI 3.0 subset)",
    wire_field="parameters",
    rules=RULE_ORDER,
    allowed_keywords=SCHEMA_FIELDS,
    name_pattern=NAME_PATTERN,
    name_rule=NAME_RULE,
    formats=FORMATS,
    max_tools=512,
    nullable_keyword=True,
    opaque_keywords=OPAQUE,
    sources=(
        "googleapis/googleapis google/ai/generativelanguage/v1beta/content.proto",
        "docs/providers.md §1.1-1.4",
    ),
    notes="The default profile. No references, no unions, string-only enums, a fixed set of "
          "formats.",
)
