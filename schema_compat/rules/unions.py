"""Unions and composition: `anyOf`/`oneOf` (with and without null), `allOf`, `not`, `if`.

Branches reach these rules already in the provider's dialect (the walker rewrites
bottom-up), so merging only has to combine clean schemas.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..model import Accepts, Safety
from ..schema.jsoncopy import json_copy
from ..schema.merge import Merged, join_text, merge_exact, merge_types
from ..schema.refs import local_target
from .base import Edit, Fixed, Hit, NodeContext, Rule, RuleDocs
from .hints import summarize, value_text, values_text, with_hint
from .shape import is_null_schema, looks_object, single_type

UNION_KEYS = ("anyOf", "oneOf")
_RANK = {"object": 6, "array": 5, "string": 4, "number": 3, "integer": 2, "boolean": 1}
_MIN_KEYS = ("minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum")
_MAX_KEYS = ("maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum")


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


def _dedupe(items: list[Any]) -> list[Any]:
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


# --- UNI001: a union with null --------------------------------------------------------

def detect_nullable_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if not isinstance(node, dict):
        return ()
    hits = []
    for key in UNION_KEYS:
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        rest = [b for b in branches if not is_null_schema(b)]
        if len(rest) < len(branches):
            overlap = key == "oneOf" and (
                len(branches) - len(rest) > 1 or any(_takes_null(b) for b in rest))
            if len(rest) == 1 and isinstance(rest[0], dict) and _replaced(node, rest[0], key):
                overlap = True
            hits.append(Hit(f"`{key}` with a null branch: use `nullable: true`", (key,), key,
                            "lossy" if overlap else None))
    return hits


def _replaced(own: dict[str, Any], branch: dict[str, Any], union: str = "") -> list[str]:
    """The node's own keywords (but `union`) that replace the branch's when the one branch
    left of a union moves up into the node: where they say otherwise (not just of it), both
    applied, and one of them is gone."""
    return sorted(k for k in own if k in branch and k != union and branch[k] != own[k]
                  and k not in _VALUE_ANNOTATIONS and k != "nullable")


def fix_nullable_union(node: Any, ctx: NodeContext) -> Fixed | None:
    for key in UNION_KEYS:
        branches = node.get(key)
        if not (isinstance(branches, list) and any(is_null_schema(b) for b in branches)):
            continue
        rest = [b for b in branches if not is_null_schema(b)]
        # `oneOf` accepts null only when exactly one branch does: if another branch takes
        # null too, null was refused, and `nullable: true` now accepts it.
        overlap = key == "oneOf" and (
            sum(is_null_schema(b) for b in branches) > 1 or any(_takes_null(b) for b in rest))
        out = {k: v for k, v in node.items() if k != key}
        out["nullable"] = True
        lost: list[str] = []
        # what the null branches said of null, kept (their `type` is all the rest)
        said = [b["description"] for b in branches if is_null_schema(b)
                and isinstance(b, dict) and isinstance(b.get("description"), str)]
        if len(rest) == 1 and isinstance(rest[0], dict):
            merged = dict(rest[0])  # its subschemas move up unchanged
            # the node's own keywords (default, title) win; where one says otherwise
            # than the branch's (not just of it), both applied, and one of them is gone now;
            # the descriptions are joined, the node's first
            lost = _replaced(out, merged)
            inner = merged.get("description")
            merged.update(out)
            if isinstance(inner, str) and isinstance(out.get("description"), str):
                merged["description"] = join_text(out["description"], inner)
            out = merged
        elif rest:
            out[key] = rest
        for text in said:
            out["description"] = join_text(out["description"], f"Null: {text}") \
                if isinstance(out.get("description"), str) else f"Null: {text}"
        if overlap:
            return Fixed(out, (Edit((key,), "lossy",
                                    f"removed the null branch of `{key}` and set `nullable: "
                                    "true`; null matched more than one branch, so the "
                                    "original refused it", accepts="wider", told="lost"),))
        if lost:
            return Fixed(out, (Edit((key,), "lossy", (
                f"removed the null branch of `{key}` and set `nullable: true`; the node's "
                "own " + ", ".join(f"`{k}`" for k in lost) + " replaced its branch's"),
                accepts="wider", told="lost"),))
        return Fixed(out, (Edit((key,), "lossless",
                                f"removed the null branch of `{key}` and set `nullable: true`"),))
    return None


def _takes_null(schema: Any) -> bool:
    """Whether a (non-null) branch also accepts null: a null type, `nullable`, an empty
    schema, or a union with such a branch."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict):
        return False
    t = schema.get("type")
    if (isinstance(t, list) and "null" in t) or schema.get("nullable") is True:
        return "enum" not in schema or None in schema["enum"]
    return any(isinstance(schema.get(k), list) and any(
        is_null_schema(b) or _takes_null(b) for b in schema[k]) for k in UNION_KEYS)


