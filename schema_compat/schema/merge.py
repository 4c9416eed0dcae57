"""Two schemas that must both hold, as one schema accepting exactly the same arguments.

A `$ref` with sibling keywords and an `allOf` both mean "this and that": an argument must
meet every part. Writing the parts as one object is exact only where each keyword can be
combined without changing what is accepted: properties united (a name in both parts must
meet both schemas), `required` united, bounds tightened, enums and types intersected. A
closed part (`additionalProperties: false` or a schema) also rules on the names the other
part adds, so those names are dropped (false) or must meet its schema too; anything this
module cannot combine exactly is refused (None), and the caller keeps the parts apart or
reports what the merge changes. A composition (`anyOf`, `$ref`, `not`, ...) in one part only
stays as it is: beside the other part's keywords it still must hold.

Descriptions are joined, never one dropped: the use site's text first, then the target's.

`nullable: true` is read as the OpenAPI dialect reads it (Gemini's, and what the type-list
and null-union rules write): it adds null to what its part accepts. Like a type, it is
intersected: the merge takes null only where both parts do. A caller whose node says
`nullable: true` without a `type` beside a `$ref` or `allOf` ("this, or null", as a null
union becomes) keeps that outside the merge (`or_null`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .jsoncopy import json_copy
from .patterns import PatternUnchecked, search
from .shape import is_number

_MIN_KEYS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems",
                       "minProperties"})
_MAX_KEYS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems",
                       "maxProperties"})
# annotations: the first part's value stands (descriptions are joined instead)
_ANNOTATIONS = frozenset({"title", "default", "examples", "$comment", "deprecated",
                          "readOnly", "writeOnly", "$schema", "$id", "$anchor"})


class Merged(NamedTuple):
    node: dict[str, Any]
    # names a closed part forbids, dropped from the other part's properties (they could
    # never be sent): said in the change log at their path
    dropped: tuple[str, ...]
    # union branches no value meets beside the other parts, gone from the result
    # (`all_of_merge.all_of_exact`): what they said is said of nothing the server accepts
    unmet: tuple[Any, ...] = ()


def merge_exact(first: Any, second: Any) -> Merged | None:
    """`first` and `second` as one schema accepting what both accept, or None when this
    cannot be written exactly without `allOf`. `first` is the use site (its annotations
    win, its description comes first)."""
    if not isinstance(first, dict) or not isinstance(second, dict):
        return None
    out: dict[str, Any] = {k: json_copy(v) for k, v in first.items()}
    dropped: list[str] = []
    for k, v in second.items():
        if k in ("type", "nullable"):
            continue  # combined below, together: `nullable` widens the part's type
        if k not in out:
            if k in ("properties", "additionalProperties", "patternProperties"):
                continue  # object keywords are combined below, together
            out[k] = json_copy(v)
        elif out[k] == v:
            continue
        elif k == "description" and isinstance(v, str) and isinstance(out[k], str):
            out[k] = join_text(out[k], v)
        elif k in _ANNOTATIONS:
            continue
        elif k == "required" and _names(v) and _names(out[k]):
            out[k] = list(dict.fromkeys([*out[k], *v]))
        elif (bound := tighter(k, out[k], v)) is not None:
            out[k] = bound
        elif k == "enum" and isinstance(v, list) and isinstance(out[k], list):
            out[k] = [x for x in out[k] if any(_same(x, y) for y in v)]
        elif k in ("properties", "additionalProperties", "patternProperties"):
            continue
        else:
            return None
    if not _types(first, second, out) or not _objects(first, second, out, dropped):
        return None
    return Merged(out, tuple(dropped))


def _types(first: dict[str, Any], second: dict[str, Any], out: dict[str, Any]) -> bool:
    """`type` and `nullable` of both parts into `out`: the types both allow, null among them
    only where both parts accept it; False when that cannot be written exactly."""
    if first.get("nullable") is not True and second.get("nullable") is not True:
        # JSON Schema's types alone (a `nullable: false` is the default, kept as it is)
        if "nullable" in first and "nullable" in second \
                and first["nullable"] != second["nullable"]:
            return False
        if "nullable" in second and "nullable" not in first:
            out["nullable"] = json_copy(second["nullable"])
        if "type" in second and "type" not in first:
            out["type"] = json_copy(second["type"])
        elif "type" in second and first["type"] != second["type"]:
            both = merge_types(first["type"], second["type"])
            if both is None:
                return False
            out["type"] = both
        return True
    a, b = accepted_types(first), accepted_types(second)
    if ("type" in first and a is None) or ("type" in second and b is None):
        return False  # a malformed type (TYP003's) beside `nullable`: not combined here
    types: list[str] | None
    if a is not None and b is not None:
        both = merge_types(a, b)
        if both is None:
            return False
        types = [both] if isinstance(both, str) else both
    else:
        types = a if a is not None else b
    said = (_null_ok(first), _null_ok(second))
    null = (types is None or "null" in types) and False not in said
    if null and None in said:
        return False  # `nullable` would accept null where a part may refuse it
    out.pop("nullable", None)
    out.pop("type", None)
    rest = [t for t in types or () if t != "null"]
    if types is not None and not rest:
        enum = out.get("enum")
        if not null or (isinstance(enum, list) and None not in enum) \
                or out.get("const") is not None:
            return False  # no value (an enum's null came of `nullable`): not this one's to write
        out["type"] = "null"
        return True
    if rest:
        out["type"] = rest[0] if len(rest) == 1 else rest
    if null:
        out["nullable"] = True
    return True


def accepted_types(node: dict[str, Any]) -> list[str] | None:
    """The types a node's `type` allows, null added where it says `nullable: true`; None
    where it has no `type`, or one that is not type names."""
    t = node.get("type")
    types = [t] if isinstance(t, str) else t if isinstance(t, list) and all(
        isinstance(x, str) for x in t) else None
    if types is None:
        return None
    if node.get("nullable") is True:
        types = [*types, "null"]
    return list(dict.fromkeys(types))


def disjoint(a: Any, b: Any) -> bool:
    """Whether no value meets both schemas, by their types alone (`nullable: true` adding
    null to a type): a union's branch that no value of its node's own `type` meets accepts
    nothing there, and can go without changing what is accepted."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return False
    ta, tb = accepted_types(a), accepted_types(b)
    return ta is not None and tb is not None and merge_types(ta, tb) is None


