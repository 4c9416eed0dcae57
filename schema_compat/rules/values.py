"""VAL: the values keywords hold, where the provider takes fewer than JSON Schema allows.

`const` and `enum`: Gemini takes enums only of strings, and only on strings. Integer and
boolean enums keep their type and move the allowed values into the description (hinted),
so the model still sends numbers and the server still validates; stringifying them would
make the model send "1" where the server wants 1.

A value of the wrong JSON type (`maximum: {...}`, `description: {}`, `nullable: "yes"`,
`enum: "a"`, `required: [[]]`, `$ref: 1`) is refused by every provider: Gemini's `Schema`
message types every field (google-genai's own `types.Schema` refuses such a value before
sending), and the JSON Schema providers validate the schema against the meta-schema
(docs/providers.md OAI-09, ANT-05), so one such value gets the whole request rejected.
The value meant nothing a validator could use, so the keyword (or, in a list of names, the
entry) is removed; the change is reported as lossy because what the author meant by it is
unknown. Draft 4's boolean `exclusiveMinimum` has an exact 2020-12 form and is rewritten
instead. Keywords that hold subschemas are TYP008's, a `type` naming no JSON type TYP003's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..schema.hints import value_text, values_text, with_hint
from ..schema.shape import is_number, value_type
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs


def detect_const_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "const" in node:
        yield Hit("`const` is not a field of the provider's schema", ("const",), "const")


def fix_const_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "const"}
    value = node["const"]
    if "enum" in out and isinstance(out["enum"], list):
        out["enum"] = [v for v in out["enum"] if v == value]
    else:
        out["enum"] = [value]
    if "type" not in out and "TYP002" not in ctx.in_force:
        # Where the missing-type rule is in force, the type is its to add (and its
        # finding's change); elsewhere the value's type keeps the enum typed.
        out["type"] = value_type(value)
    return Fixed(out, (Edit(("const",), "lossless", "`const` → a one-value `enum`"),))


def detect_enum_null_member(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("enum"), list) and None in node["enum"] \
            and any(v is not None for v in node["enum"]):
        return (Hit("`enum` contains null", ("enum",), "enum"),)
    return ()


def fix_enum_null_member(node: Any, ctx: NodeContext) -> Fixed:
    out = dict(node)
    out["enum"] = [v for v in node["enum"] if v is not None]
    t = node.get("type")
    if t is not None and t != "null" and not (isinstance(t, list) and "null" in t):
        # the type refuses null, so the enum's null was never accepted: no `nullable`
        return Fixed(out, (Edit(("enum",), "lossless",
                                f"removed null from `enum` (`type: {value_text(t, 40)}` "
                                "refuses it)"),))
    out["nullable"] = True
    if isinstance(out.get("type"), list):
        out["type"] = [t for t in out["type"] if t != "null"]
    return Fixed(out, (Edit(("enum",), "lossless",
                            "removed null from `enum` and set `nullable: true`"),))


def _enum_case(node: dict[str, Any]) -> str | None:
    enum = node.get("enum")
    if not isinstance(enum, list):
        return None
    values = [v for v in enum if v is not None]
    t = node.get("type")
    if isinstance(t, list):
        # A type list is TYP001's (`type: [string, null]` becomes `string` and nullable,
        # the enum's null VAL003's): what is this rule's is the one type left, if any.
        named = [e for e in t if e != "null"]
        t = named[0] if len(named) == 1 else t
    if not values:
        # `enum: [null]` accepts null alone, which `type: null` says; beside another type
        # it accepts nothing, as an empty enum does
        return "null" if enum and t in (None, "null") else "empty"
    if all(isinstance(v, str) for v in values) and t in (None, "string"):
        return None
    kinds = {value_type(v) for v in values}
    if kinds <= {"integer", "number"} or kinds == {"boolean"} or kinds <= {"object", "array"}:
        return "describe"
    if all(isinstance(v, str) for v in values):
        return "describe"  # string values on a non-string type
    return "stringify"


def detect_enum_not_string(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return ()
    case = _enum_case(node)
    if case == "empty":
        return (Hit("empty `enum` accepts nothing", ("enum",), "enum", "hinted"),)
    if case == "null":
        return (Hit("`enum: [null]`: the provider takes string enums only", ("enum",), "enum",
                    "lossless", "equal", "kept"),)
    if case:
        what = ("values that are not strings" if any(not isinstance(v, str) for v in node["enum"]
                                                     if v is not None)
                else f"on `type: {node.get('type')}`")
        return (Hit(f"`enum` with {what}: the provider takes string enums on strings only",
                    ("enum",), "enum", "hinted" if case == "describe" else "lossy"),)
    return ()


def fix_enum_not_string(node: Any, ctx: NodeContext) -> Fixed | None:
    case = _enum_case(node)
    values = [v for v in node["enum"] if v is not None]
    out = {k: v for k, v in node.items() if k != "enum"}
    if case == "empty":
        return Fixed(out, (Edit(("enum",), "lossy", "removed an empty `enum`, which accepted "
                                "no value", accepts="wider", told="lost"),))
    if case == "null":
        out["type"] = "null"
        return Fixed(out, (Edit(("enum",), "lossless", "`enum: [null]` → `type: null`",
                                accepts="equal", told="kept"),))
    if case == "describe":
        if ctx.parent == "oneOf" and "UNI002" in ctx.in_force:
            # A branch of a `oneOf` the union rule merges: its values stay literals for the
            # merge, which counts each listing (a value listed twice is refused) and unites
            # them; the merged node's enum is then described once.
            return None
        kinds = {value_type(v) for v in values}
        if "type" not in out:
            out["type"] = "number" if kinds == {"integer", "number"} else kinds.pop() \
                if len(kinds) == 1 else "string"
        out = with_hint(out, _one_of(values))
        return Fixed(out, (Edit(("enum",), "hinted",
                                f"removed the non-string `enum` ({values_text(values, 60)}); "
                                "the allowed values are in `description`"),))
    if case == "stringify":
        out["type"] = "string"
        out["enum"] = [v if isinstance(v, str) else _text(v) for v in values]
        return Fixed(out, (Edit(("enum",), "lossy",
                                "mixed-type `enum` became a string enum; non-string values "
                                "are sent as their JSON text", accepts="changed",
                                told="kept"),))
    return None


def _one_of(values: list[Any]) -> str:
    """The description of an enum's values."""
    return f"One of: {values_text(values)}." if len(values) > 1 else \
        f"Must be {values_text(values)}."