# --- UNI002 / UNI003: unions without null ---------------------------------------------

def _real_union(node: Any, key: str) -> list[Any] | None:
    if not isinstance(node, dict):
        return None
    branches = node.get(key)
    if not isinstance(branches, list):
        return None
    rest = [b for b in branches if not is_null_schema(b)]
    return rest if rest else None


def _empty_union(node: Any, key: str) -> Iterable[Hit]:
    """`anyOf: []` is not valid JSON Schema and accepts nothing: flagged, and removed by the
    fix (lossy: the node then accepts values)."""
    if isinstance(node, dict) and node.get(key) == []:
        yield Hit(f"`{key}` is empty: a union without branches accepts no value", (key,), key,
                  "lossy")


# The rule that already reports an empty union of its keyword, where the profile has it.
_EMPTY_OWNER = {"anyOf": "UNI003", "oneOf": "UNI002"}


def detect_empty_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    for key, owner in _EMPTY_OWNER.items():
        if owner not in ctx.active:
            yield from _empty_union(node, key)


def fix_empty_union(node: Any, ctx: NodeContext) -> Fixed | None:
    keys = [k for k in _EMPTY_OWNER if node.get(k) == [] and _EMPTY_OWNER[k] not in ctx.active]
    if not keys:
        return None
    out = with_hint({k: v for k, v in node.items() if k not in keys},
                    "The server's schema accepts no value here.")
    return Fixed(out, tuple(Edit((k,), "lossy", f"removed the empty `{k}` (it accepted no "
                                               "value; the node now accepts values)")
                            for k in keys))


def detect_one_of_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    yield from _empty_union(node, "oneOf")
    rest = _real_union(node, "oneOf")
    if rest is not None and not _nullable_of_one(node, "oneOf", rest, ctx):
        yield Hit(f"`oneOf` is not a field of the provider's schema ({len(rest)} branches)",
                  ("oneOf",), "oneOf")


def _nullable_of_one(node: dict[str, Any], key: str, rest: list[Any],
                     ctx: NodeContext) -> bool:
    """`oneOf [X, null]`: UNI001 makes it X with `nullable: true`, leaving no union."""
    return len(rest) == 1 and len(rest) < len(node[key]) and "UNI001" in ctx.active


