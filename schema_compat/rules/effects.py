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


def vacuous(keyword: str, value: Any) -> bool:
    """Whether `value` under `keyword` constrains nothing (true, {}, an empty list, a zero
    lower bound on a count), so that removing it changes nothing accepted."""
    if value is True or value == {} or value == []:
        return True
    if keyword == "uniqueItems" and value is False:
        return True
    return keyword in _ZERO_MEANS_NOTHING and value == 0 and not isinstance(value, bool)


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
