"""Gemini API `functionDeclarations[].parametersJsonSchema`: JSON Schema with limits.

Only `responseJsonSchema` has a documented keyword list (docs/providers.md GJS-02); keywords
outside it are believed ignored, not rejected, so those rules are warnings here.
"""

from __future__ import annotations

from .base import OPAQUE
from .gemini import GEMINI
from .order import profile_order

LISTED = frozenset({
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
    "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf",
    "properties", "additionalProperties", "required", "propertyOrdering", "default",
})

# Keywords Gemini is believed to ignore here: flagged as warnings, described by transform.
_IGNORED = ("VAL001", "UNI004", "UNI005", "UNI006", "CON001", "CON002", "CON003", "CON004",
            "OBJ002", "OBJ003", "OBJ004", "OBJ005", "ANN001", "ANN002", "ANN003", "ANN004")

# Gemini's other field of the same declarations: its names and tool count.
GEMINI_JSON = GEMINI._replace(
    name="gemini-json",
    short="GEM-J",
    title="Gemini API parametersJsonSchema",
    target="functionDeclarations[].parametersJsonSchema (JSON Schema)",
    wire_field="parametersJsonSchema",
    rules=profile_order("gemini-json", {
        "ANN001", "ANN002", "ANN003", "ANN004", "CON001", "CON002", "CON003", "CON004",
        "LIM001", "ROOT003", "NAM001", "NAM002", "NAM003", "OBJ002", "OBJ003", "OBJ004", "OBJ005",
        "REF004", "REF005", "REF007", "REF008", "REF010", "TYP003", "TYP007", "TYP008", "TYP009",
        "UNI004", "UNI005", "UNI006", "UNI009", "VAL001", "VAL004", "VAL005",
    }),
    severity={code: "warning" for code in _IGNORED},
    allowed_keywords=LISTED,
    formats=None,
    nullable_keyword=False,
    opaque_keywords=OPAQUE,
    sources=("googleapis/googleapis generative_service.proto response_json_schema",
             "docs/providers.md#gemini-json"),
    facts=("GJS", "GEN"),
    notes="References, unions, null types and additionalProperties are kept; references "
          "are checked and unlisted keywords described.",
    # GJS-11: one keyword list for every actively supported model since 2025-11
    generation="Gemini API; every model since 2025-11 (2.x and 3 alike, GEN-04)",
    generations={},
)
