"""An `allOf`'s branches written as one schema, for providers whose dialect has no `allOf`.

Exactly where `merge.py` can (`all_of_exact`: unions several branches hold crossed into one
first, so no branch is chosen before the others are seen); else the server accepts no value
(two branches no value meets together), or the branches are combined with the first value
of a conflicting keyword kept. UNI004's fix and ROOT001's (at the parameters root) record
what `all_of_as_one` says it changed. UNI007's moves an `anyOf`'s siblings into each of its
branches, each then the `allOf` of the two (`siblings_into_branches`).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from ..model import Told
from .hints import summarize, told_of, value_text, with_hint
from .jsoncopy import json_copy
from .merge import Merged, disjoint, join_text, merge_exact, merge_types, or_null, tighter
from .union_merge import Merge, accepts_nothing


def all_of_as_one(node: dict[str, Any]) -> Merge:
    """The node and its `allOf` branches as one schema, and what that changed."""
    exact = all_of_exact(node)
    if exact is not None:
        said = f"merged {len(node['allOf'])} `allOf` branches into one schema"
        if exact.dropped:
            said += ("; dropped " + ", ".join(f"`{n}`" for n in exact.dropped)
                     + ": a closed branch admits no such property")
        if exact.unmet:
            said += ("; left out the union branches " + "; ".join(
                summarize(b) for b in exact.unmet) + ": no value meets them beside the "
                "other branches")
        # what those branches said was said of values the server refuses: gone, and said so
        told: Told = "lost" if told_of(list(exact.unmet)) else "kept"
        return Merge(exact.node, "lossy" if told == "lost" else "lossless", said,
                     accepts="equal", told=told)
    own = {k: v for k, v in node.items() if k != "allOf"}
    clash = next(((a, b) for a, b in itertools.combinations([own, *node["allOf"]], 2)
                  if disjoint(a, b)), None)
    if clash is not None:  # whichever type were written, the server refuses every value
        return accepts_nothing(own, "allOf", f"no value is both {summarize(clash[0])} and "
                               f"{summarize(clash[1])}")
    out, conflicts = merge_all_of(node)
    if not conflicts:
        conflicts = ["a branch closed to other keys (`additionalProperties`) beside "
                     "properties it does not list"]
    return Merge(out, "lossy", "merged `allOf` branches; conflicting keywords kept the first "
                 "value: " + "; ".join(conflicts), accepts="changed", told="kept")


# Where crossing the unions of an `allOf`'s branches would make more branches than this, it
# is not merged exactly (the lossy merge reports what it changed).
_MAX_CROSSED = 64


def all_of_exact(node: dict[str, Any]) -> Merged | None:
    """The node and its `allOf` branches as one schema accepting exactly what they all do
    (`schema.merge`), or None when the branches cannot be combined so. The node's own
    `nullable: true` without a `type` says "or null" of it all (`merge.or_null`). Unions
    that several of them hold are crossed into one first (`_cross_unions`)."""
    own, null = or_null({k: v for k, v in node.items() if k != "allOf"})
    crossed = _cross_unions([own, *(m for m in node["allOf"] if m is not True and m != {})])
    if crossed is None:
        return None
    parts, unmet = crossed
    merged: Any = parts[0]
    dropped: list[str] = []
    for member in parts[1:]:
        both = merge_exact(merged, member)
        if both is None:
            return None
        merged = both.node
        dropped.extend(both.dropped)
    if null:
        merged = {**merged, "nullable": True}
    return Merged(merged, tuple(dropped), tuple(unmet))


def _cross_unions(parts: list[Any]) -> tuple[list[Any], list[Any]] | None:
    """`parts` (all of which must hold) where more than one holds an `anyOf` (or a
    `oneOf`): those unions crossed into one, a branch per way of taking one branch of each
    (`_taken`), held by a part of its own, so that merging the parts writes the union once
    and no branch is chosen before the others are seen; and the branches taken in no way
    that some value meets. None where crossing would make more than `_MAX_CROSSED`
    branches."""
    unmet: list[Any] = []
    for key in ("anyOf", "oneOf"):
        holders = [i for i, p in enumerate(parts)
                   if isinstance(p, dict) and isinstance(p.get(key), list)]
        if len(holders) < 2:
            continue
        unions = [parts[i][key] for i in holders]
        if math.prod(len(u) for u in unions) > _MAX_CROSSED:
            return None
        crossed: list[Any] = []
        met: set[tuple[int, int]] = set()  # (union, branch) taken in a way some value meets
        for ways in itertools.product(*(range(len(u)) for u in unions)):
            taken = _taken(tuple(u[w] for u, w in zip(unions, ways, strict=True)))
            if taken is not None:
                crossed.append(taken)
                met.update(enumerate(ways))
        unmet += [b for n, u in enumerate(unions) for w, b in enumerate(u) if (n, w) not in met]
        parts = [{k: v for k, v in p.items() if k != key} if i in holders else p
                 for i, p in enumerate(parts)] + [{key: crossed}]
    return parts, unmet


def _taken(branches: tuple[Any, ...]) -> Any:
    """One branch taken of each union, as one schema: what they all accept (`merge_exact`,
    or an `allOf` of them where that cannot be written, for the next pass to merge), or None
    where no value meets them all. An `allOf` of `anyOf`s is the `anyOf` of these, one per
    way of taking a branch of each; an `allOf` of `oneOf`s the `oneOf` of them (a value
    meets exactly one of each exactly when it meets exactly one way)."""
    if any(b is False for b in branches):
        return None
    rest = [b for b in branches if b is not True and b != {}]
    if any(disjoint(a, b) for a, b in itertools.combinations(rest, 2)):
        return None
    if not rest:
        return {}
    merged: Any = json_copy(rest[0])
    for b in rest[1:]:
        both = merge_exact(merged, b)
        if both is None or both.dropped:
            return {"allOf": [json_copy(x) for x in rest]}
        merged = both.node
    return merged


def merge_all_of(node: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    out = {k: v for k, v in node.items() if k != "allOf"}
    conflicts: list[str] = []
    for member in node["allOf"]:
        if member is True or member == {}:
            continue
        if not isinstance(member, dict):
            conflicts.append("a branch that accepts nothing")
            continue
        for k, v in member.items():
            if k not in out:
                out[k] = json_copy(v)
            elif out[k] == v:
                continue
            elif k == "properties" and isinstance(v, dict) and isinstance(out[k], dict):
                props = dict(out[k])
                for name, sch in v.items():
                    props[name] = ({"allOf": [props[name], json_copy(sch)]}
                                   if name in props and props[name] != sch else
                                   json_copy(sch))
                out[k] = props
            elif k == "required" and isinstance(v, list) and isinstance(out[k], list):
                names = [*out[k], *v]  # entries that are no names (VAL005's) kept as they are
                out[k] = list(dict.fromkeys(names)) \
                    if all(isinstance(r, str) for r in names) else names
            elif (bound := tighter(k, out[k], v)) is not None:
                out[k] = bound
            elif k == "enum" and isinstance(v, list) and isinstance(out[k], list):
                out[k] = [x for x in out[k] if x in v]
            elif k == "description" and isinstance(v, str) and isinstance(out[k], str):
                out[k] = join_text(out[k], v)  # every branch's word kept, the node's first
            elif k in ("description", "title", "default", "examples", "$comment"):
                continue  # the node's own annotation wins
            elif k == "type" and (both := merge_types(out[k], v)) is not None:
                out[k] = both
            else:
                conflicts.append(f"{k}: {value_text(out[k], 30)} vs {value_text(v, 30)}")
    return out, conflicts


# --- an `anyOf`'s siblings moved into its branches (UNI007) ------------------------------

_ANNOTATIONS = ("description", "title")


def siblings_miss(node: dict[str, Any]) -> list[Any]:
    """The branches no value of the node's own type meets: they accept nothing here, and go
    (exact) rather than take the node's type and accept what the server refuses."""
    siblings = {k: v for k, v in node.items() if k != "anyOf" and k not in _ANNOTATIONS}
    return [b for b in node["anyOf"] if disjoint(siblings, b)]


