"""Keywords whose value has the wrong JSON type: `maximum: {...}`, `description: {}`,
`nullable: "yes"`, `enum: "a"`.

The provider's `Schema` message types every field, so one such value gets the whole request
rejected (google-genai's own `types.Schema` refuses it before sending). The value meant
nothing a validator could use, so the keyword is removed; the change is reported as lossy
because what the author meant by it is unknown. Keywords that hold subschemas are TYP008's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .hints import value_text


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _count(v: Any) -> bool:
    return _number(v) and v >= 0 and float(v).is_integer()


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


# keyword -> (test, what it must be)
EXPECTED: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{k: ((lambda v: isinstance(v, str)), "a string")
       for k in ("description", "title", "pattern", "format")},
    **{k: ((lambda v: isinstance(v, bool)), "true or false")
       for k in ("nullable", "uniqueItems")},
    **{k: (_number, "a number") for k in ("minimum", "maximum", "multipleOf")},
    **{k: (_count, "a whole number of at least 0")
       for k in ("minItems", "maxItems", "minLength", "maxLength", "minProperties",
                 "maxProperties")},
    "enum": ((lambda v: isinstance(v, list)), "a list"),
    "propertyOrdering": (_strings, "a list of names"),
}


_ORDER = {k: i for i, k in enumerate(EXPECTED)}


# keyword -> the one type its value must have, where a type test says it, else None and
# EXPECTED's test (asked of nearly every node: one lookup per key, and the common keywords
# are tested without a call)
_TYPE: dict[str, type | None] = {
    **{k: None for k in EXPECTED},
    **{k: str for k in ("description", "title", "pattern", "format")},
    "nullable": bool, "uniqueItems": bool, "enum": list}


def _wrong(node: Any) -> list[str]:
    """The node's keywords with a value of the wrong type, in the order of EXPECTED."""
    if not isinstance(node, dict):
        return []
    bad = []
    types = _TYPE
    for k, v in node.items():
        if k not in types:
            continue
        t = types[k]
        if not (isinstance(v, t) if t is not None else EXPECTED[k][0](v)):
            bad.append(k)
    if len(bad) > 1:
        bad.sort(key=_ORDER.__getitem__)
    return bad


def detect_malformed_value(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    return [Hit(f"`{key}` is {value_text(node[key], 40)}; it must be {EXPECTED[key][1]}",
                (key,), key, "lossy") for key in _wrong(node)]


def fix_malformed_value(node: Any, ctx: NodeContext) -> Fixed | None:
    keys = _wrong(node)
    if not keys:
        return None
    out = {k: v for k, v in node.items() if k not in keys}
    return Fixed(out, tuple(Edit((k,), "lossy", f"removed `{k}`: {value_text(node[k], 40)} "
                                                f"is not {EXPECTED[k][1]}") for k in keys))


RULES: list[Rule] = [
    Rule(
        code="VAL005", name="malformed-value", severity="error",
        reads_below=False,
        triggers=frozenset(EXPECTED),
        message="a keyword whose value has the wrong type", safety="lossy",
        fix_title="Remove the keyword", detect=detect_malformed_value,
        fix=fix_malformed_value,
        docs=RuleDocs(
            what="`description`, `title`, `pattern` or `format` that is not a string; "
                 "`nullable` or `uniqueItems` that is not a boolean; `minimum`, `maximum` or "
                 "`multipleOf` that is not a number; a length or count bound that is not a "
                 "whole number of at least 0; an `enum` that is not a list.",
            error="Invalid JSON payload received. Invalid value at "
                  "'tools[0].function_declarations[0].parameters.maximum' (TYPE_DOUBLE)",
            fix="Remove the keyword (lossy: what it was meant to say is unknown).",
            before={"type": "object", "properties": {
                "n": {"type": "integer", "maximum": {"value": 5}}}},
            after={"type": "object", "properties": {"n": {"type": "integer"}}},
            sources=("google-genai types.Schema field types",
                     "tests/test_transform_properties.py"),
        ),
    ),
]
