"""One schema document as `breaking` reads it: its references followed, its accepted values
tested (validation.py: jsonschema, with the server's patterns run in bounded time), and small
values made that it accepts.

The comparer (compare.py) guesses where two documents differ; every guess it turns into a
claim is a value made here and tested here against both whole documents with jsonschema.
So the examples need not be exact (a wrong one costs a try, never a false verdict), and
the test is the only judge.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..model import Path
from ..paths import parse_pointer
from ..schema.merge import merge_exact
from ..schema.refs import RefResolver
from ..schema.shape import value_type

NOTHING: Any = object()  # no value could be made (a false schema, a recursion too deep)
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "example",
                         "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id",
                         "$anchor", "$defs", "definitions", "format"})
_ALL_TYPES = ("object", "string", "integer", "number", "boolean", "array", "null")
_FORMATS = {"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05",
            "uri": "https://example.com/a", "url": "https://example.com/a",
            "email": "a@example.com", "uuid": "00000000-0000-0000-0000-000000000000",
            "ipv4": "127.0.0.1", "hostname": "example.com", "duration": "P1D"}
_DEPTH = 40


class Document:
    """A schema document: `root`, its local references, and a validator that never fetches."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.refs = RefResolver(root)
        self._validator: Any = None

    # --- references ---------------------------------------------------------------------

    def deref(self, node: Any, path: Path) -> tuple[Any, Path]:
        """`node` with its `$ref` followed (a chain too), and where the target stands; a
        `$ref` beside other keywords is merged with its target when that is exact, else
        kept as `allOf` of the two. An unresolvable reference stays as it is."""
        for _ in range(64):
            if not (isinstance(node, dict) and "$ref" in node):
                return node, path
            target = self.refs.resolve(node["$ref"])
            if target.kind != "local":
                return node, path
            ref = node["$ref"]
            where: Path = tuple(parse_pointer(ref[1:]) or ()) if ref.startswith("#/") else path
            rest = {k: v for k, v in node.items() if k != "$ref"}
            if any(k not in ANNOTATIONS for k in rest):
                merged = merge_exact(rest, target.node) if isinstance(target.node, dict) else None
                return (merged.node if merged else {"allOf": [target.node, rest]}), path
            node, path = target.node, where
        return node, path

    # --- what it accepts -------------------------------------------------------------------

    def accepts(self, value: Any) -> bool | None:
        """Whether the whole document accepts `value`; None when jsonschema cannot tell
        (a malformed keyword, a reference it cannot follow)."""
        if isinstance(self.root, bool):
            return self.root
        if self._validator is None:
            from ..validation import validator

            # the server's patterns run in bounded time (RE2); references resolve inside
            # the document only, never fetched
            self._validator = validator(self.root) if isinstance(self.root, dict) else None
        if self._validator is None:
            return None
        try:
            return bool(self._validator.is_valid(value))
        except (Exception, RecursionError):
            return None

    # --- values it accepts ------------------------------------------------------------------

    def example(self, node: Any, depth: int = 0) -> Any:
        """A small value `node` accepts, or NOTHING. Exactness is not needed (see above)."""
        node, _ = self.deref(node, ())
        if node is True or node == {}:
            return "x"
        if not isinstance(node, dict) or depth > _DEPTH:
            return NOTHING
        if "const" in node:
            return node["const"]
        if isinstance(node.get("enum"), list) and node["enum"]:
            return node["enum"][0]
        for key in ("default", "example"):
            if key in node:
                return node[key]
        if isinstance(node.get("examples"), list) and node["examples"]:
            return node["examples"][0]
        rest = {k: v for k, v in node.items() if k not in ("allOf", "anyOf", "oneOf")}
        parts = node.get("allOf")
        if isinstance(parts, list):
            merged: Any = rest
            for part in parts:
                part, _ = self.deref(part, ())
                m = merge_exact(merged, part) if isinstance(merged, dict) else None
                if m is None:
                    return self.example(part, depth + 1)
                merged = m.node
            return self.example(merged, depth + 1)
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                for branch in branches:
                    branch, _ = self.deref(branch, ())
                    m = merge_exact(rest, branch) if isinstance(branch, dict) else None
                    value = self.example(m.node if m else branch, depth + 1)
                    if value is not NOTHING:
                        return value
                return NOTHING
        for kind in types_of(node) or _ALL_TYPES:
            value = self.example_of_type(node, kind, depth)
            if value is not NOTHING:
                return value
        return NOTHING

    def example_of_type(self, node: dict[str, Any], kind: str, depth: int = 0) -> Any:
        """A small value of JSON type `kind` that tries to meet `node`'s own keywords."""
        if kind == "null":
            return None
        if kind == "boolean":
            return False
        if kind in ("integer", "number"):
            return number_within(node, kind == "integer")
        if kind == "string":
            return string_within(node)
        if kind == "array":
            items = node.get("items", True)
            prefix: list[Any] = node["prefixItems"] \
                if isinstance(node.get("prefixItems"), list) else []
            out = [self.example(p, depth + 1) for p in prefix]
            low = node.get("minItems", 0) if _is_count(node.get("minItems")) else 0
            while len(out) < low:
                out.append(self.example(items, depth + 1))
            return NOTHING if any(v is NOTHING for v in out) else out
        if kind == "object":
            return self.object_with(node, {}, depth)
        return NOTHING

    def object_with(self, node: Any, given: dict[str, Any], depth: int = 0,
                    omit: str | None = None) -> Any:
        """An object `node` accepts holding `given` (its other required keys made up), and
        without `omit`; NOTHING when a required key's value cannot be made."""
        node, _ = self.deref(node, ())
        if not isinstance(node, dict):
            return dict(given)
        props: dict[str, Any] = node["properties"] \
            if isinstance(node.get("properties"), dict) else {}
        out: dict[str, Any] = {}
        required: list[Any] = node["required"] if isinstance(node.get("required"), list) else []
        for name in required:
            if not isinstance(name, str) or name == omit or name in given or name in out:
                continue
            value = self.example(props.get(name, node.get("additionalProperties", True)),
                                 depth + 1)
            if value is NOTHING:
                return NOTHING
            out[name] = value
        out.update(given)
        return out


