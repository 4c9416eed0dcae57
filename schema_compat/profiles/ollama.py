"""Ollama `/api/chat` `tools[].function.parameters`, decoded into fixed Go structs.

docs/providers.md OLL: the root keeps only `type`, `$defs`, `items`, `required` and
`properties`; a property only `anyOf`, `type` (a name or a list), `items`, `description`,
`enum`, `properties` and `required`; every other keyword (`$ref`, `const`, `format`,
`pattern`, bounds, `default`, `title`, `additionalProperties`, ...) is dropped without an
error (OLL-01), so the model never hears of it. Models Ollama runs through llama.cpp turn
the schema into a grammar (OLL-02, LCP-01), which breaks on type lists (netclaw#51; older
Ollama refused them outright, OLL-03) and on `anyOf` beside `properties`.

So transform inlines references (a `$ref` is dropped, its definitions unread), describes
what is dropped, makes a type list an `anyOf` and keeps `anyOf` alone on its node. The
request still succeeds with what Ollama drops: those findings are warnings; the type list
(the grammar fails) and malformed input stay errors. No name rule, tool count or
description limit is documented.
"""

from __future__ import annotations

from .base import Profile
from .gemini import ENABLED as GEMINI_RULES
from .gemini import OPAQUE
from .order import profile_order

# What a property keeps (OLL-01); the root's `$defs` is of no use once references are inlined.
KEPT = frozenset({"type", "items", "description", "enum", "properties", "required", "anyOf"})

# gemini's rules (references inlined, unknown keywords and formats described, unions other
# than `anyOf` rewritten) but those of its `nullable` and string-only enums, which Ollama does
# not have, and of what Gemini refuses and Ollama's optional fields take (a node without
# `type`, an array without `items`, `items` elsewhere); with the root-union rule (the root
# has no `anyOf`) and `anyOf` alone on its node (LCP-01).
ENABLED = (GEMINI_RULES - {"UNI001", "UNI003", "VAL002", "VAL003", "LIM001", "TYP002",
                           "TYP004", "TYP006"}) | {
    "ROOT001", "UNI007"}

# Keywords Ollama drops without an error: the request succeeds, the model is not told.
_DROPPED = ("ANN001", "ANN002", "ANN003", "ANN004", "CON001", "CON002", "CON003", "CON004",
            "CON005", "CON006", "OBJ001", "OBJ002", "OBJ003", "OBJ004", "OBJ005", "REF001",
            "REF002", "ROOT001", "UNI002", "UNI004", "UNI005", "UNI006", "UNI007", "VAL001")

OLLAMA = Profile(
    name="ollama",
    short="OLL",
    title="Ollama tools",
    target="tools[].function.parameters (/api/chat)",
    rules=profile_order("ollama", ENABLED),
    severity={code: "warning" for code in _DROPPED},
    allowed_keywords=KEPT,
    name_pattern=r"^.+$",
    name_rule="not empty",
    formats={},  # `format` is dropped whatever its value (OLL-01)
    nullable_keyword=False,
    opaque_keywords=OPAQUE,
    sources=("ollama/ollama api/types.go (ToolFunctionParameters, ToolProperty)",
             "tidyverse/ellmer#342, ollama/ollama#5990 (type lists refused)",
             "ollama/ollama-python ollama/_types.py Tool",
             "ggml-org/llama.cpp grammars/README.md (json-schema-to-grammar)",
             "docs/providers.md OLL-01, OLL-02, OLL-03, LCP-01"),
    facts=("OLL", "LCP"),
    notes="Keywords outside Ollama's structs are dropped silently (warnings: transform "
          "describes them); references inlined; type lists become `anyOf` (llama.cpp "
          "grammars break on them). The `ollama` Python package drops a property's "
          "`properties` and `anyOf` too.",
)
