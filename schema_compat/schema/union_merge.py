"""The branches of a union (`anyOf`, `oneOf`) written as one schema, for providers whose
dialect has no union (an `allOf`'s: `all_of_merge.py`).

Where `merge.py` combines two schemas that must both hold, exactly or not at all, a union
can rarely be written as one schema accepting the same values: object branches become one
object holding every property (the variants described), array branches one array whose
items may be any of theirs, scalar branches of one type one schema (enums united), and
scalar branches of different types the richest of them. Each merge says what it changed
(`Merge`: its safety class and, where it is not that class's usual one, its effect on what
is accepted and told); the union rules (`rules/unions.py`) detect the unions, call these
merges, and record the change; ROOT001 does
so at the parameters root (`union_as_one`).

Branches reach a merge already in the provider's dialect (the engine rewrites bottom-up),
so a merge only has to combine clean schemas.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ..model import Accepts, Safety, Told
from .hints import (
    NO_VALUE_HINT,
    summarize,
    told_of,
    value_text,
    values_text,
    with_hint,
    worded,
)
from .jsoncopy import json_copy
from .merge import disjoint, join_text
from .shape import distinct_types, is_null_schema, looks_object, single_type


class Merge(NamedTuple):
    """Branches written as one schema, and what writing them so changed: its safety
    class, and its effect where that is not the class's usual one (`model.effect_of`)."""

    node: Any
    safety: Safety
    description: str
    accepts: Accepts | None = None
    told: Told | None = None


def merge_union(node: dict[str, Any], key: str, rest: list[Any]) -> Merge | None:
    """The node's union `key`, whose branches but the null ones are `rest`, written as one
    schema with the node's other keywords (None where its objects are malformed: the
    malformed-keyword rules report them, and a merge would hide them)."""
    base = {k: v for k, v in node.items() if k != key}
    misfits = [b for b in rest if disjoint(base, b)]
    if misfits:
        return _without_misfits(node, key, rest, misfits)
    uniq = dedupe(rest)
    if len(uniq) < len(rest) and key == "oneOf" and _one_type_enums(rest, key, base):
        uniq = rest  # the enum merge counts each listing: a value listed twice is refused
    if len(uniq) < len(rest) and key == "oneOf":
        kept = _once_listed(base, rest, uniq, key)
        if kept is not None:
            return kept
    merged = _merge_branches(base, uniq, key)
    if merged is not None and key == "oneOf" and len(uniq) < len(rest):
        return _repeated_branches(merged, rest, uniq)
    return merged


def union_as_one(node: dict[str, Any], at_root: bool) -> tuple[str, Merge] | None:
    """The node's first union (`anyOf`, then `oneOf`) written as one schema, and its
    keyword: an empty one removed (it accepted no value), else its branches but the null
    ones merged (`merge_union`). None where the node holds no union with such a branch, or
    the merge declines."""
    for key in ("anyOf", "oneOf"):
        if node.get(key) == []:
            out = {k: v for k, v in node.items() if k != key}
            if "type" not in out and not at_root:
                # TYP002 types it next, and would tell the model it takes any JSON value
                # (the root becomes the arguments object instead)
                out = with_hint(out, NO_VALUE_HINT)
            return key, Merge(out, "lossy", f"removed an empty `{key}`, which accepted no value")
        branches = node.get(key)
        rest = [b for b in branches if not is_null_schema(b)] \
            if isinstance(branches, list) else None
        if not rest:
            continue
        merged = merge_union(node, key, rest)
        return None if merged is None else (key, merged)
    return None


def accepts_nothing(node: dict[str, Any], removed: str, why: str) -> Merge:
    """`node` for a composition (`removed`) that no value can meet, `why`: the server
    accepts no value here, which no provider's dialect can say, so the description does
    rather than steer the model to values the server refuses every time (wider: the node
    now accepts values; the model is told)."""
    return Merge(with_hint(node, NO_VALUE_HINT), "hinted",
                 f"removed `{removed}`: {why}, so the server accepts no value here and "
                 "refuses a call that gives one", accepts="wider", told="described")