def types_of(node: dict[str, Any]) -> tuple[str, ...] | None:
    """The JSON types `node` allows by its `type` (None: any); `integer` is a `number`."""
    declared = node.get("type")
    if isinstance(declared, str):
        return (declared,)
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return tuple(declared)
    return None


def allows_type(types: tuple[str, ...] | None, kind: str) -> bool:
    if types is None:
        return True
    return kind in types or (kind == "integer" and "number" in types)


def number_within(node: dict[str, Any], integer: bool) -> Any:
    low, high = bound(node, "min"), bound(node, "max")
    value: float = 0
    if low is not None:
        value = low[0] + (1 if low[1] and integer else 0.5 if low[1] else 0)
    elif high is not None and high[0] < 0:
        value = high[0] - (1 if high[1] else 0)
    step = node.get("multipleOf")
    if isinstance(step, int | float) and not isinstance(step, bool) and step > 0:
        value = math.ceil(value / step) * step
    if integer:
        value = math.ceil(value)
    return int(value) if float(value).is_integer() else value


def string_within(node: dict[str, Any]) -> str:
    fmt = node.get("format")
    if isinstance(fmt, str) and fmt in _FORMATS and "pattern" not in node:
        return _FORMATS[fmt]
    low: Any = node.get("minLength")
    return "a" * (low if _is_count(low) else 0)


def bound(node: dict[str, Any], side: str) -> tuple[float, bool] | None:
    """The numeric bound on one side: (value, exclusive), the tighter of the two keywords."""
    plain, strict = ("minimum", "exclusiveMinimum") if side == "min" else \
        ("maximum", "exclusiveMaximum")
    found: list[tuple[float, bool]] = []
    for key, exclusive in ((plain, False), (strict, True)):
        v = node.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
            found.append((v, exclusive))
    if not found:
        return None
    pick = max if side == "min" else min
    # at the same value the exclusive bound is the tighter one
    return pick(found, key=lambda b: (b[0], b[1] if side == "min" else not b[1]))


def enumerated(node: dict[str, Any]) -> list[Any] | None:
    if "const" in node:
        return [node["const"]]
    enum = node.get("enum")
    return list(enum) if isinstance(enum, list) else None


def json_key(value: Any) -> Any:
    """A value as JSON compares it: 1 and 1.0 alike, true and 1 not."""
    if isinstance(value, bool) or value is None:
        return (1, value)
    if isinstance(value, int | str):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    return (2, json.dumps(value, sort_keys=True, ensure_ascii=False))


def is_member(value: Any, listed: list[Any]) -> bool:
    key = json_key(value)
    return any(json_key(v) == key for v in listed)


def effective_types(node: dict[str, Any]) -> tuple[str, ...] | None:
    listed = enumerated(node)
    if listed is not None:
        return tuple({value_type(v) for v in listed})
    return types_of(node)


def values_outside(a: dict[str, Any], doc: Document, listed: list[Any]) -> list[Any]:
    """Values `a` may accept that are not in `listed`."""
    values: list[Any] = []
    for kind in types_of(a) or ("string", "integer", "boolean", "null", "object", "array"):
        made = doc.example_of_type(a, kind)
        if made is NOTHING:
            continue
        values.append(made)
        if kind == "string":
            values += [made + "_other", "other"]
        elif kind in ("integer", "number"):
            values += [made + 1, -1, 12345]
        elif kind == "boolean":
            values.append(True)
    return [v for v in values if not is_member(v, listed)]


def refused_values(node: Any, doc: Document) -> list[Any]:
    """Values `node` refuses: one of each type it does not allow, or outside its enum."""
    node, _ = doc.deref(node, ())
    if node is False:
        return ["x"]
    if not isinstance(node, dict):
        return []
    listed = enumerated(node)
    if listed is not None:
        others: list[Any] = ["other", 12345, True, None, {}, []]
        return [v for v in others if not is_member(v, listed)][:3]
    types = types_of(node)
    samples: dict[str, Any] = {"null": None, "boolean": True, "integer": 12345, "number": 0.5,
               "string": "x", "array": [], "object": {}}
    if types is None:
        # no `type` here (a union, an `allOf`): one of each type, and the test against the
        # whole schemas (tools.py) keeps one it refuses
        return list(samples.values())
    return [v for k, v in samples.items() if not allows_type(types, k)][:3]


def on_integers(b: tuple[float, bool] | None, side: str) -> tuple[float, bool] | None:
    """A bound as the inclusive one it is on the integers: > 0 and > 0.5 are >= 1."""
    if b is None:
        return None
    value, exclusive = b
    if side == "min":
        return (math.floor(value) + 1 if exclusive else math.ceil(value)), False
    return (math.ceil(value) - 1 if exclusive else math.floor(value)), False


def is_tighter(old: tuple[float, bool] | None, new: tuple[float, bool], side: str) -> bool:
    if old is None:
        return True
    if side == "min":
        return new[0] > old[0] or (new[0] == old[0] and new[1] and not old[1])
    return new[0] < old[0] or (new[0] == old[0] and new[1] and not old[1])


def bound_text(b: tuple[float, bool], side: str) -> str:
    op = (">" if b[1] else ">=") if side == "min" else ("<" if b[1] else "<=")
    return f"{op} {b[0]:g}"


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000
