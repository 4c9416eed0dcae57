"""CNV: what the client libraries in front of a provider misread, though the provider
accepts it.

LangChain's Gemini converter (`@langchain/google-common`, `removeAdditionalProperties`) walks
every key of a schema, the `properties` map included, as if each were a keyword: a property
*named* `anyOf` or `oneOf` makes it throw "Gemini cannot handle union types", one named
`additionalProperties` is deleted, and one named `exclusiveMinimum` is replaced by a
`minimum` with a garbage value. Renaming a property would break the server, so this is a
warning without a fix. docs/conformance.md shows the converter doing it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import Hit, NodeContext, Rule, RuleDocs

_MISREAD = {
    "anyOf": "throws 'Gemini cannot handle union types'",
    "oneOf": "throws 'Gemini cannot handle union types'",
    "additionalProperties": "deletes the property",
    "exclusiveMinimum": "replaces the property by a `minimum` with a garbage value",
}


def detect_keyword_property_name(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    props = node.get("properties") if isinstance(node, dict) else None
    if not isinstance(props, dict) or _MISREAD.keys().isdisjoint(props):
        return ()
    return [Hit(f"a property named `{name}`: LangChain's Gemini converter reads it as the "
                f"keyword and {_MISREAD[name]}", ("properties", name), "properties")
            for name in props if name in _MISREAD]


RULES: list[Rule] = [
    Rule(
        code="CNV001", name="keyword-property-name", severity="warning",
        triggers=frozenset({"properties"}),
        message="a property named like a keyword that LangChain's Gemini converter misreads",
        safety=None, fix_title=None, detect=detect_keyword_property_name,
        docs=RuleDocs(
            what="A property named `anyOf`, `oneOf`, `additionalProperties` or "
                 "`exclusiveMinimum`. Gemini accepts it; LangChain's converter "
                 "(`convertToGeminiTools`, @langchain/google-common 2.3) walks the "
                 "`properties` map as if it were a schema.",
            error="Failed to convert tool 't' schema for Gemini: zod_to_gemini_parameters: "
                  "Gemini cannot handle union types (discriminatedUnion, anyOf, oneOf).",
            fix="None: renaming the property would break the server. Rename it in the "
                "server if its users go through LangChain.",
            before={"type": "object", "properties": {"anyOf": {"type": "string"}}},
            passing={"type": "object", "properties": {"any_of": {"type": "string"}}},
            sources=("docs/conformance.md", "conformance/conformance.test.mjs"),
        ),
    ),
]
