"""ROOT: the parameters root, where OpenAI, Anthropic and Vertex refuse a union and a
missing type.

Only the root is concerned: nested unions are fine for these providers, so the merge logic
of `unions` is applied here to the top-level node alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .unions import fix_all_of_unsupported, fix_union

ROOT_COMBINATORS = ("allOf", "anyOf", "oneOf")


def detect_root_combinator(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not ctx.is_root or not isinstance(node, dict):
        return
    found = [k for k in ROOT_COMBINATORS if isinstance(node.get(k), list)]
    for key in found:
        yield Hit(f"`{key}` at the top level of the parameters: the provider wants one "
                  "object", (key,), key, "lossless" if key == "allOf" else "hinted")


def detect_root_without_type(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if ctx.is_root and isinstance(node, dict) and "type" not in node and not any(
            k in node for k in ROOT_COMBINATORS):
        yield Hit("the parameters root has no `type`; it must say `type: object`", (),
                  "type", "lossless")


def fix_root_without_type(node: Any, ctx: NodeContext) -> Fixed | None:
    return Fixed({"type": "object", **node},
                 (Edit(("type",), "lossless", "added `type: object` to the root"),))


def fix_root_combinator(node: Any, ctx: NodeContext) -> Fixed | None:
    out: Any = node
    edits: list[Edit] = []
    if isinstance(out.get("allOf"), list):
        fixed = fix_all_of_unsupported(out, ctx)
        if fixed is None:
            return None
        out, edits = fixed.node, [*edits, *fixed.edits]
    for key in ("anyOf", "oneOf"):
        if isinstance(out, dict) and isinstance(out.get(key), list):
            fixed = fix_union(out, ctx)
            if fixed is None:
                return None
            out, edits = fixed.node, [*edits, *fixed.edits]
    if isinstance(out, dict) and "type" not in out and not any(
            k in out for k in ROOT_COMBINATORS):
        out = {**out, "type": "object"}
        edits.append(Edit(("type",), "lossless", "added `type: object` to the root"))
    if not edits:
        return None
    return Fixed(out, tuple(edits))


RULES: list[Rule] = [
    Rule(
        code="ROOT001", name="root-combinator", severity="error",
        message="the parameters root is a union", safety="hinted",
        fix_title="Merge the root branches into one object", detect=detect_root_combinator,
        fix=fix_root_combinator, root_only=True,
        docs=RuleDocs(
            what="`anyOf`, `oneOf` or `allOf` at the top level of the parameters (Zod's "
                 "`z.union` of objects, a Pydantic discriminated union as the whole input), "
                 "OpenAI and Anthropic refuse it (observed in issues, so a warning for "
                 "their plain profiles; the OpenAI structured-outputs docs state it for "
                 "strict mode, an error there); Vertex wants a root of type OBJECT.",
            error="tools.21.custom.input_schema: input_schema does not support oneOf, allOf, "
                  "or anyOf at the top level / Invalid schema for function 'f': schema must "
                  "have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at "
                  "the top level.",
            fix="`allOf` branches merge into the root (lossless unless they conflict). "
                "Object branches of `anyOf`/`oneOf` merge into one object whose properties "
                "are all of theirs, required only where every branch requires them, the "
                "variants described in `description` (hinted); a discriminator becomes one "
                "enum; a root left without `type` gets `type: object`.",
            before={"anyOf": [
                {"type": "object", "properties": {"path": {"type": "string"}},
                 "required": ["path"]},
                {"type": "object", "properties": {"url": {"type": "string"}},
                 "required": ["url"]}]},
            after={"type": "object",
                   "properties": {"path": {"type": "string"}, "url": {"type": "string"}},
                   "description": "Give exactly one of these forms: variant: path "
                                  "(required); variant: url (required)."},
            sources=("[OAI-07](../providers.md#oai-07), [OAIS-03](../providers.md#oais-03), "
                     "[ANT-03](../providers.md#ant-03), [ANT-04](../providers.md#ant-04), "
                     "[VTX-05](../providers.md#vtx-05)",
                     "anthropics/claude-code#5319", "chatanywhere/GPT_API_free#403"),
        ),
    ),
    Rule(
        code="ROOT002", name="root-without-type", severity="error",
        message="the parameters root has no `type`", safety="lossless",
        fix_title="Add `type: object`", detect=detect_root_without_type, fix=fix_root_without_type,
        root_only=True,
        docs=RuleDocs(
            what="Parameters without a root `type` (`{}`, or only `properties`). Anthropic's "
                 "API requires `input_schema.type`; OpenAI requires `type: object`.",
            error="tools.0.custom.input_schema.type: Field required / Invalid schema for "
                  "function 'f': schema must be a JSON Schema of 'type: \"object\"', got "
                  "'type: \"None\"'.",
            fix="Add `type: object` (lossless: tool arguments are always an object).",
            before={"properties": {"q": {"type": "string"}}},
            after={"type": "object", "properties": {"q": {"type": "string"}}},
            sources=("[ANT-03](../providers.md#ant-03), [OAI-06](../providers.md#oai-06)",
                     "Kilo-Org/kilocode#12238",
                     "browserbase/stagehand#1159"),
        ),
    ),
]