def _text(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def detect_enum_value_kind(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("enum"), list):
        bad = [v for v in node["enum"] if not isinstance(v, (str, int, float)) or
               isinstance(v, bool)]
        if bad and any(v is not None for v in bad):
            yield Hit(f"`enum` holds {values_text(bad, 60)}: only strings and numbers are "
                      "accepted", ("enum",), "enum")


def fix_enum_value_kind(node: Any, ctx: NodeContext) -> Fixed:
    values = node["enum"]
    out = {k: v for k, v in node.items() if k != "enum"}
    if "type" not in out:
        kinds = {value_type(v) for v in values if v is not None}
        if len(kinds) == 1:
            out["type"] = kinds.pop()
    out = with_hint(out, _one_of(values))
    return Fixed(out, (Edit(("enum",), "hinted",
                            "removed an `enum` of booleans or objects; the values are in "
                            "`description`"),))


# --- VAL005: a value of the wrong JSON type ---------------------------------------------

def _count(v: Any) -> bool:
    # (an int is tested as one: float() of a huge one overflows)
    return is_number(v) and v >= 0 and (isinstance(v, int) or float(v).is_integer())


def _positive(v: Any) -> bool:
    return is_number(v) and v > 0


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _name_lists(v: Any) -> bool:
    return isinstance(v, dict) and all(_strings(x) for x in v.values())


# Annotations and identifiers, whose value JSON Schema types too.
_ANNOTATION_STRINGS = ("$schema", "$id", "$anchor", "$comment", "contentEncoding",
                       "contentMediaType")
_ANNOTATION_FLAGS = ("deprecated", "readOnly", "writeOnly")
_STRINGS = ("description", "title", "pattern", "format", "$ref", *_ANNOTATION_STRINGS)
_FLAGS = ("nullable", "uniqueItems", *_ANNOTATION_FLAGS)

# keyword -> (test, what it must be)
EXPECTED: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{k: ((lambda v: isinstance(v, str)), "a string") for k in _STRINGS},
    **{k: ((lambda v: isinstance(v, bool)), "true or false") for k in _FLAGS},
    **{k: (is_number, "a number") for k in ("minimum", "maximum", "exclusiveMinimum",
                                          "exclusiveMaximum")},
    "multipleOf": (_positive, "a number greater than 0"),
    **{k: (_count, "a whole number of at least 0")
       for k in ("minItems", "maxItems", "minLength", "maxLength", "minProperties",
                 "maxProperties", "minContains", "maxContains")},
    **{k: ((lambda v: isinstance(v, list)), "a list") for k in ("enum", "examples")},
    "required": (_strings, "a list of property names"),
    "dependentRequired": (_name_lists, "an object of lists of property names"),
    "propertyOrdering": (_strings, "a list of names"),
}

