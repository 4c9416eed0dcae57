"""Where a value that one schema accepts may be refused by another.

`differences(a, b)` walks two schema documents side by side (references followed,
`allOf` split or merged, union branches paired) and names each place where some value `a`
accepts may be one `b` refuses: a property `b` requires and `a` did not, a type or an enum
member `b` dropped, a bound `b` tightened, a key `b` closed, a branch `b` lost. For input
schemas `a` is the old version and `b` the new (callers send what the old accepted); for
output schemas the other way round (callers read what the new may hold).

Each difference carries candidate values: whole documents, made from `a`'s own examples,
that should show it. The caller (tools.py) tests them with jsonschema against both whole
schemas; a difference with a value that passes is a break, one without is "possibly". Where
this walk finds nothing, every keyword that decides what is accepted was compared and found
no narrower, so "no difference" is a proof for the keywords it reads, and a keyword it does
not read that differs is itself reported (kind `undecided`), never passed over.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from ..model import Path
from ..schema.merge import merge_exact
from ..schema.shape import value_type as json_type
from .checks import Kind
from .document import (
    ANNOTATIONS,
    NOTHING,
    Document,
    allows_type,
    bound,
    bound_text,
    effective_types,
    enumerated,
    is_tighter,
    json_key,
    on_integers,
    refused_values,
    types_of,
    values_outside,
)

# keywords whose containment this walk does not decide: a change to one is `undecided`
UNDECIDED = ("not", "if", "then", "else", "patternProperties", "dependentSchemas",
             "dependencies", "dependentRequired", "contains", "minContains", "maxContains",
             "propertyNames", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef",
             "$recursiveRef", "additionalItems")
_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
_BOTH_WAYS = ("patternProperties", "$dynamicRef", "$recursiveRef")
_OBJECT_KEYS = ("properties", "required", "additionalProperties", "minProperties",
                "maxProperties")
_BUDGET = 20_000  # node pairs compared per schema pair; past it the rest is `undecided`
_WIDE_UNION = 64  # branches; past it a union is `undecided`

Wrap = Callable[[Any], Any]


class Difference(NamedTuple):
    kind: Kind
    a_path: Path  # where in the schema that accepts the value
    b_path: Path  # where in the schema that may refuse it
    detail: str  # what differs, in words that suit either direction
    candidates: tuple[Any, ...]  # whole values to test: `a` should accept, `b` refuse
    reason: str = ""  # for `undecided`: the keyword or limit that keeps the answer out


def differences(a: Document, b: Document) -> list[Difference]:
    walk = _Walk(a, b)
    return walk.compare(a.root, (), b.root, (), lambda v: v, 0)


_STRIPPED = ANNOTATIONS - {"$defs", "definitions"}  # what references name still counts
_DATA = frozenset({"enum", "const"})


class Canon:
    """Each schema node as text without its annotations, key order aside: two nodes with the
    same text accept the same values. Made bottom-up without recursion and kept per node, so
    a walk asking at every level costs the size of the documents once."""

    def __init__(self) -> None:
        self.text: dict[int, str] = {}
        self._held: list[Any] = []  # the nodes whose ids are keys, kept alive

    def of(self, node: Any) -> str:
        if not isinstance(node, dict | list):
            return _dump(node)
        stack: list[tuple[Any, bool]] = [(node, False)]
        while stack:
            cur, ready = stack.pop()
            if id(cur) in self.text:
                continue
            items = [(k, v) for k, v in cur.items() if k not in _STRIPPED] \
                if isinstance(cur, dict) else list(enumerate(cur))
            if not ready:
                stack.append((cur, True))
                stack += [(v, False) for k, v in items if isinstance(v, dict | list)
                          and k not in _DATA and id(v) not in self.text]
                continue
            parts = [self._part(k, v) for k, v in items]
            if isinstance(cur, dict):
                self.text[id(cur)] = "{" + ",".join(sorted(parts)) + "}"
            else:
                self.text[id(cur)] = "[" + ",".join(parts) + "]"
            self._held.append(cur)
        return self.text[id(node)]

    def _part(self, key: Any, value: Any) -> str:
        if key in _DATA or not isinstance(value, dict | list):
            text = _dump(value)
        else:
            text = self.text[id(value)]
        return f"{_dump(key)}:{text}" if isinstance(key, str) else text

    def same(self, a: Any, b: Any) -> bool:
        return a is b or self.of(a) == self.of(b)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def show(value: Any, most: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= most else text[: most - 1] + "…"


class _Walk:
    def __init__(self, a: Document, b: Document) -> None:
        self.a, self.b = a, b
        self.active: set[tuple[int, int]] = set()
        self.steps = 0
        self.canon = Canon()

    def compare(self, a: Any, ap: Path, b: Any, bp: Path, wrap: Wrap, depth: int
                ) -> list[Difference]:
        a, ap = self.a.deref(a, ap)
        b, bp = self.b.deref(b, bp)
        if a is False or b is True or a is b or (b == {} and isinstance(b, dict)):
            return []
        key = (id(a), id(b))
        if key in self.active:
            return []  # a recursion met again: assumed to hold, as recursive types are
        self.steps += 1
        if self.steps > _BUDGET or depth > 100:
            return [self.undecided(a, ap, bp, wrap, "the schemas are too large or deep to "
                                   "compare in full")]
        self.active.add(key)
        try:
            if self.canon.same(a, b):
                return []
            return self._compare(a, ap, b, bp, wrap, depth + 1)
        finally:
            self.active.discard(key)

    def undecided(self, a: Any, ap: Path, bp: Path, wrap: Wrap, reason: str
                  ) -> Difference:
        value = self.a.example(a)
        return Difference("undecided", ap, bp, reason,
                          () if value is NOTHING else (wrap(value),), reason)

    def _compare(self, a: Any, ap: Path, b: Any, bp: Path, wrap: Wrap, depth: int
                 ) -> list[Difference]:
        if b is False:
            return [Difference("type", ap, bp, "{b} accepts no value here",
                               self._examples(a, wrap))]
        if not isinstance(b, dict):
            return [self.undecided(a, ap, bp, wrap, "the schema is not an object")]
        if a is True or a == {}:
            a = {}
        if not isinstance(a, dict):
            return [self.undecided(a, ap, bp, wrap, "the schema is not an object")]
        if "$ref" in a or "$ref" in b:
            return [self.undecided(a, ap, bp, wrap, "a `$ref` that does not resolve here")]
        if isinstance(b.get("allOf"), list):  # a ⊆ b1 ∩ b2 ∩ ... exactly when a ⊆ each
            rest = {k: v for k, v in b.items() if k != "allOf"}
            split = self.compare(a, ap, rest, bp, wrap, depth)
            for i, part in enumerate(b["allOf"]):
                split += self.compare(a, ap, part, (*bp, "allOf", i), wrap, depth)
            return split
        if isinstance(a.get("allOf"), list):
            merged = self._merged(a)
            if merged is None:
                return [self.undecided(a, ap, bp, wrap, "an `allOf` that cannot be written "
                                       "as one schema")]
            return self.compare(merged, ap, b, bp, wrap, depth)
        union_b = _union(b)
        if union_b is not None:
            return self._into_union(a, ap, b, bp, union_b, wrap, depth)
        union_a = _union(a)
        if union_a is not None:
            return self._from_union(a, ap, b, bp, union_a, wrap, depth)
        out: list[Difference] = []
        for keyword in UNDECIDED:
            # taking one of these away only widens, but for the ones that open what
            # another keyword closes
            if not self.canon.same(a.get(keyword), b.get(keyword)) and (
                    keyword in b or keyword in _BOTH_WAYS):
                out.append(self.undecided(a, ap, bp, wrap, f"`{keyword}` changed"))
        return out + self._node(a, ap, b, bp, wrap, depth)

    # --- unions ---------------------------------------------------------------------------

    def _into_union(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                    union_b: tuple[str, list[Any]], wrap: Wrap, depth: int
                    ) -> list[Difference]:
        """a ⊆ b where b is `anyOf`/`oneOf` (with keywords beside it): each part of `a`
        (its own branches, or `a` whole) must fit some branch of b, and b's other keywords."""
        key, branches = union_b
        if len(branches) > _WIDE_UNION:
            return [self.undecided(a, ap, bp, wrap,
                                   f"a union (`{key}`) of {len(branches)} branches")]
        rest = {k: v for k, v in b.items() if k != key}
        out = self.compare(a, ap, rest, bp, wrap, depth) if _constrains(rest) else []
        for part, pp in self._parts(a, ap):
            found = [self.compare(part, pp, branch, (*bp, key, j), wrap, depth)
                     for j, branch in enumerate(branches)]
            if any(not f for f in found):
                continue
            candidates = tuple(c for f in found for d in f for c in d.candidates)
            candidates += self._examples(part, wrap)
            out.append(Difference("union", pp, (*bp, key),
                                  f"no branch of {{b}}'s `{key}` accepts everything {{a}} "
                                  "accepts here",
                                  candidates))
        if key == "oneOf" and not _disjoint(branches):
            # a value in two branches of a `oneOf` is refused: the old examples of each part
            # and the new branches' own examples (the old schema must accept them) show it
            mine = [v for part, _ in self._parts(a, ap)
                    if (v := self.a.example(part)) is not NOTHING]
            theirs = [v for br in branches if (v := self.b.example(br)) is not NOTHING]
            candidates = tuple(wrap(v) for v in mine + theirs)
            # an object of `a` that also holds another branch's keys matches both
            candidates += tuple(wrap({**t, **m}) for m in mine for t in theirs
                                if isinstance(m, dict) and isinstance(t, dict))
            out.append(Difference("union", ap, (*bp, key),
                                  "a value may match two branches of {b}'s `oneOf`, which "
                                  "refuses it",
                                  candidates, "`oneOf` branches that may overlap"))
        return out

    def _from_union(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                    union_a: tuple[str, list[Any]], wrap: Wrap, depth: int
                    ) -> list[Difference]:
        """a ⊆ b where a is a union and b is not: a's other keywords alone fit b, or each of
        its branches (with those keywords) does."""
        key, branches = union_a
        if len(branches) > _WIDE_UNION:
            return [self.undecided(a, ap, bp, wrap,
                                   f"a union (`{key}`) of {len(branches)} branches")]
        rest = {k: v for k, v in a.items() if k != key}
        if _constrains(rest) and not self.compare(rest, ap, b, bp, wrap, depth):
            return []
        out: list[Difference] = []
        for part, pp in self._parts(a, ap):
            out += self.compare(part, pp, b, bp, wrap, depth)
        return out

    def _parts(self, a: dict[str, Any], ap: Path) -> list[tuple[Any, Path]]:
        """`a` as the alternatives it accepts: each union branch with `a`'s other keywords
        merged in (kept apart where the merge is not exact), or `a` itself."""
        union = _union(a)
        if union is None:
            return [(a, ap)]
        key, branches = union
        rest = {k: v for k, v in a.items() if k != key}
        parts: list[tuple[Any, Path]] = []
        for i, branch in enumerate(branches):
            branch, where = self.a.deref(branch, (*ap, key, i))
            merged = merge_exact(rest, branch) if isinstance(branch, dict) else None
            parts.append((merged.node if merged else branch, where))
        return parts

    def _merged(self, a: dict[str, Any]) -> dict[str, Any] | None:
        out: Any = {k: v for k, v in a.items() if k != "allOf"}
        for part in a["allOf"]:
            part, _ = self.a.deref(part, ())
            if part is True:
                continue
            m = merge_exact(out, part) if isinstance(part, dict) else None
            if m is None:
                return None
            out = m.node
        return out if isinstance(out, dict) else None

    # --- one node's own keywords ---------------------------------------------------------------

    def _node(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path, wrap: Wrap,
              depth: int) -> list[Difference]:
        out = self._values(a, ap, b, bp, wrap)
        ta = effective_types(a)
        if allows_type(ta, "integer") or allows_type(ta, "number"):
            out += self._numbers(a, ap, b, bp, wrap)
        if allows_type(ta, "string"):
            out += self._strings(a, ap, b, bp, wrap)
        if allows_type(ta, "array"):
            out += self._arrays(a, ap, b, bp, wrap, depth)
        if allows_type(ta, "object") and any(k in b for k in _OBJECT_KEYS):
            out += self._objects(a, ap, b, bp, wrap, depth)
        return out

    def _values(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path, wrap: Wrap
                ) -> list[Difference]:
        """Types, `enum` and `const`: which values `b` lets through at all."""
        listed_a = enumerated(a)
        listed_b = enumerated(b)
        tb = types_of(b)
        if listed_a is not None:
            keys_b = None if listed_b is None else {json_key(v) for v in listed_b}
            refused = [v for v in listed_a
                       if not allows_type(tb, json_type(v))
                       or (keys_b is not None and json_key(v) not in keys_b)]
            if not refused:
                return []
            kind: Kind = "type" if listed_b is None else "enum"
            return [Difference(kind, ap, bp, f"{_values_text(refused)}: allowed by {{a}}, not "
                               "by {b}",
                               tuple(wrap(v) for v in refused))]
        out: list[Difference] = []
        ta = types_of(a)
        missing = [k for k in _TYPES if allows_type(ta, k) and not allows_type(tb, k)]
        if "integer" in missing and ("number" in missing or ta is None):
            missing.remove("integer")  # said once, as number
        if missing:
            values = [v for k in missing if (v := self.a.example_of_type(a, k)) is not NOTHING]
            values += [0.5] if "number" in missing else []
            word = ", ".join("null" if k == "null" else k for k in missing)
            out.append(Difference("type", ap, bp, f"{word}: allowed by {{a}}, not by {{b}}",
                                  tuple(wrap(v) for v in values)))
        if listed_b is not None:
            values = [v for v in values_outside(a, self.a, listed_b)]
            out.append(Difference("enum", ap, bp,
                                  f"{{b}} allows only {_values_text(listed_b)}",
                                  tuple(wrap(v) for v in values)))
        return out

    def _numbers(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                 wrap: Wrap) -> list[Difference]:
        out: list[Difference] = []
        integers = types_of(a) == ("integer",)
        for side in ("min", "max"):
            written_old, written_new = bound(a, side), bound(b, side)
            old, new = written_old, written_new
            if integers:  # > 0 is >= 1 for the integers `a` accepts, on either side
                old, new = on_integers(old, side), on_integers(new, side)
            if new is None or written_new is None or not is_tighter(old, new, side):
                continue
            edge, exclusive = new
            sign = -1 if side == "min" else 1
            values = [edge] if exclusive else []
            values += [edge + sign * 1, edge + sign * 0.5]
            word = "minimum" if side == "min" else "maximum"
            was = "none" if written_old is None else bound_text(written_old, side)
            out.append(Difference("bound", ap, bp,
                                  f"{word}: {{b}} says {bound_text(written_new, side)} "
                                  f"({{a}}: {was})",
                                  tuple(wrap(v) for v in values)))
        step_a: Any = a.get("multipleOf")
        step_b: Any = b.get("multipleOf")
        if _num(step_b) and step_a != step_b:
            base = step_a if _num(step_a) else 1
            steps: list[Any] = [base, base * 3, 1, 0.5]
            out.append(Difference("bound", ap, bp, f"{{b}} says multipleOf {step_b} ({{a}}: "
                                  f"{step_a if _num(step_a) else 'none'})",
                                  tuple(wrap(v) for v in steps)))
        return out

    def _strings(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                 wrap: Wrap) -> list[Difference]:
        out = self._counts(a, ap, b, bp, wrap, "minLength", "maxLength", "length",
                           lambda n: "a" * n)
        pattern_a, pattern_b = a.get("pattern"), b.get("pattern")
        if isinstance(pattern_b, str) and pattern_a != pattern_b:
            values = [self.a.example(a), "", "a", "0", "A", "a-b", "x" * 8, "a b"]
            values += [v for k in ("examples", "enum") if isinstance(a.get(k), list)
                       for v in a[k] if isinstance(v, str)]
            was = f"`{pattern_a}`" if isinstance(pattern_a, str) else "none"
            out.append(Difference("pattern", ap, bp, f"{{b}} has pattern `{pattern_b}` ({{a}}: "
                                  f"{was})",
                                  tuple(wrap(v) for v in values if v is not NOTHING),
                                  "whether every string of the old pattern matches the new "
                                  "one is not decided"))
        return out

    def _arrays(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                wrap: Wrap, depth: int) -> list[Difference]:
        out = self._counts(a, ap, b, bp, wrap, "minItems", "maxItems", "item count",
                           lambda n: [self.a.example(a.get("items", True))] * n)
        if b.get("uniqueItems") is True and a.get("uniqueItems") is not True:
            item = self.a.example(a.get("items", True))
            if item is not NOTHING:
                out.append(Difference("bound", ap, bp, "{b} requires unique items",
                                      (wrap([item, item]),)))
        prefix_a, prefix_b = _list(a.get("prefixItems")), _list(b.get("prefixItems"))
        items_a, items_b = a.get("items", True), b.get("items", True)
        for i in range(max(len(prefix_a), len(prefix_b))):
            sub_a = prefix_a[i] if i < len(prefix_a) else items_a
            sub_b = prefix_b[i] if i < len(prefix_b) else items_b
            where_a = (*ap, "prefixItems", i) if i < len(prefix_a) else (*ap, "items")
            where_b = (*bp, "prefixItems", i) if i < len(prefix_b) else (*bp, "items")
            out += self.compare(sub_a, where_a, sub_b, where_b,
                                self._in_array(a, wrap, i), depth)
        if "items" in b or "items" in a:
            at = max(len(prefix_a), len(prefix_b))
            out += self.compare(items_a, (*ap, "items"), items_b, (*bp, "items"),
                                self._in_array(a, wrap, at), depth)
        return out

    def _objects(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path,
                 wrap: Wrap, depth: int) -> list[Difference]:
        out = self._counts(a, ap, b, bp, wrap, "minProperties", "maxProperties",
                           "property count", lambda n: {f"k{i}": "x" for i in range(n)})
        props_a = _dict(a.get("properties"))
        props_b = _dict(b.get("properties"))
        extra_a = a.get("additionalProperties", True)
        extra_b = b.get("additionalProperties", True)
        required_a = set(_names(a.get("required")))
        for name in _names(b.get("required")):
            if name in required_a:
                continue
            value = self.a.object_with(a, {}, omit=name)
            how = "optional in {a}" if name in props_a else "not a property of {a}"
            out.append(Difference("required", (*ap, "properties", name) if name in props_a
                                  else ap, (*bp, "required"),
                                  f"`{name}` is required by {{b}} ({how})",
                                  () if value is NOTHING else (wrap(value),)))
        for name, sub_a in props_a.items():
            inner = self._in_object(a, name, wrap)
            where_a = (*ap, "properties", name)
            if name in props_b:
                out += self.compare(sub_a, where_a, props_b[name], (*bp, "properties", name),
                                    inner, depth)
            elif extra_b is False:
                value = self.a.example(sub_a)
                out.append(Difference("closed", where_a, (*bp, "additionalProperties"),
                                      f"`{name}` is refused by {{b}}",
                                      () if value is NOTHING else (inner(value),)))
            elif extra_b is not True:
                out += self.compare(sub_a, where_a, extra_b, (*bp, "additionalProperties"),
                                    inner, depth)
        key = _free_key(props_a, props_b)
        for name, sub_b in props_b.items():
            if name in props_a or extra_a is False:
                continue
            inner = self._in_object(a, name, wrap)
            if extra_a is True or extra_a == {}:
                values = tuple(inner(v) for v in refused_values(sub_b, self.b))
                out.append(Difference("constrained", ap, (*bp, "properties", name),
                                      f"`{name}` takes any value in {{a}}, only what its "
                                      "schema allows in {b}", values))
            else:
                out += self.compare(extra_a, (*ap, "additionalProperties"), sub_b,
                                    (*bp, "properties", name), inner, depth)
        if extra_a is not False and extra_b is not True and extra_b != {}:
            inner = self._in_object(a, key, wrap)
            if extra_b is False:
                value = self.a.example(extra_a)
                out.append(Difference("closed", ap, (*bp, "additionalProperties"),
                                      "keys not listed in `properties` are refused by {b}",
                                      () if value is NOTHING else (inner(value),)))
            elif extra_a is True or extra_a == {}:
                out.append(Difference("constrained", ap, (*bp, "additionalProperties"),
                                      "keys not listed take any value in {a}, only what "
                                      "`additionalProperties` allows in {b}",
                                      tuple(inner(v) for v in refused_values(extra_b, self.b))))
            else:
                out += self.compare(extra_a, (*ap, "additionalProperties"), extra_b,
                                    (*bp, "additionalProperties"), inner, depth)
        return out

    # --- helpers ----------------------------------------------------------------------------

    def _counts(self, a: dict[str, Any], ap: Path, b: dict[str, Any], bp: Path, wrap: Wrap,
                low_key: str, high_key: str, word: str, make: Callable[[int], Any]
                ) -> list[Difference]:
        out: list[Difference] = []
        for key, sign in ((low_key, -1), (high_key, 1)):
            old: Any = a.get(key)
            new: Any = b.get(key)
            if not _count(new) or (_count(old) and (old >= new if sign < 0 else old <= new)):
                continue
            edge = new + sign
            if edge < 0 or edge > 10_000:
                continue
            value = make(edge)
            ok = not (isinstance(value, list) and NOTHING in value)
            out.append(Difference("bound", ap, bp,
                                  f"{{b}} says {'minimum' if sign < 0 else 'maximum'} {word} "
                                  f"{new} ({{a}}: {old if _count(old) else 'none'})",
                                  (wrap(value),) if ok else ()))
        return out

    def _examples(self, a: Any, wrap: Wrap) -> tuple[Any, ...]:
        value = self.a.example(a)
        return () if value is NOTHING else (wrap(value),)

    def _in_object(self, node: dict[str, Any], name: str, wrap: Wrap) -> Wrap:
        a = self.a

        def inner(value: Any) -> Any:
            made = a.object_with(node, {name: value})
            return wrap(made if made is not NOTHING else {name: value})
        return inner

    def _in_array(self, node: dict[str, Any], wrap: Wrap, at: int) -> Wrap:
        a = self.a

        def inner(value: Any) -> Any:
            made = a.example_of_type(node, "array")
            items = list(made) if isinstance(made, list) else []
            filler = a.example(node.get("items", True))
            while len(items) < at:
                items.append(filler if filler is not NOTHING else None)
            items[at:at + 1] = [value]
            return wrap(items)
        return inner