_OBJECT_KEYS = ("properties", "additionalProperties", "patternProperties")


def siblings_into_branches(node: dict[str, Any]
                           ) -> tuple[list[Any], list[str], list[str]]:
    """The node's `anyOf` branches, each with the node's other keywords (its siblings)
    merged in as the `allOf` of the two (`merge_all_of`), those no value of the node's type
    meets left out (`siblings_miss`); the conflicts; and what a closed node
    (`additionalProperties`) changed: the names it refuses are left out of a branch's
    `properties` (its `additionalProperties` never sees them there), and a branch that
    requires one of them accepts no object, so it is left out while another remains."""
    siblings = {k: v for k, v in node.items() if k != "anyOf" and k not in _ANNOTATIONS}
    closed = siblings.get("additionalProperties", True) not in (True, {})
    branches: list[tuple[Any, bool]] = []
    conflicts: list[str] = []
    misses = siblings_miss(node)
    refused: list[str] = []
    for branch in node["anyOf"]:
        if any(branch is m for m in misses):
            continue
        if not isinstance(branch, dict):
            branches.append((branch, False))
            continue
        # each branch its own copy of the siblings: one object at two places of the result
        # would be rewritten at both by the next pass, with the change recorded at one
        merged, clash = merge_all_of({**json_copy(siblings), "allOf": [branch]})
        empty = False
        if closed:
            objects = merge_exact({k: siblings[k] for k in _OBJECT_KEYS if k in siblings},
                                  {k: branch[k] for k in _OBJECT_KEYS if k in branch})
            if objects is None:
                clash = [*clash, "the node's closed object beside the branch's properties"]
            else:
                merged = {**{k: objects.node[k] if k in _OBJECT_KEYS else v
                             for k, v in merged.items()
                             if k not in _OBJECT_KEYS or k in objects.node}, **objects.node}
                refused += [n for n in objects.dropped if n not in refused]
                required = merged.get("required")
                empty = merged.get("type") == "object" and isinstance(required, list) \
                    and any(n in required for n in objects.dropped)
        for k in _ANNOTATIONS:  # the branch's own annotation first, then the node's
            own, outer = branch.get(k), node.get(k)
            if isinstance(outer, str) and outer:
                merged = (with_hint({**merged, k: own}, outer) if k == "description" and
                          isinstance(own, str) else {**merged, k: own if own else outer})
        conflicts += clash
        branches.append((merged, empty))
    kept = [b for b, empty in branches if not empty] or [b for b, _ in branches]
    return kept, conflicts, refused