def _without_misfits(node: dict[str, Any], key: str, rest: list[Any], misfits: list[Any],
                     ) -> Merge:
    """The union without the branches no value of the node's own `type` meets (the node
    means its keywords and a branch: such a branch accepts nothing here, so dropping it
    changes nothing accepted); where none is left, `accepts_nothing`."""
    base = {k: v for k, v in node.items() if k != key}
    said = "; ".join(summarize(b) for b in misfits)
    fits = [b for b in rest if not any(b is m for m in misfits)]
    if not fits:
        return accepts_nothing(base, key, f"none of its branches ({said}) meets the node's "
                                          "own `type`")
    # a dropped branch's description spoke of values the server refuses here
    told: Told | None = "lost" if told_of(misfits) else None
    merged = merge_union(node, key, fits)
    if merged is None:
        return Merge({**base, key: fits}, "lossless",
                     f"dropped {said} from `{key}`: no value of the node's own `type` meets "
                     "it", told=told)
    return merged._replace(description=f"dropped {said}: no value of the node's own `type` "
                           "meets it; " + merged.description, told=told or merged.told)


def _once_listed(base: dict[str, Any], rest: list[Any], uniq: list[Any], key: str
                 ) -> Merge | None:
    """A `oneOf` listing a branch twice refuses every value that branch accepts (it matches
    twice). Where no value can match two different branches (`distinct_types`, none
    `nullable`), what the union accepts is exactly what the branches listed once accept:
    their merge, with the repeated ones dropped. None where some branch is listed once by
    nobody (the union accepts nothing) or branches may overlap."""
    if not distinct_types(uniq) or any(
            isinstance(b, dict) and b.get("nullable") is True for b in uniq):
        return None
    texts = [_key(b) for b in rest]
    once = [b for b in uniq if texts.count(_key(b)) == 1]
    twice = [b for b in uniq if texts.count(_key(b)) > 1]
    if not once:
        return None
    merged = _merge_branches(base, once, key)
    if merged is None:
        return None
    said = "; ".join(worded(b) for b in twice)
    return merged._replace(description=f"dropped {said}: listed more than once in `{key}`, "
                           "it matched more than once and was refused; " + merged.description)


_RANK = {"object": 6, "array": 5, "string": 4, "number": 3, "integer": 2, "boolean": 1}


def _with_description(node: dict[str, Any], words: Any) -> dict[str, Any]:
    """`node` whose description also holds `words` (a description of what it replaces),
    its own first (`join_text`)."""
    if not isinstance(words, str) or not words.strip():
        return node
    own = node.get("description")
    return {**node, "description": join_text(own, words) if isinstance(own, str) else words}


def _key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def _plain(value: Any) -> tuple[str, Any] | None:
    """A string, boolean, integer or null as its JSON kind and value (equal as JSON exactly
    when these are equal); None for anything else."""
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int):
        return ("integer", value)
    if value is None:
        return ("null", None)
    return None


def _shape(item: dict[str, Any]) -> frozenset[tuple[str, Any]]:
    """What any two objects equal as JSON share: their keys, with the values that are
    strings, booleans, integers or null."""
    return frozenset((k, _plain(v)) for k, v in item.items())


def dedupe(items: list[Any]) -> list[Any]:
    """The items without repeats, as JSON sees them (`1` and `true` differ, key order does
    not). Objects of different shapes (`_shape`) never repeat each other: where every item is
    an object of its own shape (the usual union), none is written out as JSON to compare."""
    if all(isinstance(item, dict) for item in items) and \
            len({_shape(item) for item in items}) == len(items):
        return list(items)
    seen: set[str] = set()
    out = []
    for item in items:
        k = _key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def replaced_keywords(own: dict[str, Any], branch: dict[str, Any], union: str = "") -> list[str]:
    """The node's own keywords (but `union`) that replace the branch's when the one branch
    left of a union moves up into the node: where they say otherwise (not just of it), both
    applied, and one of them is gone."""
    return sorted(k for k in own if k in branch and k != union and branch[k] != own[k]
                  and k not in _VALUE_ANNOTATIONS and k != "nullable")