def _union(node: dict[str, Any]) -> tuple[str, list[Any]] | None:
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list):
            return key, node[key]
    return None


def _constrains(node: dict[str, Any]) -> bool:
    return any(k not in ANNOTATIONS for k in node)


def _disjoint(branches: list[Any]) -> bool:
    """Whether no value can match two of `branches`, told by their types or by one property
    every branch fixes to different values (a discriminator)."""
    nodes = [b for b in branches if isinstance(b, dict)]
    if len(nodes) != len(branches):
        return False
    types = [types_of(n) for n in nodes]
    if all(t is not None for t in types):
        seen: set[str] = set()
        clash = False
        for t in types:
            assert t is not None
            widened = set(t) | ({"integer"} if "number" in t else set())
            widened |= {"number"} if "integer" in t else set()
            if seen & widened:
                clash = True
            seen |= widened
        if not clash:
            return True
    for name in _dict(nodes[0].get("properties")):
        fixed = []
        for n in nodes:
            sub = _dict(n.get("properties")).get(name)
            listed = enumerated(sub) if isinstance(sub, dict) else None
            if listed is None or name not in _names(n.get("required")):
                break
            fixed.append({json.dumps(v, sort_keys=True) for v in listed})
        else:
            if all(not (x & y) for i, x in enumerate(fixed) for y in fixed[i + 1:]):
                return True
    return False


def _values_text(values: list[Any], most: int = 5) -> str:
    shown = ", ".join(show(v, 30) for v in values[:most])
    return shown + (f" and {len(values) - most} more" if len(values) > most else "")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _names(value: Any) -> list[str]:
    return [n for n in value if isinstance(n, str)] if isinstance(value, list) else []


def _num(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _free_key(*taken: dict[str, Any]) -> str:
    key = "unlisted_key"
    while any(key in t for t in taken):
        key += "_"
    return key
