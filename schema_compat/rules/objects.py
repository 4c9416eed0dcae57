"""OBJ: what an object schema says about its keys.

Additional and pattern properties, property names, dependencies, `required` naming no
property, empty parameter objects, objects without `properties`; and strict mode's two
demands, every object closed (`additionalProperties: false`) and every property required
(optional ones taking `null`). Strict mode's are a profile's choice, not a different kind
of rule: they are object rules that only the strict profiles enable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..schema.hints import value_text, with_hint, worded
from ..schema.shape import is_object_schema
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .dropping import Drop, drop_rule


def _additional_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if v is False:
        # Without properties, `false` means "only {}": removing it widens what is accepted,
        # so it is described (hinted), never dropped as lossless.
        return "No properties other than those listed are accepted." \
            if node.get("properties") else "No properties are accepted."
    if v is True or v == {}:
        return None if node.get("properties") else "Any keys and values are accepted."
    return f"Other keys are accepted, each value: {worded(v)}."


def _pattern_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if not isinstance(v, dict):
        return None
    parts = [f"keys matching {value_text(p, 40)}: {worded(s)}" for p, s in v.items()]
    return "Also accepts " + "; ".join(parts) + "." if parts else None


def _property_names_hint(k: str, v: Any, node: dict[str, Any]) -> str | None:
    if isinstance(v, dict) and v:
        return f"Keys must be {worded(v)}."
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
            parts.append(f"if {name} is given, the object must be {worded(dep)}")
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


def detect_empty_parameters(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if ctx.path or not isinstance(node, dict) or node.get("type") != "object" \
            or node.get("properties") or "anyOf" in node or "oneOf" in node:
        return ()
    return (Hit("the tool takes no parameters; send the declaration without `parameters`",
                ("properties",), "properties"),)


def _allows_object(kind: Any) -> bool:
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def detect_object_without_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and _allows_object(node.get("type")) \
            and "properties" not in node \
            and not any(k in node for k in ("anyOf", "oneOf", "allOf", "$ref")):
        yield Hit("object schema without `properties`", (), "properties", "lossless")


def fix_object_without_properties(node: Any, ctx: NodeContext) -> Fixed:
    # An empty `properties` constrains nothing, so validation is unchanged.
    return Fixed({**node, "properties": {}},
                 (Edit(("properties",), "lossless", "added `properties: {}`"),))


# Keywords that already say what an object's other keys may be.
_OTHER_KEYS = ("additionalProperties", "patternProperties", "unevaluatedProperties",
               "anyOf", "oneOf", "allOf", "$ref")


def detect_closed_by_default(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    # An object listing no properties (a map, free-form options): where objects are closed
    # unless said otherwise (xAI, XAI-01), it would take no key at all. One listing its
    # properties is left as it is: closing it only refuses keys the tool did not declare;
    # and so is the root, a tool without parameters, which closed means what it says.
    if isinstance(node, dict) and not ctx.is_root and _allows_object(node.get("type")) \
            and not node.get("properties") and not any(k in node for k in _OTHER_KEYS):
        yield Hit("object without `additionalProperties` or `properties`: the provider "
                  "closes it, so it takes no key at all", (), "additionalProperties",
                  "lossless")


def fix_closed_by_default(node: Any, ctx: NodeContext) -> Fixed:
    # JSON Schema's own default, written out: validation is unchanged.
    return Fixed({**node, "additionalProperties": True},
                 (Edit(("additionalProperties",), "lossless",
                       "added `additionalProperties: true` (any key, as before)"),))


_ADDITIONAL_PROPERTIES = Drop(("additionalProperties",), _additional_hint)


def detect_additional_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _ADDITIONAL_PROPERTIES.detect(node, ctx)


def fix_additional_properties(node: Any, ctx: NodeContext) -> Fixed | None:
    return _ADDITIONAL_PROPERTIES.fix(node, ctx)


_PATTERN_PROPERTIES = Drop(("patternProperties",), _pattern_hint)


def detect_pattern_properties(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _PATTERN_PROPERTIES.detect(node, ctx)


def fix_pattern_properties(node: Any, ctx: NodeContext) -> Fixed | None:
    return _PATTERN_PROPERTIES.fix(node, ctx)


_PROPERTY_NAMES = Drop(("propertyNames",), _property_names_hint)


def detect_property_names(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _PROPERTY_NAMES.detect(node, ctx)


def fix_property_names(node: Any, ctx: NodeContext) -> Fixed | None:
    return _PROPERTY_NAMES.fix(node, ctx)


_UNEVALUATED = Drop(("unevaluatedProperties", "unevaluatedItems"), _unevaluated_hint)


def detect_unevaluated(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _UNEVALUATED.detect(node, ctx)


def fix_unevaluated(node: Any, ctx: NodeContext) -> Fixed | None:
    return _UNEVALUATED.fix(node, ctx)


_DEPENDENCIES = Drop(("dependentRequired", "dependentSchemas", "dependencies"),
                     _dependent_hint)


def detect_dependencies(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return _DEPENDENCIES.detect(node, ctx)


def fix_dependencies(node: Any, ctx: NodeContext) -> Fixed | None:
    return _DEPENDENCIES.fix(node, ctx)


# --- OBJ008: additionalProperties false on every object ----------------------------------

def _declared(node: dict[str, Any]) -> bool:
    """The object lists its properties (at least one: closing an empty one leaves only
    `{}`) and requires none it does not list."""
    props, req = node.get("properties"), node.get("required")
    return isinstance(props, dict) and bool(props) and (
        not isinstance(req, list) or all(r in props for r in req if isinstance(r, str)))


def detect_strict_open_object(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if is_object_schema(node) and node.get("additionalProperties") is not False:
        absent = "additionalProperties" not in node
        yield Hit("strict mode needs `additionalProperties: false` on every object",
                  () if absent else ("additionalProperties",), "additionalProperties",
                  "lossless" if absent and _declared(node) else "lossy", "narrower",
                  "kept" if absent and _declared(node) else "described")


def fix_strict_open_object(node: Any, ctx: NodeContext) -> Fixed:
    if "additionalProperties" not in node:
        if _declared(node):
            return Fixed({**node, "additionalProperties": False}, (Edit(
                (), "lossy", "added `additionalProperties: false`; keys not listed can no "
                "longer be sent", accepts="narrower", told="kept"),))
        out = with_hint({**node, "additionalProperties": False},
                        "The server also accepts keys not listed here.")
        return Fixed(out, (Edit((), "lossy", "added `additionalProperties: false` to an "
                                             "object with undeclared keys; they can no "
                                             "longer be sent", accepts="narrower",
                                told="described"),))
    extra = node["additionalProperties"]
    out = with_hint({**node, "additionalProperties": False},
                    f"The server also accepts other keys ({worded(extra)}).")
    return Fixed(out, (Edit(("additionalProperties",), "lossy",
                            f"`additionalProperties: {value_text(extra, 40)}` became `false`; "
                            "other keys can no longer be sent", accepts="narrower",
                            told="described"),))


# --- OBJ009: every property required, optional ones nullable -----------------------------

NULL_HINT = "Null when not given."


def _missing(node: Any) -> list[str]:
    if not is_object_schema(node) or not isinstance(node.get("properties"), dict):
        return []
    req = node.get("required")
    # a set: a list searched for each property is quadratic (200,000 properties: minutes)
    named = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
    return [k for k in node["properties"] if k not in named]


def _accepts_null(schema: Any) -> bool:
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if t == "null" or (isinstance(t, list) and "null" in t):
        # (an `enum` that is no list is VAL005's, removed before this matters)
        return not isinstance(schema.get("enum"), list) or None in schema["enum"]
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and any(_accepts_null(b) for b in schema[key]):
            return True
    return False


def make_nullable(schema: Any) -> Any:
    """The schema, also accepting `null` (a type list where it can, else an anyOf)."""
    if _accepts_null(schema) or not isinstance(schema, dict):
        return schema
    t = schema.get("type")
    if (isinstance(t, (str, list)) and t != "null"
            and not any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf", "const"))):
        out = dict(schema)
    elif isinstance(schema.get("anyOf"), list) and not any(
            k in schema for k in ("$ref", "oneOf", "allOf", "const", "not")):
        # a null branch, and null let through the siblings that apply to every value (a
        # type list or `enum` beside the `anyOf` would still refuse it)
        out = {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    else:
        inner = {k: v for k, v in schema.items() if k not in ("description", "title")}
        out = {k: v for k, v in schema.items() if k in ("description", "title")}
        out["anyOf"] = [inner, {"type": "null"}]
        return with_hint(out, NULL_HINT)
    # (a type list naming null already, beside an `enum` without null, keeps one null)
    if isinstance(t, str) and t != "null":
        out["type"] = [t, "null"]
    elif isinstance(t, list) and "null" not in t:
        out["type"] = [*t, "null"]
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return with_hint(out, NULL_HINT)


def _no_required(node: Any) -> bool:
    return is_object_schema(node) and isinstance(node.get("properties"), dict) \
        and not isinstance(node.get("required"), list)


def detect_strict_optional_property(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    missing = _missing(node)
    if not missing and _no_required(node):
        yield Hit("strict mode needs `required`, even when empty", (), "required",
                  "lossless")
    elif missing:
        # the effect of the fix's edit (`make_nullable`): null accepted where it was not
        # is said in the property's description
        widened = any(isinstance(p, dict) and not _accepts_null(p)
                      for p in (node["properties"][m] for m in missing))
        yield Hit("strict mode needs every property in `required`; missing "
                  + ", ".join(repr(m) for m in missing[:5])
                  + (" …" if len(missing) > 5 else ""),
                  # The finding points at `required` when there is one, else at the object:
                  # a path must reach a node of the original.
                  ("required",) if "required" in node else (), "required", "lossy",
                  "changed" if widened else "narrower", "described" if widened else "kept")


def fix_strict_optional_property(node: Any, ctx: NodeContext) -> Fixed | None:
    missing = _missing(node)
    if not missing:
        if not _no_required(node):
            return None
        return Fixed({**node, "required": []},
                     (Edit(("required",), "lossless", "added an empty `required`"),))
    props = dict(node["properties"])
    for name in missing:
        props[name] = make_nullable(props[name])
    out = {**node, "properties": props, "required": list(node["properties"])}
    # Absent is no longer accepted (narrower); null now is, where it was not (wider).
    widened = any(props[name] is not node["properties"][name] for name in missing)
    return Fixed(out, (Edit(("required",), "lossy",
                            "made " + ", ".join(f"`{m}`" for m in missing) + " required and "
                            "nullable (send null to leave one out; drop nulls before calling "
                            "the server)", accepts="changed" if widened else "narrower",
                            told="described" if widened else "kept"),))


_CLOSED = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}

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
        detect=detect_empty_parameters,
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
        fix_title="Add an empty `properties`", detect=detect_object_without_properties,
        fix=fix_object_without_properties,
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
    Rule(
        code="OBJ011", name="closed-by-default", severity="warning",
        message="object without `additionalProperties` is closed by the provider",
        safety="lossless",
        fix_title="Write out `additionalProperties: true`", detect=detect_closed_by_default,
        fix=fix_closed_by_default,
        docs=RuleDocs(
            what="An object that lists no properties and says nothing of other keys (a map, "
                 "free-form options). JSON Schema and the MCP server take any key there; "
                 "xAI closes every object that does not set `additionalProperties: true`, "
                 "and its tool calls always follow the schema, so the model could send no "
                 "key at all. An object that lists its properties is not flagged (closing "
                 "it only refuses keys the tool does not declare), nor the root of a tool "
                 "without parameters.",
            error="No error: the request is accepted and the model's arguments for that "
                  "object are always `{}` (xAI docs: \"`additionalProperties` defaults to "
                  "`false` and must be set to `true` explicitly\").",
            fix="Add `additionalProperties: true`, JSON Schema's own default written out: "
                "the server's schema accepts exactly what it did (lossless).",
            profile="xai",
            before={"type": "object", "properties": {"options": {
                "type": "object", "description": "Extra options, passed on."}}},
            after={"type": "object", "properties": {"options": {
                "type": "object", "description": "Extra options, passed on.",
                "properties": {}, "additionalProperties": True}}},
            sources=("[XAI-01](../providers.md#xai-01)",
                     "docs.x.ai/developers/model-capabilities/text/structured-outputs"),
        ),
    ),
    Rule(
        code="OBJ008", name="strict-open-object", severity="error",
        message="strict mode needs `additionalProperties: false` on every object",
        safety="lossy", accepts="narrower", told="kept",
        cases=(("on an object whose other keys are described (or a map)", "narrower",
                "described"),),
        fix_title="Set `additionalProperties: false`",
        detect=detect_strict_open_object, fix=fix_strict_open_object,
        claims=frozenset({"additionalProperties"}),
        docs=RuleDocs(
            what="An object without `additionalProperties: false` (absent, `true`, or a "
                 "schema for map values). OpenAI strict mode requires it on every object "
                 "(documented); Anthropic's SDK always adds it (its docs reject anything but "
                 "`false`; whether a missing one is refused is unverified).",
            error="Invalid schema for function 'f': In context=('properties', 'permissions'), "
                  "'additionalProperties' is required to be supplied and to be false.",
            fix="Add `additionalProperties: false`. The object then refuses keys it does not "
                "list, which the server accepted: narrower, so lossy. When it was absent "
                "from an object that lists its properties, nothing the model was told "
                "changes (only undeclared keys are closed off); when it was `true` or a "
                "schema (a map), or the object lists no properties or requires unlisted "
                "ones, the other keys are described.",
            before=_CLOSED, after={**_CLOSED, "additionalProperties": False},
            sources=("[OAIS-01](../providers.md#oais-01), [ANTS-03](../providers.md#ants-03)",
                     "lastmile-ai/openai-agents-mcp#2",
                     "openai/openai-agents-python#1023"),
        ),
    ),
    Rule(
        code="OBJ009", name="strict-optional-property", severity="error",
        message="strict mode needs every property in `required`", safety="lossy",
        accepts="changed", told="described",
        cases=(("when the optional properties accept null already", "narrower", "kept"),
               ("adding an empty `required`", "equal", "kept")),
        fix_title="Require every property; optional ones become nullable",
        detect=detect_strict_optional_property, fix=fix_strict_optional_property,
        docs=RuleDocs(
            what="An object whose `required` does not list every property. OpenAI strict "
                 "mode requires them all; an optional parameter is expressed as one that "
                 "may be `null`.",
            error="Invalid schema for function 'f': In context=(), 'required' is required to "
                  "be supplied and to be an array including every key in properties. "
                  "Missing 'id'.",
            fix="List every property in `required`; each optional one also accepts `null` "
                "(`type: [T, \"null\"]`, or an `anyOf` with `{type: null}` where a type list "
                "cannot say it) and its description says so. Hinted: the model sends `null` "
                "where it used to leave the key out, so a client or proxy drops null values "
                "of these properties before calling the server.",
            before={"type": "object", "properties": {"q": {"type": "string"},
                                                      "n": {"type": "integer"}},
                    "required": ["q"], "additionalProperties": False},
            after={"type": "object", "properties": {
                "q": {"type": "string"},
                "n": {"type": ["integer", "null"], "description": NULL_HINT}},
                "required": ["q", "n"], "additionalProperties": False},
            sources=("[OAIS-02](../providers.md#oais-02)", "ash-project/ash_ai#155",
                     "laravel/ai#506"),
        ),
    ),
]