def detect_any_of_union(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    yield from _empty_union(node, "anyOf")
    rest = _real_union(node, "anyOf")
    if rest is not None and (len(rest) > 1 or len(node.get("anyOf", [])) == 1):
        yield Hit(f"`anyOf` union of {len(rest)} branches: Gemini clients built before its "
                  "support reject unions, and the model handles them poorly",
                  ("anyOf",), "anyOf")


def _distinct_types(branches: list[Any]) -> bool:
    """Whether no value can match two of the branches by their types alone: one plain type
    each, all different, not integer beside number."""
    types = [single_type(b) for b in branches]
    return None not in types and len(set(types)) == len(types) \
        and not {"integer", "number"} <= set(types)


def _subsumed(branches: list[Any]) -> Any:
    """A branch that accepts every other one (number over bare integer), if any."""
    for cand in branches:
        if cand == {"type": "number"} and all(
            b is cand or b == {"type": "integer"} for b in branches
        ):
            return cand
    return None


def fix_union(node: Any, ctx: NodeContext) -> Fixed | None:
    for key in UNION_KEYS:
        if node.get(key) == []:
            return Fixed({k: v for k, v in node.items() if k != key}, (Edit(
                (key,), "lossy", f"removed an empty `{key}`, which accepted no value"),))
        rest = _real_union(node, key)
        if rest is None:
            continue
        uniq = _dedupe(rest)
        base = {k: v for k, v in node.items() if k != key}
        if len(uniq) < len(rest) and key == "oneOf" and _one_type_enums(rest, key, base):
            uniq = rest  # the enum merge counts each listing: a value listed twice is refused
        fixed = _merge_branches(base, uniq, key)
        if fixed is not None and key == "oneOf" and len(uniq) < len(rest):
            return _repeated_branches(fixed, rest, uniq)
        return fixed
    return None


# UNI002 and UNI003 share the fix: one merge, whichever union keyword holds the branches.
fix_one_of_unsupported = fix_union
fix_any_of_union = fix_union


def _merge_branches(base: dict[str, Any], uniq: list[Any], key: str) -> Fixed | None:
    if len(uniq) == 1:
        branch = uniq[0] if isinstance(uniq[0], dict) else {}
        lost = _replaced(base, branch)  # the node's own keywords win
        merged = json_copy(branch)
        merged.update(base)
        if lost:
            return Fixed(merged, (Edit((key,), "lossy", (
                f"replaced a one-branch `{key}` by its branch; the node's own "
                + ", ".join(f"`{k}`" for k in lost) + " replaced the branch's")),))
        return Fixed(merged, (Edit((key,), "lossless",
                                   f"replaced a one-branch `{key}` by its branch"),))
    if all(looks_object(b) for b in uniq):
        if not all(_well_formed_object(n) for n in (base, *uniq)):
            return None  # the malformed-keyword rules flag it; a merge would hide it
        return _merge_objects(base, uniq, key)
    if all(single_type(b) == "array" for b in uniq):
        out = {**base, "type": "array",
               "items": {"anyOf": [json_copy(b.get("items", {})) for b in uniq]}}
        return Fixed(out, (Edit((key,), "hinted",
                                f"merged {len(uniq)} array branches of `{key}` into one "
                                "array whose items may be any of theirs"),))
    return _collapse(base, uniq, key)


def _repeated_branches(fixed: Fixed, rest: list[Any], uniq: list[Any]) -> Fixed:
    """A `oneOf` listing a branch twice refuses every value that branch accepts (it matches
    twice); the merge of its distinct branches accepts them: lossy, and said."""
    texts = [_key(b) for b in rest]
    twice = [b for b in uniq if texts.count(_key(b)) > 1]
    said = "; ".join(summarize(b) for b in twice)
    out = fixed.node
    if isinstance(out, dict):
        out = with_hint(out, f"The server refuses {said}: listed more than once in its "
                             "`oneOf`, it matches more than once.")
    edits = tuple(e._replace(safety="lossy", description=e.description +
                             f"; {said}, listed more than once, matched more than once and "
                             "was refused") if e.rel == ("oneOf",) else e
                  for e in fixed.edits)
    return fixed._replace(node=out, edits=edits)


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


def _merge_objects(base: dict[str, Any], branches: list[Any], key: str) -> Fixed:
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
        uniq = _dedupe(schemas)
        if name in discriminators:
            values = [_tag(s) for s in schemas]
            first = schemas[0] if isinstance(schemas[0], dict) else {}
            tag: dict[str, Any] = {k: v for k, v in first.items()
                                   if k not in ("const", "enum", "type")}
            tag["type"] = "string" if all(isinstance(v, str) for v in values) else \
                first.get("type", "string")
            tag["enum"] = list(dict.fromkeys(values))
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
        parent_props.setdefault(name, sch)
    out["properties"] = parent_props
    ordered_req = [r for b in branches for r in (b.get("required") or []) if r in common]
    required = list(dict.fromkeys([*(base.get("required") or []), *ordered_req]))
    if required:
        out["required"] = required
    else:
        out.pop("required", None)
    out = with_hint(out, _variants_text(branches, discriminators))
    narrows = _objects_narrow(branches)
    return Fixed(out, (Edit((key,), "lossy" if narrows else "hinted",
                            f"merged {len(branches)} object branches of `{key}` into one "
                            "object" + (f" (discriminator {discriminators[0]!r})"
                                        if discriminators else "")
                            + "; the variants are described in `description`"
                            + ("; a branch open to other keys now has the other branches' "
                               "properties held to their schemas" if narrows else ""),
                            accepts="changed" if narrows else "wider", told="described"),))


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
        parts.append(f"{head}: {', '.join(fields) if fields else 'no other fields'}")
    return "Give exactly one of these forms: " + "; ".join(parts) + "."


def _same_type(base: dict[str, Any], branches: list[Any], key: str) -> Fixed | None:
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
        return Fixed(out, (Edit((key,), merged.safety, said),))
    if "type" not in base and any(b.get("nullable") is True for b in branches):
        out["nullable"] = True  # what one branch accepts stays accepted
    lead = "Exactly one of: " if key == "oneOf" else "Any of: "
    out = with_hint(out, lead + "; ".join(summarize(b) for b in branches) + ".")
    differing = sorted({k for b in branches for k in b if k not in shared})
    return Fixed(out, (Edit((key,), "hinted", f"merged {len(branches)} {t} branches of "
                                              f"`{key}`; their differing "
                                              f"{', '.join(f'`{k}`' for k in differing)} "
                                              "described"),))


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


def _collapse(base: dict[str, Any], branches: list[Any], key: str) -> Fixed:
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
    if overlapping:
        out = with_hint(out, "The server refuses a value that is also " +
                        "; ".join(summarize(o) for o in others) + ".")
    elif safety == "lossy":
        out = with_hint(out, "The server also accepts " +
                        "; ".join(summarize(o) for o in others) + ".")
    # One branch kept: the others' values refused (narrower), said in the description; the
    # wider of `oneOf [number, integer]` also takes the integers it refused (wider).
    accepts: Accepts = "wider" if overlapping else "equal" if safety == "lossless" else \
        "narrower"
    if accepts == "narrower" and key == "oneOf" and not _distinct_types(branches):
        accepts = "changed"  # a value two branches took was refused, and the kept one takes it
    if isinstance(keep, dict) and _replaced(base, keep):
        accepts = "changed"  # the node's own keywords replace the branch's (both applied)
    return Fixed(out, (Edit((key,), safety,
                            f"collapsed `{key}` to its {summarize(keep)} branch"
                            + ("" if safety == "lossless" else
                               f"; {', '.join(summarize(o) for o in others)} no longer "
                               "offered to the model"),
                            accepts=accepts,
                            told="kept" if safety == "lossless" else "described"),))


# --- UNI004: allOf ---------------------------------------------------------------------

def detect_all_of_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("allOf"), list):
        if _all_of_exact(node) is not None:
            yield Hit("`allOf` is not a field of the provider's schema", ("allOf",),
                      "allOf", "lossless")
        else:
            yield Hit("`allOf` is not a field of the provider's schema", ("allOf",),
                      "allOf", "lossy", "changed", "kept")


