"""Keywords whose value has the wrong JSON type: `maximum: {...}`, `description: {}`,
`nullable: "yes"`, `enum: "a"`, `required: [[]]`, `$ref: 1`.

Every profile has this rule: Gemini's `Schema` message types every field (google-genai's
own `types.Schema` refuses such a value before sending), and the JSON Schema providers
validate the schema against the meta-schema (docs/providers.md OAI-09, ANT-05), so one such
value gets the whole request rejected. The value meant nothing a validator could use, so
the keyword (or, in a list of names, the entry) is removed; the change is reported as lossy
because what the author meant by it is unknown. Draft 4's boolean `exclusiveMinimum` has an
exact 2020-12 form and is rewritten instead. Keywords that hold subschemas are TYP008's, a
`type` naming no JSON type TYP003's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .hints import value_text


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _count(v: Any) -> bool:
    # (an int is tested as one: float() of a huge one overflows)
    return _number(v) and v >= 0 and (isinstance(v, int) or float(v).is_integer())


def _positive(v: Any) -> bool:
    return _number(v) and v > 0


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _name_lists(v: Any) -> bool:
    return isinstance(v, dict) and all(_strings(x) for x in v.values())


# Annotations and identifiers, whose value JSON Schema types too.
_ANNOTATION_STRINGS = ("$schema", "$id", "$anchor", "$comment", "contentEncoding",
                       "contentMediaType")
_ANNOTATION_FLAGS = ("deprecated", "readOnly", "writeOnly")

# keyword -> (test, what it must be)
EXPECTED: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{k: ((lambda v: isinstance(v, str)), "a string")
       for k in ("description", "title", "pattern", "format", "$ref", *_ANNOTATION_STRINGS)},
    **{k: ((lambda v: isinstance(v, bool)), "true or false")
       for k in ("nullable", "uniqueItems", *_ANNOTATION_FLAGS)},
    **{k: (_number, "a number") for k in ("minimum", "maximum", "exclusiveMinimum",
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
    **{k: None for k in EXPECTED},
    **{k: str for k in ("description", "title", "pattern", "format", "$ref",
                        *_ANNOTATION_STRINGS)},
    **{k: bool for k in ("nullable", "uniqueItems", *_ANNOTATION_FLAGS)},
    "enum": list, "examples": list}


def _in_force(key: str, ctx: NodeContext) -> bool:
    """Whether VAL005 speaks for `key` in this run (not its owner, not another dialect's)."""
    owner = _OWNER.get(key)
    if owner is not None and owner in ctx.active and (
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
    return value is False or (value is True and _number(node.get(_INCLUSIVE[key])))


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
        code="VAL005", name="malformed-value", severity="error",
        cases=(("draft 4's boolean `exclusiveMinimum`/`exclusiveMaximum`, rewritten",
                "equal", "kept"),),
        reads_below=False,
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
