"""Mistral function tools (`tools[].function.parameters`, OpenAI's request shape).

docs/providers.md MIS: names of 1 to 64 characters of `[a-zA-Z0-9_-]` (MIS-01; Mistral's
OpenAPI: "Must be a-z,A-Z,0-9 or contain underscores and dashes, with a maximum length of
64"), `parameters` checked against a JSON Schema meta-schema (MIS-02: malformed keyword
values such as draft-4's boolean `exclusiveMinimum` are refused; VAL005), unknown
`function` fields refused (MIS-03; `transform --to mistral` writes only the SDK's
`Function` fields). So this is the `openai` profile without OpenAI's own limits (128 tools,
1,024-character descriptions, arrays without `items`, objects without `properties`), which
nothing documents for Mistral.
"""

from __future__ import annotations

from .openai import OPENAI, OPENAI_SHAPE
from .order import profile_order

MISTRAL = OPENAI_SHAPE._replace(
    name="mistral",
    short="MIS",
    title="Mistral function tools",
    target="tools[].function.parameters (JSON Schema)",
    strict_flag=None,  # `Function.strict` exists but is optional: left to Mistral's default
    rules=profile_order("mistral", set(OPENAI.rules) - {"LIM001", "NAM004", "OBJ010",
                                                         "TYP004"}),
    severity={"ROOT001": "warning", "TYP008": "warning"},
    sources=("Mistral OpenAPI spec, function `name` (via docs.rs mistral-rouille "
             "ChatCompletionRequestFunctionCallToolsInnerFunction)",
             "mistralai/client-python mistralai/client/models/function.py",
             "docs/providers.md MIS-01, MIS-02, MIS-03"),
    facts=("MIS",),
    notes="OpenAI's request shape and name rule (64 characters); keywords are passed to "
          "the model, malformed ones refused. No tool count or description limit is "
          "documented.",
)