def _subsumed(branches: list[Any]) -> Any:
    """A branch that accepts every other one (number over bare integer), if any."""
    for cand in branches:
        if cand == {"type": "number"} and all(
            b is cand or b == {"type": "integer"} for b in branches
        ):
            return cand
    return None


def _merge_branches(base: dict[str, Any], uniq: list[Any], key: str) -> Merge | None:
    if len(uniq) == 1:
        branch = uniq[0] if isinstance(uniq[0], dict) else {}
        lost = replaced_keywords(base, branch)  # the node's own keywords win
        merged = _with_description({**json_copy(branch), **base}, branch.get("description"))
        if lost:
            return Merge(merged, "lossy", (
                f"replaced a one-branch `{key}` by its branch; the node's own "
                + ", ".join(f"`{k}`" for k in lost) + " replaced the branch's"))
        return Merge(merged, "lossless",
                                   f"replaced a one-branch `{key}` by its branch")
    if all(looks_object(b) for b in uniq):
        if not all(_well_formed_object(n) for n in (base, *uniq)):
            return None  # the malformed-keyword rules flag it; a merge would hide it
        return _merge_objects(base, uniq, key)
    if all(single_type(b) == "array" for b in uniq):
        out = {**base, "type": "array",
               "items": {"anyOf": [json_copy(b.get("items", {})) for b in uniq]}}
        if any(isinstance(b.get("description"), str) for b in uniq):
            out = with_hint(out, ("Exactly one of: " if key == "oneOf" else "Any of: ")
                            + "; ".join(worded(b) for b in uniq) + ".")
        return Merge(out, "hinted",
                                f"merged {len(uniq)} array branches of `{key}` into one "
                                "array whose items may be any of theirs")
    return _collapse(base, uniq, key)


def _repeated_branches(merged: Merge, rest: list[Any], uniq: list[Any]) -> Merge:
    """A `oneOf` listing a branch twice refuses every value that branch accepts (it matches
    twice); the merge of its distinct branches accepts them: lossy, and said."""
    texts = [_key(b) for b in rest]
    twice = [b for b in uniq if texts.count(_key(b)) > 1]
    said = "; ".join(worded(b) for b in twice)
    out = merged.node
    if isinstance(out, dict):
        out = with_hint(out, f"The server refuses {said}: listed more than once in its "
                             "`oneOf`, it matches more than once.")
    return merged._replace(node=out, safety="lossy", description=merged.description +
                           f"; {said}, listed more than once, matched more than once and "
                           "was refused")


def _well_formed_object(node: dict[str, Any]) -> bool:
    """`properties` an object and `required` a list of names, where present: what merging
    reads. `{"properties": true}` is junk that only the malformed-keyword rules may fix."""
    props, required = node.get("properties", {}), node.get("required", [])
    return isinstance(props, dict) and isinstance(required, list) \
        and all(isinstance(r, str) for r in required)


def _props(branch: Any) -> dict[str, Any]:
    """A branch's `properties`, or none where they are malformed (VAL005's to report)."""
    found = branch.get("properties") if isinstance(branch, dict) else None
    return found if isinstance(found, dict) else {}


def _objects_narrow(branches: list[Any]) -> bool:
    """Whether merging these object branches into one object refuses something one of them
    accepted: a branch open to other keys (no `additionalProperties: false`) accepted any
    value under a name another branch defines, and the merged object holds that name to the
    defining branches' schemas."""
    names = {n for b in branches for n in _props(b)}
    for b in branches:
        if not isinstance(b, dict) or b.get("additionalProperties", True) is False:
            continue
        own = _props(b)
        if any(n not in own for n in names):
            return True
    return False


