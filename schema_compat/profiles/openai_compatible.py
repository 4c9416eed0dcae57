"""Providers whose chat API takes OpenAI's `tools` shape: xAI, DeepSeek and Groq.

Each is built from the OpenAI profiles (openai.py, strict.py) with its own severities and
limits (docs/providers.md XAI, DSK, GRQ). Their requests are OpenAI's Chat Completions `tools`
(`transform --to openai-chat`).
"""

from __future__ import annotations

from .openai import OPENAI, OPENAI_SHAPE
from .order import profile_order
from .strict import OPENAI_STRICT

# xAI: tools are always strict (XAI-01), but unlike OpenAI's strict mode optional fields stay
# optional and nothing needs closing; what it refuses is `allOf` with more than one subschema
# and circular `$ref` (both XAI-01), the rest of the OpenAI request rules apply as they are.
XAI = OPENAI_SHAPE._replace(
    name="xai",
    short="XAI",
    title="xAI (Grok) function tools",
    target="tools[].function.parameters (always strict)",
    rules=profile_order("xai", {*OPENAI.rules, "OBJ011", "REF001", "REF002", "REF003",
                                "REF004", "REF005", "UNI004"}),
    # xAI takes non-circular references; the one inlining that unrolls a recursion inlines
    # them all (equal), so those findings are information only.
    severity={**OPENAI.severity, "REF001": "info", "REF002": "info"},
    # tools are strict anyway (XAI-01) and `strict: true` was refused (XAI-02): none sent
    strict_flag=True,
    strict_field=False,
    all_of_branches=1,
    sources=("docs.x.ai/developers/model-capabilities/text/structured-outputs",
             "docs/providers.md XAI-01..03"),
    facts=("XAI", "OAI"),
    notes="Always strict: `allOf` holds one subschema (more are merged), recursive `$ref` "
          "is unrolled (and references inlined with it); objects are closed unless "
          "`additionalProperties: true` says otherwise, so a map gets it written out.",
)

# DeepSeek without `strict`: OpenAI's request rules and name rule (DSK-01), no documented
# tool count or description limit.
DEEPSEEK = OPENAI_SHAPE._replace(
    name="deepseek",
    short="DSK",
    title="DeepSeek function tools",
    target="tools[].function.parameters (non-strict)",
    sources=("api-docs.deepseek.com/guides/tool_calls", "docs/providers.md DSK-01"),
    facts=("DSK", "OAI"),
    notes="OpenAI-compatible: keywords are advisory; the name rule and root shape are "
          "checked.",
)

# DeepSeek's strict mode (beta): OpenAI's strict rules (every property required, objects
# closed), and no bounds, lengths, `pattern`, `format` or `multipleOf` (DSK-03).
_DEEPSEEK_REFUSED = frozenset({
    "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "minItems", "maxItems", "minLength", "maxLength",
})
DEEPSEEK_STRICT = OPENAI_STRICT._replace(
    name="deepseek-strict",
    short="DSK-S",
    title="DeepSeek strict function tools (beta)",
    target="tools[].function.parameters with strict: true (beta endpoint)",
    rules=profile_order("deepseek-strict", (
        set(OPENAI_STRICT.rules) - {"LIM002", "LIM003"}) | {"CON001", "CON002", "CON007"}),
    # DSK-03 lists what strict mode takes: a format or another unlisted keyword is refused
    severity={**OPENAI_STRICT.severity, "CON006": "error", "ANN004": "error"},
    allowed_keywords=OPENAI_STRICT.allowed_keywords - _DEEPSEEK_REFUSED,
    formats={},
    max_tools=None,
    max_tools_source="",
    max_description=None,
    non_strict="deepseek",
    sources=("api-docs.deepseek.com/guides/tool_calls (strict mode, Beta)",
             "docs/providers.md DSK-02, DSK-03"),
    facts=("DSK", "OAIS"),
    notes="Like openai-strict (objects closed, every property required), without numeric "
          "bounds, lengths, `pattern`, `format` or `multipleOf` (described instead).",
)

# Groq: OpenAI's request shape and name rule (the groq SDK's FunctionDefinition), 128 tools
# (its `tools` docstring); the server validates the model's arguments against the schema
# (GRQ-02, GRQ-04): no request rule changes that, and widening the schema is not done.
GROQ = OPENAI_SHAPE._replace(
    name="groq",
    short="GRQ",
    title="Groq function tools",
    target="tools[].function.parameters (non-strict)",
    max_tools=128,
    max_tools_source="GRQ-05",
    sources=("groq/groq-python types/shared_params/function_definition.py",
             "docs/providers.md GRQ-01..05"),
    facts=("GRQ", "OAI"),
    notes="OpenAI-compatible names and shape, 128 tools. Groq itself refuses a call whose "
          "arguments break the schema (a string for a boolean or number, GRQ-04).",
)

__all__ = ["DEEPSEEK", "DEEPSEEK_STRICT", "GROQ", "XAI"]
