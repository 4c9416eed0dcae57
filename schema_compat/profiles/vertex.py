"""Vertex AI `functionDeclarations[].parameters`: the Gemini `Schema` object, with differences.

docs/providers.md VTX: `additionalProperties` is a field (VTX-01), `anyOf` is kept but must be
the only field of its node (VTX-03, observed on Gemini 3), the root must be an object
(VTX-05), 128 function declarations (VTX-08), names of at most 64 characters without `:`
(VTX-06), no `null` type (VTX-10). `$ref`/`$defs` are inlined: the proto spells them
`ref`/`defs` and whether the JSON spellings are taken is unverified.
"""

from __future__ import annotations

from .gemini import ENABLED as GEMINI_RULES
from .gemini import GEMINI, GENERATIONS, OPAQUE, SCHEMA_FIELDS
from .order import profile_order

NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$"
# The v1 `Type` enum (openapi.proto) has no NULL (VTX-10): null is said by `nullable`.
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array"})
NAME_RULE = ("start with a letter or underscore; letters, digits, _ . - only; at most 64 "
             "characters")


# gemini's rules but OBJ001 and UNI003 (`additionalProperties` and `anyOf` are fields here),
# with the root-union, empty-union and `anyOf`-siblings rules.
ENABLED = (GEMINI_RULES - {"OBJ001", "UNI003"}) | {"ROOT001", "UNI009", "UNI007"}


# Gemini's `Schema` object and formats, with Vertex's differences.
VERTEX = GEMINI._replace(
    name="vertex",
    short="VTX",
    title="Vertex AI parameters",
    target="functionDeclarations[].parameters (Vertex AI OpenAPI 3.0 subset)",
    rules=profile_order("vertex", ENABLED),
    # Observed in issues only (not in the proto docs): warnings, still fixed by transform.
    severity={"ROOT001": "warning", "UNI007": "warning"},
    allowed_keywords=SCHEMA_FIELDS | {"additionalProperties"},
    name_pattern=NAME_PATTERN,
    name_rule=NAME_RULE,
    max_tools=128,
    max_tools_source="VTX-08",
    types=TYPES,
    opaque_keywords=OPAQUE - {"additionalProperties"},  # a field here (VTX-01)
    sources=(
        "googleapis/googleapis google/cloud/aiplatform/v1/openapi.proto, tool.proto",
        "docs/providers.md#vertex",
    ),
    facts=("VTX", "GEM", "GEN"),
    notes="Like gemini, but `additionalProperties` and nested `anyOf` are kept; an `anyOf` "
          "node carries no other field (its siblings move into the branches); no `null` "
          "type; 128 tools.",
    generation="Vertex AI; Gemini 2.x and 3",
    generations={**GENERATIONS, "UNI007": "Gemini 3 (GEN-02); not reported on 2.x"},
)