def _merge_objects(base: dict[str, Any], branches: list[Any], key: str) -> Merge:
    """Discriminated unions become one object: every property, the tags as one enum.
    Wider than the union (required names only where all branches require them, each
    property any of its branches' schemas), and also narrower where `_objects_narrow`."""
    props: dict[str, list[Any]] = {}
    for b in branches:
        for name, sch in (b.get("properties") or {}).items():
            props.setdefault(name, []).append(sch)
    discriminators = [
        name for name, schemas in props.items()
        if len(schemas) == len(branches) and all(_tag(s) is not None for s in schemas)
    ]
    merged_props: dict[str, Any] = {}
    for name, schemas in props.items():
        uniq = dedupe(schemas)
        if name in discriminators:
            values = [_tag(s) for s in schemas]
            first = schemas[0] if isinstance(schemas[0], dict) else {}
            tag: dict[str, Any] = {k: v for k, v in first.items()
                                   if k not in ("const", "enum", "type")}
            tag["type"] = "string" if all(isinstance(v, str) for v in values) else \
                first.get("type", "string")
            tag["enum"] = list(dict.fromkeys(values))
            words = [(v, s["description"]) for v, s in zip(values, schemas, strict=True)
                     if isinstance(s, dict) and isinstance(s.get("description"), str)
                     and s["description"].strip()]
            if len({w.strip() for _, w in words}) > 1:  # each branch's word on its value
                tag["description"] = "Values: " + "; ".join(
                    f"{value_text(v, 40)} ({w.strip()})" for v, w in words) + "."
            elif words:
                tag["description"] = words[0][1]
            merged_props[name] = tag
        elif len(uniq) == 1:
            merged_props[name] = json_copy(uniq[0])
        else:
            merged_props[name] = {"anyOf": json_copy(uniq)}
    required_sets = [set(b.get("required") or []) for b in branches]
    common = set.intersection(*required_sets) if required_sets else set()
    out: dict[str, Any] = dict(base)
    out["type"] = "object"
    parent_props = dict(base.get("properties") or {})
    for name, sch in merged_props.items():
        if name not in parent_props:
            parent_props[name] = sch
        elif isinstance(parent_props[name], dict):
            # the parent's schema stands; what the branches said of the name is kept
            for said in props[name]:
                parent_props[name] = _with_description(
                    parent_props[name], said.get("description") if isinstance(said, dict)
                    else None)
    out["properties"] = parent_props
    ordered_req = [r for b in branches for r in (b.get("required") or []) if r in common]
    required = list(dict.fromkeys([*(base.get("required") or []), *ordered_req]))
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    out = with_hint(out, _variants_text(branches, discriminators))
    narrows = _objects_narrow(branches)
    return Merge(out, "lossy" if narrows else "hinted",
                            f"merged {len(branches)} object branches of `{key}` into one "
                            "object" + (f" (discriminator {discriminators[0]!r})"
                                        if discriminators else "")
                            + "; the variants are described in `description`"
                            + ("; a branch open to other keys now has the other branches' "
                               "properties held to their schemas" if narrows else ""),
                            accepts="changed" if narrows else "wider", told="described")


