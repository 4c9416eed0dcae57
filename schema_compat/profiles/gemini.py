"""Gemini API `functionDeclarations[].parameters`: the OpenAPI-3.0 subset `Schema` object.

Field list from google/ai/generativelanguage/v1beta/content.proto (docs/providers.md
GEM-01). Unions are merged away although the API has taken `anyOf` since 2025-04: clients that
predate it (LangChain's converter) still refuse them.
"""

from __future__ import annotations

from .base import OPAQUE as JSON_SCHEMA_OPAQUE
from .base import Profile
from .order import profile_order

SCHEMA_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems",
    "maxItems", "properties", "required", "minProperties", "maxProperties", "minimum",
    "maximum", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
    "default",
})

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$"
NAME_RULE = ("start with a letter or underscore; letters, digits, _ . : - only; at most 64 "
             "characters")

# The rules gemini enables (vertex and portable start from them); their order is the
# canonical fix order (order.py).
ENABLED = frozenset({
    "ANN001", "ANN002", "ANN003", "ANN004", "CNV001", "CON001", "CON002", "CON003",
    "CON004", "CON005", "CON006", "LIM001", "NAM001", "NAM002", "NAM003", "OBJ001", "ROOT003",
    "OBJ002", "OBJ003", "OBJ004", "OBJ005", "OBJ006", "OBJ007", "REF001", "REF002",
    "REF003", "REF004", "REF005", "REF006", "TYP001", "TYP002", "TYP003", "TYP004",
    "TYP005", "TYP006", "TYP007", "TYP008", "TYP009", "UNI001", "UNI002", "UNI003",
    "UNI004", "UNI005", "UNI006", "VAL001", "VAL002", "VAL003", "VAL005",
})

# The formats the OpenAPI `Schema` of Gemini (and Vertex) takes, per type.
FORMATS = {
    "string": frozenset({"enum", "date-time"}),
    "integer": frozenset({"int32", "int64"}),
    "number": frozenset({"float", "double"}),
}
# Rules whose findings hold for some Gemini generations only (docs/providers.md GEN).
GENERATIONS = {
    "VAL002": "an empty `enum` (`format: enum`) is refused by Gemini 3, not by 2.5 (GEN-01); "
              "its other cases by every generation",
}
# Subschemas removed whole and described: the dialect has no field for them.
OPAQUE = JSON_SCHEMA_OPAQUE | {"additionalProperties", "additionalItems"}

GEMINI = Profile(
    name="gemini",
    short="GEM",
    title="Gemini API parameters",
    target="functionDeclarations[].parameters (OpenAPI 3.0 subset)",
    rules=profile_order("gemini", ENABLED),
    allowed_keywords=SCHEMA_FIELDS,
    name_pattern=NAME_PATTERN,
    name_rule=NAME_RULE,
    formats=FORMATS,
    max_tools=512,
    max_tools_source="GEM-18",
    nullable_keyword=True,
    opaque_keywords=OPAQUE,
    sources=(
        "googleapis/googleapis google/ai/generativelanguage/v1beta/content.proto",
        "docs/providers.md#gemini",
    ),
    facts=("GEM", "GEN"),
    notes="The default profile. No references, no unions, string-only enums, a fixed set of "
          "formats.",
    generation="Gemini API; Gemini 2.x and 3",
    generations=GENERATIONS,
)