def _null_ok(part: Any) -> bool | None:
    """Whether a schema accepts null, None where this cannot tell (a reference, `not`,
    a condition). `nullable: true` accepts it whatever the rest says, as OpenAPI reads it
    beside an enum or a composition."""
    if isinstance(part, bool):
        return part
    if not isinstance(part, dict):
        return None
    if part.get("nullable") is True:
        return True
    types = accepted_types(part)
    if "type" in part and types is None:
        return None  # a malformed type (TYP003's)
    enum = part.get("enum")
    if (types is not None and "null" not in types) \
            or (isinstance(enum, list) and None not in enum) \
            or ("const" in part and part["const"] is not None):
        return False
    said: list[bool | None] = []
    for key in ("anyOf", "oneOf", "allOf"):
        branches = part.get(key)
        if branches is None:
            continue
        if not isinstance(branches, list):
            return None
        each = [_null_ok(b) for b in branches]
        if None in each:
            said.append(None)
        elif key == "anyOf":
            said.append(True in each)
        elif key == "oneOf":
            said.append(each.count(True) == 1)
        else:
            said.append(False not in each)
    if any(k in part for k in ("$ref", "$dynamicRef", "not", "if")):
        said.append(None)
    return False if False in said else None if None in said else True


def or_null(node: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The node without a `nullable: true` that says "or null" of it as a whole (it has no
    `type` for it to widen: beside a `$ref` or `allOf`, as a null union becomes), and
    whether it had one. The merge of its parts then takes null back (`nullable`)."""
    if "type" in node or node.get("nullable") is not True:
        return node, False
    return {k: v for k, v in node.items() if k != "nullable"}, True


def _objects(first: dict[str, Any], second: dict[str, Any], out: dict[str, Any],
             dropped: list[str]) -> bool:
    """Combine the object keywords of both parts into `out`; False when not exactly."""
    keys = ("properties", "additionalProperties", "patternProperties")
    if not any(k in first or k in second for k in keys):
        return True
    if ("patternProperties" in first or "patternProperties" in second) \
            and any(k in second for k in keys) and any(k in first for k in keys) \
            and first.get("patternProperties") != second.get("patternProperties"):
        return False
    a_props, b_props = first.get("properties", {}), second.get("properties", {})
    if not isinstance(a_props, dict) or not isinstance(b_props, dict):
        return False
    a_extra, b_extra = first.get("additionalProperties", True), \
        second.get("additionalProperties", True)
    props: dict[str, Any] = {}
    for name in dict.fromkeys([*a_props, *b_props]):
        parts = []
        for own, extra, part in ((a_props, a_extra, first), (b_props, b_extra, second)):
            if name in own:
                parts.append(own[name])
            elif extra is not True and extra != {}:
                if not _patterns_miss(part, name):
                    return False
                parts.append(extra)
        if any(p is False for p in parts):
            dropped.append(name)
            continue
        merged: Any = json_copy(parts[0])
        for p in parts[1:]:
            if p == merged or p is True or p == {}:
                continue
            if merged is True or merged == {}:
                merged = json_copy(p)
                continue
            both = merge_exact(merged, p)
            merged = both.node if both is not None and not both.dropped else \
                {"allOf": [merged, json_copy(p)]}
        props[name] = merged
    for name in dropped:
        if name in _required(out):
            return False  # an object that cannot be: not this module's to write
    if props or "properties" in first or "properties" in second:
        out["properties"] = props
    if a_extra is True or a_extra == {}:
        extra = b_extra
    elif b_extra is True or b_extra == {} or a_extra == b_extra:
        extra = a_extra
    elif a_extra is False or b_extra is False:
        extra = False
    else:
        return False
    if extra is True or extra == {}:
        out.pop("additionalProperties", None)
    else:
        out["additionalProperties"] = json_copy(extra)
    pattern = first.get("patternProperties", second.get("patternProperties"))
    if pattern is not None:
        out["patternProperties"] = json_copy(pattern)
    return True


def _patterns_miss(part: dict[str, Any], name: str) -> bool:
    """Whether no `patternProperties` pattern of `part` matches `name` (False when unsure)."""
    patterns = part.get("patternProperties")
    if not patterns:
        return True
    if not isinstance(patterns, dict):
        return False
    for pattern in patterns:
        try:
            if search(pattern, name):
                return False
        except PatternUnchecked:  # a name the server chose: never run where RE2 cannot
            return False
    return True


def _required(node: dict[str, Any]) -> list[Any]:
    req = node.get("required")
    return req if isinstance(req, list) else []


def _names(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(r, str) for r in v)


def tighter(key: str, a: Any, b: Any) -> Any:
    """The tighter of two values of a bound keyword (the larger minimum, the smaller
    maximum); None where `key` is no bound or a value is no number."""
    if not (is_number(a) and is_number(b)):
        return None
    return max(a, b) if key in _MIN_KEYS else min(a, b) if key in _MAX_KEYS else None


def _same(x: Any, y: Any) -> bool:
    return bool(x == y and type(x) is type(y)) or (is_number(x) and is_number(y) and x == y)


def merge_types(a: Any, b: Any) -> str | list[str] | None:
    """The types both `a` and `b` allow (a string or a list each; `integer` is within
    `number`), or None when they share none or are not type names."""
    first = [a] if isinstance(a, str) else a
    second = [b] if isinstance(b, str) else b
    if not (isinstance(first, list) and isinstance(second, list)
            and all(isinstance(t, str) for t in [*first, *second])):
        return None
    both: list[str] = []
    for t in first:
        if t in second or (t == "integer" and "number" in second):
            both.append(t)
        elif t == "number" and "integer" in second:
            both.append("integer")
    both = list(dict.fromkeys(both))
    if not both:
        return None
    return both[0] if len(both) == 1 else both


def join_text(first: str, second: str) -> str:
    """Two descriptions as one: both kept, the second left out only when the first holds it."""
    a, b = first.strip(), second.strip()
    if not b or b in a:
        return first
    if not a or a in b:
        return second
    return f"{a.rstrip()}\n\n{b}"
