"""ROOT: the parameters root, where OpenAI, Anthropic and Vertex refuse a union and a
missing type.

Only the root is concerned: nested unions are fine for these providers, so the merge logic
of `unions` is applied here to the top-level node alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import JSON_SCHEMA
from ..schema.all_of_merge import all_of_as_one
from ..schema.drafts import declared_draft, draft_name, to_2020_12
from ..schema.union_merge import Merge, union_as_one
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs

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
    merges: list[tuple[str, Merge]] = []
    if isinstance(out.get("allOf"), list):
        merges.append(("allOf", all_of_as_one(out)))
        out = merges[-1][1].node
    for key in ("anyOf", "oneOf"):
        if isinstance(out, dict) and isinstance(out.get(key), list):
            merged = union_as_one(out, True)
            if merged is None:
                return None
            merges.append(merged)
            out = merged[1].node
    edits = [Edit((key,), m.safety, m.description, accepts=m.accepts, told=m.told)
             for key, m in merges]
    if isinstance(out, dict) and "type" not in out and not any(
            k in out for k in ROOT_COMBINATORS):
        out = {**out, "type": "object"}
        edits.append(Edit(("type",), "lossless", "added `type: object` to the root"))
    if not edits:
        return None
    return Fixed(out, tuple(edits))


def _drops_nullable(root: Any, ctx: NodeContext) -> bool:
    """Whether the document's `nullable` goes: the provider reads it as "or null", and the
    document is JSON Schema (its tool's dialect, or a draft its `$schema` declares)."""
    return ctx.profile.nullable_keyword and (
        ctx.run.dialect == JSON_SCHEMA or declared_draft(root) is not None)


def detect_declared_draft(root: Any, ctx: NodeContext) -> Iterable[Hit]:
    draft = declared_draft(root)
    _, rewrites = to_2020_12(root, _drops_nullable(root, ctx))
    said = ("means nothing in JSON Schema, which the parameters are written in, and the "
            "provider reads it as \"or null\"" if draft is None else
            f"means something else in draft {draft_name(draft)}, which the parameters "
            "declare, than in the dialect the provider reads")
    return [Hit(f"`{r.path[-1]}` {said}", r.path, str(r.path[-1]))
            for r in rewrites if r.path != ("$schema",)]


def fix_declared_draft(root: Any, ctx: NodeContext) -> Fixed | None:
    new, rewrites = to_2020_12(root, _drops_nullable(root, ctx))
    if not rewrites:
        return None
    return Fixed(new, tuple(Edit(r.path, "lossless", r.text) for r in rewrites))


RULES: list[Rule] = [
    Rule(
        code="ROOT001", name="root-combinator", severity="error",
        message="the parameters root is a union", safety="hinted",
        fix_title="Merge the root branches into one object", detect=detect_root_combinator,
        fix=fix_root_combinator,
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
    Rule(
        code="ROOT003", name="declared-draft", severity="warning", scope="document",
        triggers=frozenset({"$schema", "nullable"}),
        message="a keyword the parameters' draft reads differently from the provider",
        safety="lossless", fix_title="Rewrite it as the provider reads it",
        detect=detect_declared_draft, fix=fix_declared_draft,
        docs=RuleDocs(
            what="Parameters that declare draft-04, -06 or -07 in `$schema` and use a "
                 "keyword that draft spells differently: draft-04's boolean "
                 "`exclusiveMinimum`/`exclusiveMaximum`, `dependencies`, array-form `items` "
                 "with `additionalItems`. Providers read every schema as 2020-12, where "
                 "these mean something else or nothing: `dependencies` is ignored, so the "
                 "model may send `a` without the `b` it needs. And `nullable`, OpenAPI's "
                 "word, in JSON Schema parameters (an MCP tool's, with or without "
                 "`$schema`): the server's validator ignores it, but gemini, vertex and "
                 "portable read it as \"or null\", so the model may send a null the server "
                 "refuses.",
            error="tools.0.custom.input_schema: JSON schema is invalid. It must match JSON "
                  "Schema draft 2020-12 (or, where the provider does not check, the "
                  "constraint is silently not applied)",
            fix="Rewrite each into its 2020-12 form (`exclusiveMinimum: 0`, "
                "`dependentRequired`/`dependentSchemas`, `prefixItems` + `items`) and say "
                "2020-12 in `$schema` (lossless: the same arguments are accepted), before "
                "any other rule reads the document; the profile's own rules then treat the "
                "2020-12 keywords it cannot take (in the example, gemini's `minimum: 1` for "
                "integers, and no `$schema`). `definitions` stays: its pointers resolve in "
                "2020-12 too. `nullable` goes where the provider would read it (lossless: "
                "the server lets no null through for it). A schema in OpenAPI's dialect "
                "keeps its `nullable`: a Gemini declaration's `parameters`, and a tool "
                "`transform` wrote for those providers, whose `_meta` says "
                "`\"schema-compat/dialect\": \"openapi-3.0\"` so that it is read back as "
                "written.",
            before={"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                    "properties": {"n": {"type": "integer", "minimum": 0,
                                         "exclusiveMinimum": True}}},
            after={"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}},
            sources=("[ANT-05](../providers.md#ant-05)",
                     "[MCP-03](../providers.md#mcp-03)"),
        ),
    ),
]