def _all_of_exact(node: dict[str, Any]) -> Merged | None:
    """The node and its `allOf` branches as one schema accepting exactly what they all do
    (`schema.merge`), or None when the branches cannot be combined so."""
    merged: Any = {k: v for k, v in node.items() if k != "allOf"}
    dropped: list[str] = []
    for member in node["allOf"]:
        if member is True or member == {}:
            continue
        both = merge_exact(merged, member)
        if both is None:
            return None
        merged = both.node
        dropped.extend(both.dropped)
    return Merged(merged, tuple(dropped))


def _merge_all_of(node: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
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
            elif k in _MIN_KEYS and _num(v) and _num(out[k]):
                out[k] = max(out[k], v)
            elif k in _MAX_KEYS and _num(v) and _num(out[k]):
                out[k] = min(out[k], v)
            elif k == "enum" and isinstance(v, list) and isinstance(out[k], list):
                out[k] = [x for x in out[k] if x in v]
            elif k in ("description", "title", "default", "examples", "$comment"):
                continue  # the node's own annotation wins
            elif k == "type" and (both := merge_types(out[k], v)) is not None:
                out[k] = both
            else:
                conflicts.append(f"{k}: {value_text(out[k], 30)} vs {value_text(v, 30)}")
    return out, conflicts


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def fix_all_of_unsupported(node: Any, ctx: NodeContext) -> Fixed | None:
    exact = _all_of_exact(node)
    if exact is not None:
        said = f"merged {len(node['allOf'])} `allOf` branches into one schema"
        if exact.dropped:
            said += ("; dropped " + ", ".join(f"`{n}`" for n in exact.dropped)
                     + ": a closed branch admits no such property")
        return Fixed(exact.node, (Edit(("allOf",), "lossless", said),))
    out, conflicts = _merge_all_of(node)
    if not conflicts:
        conflicts = ["a branch closed to other keys (`additionalProperties`) beside "
                     "properties it does not list"]
    return Fixed(out, (Edit(("allOf",), "lossy",
                            "merged `allOf` branches; conflicting keywords kept the first "
                            "value: " + "; ".join(conflicts), accepts="changed",
                            told="kept"),))


# --- UNI005 / UNI006: not, if/then/else --------------------------------------------------

def detect_not_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and "not" in node:
        yield Hit("`not` is not a field of the provider's schema", ("not",), "not")


def fix_not_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k != "not"}
    out = with_hint(out, f"Must not be {summarize(node['not'])}.")
    return Fixed(out, (Edit(("not",), "hinted", "removed `not`; described it instead"),))


_COND = ("if", "then", "else")


