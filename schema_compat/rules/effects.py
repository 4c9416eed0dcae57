"""The effect of removing a keyword, for the fixes that remove keywords (`dropping`, ANN004).

JSON Schema's keywords hold together (an argument must meet each), so removing one that
constrains the arguments accepts more (wider) unless its value constrains nothing; removing
an annotation leaves the arguments accepted as they were (equal). What the model is told is
described when the keyword's meaning went into the description, lost when it did not (and
the keyword said something).
"""

from __future__ import annotations

from typing import Any

from ..model import Accepts, Safety, Told, safety_of

# The 2020-12 keywords that decide whether an argument is accepted (with the draft-04..07
# spellings the corpus still uses).
VALIDATION = frozenset({
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "properties", "patternProperties", "additionalProperties", "items",
    "prefixItems", "contains", "propertyNames", "dependentSchemas", "unevaluatedItems",
    "unevaluatedProperties", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref",
    "dependencies", "additionalItems", "$dynamicRef", "$recursiveRef",
})
_ZERO_MEANS_NOTHING = frozenset({"minLength", "minItems", "minProperties", "minContains"})
# Keywords holding one subschema that applies to (part of) the instance: `true` or `{}`
# there accepts anything, so constrains nothing; `false` refuses. (`not` is the reverse;
# `contains: true` still asks for one item, and `if` only picks `then` or `else`.)
_SUBSCHEMA = frozenset({"additionalProperties", "items", "additionalItems", "propertyNames",
                        "unevaluatedItems", "unevaluatedProperties", "then", "else"})
# Keywords holding a list that constrains nothing when empty or all of `true`/`{}`.
_ALL_OF_LIST = frozenset({"allOf", "prefixItems", "items", "additionalItems"})
# Keywords holding a map that constrains nothing when empty (or of `true`/`{}` schemas).
_SCHEMA_MAP = frozenset({"properties", "patternProperties", "dependentSchemas"})
# Keywords holding a flag whose `false` (draft 4's exclusive bounds: the default) says
# nothing and whose `true` constrains.
_FLAG = frozenset({"uniqueItems", "exclusiveMaximum", "exclusiveMinimum"})


def _any_schema(value: Any) -> bool:
    return value is True or value == {}


def vacuous(keyword: str, value: Any) -> bool:
    """Whether `value` under `keyword` constrains nothing, so that removing it changes
    nothing accepted: a subschema of `true` or `{}`, an empty list of names or map of
    subschemas, an `allOf` of nothing, `uniqueItems: false`, a zero lower bound on a count.
    What `true` means depends on the keyword: `uniqueItems: true`, `const: true`,
    `not: true` and `contains: true` each refuse something, and `false` as a subschema
    (`additionalProperties: false`) refuses what it covers."""
    if keyword in _FLAG:
        return value is False
    if keyword in _SUBSCHEMA and _any_schema(value):
        return True
    if keyword in _ALL_OF_LIST and isinstance(value, list):
        return all(_any_schema(v) for v in value)
    if keyword in _SCHEMA_MAP and isinstance(value, dict):
        return all(_any_schema(v) for v in value.values())
    if keyword in ("required", "dependentRequired", "dependencies"):
        return bool(value == [] or value == {})
    return keyword in _ZERO_MEANS_NOTHING and value == 0 and not isinstance(value, bool)


# The plain values `vacuous_values` tries, and the keywords where one of them is malformed
# (`vacuous` takes either empty form there).
_PLAIN_VALUES: tuple[Any, ...] = (False, True, {}, [], 0)
_KIND: dict[str, type] = {"required": list, "dependentRequired": dict, "dependencies": dict}


def vacuous_values(keyword: str) -> list[Any]:
    """The plain values (`false`, `true`, `{}`, `[]`, `0`) under which `keyword` constrains
    nothing (`vacuous`), for a rule's docs: removing them is lossless. `uniqueItems: false`
    but not `true`; none for `multipleOf`, which constrains whatever its value."""
    kind = _KIND.get(keyword)
    return [v for v in _PLAIN_VALUES
            if vacuous(keyword, v) and (kind is None or isinstance(v, kind))]


# Keywords that exempt something from another keyword of the node: removing them puts it
# under that keyword (names under `additionalProperties`, positions under `items`).
EXEMPTING = {"properties": ("additionalProperties", "unevaluatedProperties"),
              "patternProperties": ("additionalProperties", "unevaluatedProperties"),
              "prefixItems": ("items", "unevaluatedItems"),
              "items": ("additionalItems", "unevaluatedItems")}


def drop_effect(keyword: str, value: Any, described: bool, node: Any = None,
                ) -> tuple[Accepts, Told]:
    """The effect of removing `keyword: value` from the schema node `node`, its meaning put
    into the description (`described`) or not."""
    if keyword not in VALIDATION or vacuous(keyword, value):
        return "equal", "described" if described else "kept"
    told: Told = "described" if described else "lost"
    if isinstance(node, dict) and any(
            k in node and not vacuous(k, node[k]) for k in EXEMPTING.get(keyword, ())):
        return "changed", told
    return "wider", told


def drop_safety(keyword: str, value: Any, described: bool, node: Any = None,
                ) -> tuple[Safety, Accepts, Told]:
    accepts, told = drop_effect(keyword, value, described, node)
    return safety_of(accepts, told), accepts, told