def _tag(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    if isinstance(enum, list) and len(enum) == 1:
        return enum[0]
    return None


def _variants_text(branches: list[Any], discriminators: list[str]) -> str:
    parts = []
    for b in branches:
        props = b.get("properties") or {}
        req = set(b.get("required") or [])
        label = ""
        if discriminators:
            d = discriminators[0]
            label = f"{d}={value_text(_tag(props.get(d)), 40)}"
        fields = [f"{n} (required)" if n in req else n for n in props
                  if not discriminators or n != discriminators[0]]
        title = b.get("title") if isinstance(b.get("title"), str) else ""
        head = label or title or "variant"
        own = b.get("description")
        if isinstance(own, str) and own.strip():
            head += f" ({own.strip()})"
        parts.append(f"{head}: {', '.join(fields) if fields else 'no other fields'}")
    return "Give exactly one of these forms: " + "; ".join(parts) + "."


def _same_type(base: dict[str, Any], branches: list[Any], key: str) -> Merge | None:
    """Branches of one scalar type merge: enums into one enum (`_merged_enums`); otherwise
    the keywords all branches share stay and the rest is described. Not where the node's
    own `type` is another one (what it accepts is then not the branches' type): the collapse
    takes it, lossy."""
    t = _one_type(branches)
    if t is None or ("type" in base and base["type"] != t):
        return None
    shared = {k: v for k, v in branches[0].items()
              if all(k in b and b[k] == v for b in branches[1:])}
    out: dict[str, Any] = {**json_copy(shared), **base, "type": t}
    merged = _one_type_enums(branches, key, base)
    if merged is not None:
        out["enum"] = merged.values
        if base.get("nullable") is True or (merged.null and "type" not in base):
            out["nullable"] = True  # (the node's own `type` refuses null)
        else:
            out.pop("nullable", None)
        said = f"merged the enums of `{key}`"
        if merged.refused:
            said += (f"; {values_text(merged.refused)} matched more than one branch" +
                     (", which the server refuses: left out" if merged.safety != "lossy" else
                      ", so the server refused every value, and the merged enum accepts "
                      "them"))
        if merged.notes:
            out = with_hint(out, merged.notes)
            said += "; each branch's " + ", ".join(f"`{k}`" for k in merged.described) + \
                " described"
        if merged.safety == "lossy":
            out = with_hint(out, f"The server refuses {values_text(merged.refused)}.")
        return Merge(out, merged.safety, said)
    if "type" not in base and any(b.get("nullable") is True for b in branches):
        out["nullable"] = True  # what one branch accepts stays accepted
    lead = "Exactly one of: " if key == "oneOf" else "Any of: "
    say = worded if "description" not in shared else summarize  # (a shared one stays)
    out = with_hint(out, lead + "; ".join(say(b) for b in branches) + ".")
    differing = sorted({k for b in branches for k in b if k not in shared})
    said = f"merged {len(branches)} {t} branches of `{key}`; their differing " \
        f"{', '.join(f'`{k}`' for k in differing)} described"
    if key == "anyOf" and all(k in _VALUE_ANNOTATIONS for k in differing):
        return Merge(out, "lossless", said, accepts="equal", told="described")
    return Merge(out, "hinted", said)


class _Enums(NamedTuple):
    """Enum branches of one type merged into one enum."""

    values: list[Any]  # the values the merged enum keeps (null aside)
    null: bool  # whether the merge accepts null (a branch's `nullable`)
    refused: list[Any]  # values of a `oneOf` in more than one branch: the server refuses them
    notes: str  # what the branches said beyond their values ("" when nothing differs)
    described: list[str]  # the keywords `notes` describes
    safety: Safety


# Keywords that say something about a value without deciding whether it is accepted
_VALUE_ANNOTATIONS = frozenset({"title", "description", "examples", "default", "deprecated",
                                "readOnly", "writeOnly", "$comment"})


def _value_key(value: Any) -> Any:
    """Equal for values JSON Schema holds equal (`1` and `1.0`; `true` and `1` differ): a
    string is its own key, a boolean, integer or null a tuple, anything else its JSON text
    in a tuple (never equal to a string's key)."""
    if type(value) is str:
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return _plain(value) or ("json", _key(value))


_NULL = _value_key(None)


def _one_type(branches: list[Any]) -> str | None:
    """The one plain type all branches have, if they do."""
    types = {single_type(b) for b in branches}
    if len(types) != 1 or not all(isinstance(b, dict) for b in branches):
        return None
    return types.pop()


def _one_type_enums(branches: list[Any], key: str, base: dict[str, Any],
                    ) -> _Enums | None:
    """`_merged_enums` where `_same_type` merges the branches that way: they are of one type,
    and the node holding them has no `enum` of its own, nor another `type`."""
    t = _one_type(branches)
    if t is None or "enum" in base or ("type" in base and base["type"] != t):
        return None
    return _merged_enums(branches, key)


def _merged_enums(branches: list[Any], key: str) -> _Enums | None:
    """One enum for branches of one type that are each an enum and differ in nothing else
    but annotations and `nullable` (None otherwise: another keyword may refuse some of a
    branch's values, so their union would not be what the branches accept). What a branch
    accepts is its enum's values, and null where it is `nullable`. A `oneOf` refuses a value
    that more than one branch accepts, so the merge leaves it out (lossless: the same values
    are accepted), unless that leaves no value but null (lossy, and said). What the branches
    say differently beyond their values (a title and a description per value, as Zod and
    Pydantic emit for documented literals) is what tells the model which value means what:
    it goes into the description (hinted)."""
    if not all(isinstance(b.get("enum"), list) for b in branches):
        return None
    described = sorted({k for b in branches for k in b
                        if k not in ("enum", "type", "nullable") and not all(
                            k in o and o[k] == b[k] for o in branches)})
    if not all(k in _VALUE_ANNOTATIONS or k.startswith("x-") for k in described):
        return None
    counts: dict[Any, list[Any]] = {}  # value key -> [value, how many branches accept it]
    for b in branches:
        accepted = {_value_key(v): v for v in b["enum"] if v is not None}
        if b.get("nullable") is True:
            accepted[_NULL] = None
        for text, value in accepted.items():
            counts.setdefault(text, [value, 0])[1] += 1
    once = key != "oneOf"
    values = [v for text, (v, n) in counts.items() if text != _NULL and (once or n == 1)]
    null = _NULL in counts and (once or counts[_NULL][1] == 1)
    refused = [v for v, n in counts.values() if not once and n > 1]
    safety: Safety = "lossless"
    if not values:  # every value refused: the original accepted nothing (or only null)
        values, safety = [v for text, (v, _) in counts.items() if text != _NULL], "lossy"
        if not values:
            return None
    notes = ""
    if described:
        kept = {_value_key(v) for v in values}
        parts = []
        for b in branches:
            own = [v for v in b["enum"] if v is not None and _value_key(v) in kept]
            if not own:
                continue  # every value of it refused: nothing to say of them
            head = values_text(own, 60)
            said: list[str] = []
            for k in described:
                v = b.get(k)
                if k == "title" and isinstance(v, str):
                    head += f" ({v})"
                elif k == "description" and isinstance(v, str):
                    said.insert(0, v.strip().rstrip("."))
                elif k in b:
                    said.append(f"{k} {value_text(v, 40)}")
            parts.append(head + (": " + ", ".join(said) if said else ""))
        notes = "Values: " + "; ".join(parts) + "." if parts else ""
        if notes and safety == "lossless":
            safety = "hinted"
    return _Enums(values, null, refused, notes, described if notes else [], safety)


def _collapse(base: dict[str, Any], branches: list[Any], key: str) -> Merge:
    same = _same_type(base, branches, key)
    if same is not None:
        return same
    keep = _subsumed(branches)
    safety: Safety = "lossless" if keep is not None and key != "oneOf" else "lossy"
    overlapping = keep is not None and key == "oneOf"
    if keep is None:
        keep = max(branches, key=lambda b: _RANK.get(single_type(b) or "", 0))
    others = [b for b in branches if b is not keep]
    out = json_copy(keep) if isinstance(keep, dict) else {}
    out.update(base)
    if isinstance(keep, dict):
        out = _with_description(out, keep.get("description"))
    if overlapping:
        out = with_hint(out, "The server refuses a value that is also " +
                        "; ".join(worded(o) for o in others) + ".")
    elif safety == "lossy":
        out = with_hint(out, "The server also accepts " +
                        "; ".join(worded(o) for o in others) + ".")
    # One branch kept: the others' values refused (narrower), said in the description; the
    # wider of `oneOf [number, integer]` also takes the integers it refused (wider).
    accepts: Accepts = "wider" if overlapping else "equal" if safety == "lossless" else \
        "narrower"
    if accepts == "narrower" and key == "oneOf" and not distinct_types(branches):
        accepts = "changed"  # a value two branches took was refused, and the kept one takes it
    if isinstance(keep, dict) and replaced_keywords(base, keep):
        accepts = "changed"  # the node's own keywords replace the branch's (both applied)
    return Merge(out, safety,
                            f"collapsed `{key}` to its {summarize(keep)} branch"
                            + ("" if safety == "lossless" else
                               f"; {', '.join(summarize(o) for o in others)} no longer "
                               "offered to the model"),
                            accepts=accepts,
                            told="kept" if safety == "lossless" else "described")