# Keywords another rule of the profile reports whatever their value (and fixes): where
# that rule is in force, its finding is the one on a malformed value too.
_OWNER = {"required": "OBJ006", "$ref": "REF005", "exclusiveMinimum": "CON001",
          "exclusiveMaximum": "CON001", "examples": "ANN002", "dependentRequired": "OBJ005",
          **{k: "ANN001" for k in ("$schema", "$id", "$anchor", "$comment")},
          # the unknown-keyword rule, where the profile does not list the keyword
          **{k: "ANN004" for k in ("contentEncoding", "contentMediaType", "minContains",
                                   "maxContains", *_ANNOTATION_FLAGS)}}
# Keywords of one dialect only: elsewhere they are unknown keywords, any value allowed.
# `nullable` is OpenAPI's (profiles with `nullable_keyword`); `propertyOrdering` Gemini's
# (profiles that list it).
_DIALECT = frozenset(("nullable", "propertyOrdering"))
# Keywords holding a list of names: a wrong entry is reported (and removed) by itself.
_NAME_LISTS = frozenset(("required", "propertyOrdering"))

_ORDER = {k: i for i, k in enumerate(EXPECTED)}


# keyword -> the one type its value must have, where a type test says it, else None and
# EXPECTED's test (asked of nearly every node: one lookup per key, and the common keywords
# are tested without a call)
_TYPE: dict[str, type | None] = {
    **{k: None for k in EXPECTED}, **{k: str for k in _STRINGS}, **{k: bool for k in _FLAGS},
    "enum": list, "examples": list}


def _in_force(key: str, ctx: NodeContext) -> bool:
    """Whether VAL005 speaks for `key` in this run (not its owner, not another dialect's)."""
    owner = _OWNER.get(key)
    if owner is not None and owner in ctx.in_force and (
            owner != "ANN004" or key not in ctx.profile.allowed_keywords):
        return False
    if key in _DIALECT:
        profile = ctx.profile
        return profile.nullable_keyword if key == "nullable" \
            else key in profile.allowed_keywords
    return True


def _wrong(node: Any, ctx: NodeContext) -> list[str]:
    """The node's keywords with a value of the wrong type, in the order of EXPECTED."""
    if not isinstance(node, dict):
        return []
    bad = []
    types = _TYPE
    for k, v in node.items():
        if k not in types:
            continue
        t = types[k]
        if not (isinstance(v, t) if t is not None else EXPECTED[k][0](v)) \
                and _in_force(k, ctx):
            bad.append(k)
    if len(bad) > 1:
        bad.sort(key=_ORDER.__getitem__)
    return bad


def _draft4_flag(key: str, node: dict[str, Any]) -> bool:
    """`exclusiveMinimum: true` beside a numeric `minimum` (draft 4's spelling of an
    exclusive bound), or `false` (draft 4's default): both have an exact 2020-12 form."""
    value = node[key]
    return value is False or (value is True and is_number(node.get(_INCLUSIVE[key])))


_INCLUSIVE = {"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"}


