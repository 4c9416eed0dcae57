"""Object keywords: additional and pattern properties, property names, dependencies,
`required` that names nothing, and empty parameter objects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .dropping import Drop, drop_rule
from .hints import summarize, value_text, with_hint


def _additional_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if v is False:
        # Without properties, `false` means "only {}": removing it widens what is accepted,
        # so it is described (hinted), never dropped as lossless.
        return "No properties other than those listed are accepted." \
            if node.get("properties") else "No properties are accepted."
    if v is True or v == {}:
        return None if node.get("properties") else "Any keys and values are accepted."
    return f"Other keys are accepted, each value: {summarize(v)}."


def _pattern_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if not isinstance(v, dict):
        return None
    parts = [f"keys matching {value_text(p, 40)}: {summarize(s)}" for p, s in v.items()]
    return "Also accepts " + "; ".join(parts) + "." if parts else None


def _property_names_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if isinstance(v, dict) and v:
        return f"Keys must be {summarize(v)}."
    return None


def _unevaluated_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if v is False:
        return "No properties other than those listed are accepted." \
            if k == "unevaluatedProperties" else "No items other than those described."
    return None


def _dependent_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if not isinstance(v, dict) or not v:
        return None
    parts = []
    for name, dep in v.items():
        if isinstance(dep, list):
            parts.append(f"if {name} is given, {', '.join(map(str, dep))} must be too")
        else:
            parts.append(f"if {name} is given, the object must be {summarize(dep)}")
    return "; ".join(parts).capitalize() + "."


def detect_dangling_required(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict) or "required" not in node:
        return ()
    req = node["required"]
    if not isinstance(req, list) or not all(isinstance(r, str) for r in req):
        return (Hit(f"`required` is {value_text(req, 40)}, not a list of names",
                    ("required",), "required", "hinted"),)
    props = node.get("properties")
    names = props if isinstance(props, dict) else {}
    hits = [Hit(f"`required` names {r!r}, which is not in `properties`",
                ("required", i), "required", "hinted")
            for i, r in enumerate(req) if r not in names]
    if len(set(req)) != len(req):
        hits.append(Hit("`required` lists a name twice", ("required",), "required",
                        "lossless"))
    return hits


def fix_dangling_required(node: Any, ctx: NodeContext) -> Fixed:
    req = node["required"]
    out = {k: v for k, v in node.items() if k != "required"}
    if not isinstance(req, list):
        return Fixed(out, (Edit(("required",), "hinted", "removed a malformed `required`"),))
    props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    names = [r for r in req if isinstance(r, str)]
    keep = [r for r in dict.fromkeys(names) if r in props]
    missing = [r for r in names if r not in props]
    if keep:
        out["required"] = keep
    edits = [Edit(("required",), "lossless", "removed duplicate names from `required`")] \
        if len(set(names)) != len(names) else []
    if len(names) != len(req):
        edits.append(Edit(("required",), "hinted", "removed entries of `required` that are "
                                                   "not property names"))
    if missing:
        out = with_hint(out, "The server also requires " + ", ".join(missing) + ".")
        edits.append(Edit(("required",), "hinted",
                          f"removed {', '.join(map(repr, missing))} from `required`: not in "
                          "`properties`"))
    return Fixed(out, tuple(edits) or (Edit(("required",), "lossless", "cleaned `required`"),))


def detect_empty_root(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if ctx.is_root and isinstance(node, dict) and node.get("type") == "object" \
            and not node.get("properties") and "anyOf" not in node and "oneOf" not in node:
        yield Hit("the tool takes no parameters; send the declaration without `parameters`",
                  ("properties",), "properties")


def _allows_object(kind: Any) -> bool:
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def detect_missing_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and _allows_object(node.get("type")) \
            and "properties" not in node \
            and not any(k in node for k in ("anyOf", "oneOf", "allOf", "$ref")):
        yield Hit("object schema without `properties`", (), "properties", "lossless")


def fix_missing_properties(node: Any, ctx: NodeContext) -> Fixed:
    # An empty `properties` constrains nothing, so validation is unchanged.
    return Fixed({**node, "properties": {}},
                 (Edit(("properties",), "lossless", "added `properties: {}`"),))


_ADDITIONAL_PROPERTIES = Drop(("additionalProperties",),
                              "`{keyword}` is not a field of the provider's schema",
                              _additional_hint)


def detect_additional_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _ADDITIONAL_PROPERTIES.detect(node, ctx)


def fix_additional_properties(node: Any, ctx: NodeContext) -> Fixed | None:
    return _ADDITIONAL_PROPERTIES.fix(node, ctx)


_PATTERN_PROPERTIES = Drop(("patternProperties",),
                           "`{keyword}` is not a field of the provider's schema",
                           _pattern_hint)


def detect_pattern_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _PATTERN_PROPERTIES.detect(node, ctx)


def fix_pattern_properties(node: Any, ctx: NodeContext) -> Fixed | None:
    return _PATTERN_PROPERTIES.fix(node, ctx)


_PROPERTY_NAMES = Drop(("propertyNames",),
                       "`{keyword}` is not a field of the provider's schema",
                       _property_names_hint)


def detect_property_names(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _PROPERTY_NAMES.detect(node, ctx)


def fix_property_names(node: Any, ctx: NodeContext) -> Fixed | None:
    return _PROPERTY_NAMES.fix(node, ctx)


_UNEVALUATED = Drop(("unevaluatedProperties",
                    "unevaluatedItems"),
                    "`{keyword}` is not a field of the provider's schema",
                    _unevaluated_hint)


def detect_unevaluated(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _UNEVALUATED.detect(node, ctx)


def fix_unevaluated(node: Any, ctx: NodeContext) -> Fixed | None:
    return _UNEVALUATED.fix(node, ctx)


_DEPENDENCIES = Drop(("dependentRequired", "dependentSchemas",
                     "dependencies"),
                     "`{keyword}` is not a field of the provider's schema",
                     _dependent_hint)


def detect_dependencies(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _DEPENDENCIES.detect(node, ctx)


def fix_dependencies(node: Any, ctx: NodeContext) -> Fixed | None:
    return _DEPENDENCIES.fix(node, ctx)


RULES: list[Rule] = [
    drop_rule(
        code="OBJ001", name="additional-properties", drop=_ADDITIONAL_PROPERTIES,
        detect=detect_additional_properties, fix=fix_additional_properties,
        docs=RuleDocs(
            what="`additionalProperties` in any form. Pydantic's `extra='forbid'` and Zod's "
                 "`.strict()` emit `false`; `dict[str, X]` emits a schema.",
            error='Invalid JSON payload received. Unknown name "additionalProperties" at '
                  "'tools[0].function_declarations[0].parameters': Cannot find field.",
            fix="Remove it. `false` becomes a sentence saying no other properties are "
                "accepted; a schema becomes a sentence describing the values of other keys. "
                "Hinted: the server still rejects what it rejected.",
            before={"type": "object", "properties": {"a": {"type": "string"}},
                    "additionalProperties": False},
            after={"type": "object", "properties": {"a": {"type": "string"}},
                   "description": "No properties other than those listed are accepted."},
            sources=("[GEM-14](../providers.md#gem-14)", "Laisky/one-api#60"),
        ),
    ),
    drop_rule(
        code="OBJ002", name="pattern-properties", drop=_PATTERN_PROPERTIES,
        detect=detect_pattern_properties, fix=fix_pattern_properties,
        docs=RuleDocs(
            what="`patternProperties` (keys matched by regular expression).",
            error='Invalid JSON payload received. Unknown name "patternProperties" …',
            fix="Remove it; describe the patterns and their values.",
            before={"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
            after={"type": "object",
                   "description": 'Also accepts keys matching "^x-": string.'},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    drop_rule(
        code="OBJ003", name="property-names", drop=_PROPERTY_NAMES,
        detect=detect_property_names, fix=fix_property_names,
        docs=RuleDocs(
            what="`propertyNames` (a schema every key must match).",
            error='Invalid JSON payload received. Unknown name "propertyNames" at …',
            fix="Remove it; describe the key format.",
            before={"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
            after={"type": "object",
                   "description": 'Keys must be string (matching "^[a-z]+$").'},
            sources=("[GEM-01](../providers.md#gem-01)", "decolua/9router#2309"),
        ),
    ),
    drop_rule(
        code="OBJ004", name="unevaluated", drop=_UNEVALUATED,
        detect=detect_unevaluated, fix=fix_unevaluated,
        docs=RuleDocs(
            what="`unevaluatedProperties` / `unevaluatedItems` (2019-09 and later).",
            error='Invalid JSON payload received. Unknown name "unevaluatedProperties" …',
            fix="Remove; `false` is described.",
            before={"type": "object", "properties": {"a": {"type": "string"}},
                    "unevaluatedProperties": False},
            after={"type": "object", "properties": {"a": {"type": "string"}},
                   "description": "No properties other than those listed are accepted."},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    drop_rule(
        code="OBJ005", name="dependencies", drop=_DEPENDENCIES,
        detect=detect_dependencies, fix=fix_dependencies,
        docs=RuleDocs(
            what="`dependentRequired`, `dependentSchemas` and draft-7 `dependencies`.",
            error='Invalid JSON payload received. Unknown name "dependentRequired" …',
            fix="Remove; describe each dependency.",
            before={"type": "object", "properties": {"a": {"type": "string"},
                                                     "b": {"type": "string"}},
                    "dependentRequired": {"a": ["b"]}},
            after={"type": "object", "properties": {"a": {"type": "string"},
                                                    "b": {"type": "string"}},
                   "description": "If a is given, b must be too."},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="OBJ006", name="dangling-required", severity="error",
        reads_below=False,
        triggers=frozenset({"required"}),
        message="`required` names a property that does not exist", safety="hinted",
        fix_title="Remove the name (the description keeps it)",
        detect=detect_dangling_required, fix=fix_dangling_required,
        docs=RuleDocs(
            what="`required` listing a name missing from `properties`, a malformed "
                 "`required`, or a name listed twice.",
            error="GenerateContentRequest.tools[0].function_declarations[1].parameters."
                  "required[0]: property is not defined",
            fix="Remove names not in `properties` and say in the description that the server "
                "requires them (hinted); drop duplicates (lossless).",
            before={"type": "object", "properties": {"a": {"type": "string"}},
                    "required": ["a", "b"]},
            after={"type": "object", "properties": {"a": {"type": "string"}},
                   "required": ["a"], "description": "The server also requires b."},
            sources=("[GEM-11](../providers.md#gem-11)", "iBUHub/AIStudioToAPI#154"),
        ),
    ),
    Rule(
        code="OBJ007", name="empty-parameters", severity="warning",
        triggers=frozenset({"type"}),
        message="parameters object without properties", safety=None, fix_title=None,
        detect=detect_empty_root, root_only=True,
        docs=RuleDocs(
            what="A tool without arguments declared as `{type: object, properties: {}}`. "
                 "Gemini rejected this in 2024-25 reports; current behaviour is unverified, "
                 "hence a warning.",
            error="GenerateContentRequest.tools[0].function_declarations[2].parameters."
                  "properties: should be non-empty for OBJECT type",
            fix="Nothing in the schema: when sending it to Gemini, omit `parameters` (the "
                "Gemini file shape written by `transform` does so).",
            before={"type": "object", "properties": {}},
            passing={"type": "object", "properties": {"verbose": {"type": "boolean"}}},
            sources=("[GEM-12](../providers.md#gem-12)", "agno-agi/agno#2113"),
        ),
    ),
    Rule(
        code="OBJ010", name="object-without-properties", severity="warning",
        message="object schema without `properties`", safety="lossless",
        fix_title="Add an empty `properties`", detect=detect_missing_properties,
        fix=fix_missing_properties,
        docs=RuleDocs(
            what="`type: object` with no `properties` keyword, typically a tool that takes "
                 "no arguments. OpenAI has refused it on some paths; seen in an issue only, "
                 "hence a warning.",
            error="Invalid schema for function '<fn>': In context=(), object schema missing "
                  "properties.",
            fix="Add `properties: {}`, which accepts the same values (lossless).",
            before={"type": "object"},
            after={"type": "object", "properties": {}},
            sources=("[OAI-10](../providers.md#oai-10)", "spring-projects/spring-ai#4776"),
        ),
    ),
]