def detect_conditional_unsupported(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict):
        for k in _COND:
            if k in node:
                yield Hit(f"`{k}` is not a field of the provider's schema", (k,), k)


def fix_conditional_unsupported(node: Any, ctx: NodeContext) -> Fixed:
    out = {k: v for k, v in node.items() if k not in _COND}
    if "if" in node:
        text = f"If it is {summarize(node['if'])}"
        if "then" in node:
            text += f", it must be {summarize(node['then'])}"
        if "else" in node:
            text += f"; otherwise it must be {summarize(node['else'])}"
        out = with_hint(out, text + ".")
    edits = tuple(Edit((k,), "hinted", f"removed `{k}`; described the condition instead")
                  for k in _COND if k in node)
    return Fixed(out, edits)


_SHAPES_BEFORE = {"type": "object", "properties": {"shape": {"oneOf": [
    {"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
     "required": ["kind", "radius"]},
    {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}},
     "required": ["kind", "side"]}]}}}


# --- UNI007: anyOf with sibling fields (Vertex) -------------------------------------------

_ANNOTATIONS = ("description", "title")


def _siblings(node: Any) -> list[str]:
    if not (isinstance(node, dict) and isinstance(node.get("anyOf"), list)):
        return []
    return [k for k in node if k != "anyOf"]