def detect_malformed_value(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    hits = []
    for key in _wrong(node, ctx):
        value = node[key]
        what = EXPECTED[key][1]
        if key in _NAME_LISTS and isinstance(value, list):
            hits += [Hit(f"`{key}` holds {value_text(v, 40)}; it must be {what}",
                         (key, i), key, "lossy")
                     for i, v in enumerate(value) if not isinstance(v, str)]
        elif key in _INCLUSIVE and _draft4_flag(key, node):
            hits.append(Hit(f"`{key}` is {value_text(value)} (draft 4); it must be {what}",
                            (key,), key, "lossless"))
        else:
            hits.append(Hit(f"`{key}` is {value_text(value, 40)}; it must be {what}",
                            (key,), key, "lossy"))
    return hits


def fix_malformed_value(node: Any, ctx: NodeContext) -> Fixed | None:
    keys = _wrong(node, ctx)
    if not keys:
        return None
    out = {k: v for k, v in node.items() if k not in keys}
    edits = []
    for k in keys:
        value, what = node[k], EXPECTED[k][1]
        if k in _NAME_LISTS and isinstance(value, list):
            names = [v for v in value if isinstance(v, str)]
            if names:
                out[k] = names
            edits.append(Edit((k,), "lossy", f"removed the entries of `{k}` that are not "
                                             f"names: {value_text(value, 40)}"))
        elif k in _INCLUSIVE and _draft4_flag(k, node):
            inclusive = _INCLUSIVE[k]
            if value is True:
                out[k] = out.pop(inclusive)
                edits.append(Edit((k,), "lossless", f"`{inclusive}` with `{k}: true` (draft "
                                                    f"4) became `{k}: {out[k]}`"))
            else:
                edits.append(Edit((k,), "lossless", f"removed `{k}: false` (draft 4's "
                                                    "default)"))
        else:
            edits.append(Edit((k,), "lossy", f"removed `{k}`: {value_text(value, 40)} is "
                                             f"not {what}"))
    return Fixed(out, tuple(edits))


RULES: list[Rule] = [
    Rule(
        code="VAL001", name="const-unsupported", severity="error",
        defers_to=("TYP002",),  # the type the enum needs
        triggers=frozenset({"const"}),
        message="`const` is not supported", safety="lossless",
        fix_title="Use a one-value `enum`", claims=frozenset({"const"}),
        detect=detect_const_unsupported, fix=fix_const_unsupported,
        docs=RuleDocs(
            what="`const`, which Zod literals and discriminators emit.",
            error='Invalid JSON payload received. Unknown name "const" at '
                  "'tools[0].function_declarations[0].parameters.properties[0].value': "
                  "Cannot find field.",
            fix="Replace with `enum: [value]` (then the enum rules apply to non-strings).",
            before={"type": "object", "properties": {"kind": {"const": "circle"}}},
            after={"type": "object", "properties": {"kind": {"type": "string",
                                                             "enum": ["circle"]}}},
            sources=("[GEM-01](../providers.md#gem-01)", "zed-industries/zed#43231"),
        ),
    ),
    Rule(
        code="VAL002", name="enum-not-string", severity="error",
        defers_to=("UNI002",),  # a `oneOf` branch's values: to the merge
        cases=(("an empty `enum`, which accepted nothing", "wider", "lost"),
               ("a mixed-type `enum` becomes a string enum", "changed", "kept")),
        triggers=frozenset({"enum"}),
        message="`enum` must hold strings on a string type", safety="hinted",
        fix_title="Describe the values (or stringify mixed enums)", claims=frozenset({"enum"}),
        detect=detect_enum_not_string, fix=fix_enum_not_string,
        docs=RuleDocs(
            what="An `enum` of integers, numbers, booleans or objects, or an enum on a "
                 "non-string type.",
            error="Invalid value at 'tools[0].function_declarations[0].parameters."
                  "properties[1].value.enum[0]' (TYPE_STRING), 0 / …enum: only allowed for "
                  "STRING type",
            fix="Keep the type and move the allowed values into the description (hinted: the "
                "model still sends numbers and booleans, the server still validates). An enum "
                "mixing strings and other values becomes a string enum of JSON texts (lossy). "
                "In a branch of a `oneOf` that UNI002 merges, the values are left to the "
                "merge, which counts a value listed twice as refused, and are described on "
                "the merged node.",
            before={"type": "object", "properties": {"level": {"type": "integer",
                                                               "enum": [1, 2, 3]}}},
            after={"type": "object", "properties": {"level": {
                "type": "integer", "description": "One of: 1, 2, 3."}}},
            sources=("[GEM-05](../providers.md#gem-05), [GEM-06](../providers.md#gem-06)",
                     "google-gemini/gemini-cli#2031"),
        ),
    ),
    Rule(
        code="VAL003", name="enum-null-member", severity="error",
        triggers=frozenset({"enum"}),
        message="`enum` contains null", safety="lossless", fix_title="Use `nullable: true`",
        detect=detect_enum_null_member, fix=fix_enum_null_member,
        docs=RuleDocs(
            what="`null` among the values of an `enum` (Pydantic's `Optional[Literal[...]]`).",
            error="Invalid value at '…enum[2]' (TYPE_STRING), null",
            fix="Remove `null` from the values and set `nullable: true` (only `null` removed "
                "where the node's `type` refuses null anyway).",
            before={"type": "object", "properties": {"m": {"enum": ["a", "b", None]}}},
            after={"type": "object", "properties": {"m": {"type": "string", "enum": ["a", "b"],
                                                          "nullable": True}}},
            sources=("[GEM-05](../providers.md#gem-05)",),
        ),
    ),
    Rule(
        code="VAL004", name="enum-value-kind", severity="warning",
        message="`enum` values must be strings or numbers", safety="hinted",
        fix_title="Describe the values", claims=frozenset({"enum"}),
        detect=detect_enum_value_kind, fix=fix_enum_value_kind,
        docs=RuleDocs(
            what="An `enum` holding booleans, objects or arrays, where only strings and "
                 "numbers are documented (Gemini `parametersJsonSchema`). Unverified in "
                 "practice, hence a warning.",
            error="(not observed; documented list: strings and numbers)",
            fix="Remove the enum and list the values in the description.",
            before={"type": "object", "properties": {"on": {"type": "boolean",
                                                            "enum": [True]}}},
            after={"type": "object", "properties": {"on": {"type": "boolean",
                                                           "description": "Must be true."}}},
            sources=("[GJS-07](../providers.md#gjs-07)",),
        ),
    ),
    Rule(
        code="VAL005", name="malformed-value", severity="error",
        defers_to=tuple(sorted(set(_OWNER.values()))),  # an owned keyword
        cases=(("draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum`, rewritten",
                "equal", "kept"),),
        triggers=frozenset(EXPECTED),
        message="a keyword whose value has the wrong type", safety="lossy",
        fix_title="Remove the keyword (or the entries that are not names)",
        detect=detect_malformed_value,
        fix=fix_malformed_value,
        docs=RuleDocs(
            what="`description`, `title`, `pattern`, `format`, `$ref` (or `$id`, "
                 "`$schema`, `$anchor`, `$comment`, `contentEncoding`, `contentMediaType`) "
                 "that is not a string; `uniqueItems`, `deprecated`, `readOnly`, `writeOnly` "
                 "(and, in the OpenAPI profiles, `nullable`) that is not a boolean; a numeric "
                 "bound that is not a number, or a `multipleOf` not above 0; a length or count "
                 "bound that is not a whole number of at least 0; an `enum` or `examples` "
                 "that is not a list; `required` (or Gemini's `propertyOrdering`) that is not "
                 "a list of names, a `dependentRequired` that does not map names to such "
                 "lists. Where another rule of the profile reports the keyword whatever its "
                 "value (`required` OBJ006, `$ref` REF005, exclusive bounds CON001, "
                 "`examples` ANN002, `dependentRequired` OBJ005, identifiers ANN001, "
                 "keywords the profile does not list ANN004), that rule's finding stands for "
                 "it.",
            error="Invalid JSON payload received. Invalid value at "
                  "'tools[0].function_declarations[0].parameters.maximum' (TYPE_DOUBLE); "
                  "OpenAI: Invalid schema for function '<fn>': None is not of type 'array'.",
            fix="Remove the keyword, or the entries of a list of names that are not names "
                "(lossy: what it was meant to say is unknown). Draft 4's `exclusiveMinimum: "
                "true` beside `minimum: 5` becomes `exclusiveMinimum: 5` (lossless).",
            before={"type": "object", "properties": {
                "n": {"type": "integer", "maximum": {"value": 5}}}},
            after={"type": "object", "properties": {"n": {"type": "integer"}}},
            sources=("google-genai types.Schema field types",
                     "[OAI-09](../providers.md#oai-09), [ANT-05](../providers.md#ant-05)",
                     "tests/test_transform_properties.py",
                     "tests/test_malformed_any_profile.py"),
        ),
    ),
]