def detect_any_of_with_siblings(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    extra = _siblings(node)
    if extra and not ctx.is_root:
        yield Hit("`anyOf` must be the only field of its node; this one also has "
                  + ", ".join(f"`{k}`" for k in extra), ("anyOf",), "anyOf",
                  "lossy" if _push_down(node)[1] else "lossless")


def _push_down(node: dict[str, Any]) -> tuple[list[Any], list[str]]:
    siblings = {k: v for k, v in node.items() if k != "anyOf" and k not in _ANNOTATIONS}
    branches: list[Any] = []
    conflicts: list[str] = []
    for branch in node["anyOf"]:
        if not isinstance(branch, dict):
            branches.append(branch)
            continue
        # each branch its own copy of the siblings: one object at two places of the result
        # would be rewritten at both by the next pass, with the change recorded at one
        merged, clash = _merge_all_of({**json_copy(siblings), "allOf": [branch]})
        for k in _ANNOTATIONS:  # the branch's own annotation first, then the node's
            own, outer = branch.get(k), node.get(k)
            if isinstance(outer, str) and outer:
                merged = (with_hint({**merged, k: own}, outer) if k == "description" and
                          isinstance(own, str) else {**merged, k: own if own else outer})
        conflicts += clash
        branches.append(merged)
    return branches, conflicts


def fix_any_of_with_siblings(node: Any, ctx: NodeContext) -> Fixed | None:
    if not _siblings(node) or ctx.is_root:
        return None
    branches, conflicts = _push_down(node)
    moved = ", ".join(f"`{k}`" for k in _siblings(node))
    if conflicts:
        return Fixed({"anyOf": branches}, (Edit(("anyOf",), "lossy",
                     f"moved {moved} into every `anyOf` branch; conflicting keywords kept "
                     "the outer value: " + "; ".join(conflicts)),))
    return Fixed({"anyOf": branches}, (Edit(("anyOf",), "lossless",
                 f"moved {moved} into every `anyOf` branch"),))

RULES: list[Rule] = [
    Rule(
        code="UNI001", name="nullable-union", severity="error",
        cases=(("null matched two `oneOf` branches, or the node's own keywords replace "
                "the branch's",
                "wider", "lost"),),
        triggers=frozenset(UNION_KEYS),
        message="union with null", safety="lossless", fix_title="Use `nullable: true`",
        detect=detect_nullable_union, fix=fix_nullable_union,
        docs=RuleDocs(
            what="`anyOf`/`oneOf` with a `{type: null}` branch: Pydantic's `Optional[X]`, "
                 "Zod's `.nullable()`. Gemini has no null branch; it has `nullable`.",
            error="Gemini cannot handle union types (client side), or the branch type "
                  "silently becomes STRING",
            fix="Drop the null branch and set `nullable: true`; a single remaining branch "
                "is merged into the node (the node's own description and default win).",
            before={"type": "object", "properties": {"head": {
                "anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}}},
            after={"type": "object", "properties": {"head": {
                "type": "integer", "default": None, "nullable": True}}},
            sources=("[GEM-15](../providers.md#gem-15)", "langchain-ai/langchainjs#9893"),
        ),
    ),
    Rule(
        code="UNI002", name="one-of-unsupported", severity="error",
        cases=(("a variant open to other keys held to the others' properties",
                "changed", "described"),
               ("scalar variants collapsed to one (the others described)", "narrower", "described"),
               ("overlapping variants collapsed to one", "changed", "described"),
               ("a branch listed twice, refused by the server, merged", "changed", "described")),
        triggers=frozenset({"oneOf"}),
        message="`oneOf` is not supported", safety="hinted",
        fix_title="Merge object variants / collapse scalar variants", claims=frozenset({"oneOf"}),
        detect=detect_one_of_unsupported, fix=fix_one_of_unsupported,
        docs=RuleDocs(
            what="`oneOf`, which the Gemini Schema object has no field for. Zod's "
                 "discriminatedUnion emits it.",
            error='Invalid JSON payload received. Unknown name "oneOf" … / Gemini cannot handle '
                  "union types (discriminatedUnion, anyOf, oneOf).",
            fix="Object variants merge into one object: properties united, a discriminator's "
                "constants become one enum, `required` is what every variant requires, the "
                "parent's own properties and required stay, and the variants are spelled out "
                "in the description (hinted: the server still checks which form was sent). "
                "Array variants merge their items. Scalar variants of one type merge: "
                "enums into one enum, leaving out a value that more than one branch lists "
                "(the server refuses it), with each value's title and description described "
                "(hinted; lossless when the branches differ in nothing else); other variants "
                "keep what they share, the rest described (hinted). Scalar variants of "
                "different types collapse to the richest branch with the others named in the "
                "description (lossy).",
            before=_SHAPES_BEFORE,
            after={"type": "object", "properties": {"shape": {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["circle", "square"]},
                               "radius": {"type": "number"}, "side": {"type": "number"}},
                "required": ["kind"],
                "description": "Give exactly one of these forms: kind=\"circle\": radius "
                               "(required); kind=\"square\": side (required)."}}},
            sources=("[GEM-15](../providers.md#gem-15)", "langchain-ai/langchainjs#9893"),
        ),
    ),
    Rule(
        code="UNI003", name="any-of-union", severity="warning",
        cases=(("a variant open to other keys held to the others' properties",
                "changed", "described"),
               ("scalar variants collapsed to one (the others described)", "narrower", "described"),
               ("`number` kept over `integer`", "equal", "kept")),
        triggers=frozenset({"anyOf"}),
        message="`anyOf` union", safety="hinted",
        fix_title="Merge object variants / collapse scalar variants", claims=frozenset({"anyOf"}),
        detect=detect_any_of_union, fix=fix_any_of_union,
        docs=RuleDocs(
            what="`anyOf` with several non-null branches. The Gemini API has accepted "
                 "`anyOf` since 2025-04, but clients that predate it reject unions "
                 "(LangChain's converter throws), and the model fills merged objects more "
                 "reliably.",
            error="zod_to_gemini_parameters: Gemini cannot handle union types "
                  "(discriminatedUnion, anyOf, oneOf).",
            fix="As for `oneOf`: merge objects (hinted), merge arrays (hinted), merge "
                "scalars of one type (enums into one enum, keeping every branch's values), "
                "collapse scalars of different types to one branch (lossy; `number` over "
                "`integer` is lossless).",
            before={"type": "object", "properties": {"id": {
                "anyOf": [{"type": "string"}, {"type": "integer"}]}}},
            after={"type": "object", "properties": {"id": {
                "type": "string", "description": "The server also accepts integer."}}},
            sources=("[GEM-15](../providers.md#gem-15)",),
        ),
    ),
    Rule(
        code="UNI004", name="all-of-unsupported", severity="error",
        cases=(("branches that cannot be combined exactly (conflicting keywords, a "
                "closed branch beside names it refuses that another requires)",
                "changed", "kept"),),
        triggers=frozenset({"allOf"}),
        message="`allOf` is not supported", safety="lossless",
        fix_title="Merge the branches into one schema", claims=frozenset({"allOf"}),
        detect=detect_all_of_unsupported, fix=fix_all_of_unsupported,
        docs=RuleDocs(
            what="`allOf`, used for inheritance and for `$ref` with siblings in older "
                 "drafts.",
            error='Invalid JSON payload received. Unknown name "allOf" …',
            fix="Merge: properties and required united, bounds tightened, enums "
                "intersected, descriptions joined; a closed branch (`additionalProperties: "
                "false`) drops the names it refuses. Lossless unless the branches cannot be "
                "combined exactly (then lossy, reported).",
            before={"type": "object", "properties": {"p": {"allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}},
                {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}}},
            after={"type": "object", "properties": {"p": {
                "type": "object", "properties": {"a": {"type": "string"},
                                                 "b": {"type": "integer"}},
                "required": ["b"]}}},
            sources=("[GEM-15](../providers.md#gem-15)",),
        ),
    ),
    Rule(
        code="UNI005", name="not-unsupported", severity="error",
        triggers=frozenset({"not"}),
        message="`not` is not supported", safety="hinted", fix_title="Describe it instead",
        claims=frozenset({"not"}), detect=detect_not_unsupported, fix=fix_not_unsupported,
        docs=RuleDocs(
            what="`not`, which the provider's schema has no field for.",
            error='Invalid JSON payload received. Unknown name "not" …',
            fix="Remove it; the description says what the value must not be.",
            before={"type": "object", "properties": {"s": {"type": "string",
                                                           "not": {"const": ""}}}},
            after={"type": "object", "properties": {"s": {
                "type": "string", "description": 'Must not be "".'}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="UNI006", name="conditional-unsupported", severity="error",
        triggers=frozenset(_COND),
        message="`if`/`then`/`else` are not supported", safety="hinted",
        fix_title="Describe the condition instead", claims=frozenset(_COND),
        detect=detect_conditional_unsupported, fix=fix_conditional_unsupported,
        docs=RuleDocs(
            what="Conditional subschemas.",
            error='Invalid JSON payload received. Unknown name "if" …',
            fix="Remove them; the description states the condition.",
            before={"type": "object", "properties": {"n": {
                "type": "integer", "if": {"minimum": 10}, "then": {"multipleOf": 10}}}},
            after={"type": "object", "properties": {"n": {
                "type": "integer",
                "description": "If it is number (≥ 10), it must be number (multiple of 10)."}}},
            sources=("[GEM-01](../providers.md#gem-01)",),
        ),
    ),
    Rule(
        code="UNI007", name="any-of-with-siblings", severity="error",
        message="`anyOf` must be the only field of its node", safety="lossless",
        fix_title="Move the sibling fields into every branch",
        detect=detect_any_of_with_siblings, fix=fix_any_of_with_siblings,
        docs=RuleDocs(
            what="A node with `anyOf` and other fields beside it (`description`, `type`, "
                 "`nullable`, `default`). Vertex AI (Gemini 3 models) refuses it. Observed in "
                 "issues, not in the proto's documentation.",
            error="Unable to submit request because `f` functionDeclaration "
                  "`parameters.value` schema specified other fields alongside any_of. When "
                  "using any_of, it must be the only field set.",
            fix="Copy the siblings into each branch (a node means its own keywords AND one "
                "of the branches, so this is lossless); a branch keeps its own description, "
                "followed by the node's. Conflicting keywords keep the outer value (lossy).",
            before={"type": "object", "properties": {"value": {
                "description": "The value.", "nullable": True,
                "anyOf": [{"type": "string"}, {"type": "integer"}]}}},
            after={"type": "object", "properties": {"value": {"anyOf": [
                {"type": "string", "nullable": True, "description": "The value."},
                {"type": "integer", "nullable": True, "description": "The value."}]}}},
            sources=("[VTX-03](../providers.md#vtx-03)", "anomalyco/opencode#15795",
                     "charmbracelet/crush#2294"),
        ),
    ),
    Rule(
        code="UNI009", name="empty-union", severity="error",
        message="`anyOf` or `oneOf` without branches", safety="lossy",
        fix_title="Remove it, saying so in `description`", detect=detect_empty_union,
        fix=fix_empty_union, triggers=frozenset({"anyOf", "oneOf"}),
        docs=RuleDocs(
            what="`anyOf: []` or `oneOf: []`. The JSON Schema meta-schema requires at least "
                 "one branch, so providers that validate schemas (OpenAI, Anthropic) refuse "
                 "it, and it accepts no value at all. In `gemini` and `portable` the union "
                 "rules (UNI002, UNI003) report it.",
            error="(JSON Schema meta-schema validation, which OpenAI and Anthropic run on "
                  "tool schemas; no provider message on record) [] should be non-empty",
            fix="Remove the empty union and say in the description that the server's schema "
                "accepts no value there (lossy: the node now accepts values).",
            before={"type": "object", "properties": {"a": {"anyOf": []}}},
            after={"type": "object", "properties": {"a": {
                "description": "The server's schema accepts no value here."}}},
            passing={"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}},
            profile="vertex",
            sources=("JSON Schema 2020-12 meta-schema (schemaArray minItems 1)",
                     "[OAI-09](../providers.md#oai-09), [ANT-05](../providers.md#ant-05)"),
        ),
    ),
]


# --- UNI008: oneOf -> anyOf --------------------------------------------------------------

def _disjoint(branches: list[Any], root: Any = None) -> bool:
    """Whether no value can match two branches, so that `anyOf` accepts what `oneOf` did:
    branches of distinct plain types (not integer beside number), or objects told apart by
    a discriminator (Pydantic's and Zod's tagged unions, often as `$ref`s into `$defs`)."""
    types = [single_type(b) for b in branches]
    if None not in types and len(set(types)) == len(types) and not (
            {"integer", "number"} <= set(types)):
        return True
    return _discriminated([local_target(b, root) or b for b in branches])


def _discriminated(branches: list[Any]) -> bool:
    """Objects (`type: object`) that all require one property, each allowing it a single
    value (`const`, or a one-value `enum`) that no other branch allows."""
    if len(branches) < 2 or not all(single_type(b) == "object" for b in branches):
        return False
    common: set[str] | None = None
    for b in branches:
        props, required = b.get("properties"), b.get("required")
        if not isinstance(props, dict) or not isinstance(required, list):
            return False
        tags = {p for p in required if isinstance(p, str) and _single_value(props.get(p))}
        common = tags if common is None else common & tags
    for name in sorted(common or ()):
        values = {json.dumps(_single_value(b["properties"][name]), sort_keys=True)
                  for b in branches}
        if len(values) == len(branches):
            return True
    return False


def _single_value(schema: Any) -> tuple[Any] | None:
    """The one value a schema allows, in a tuple (it may be null), if it allows one."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        value = schema["const"]
    elif isinstance(schema.get("enum"), list) and len(schema["enum"]) == 1:
        value = schema["enum"][0]
    else:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 1.0 is 1 to JSON Schema
    return (value,)


def detect_one_of_in_strict(node: Any, ctx: NodeContext) -> Iterable[Hit]:
    if isinstance(node, dict) and isinstance(node.get("oneOf"), list) and node["oneOf"] and \
            not isinstance(node.get("anyOf"), list):  # an empty one is UNI009's
        yield Hit("`oneOf` is not permitted in strict mode", ("oneOf",), "oneOf",
                  "lossless" if _disjoint(node["oneOf"], ctx.root) else "hinted")


def fix_one_of_in_strict(node: Any, ctx: NodeContext) -> Fixed | None:
    if isinstance(node.get("anyOf"), list):
        return None
    branches = node["oneOf"]
    out = {("anyOf" if k == "oneOf" else k): v for k, v in node.items()}
    if _disjoint(branches, ctx.root):
        return Fixed(out, (Edit(("oneOf",), "lossless",
                                "`oneOf` → `anyOf` (its branches cannot overlap)"),))
    out = with_hint(out, "Exactly one of the alternatives applies.")
    return Fixed(out, (Edit(("oneOf",), "hinted",
                            "`oneOf` → `anyOf`; \"exactly one\" is described"),))


RULES.append(Rule(
    code="UNI008", name="one-of-in-strict", severity="warning",
    message="`oneOf` is not permitted in strict mode", safety="lossless",
    fix_title="Rename it to `anyOf`", detect=detect_one_of_in_strict, fix=fix_one_of_in_strict,
    claims=frozenset({"oneOf"}),
    docs=RuleDocs(
        what="`oneOf` under strict mode. Not in either provider's supported list; OpenAI "
             "refusing it is observed in issues, Anthropic's SDK rewrites it to `anyOf` "
             "(so a warning).",
        error="Invalid schema for response_format 'example': In context=(), 'oneOf' is "
              "not permitted.",
        fix="Use `anyOf`: lossless when no value can match two branches (different "
            "types, or objects told apart by a required property's single value, as "
            "tagged unions are), otherwise \"exactly one\" is described (hinted).",
        before={"type": "object", "properties": {"v": {"oneOf": [
            {"type": "string"}, {"type": "integer"}]}}, "required": ["v"],
            "additionalProperties": False},
        after={"type": "object", "properties": {"v": {"anyOf": [
            {"type": "string"}, {"type": "integer"}]}}, "required": ["v"],
            "additionalProperties": False},
        sources=("[OAIS-08](../providers.md#oais-08), [ANTS-02](../providers.md#ants-02), "
                 "[ANTS-08](../providers.md#ants-08)",
                 "vercel-labs/json-render#180"),
    ),
))
