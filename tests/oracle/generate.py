"""Candidate arguments for a JSON Schema: a small random generator, and mutations of what it
makes.

The generator need not be exact: every candidate is validated by `jsonschema` against the
schema it came from before it counts as a member of that schema's argument set, so a wrong
guess here costs a sample, never a false verdict. What it must do is reach the edges where a
transform may have moved the boundary: values from a pool gathered from both schemas of a
pair (every `enum`/`const` value, every bound and its neighbours, every property name, string
lengths around the limits), extra properties, nulls, and values of the wrong type.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

NOTHING: Any = object()  # no candidate could be made (a false schema, a recursion too deep)

_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_LENGTHS = ("minLength", "maxLength", "minItems", "maxItems")
_FORMATTED = ("2024-01-02T03:04:05Z", "2024-01-02", "https://example.com/a", "a@example.com",
              "00000000-0000-0000-0000-000000000000", "03:04:05", "P1D", "127.0.0.1")


class Pool:
    """Values worth trying, gathered from the schemas of a pair."""

    def __init__(self) -> None:
        self.names: list[str] = ["extra", "id", "type", "kind", "name"]
        self.strings: list[str] = ["", "a", "x y", "0", "true", "null", *_FORMATTED]
        self.numbers: list[int | float] = [0, 1, -1, 2, 0.5, -0.5, 10**6, -(10**6), 1.5]
        self.values: list[Any] = [None, True, False, [], {}, 0, "", 1.5]

    def gather(self, schema: Any) -> Pool:
        for node in _nodes(schema):
            for key in ("enum", "const", "default", "examples", "example"):
                if key not in node:
                    continue
                found = node[key]
                many = found if key in ("enum", "examples") and isinstance(found, list) else [found]
                for v in many:
                    self._value(v)
            for key in _BOUNDS:
                b = node.get(key)
                if isinstance(b, int | float) and not isinstance(b, bool) and math.isfinite(b):
                    self.numbers.extend((b, b - 1, b + 1, b - 0.5, b + 0.5, b * 2))
            for key in _LENGTHS:
                n = node.get(key)
                if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 300:
                    self.strings.extend("s" * k for k in (max(n - 1, 0), n, n + 1))
            for key in ("properties", "patternProperties"):
                if isinstance(node.get(key), dict):
                    self.names.extend(str(k) for k in node[key])
            if isinstance(node.get("required"), list):
                self.names.extend(r for r in node["required"] if isinstance(r, str))
        self.names = _unique(self.names)
        self.strings = _unique(self.strings)
        self.numbers = _unique(self.numbers)
        return self

    def _value(self, v: Any) -> None:
        self.values.append(v)
        if isinstance(v, str):
            self.strings.append(v)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            self.numbers.append(v)


def _unique(items: list[Any]) -> list[Any]:
    seen: list[Any] = []
    keys: set[str] = set()
    for v in items:
        k = repr((type(v).__name__, v))
        if k not in keys:
            keys.add(k)
            seen.append(v)
    return seen


def _nodes(schema: Any) -> Iterable[dict[str, Any]]:
    """Every dict reachable in `schema`, data keywords' values included (harmless here)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


class Generator:
    """Random instances of one schema document (local `$ref`s followed)."""

    def __init__(self, root: Any, pool: Pool, rng: random.Random, max_depth: int = 7) -> None:
        self.root = root
        self.pool = pool
        self.rng = rng
        self.max_depth = max_depth

    def instance(self) -> Any:
        return self.gen(self.root, 0)

    def gen(self, node: Any, depth: int) -> Any:
        rng = self.rng
        if node is True or node == {}:
            return self.anything(depth)
        if not isinstance(node, dict) or depth > self.max_depth:
            return NOTHING
        if "$ref" in node and isinstance(node["$ref"], str):
            target = self.resolve(node["$ref"])
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return self.all_of([target, rest] if _is_schema_part(rest) else [target], depth + 1)
        if isinstance(node.get("allOf"), list) and node["allOf"]:
            rest = {k: v for k, v in node.items() if k != "allOf"}
            return self.all_of([*node["allOf"], rest], depth + 1)
        for key in ("anyOf", "oneOf"):
            if isinstance(node.get(key), list) and node[key]:
                rest = {k: v for k, v in node.items() if k != key}
                branch = rng.choice(node[key])
                return self.all_of([branch, rest] if _is_schema_part(rest) else [branch],
                                   depth + 1)
        if "const" in node and rng.random() < 0.9:
            return node["const"]
        if isinstance(node.get("enum"), list) and node["enum"] and rng.random() < 0.9:
            return rng.choice(node["enum"])
        return self.typed(node, self.pick_type(node), depth)

    def all_of(self, parts: list[Any], depth: int) -> Any:
        """An instance for several schemas at once: objects merged, else the first part's."""
        out = NOTHING
        for part in parts:
            got = self.gen(part, depth)
            if got is NOTHING:
                if part is False:
                    return NOTHING
                continue
            if out is NOTHING:
                out = got
            elif isinstance(out, dict) and isinstance(got, dict):
                out = {**got, **out} if self.rng.random() < 0.5 else {**out, **got}
        return out

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            return NOTHING
        node = self.root
        for part in ref[1:].split("/")[1:]:
            key = unquote(part).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return False
        return node

    def pick_type(self, node: dict[str, Any]) -> str:
        t = node.get("type")
        if isinstance(t, str):
            return t.lower()
        if isinstance(t, list) and t:
            return str(self.rng.choice(t)).lower()
        if "properties" in node or "required" in node or "additionalProperties" in node:
            return "object"
        if "items" in node or "prefixItems" in node:
            return "array"
        if "minLength" in node or "maxLength" in node or "pattern" in node:
            return "string"
        if any(k in node for k in _BOUNDS):
            return "number"
        return self.rng.choice(_TYPES)

    def typed(self, node: dict[str, Any], t: str, depth: int) -> Any:
        rng, pool = self.rng, self.pool
        if t == "null":
            return None
        if t == "boolean":
            return rng.random() < 0.5
        if t == "integer":
            ints = [int(n) for n in pool.numbers if float(n).is_integer()]
            return rng.choice(ints) if rng.random() < 0.8 else rng.randint(-50, 50)
        if t == "number":
            return rng.choice(pool.numbers) if rng.random() < 0.8 else rng.uniform(-100, 100)
        if t == "string":
            return rng.choice(pool.strings) if rng.random() < 0.8 else "s" * rng.randint(0, 12)
        if t == "array":
            return self.array(node, depth)
        if t == "object":
            return self.object(node, depth)
        return NOTHING

    def array(self, node: dict[str, Any], depth: int) -> Any:
        rng = self.rng
        out: list[Any] = []
        prefix = node.get("prefixItems")
        if isinstance(prefix, list):
            for sub in prefix[:rng.randint(0, len(prefix))] if rng.random() < 0.2 else prefix:
                got = self.gen(sub, depth + 1)
                if got is NOTHING:
                    return out if out else NOTHING
                out.append(got)
        items = node.get("items", True)
        low = node.get("minItems", 0)
        low = low if isinstance(low, int) and 0 <= low <= 5 else 0
        count = max(low, rng.choice((0, 1, 1, 2, 3)))
        for _ in range(count):
            got = self.gen(items, depth + 1)
            if got is NOTHING:
                break
            out.append(got)
        return out

    def object(self, node: dict[str, Any], depth: int) -> Any:
        rng = self.rng
        props = node.get("properties")
        props = props if isinstance(props, dict) else {}
        required = node.get("required")
        required = [r for r in required if isinstance(r, str)] \
            if isinstance(required, list) else []
        out: dict[str, Any] = {}
        for name in required:
            sub = props.get(name, True)
            got = self.gen(sub, depth + 1)
            if got is NOTHING:
                if rng.random() < 0.5:
                    return NOTHING  # a required recursion that cannot end here
                continue
            out[name] = got
        for name, sub in props.items():
            if name in out or rng.random() < 0.4:
                continue
            got = self.gen(sub, depth + 1)
            if got is not NOTHING:
                out[name] = got
        if rng.random() < 0.25:
            name = rng.choice(self.pool.names)
            extra = node.get("additionalProperties", True)
            if name not in out:
                got = self.gen(props.get(name, extra), depth + 1)
                out[name] = self.anything(depth) if got is NOTHING else got
        return out

    def anything(self, depth: int) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.4 or depth > self.max_depth:
            return rng.choice(self.pool.values)
        if roll < 0.6:
            return rng.choice(self.pool.strings)
        if roll < 0.8:
            return rng.choice(self.pool.numbers)
        if roll < 0.9:
            return {rng.choice(self.pool.names): self.anything(depth + 1)}
        return [self.anything(depth + 1)]


def _is_schema_part(rest: dict[str, Any]) -> bool:
    """Whether the keywords beside a `$ref`/union say anything an instance must meet."""
    return any(k not in ("$defs", "definitions", "description", "title", "$schema", "$id",
                         "$comment", "examples", "default") for k in rest)


def mutate(instance: Any, pool: Pool, rng: random.Random) -> Any:
    """A neighbour of `instance`: one place in it changed (a key dropped or added, a value
    replaced by a pool value, null, or a value of another type)."""
    if isinstance(instance, dict) and instance and rng.random() < 0.6:
        key = rng.choice(list(instance))
        roll = rng.random()
        if roll < 0.2:
            return {k: v for k, v in instance.items() if k != key}
        if roll < 0.35:
            return {**instance, rng.choice(pool.names): _leaf(pool, rng)}
        return {**instance, key: mutate(instance[key], pool, rng)}
    if isinstance(instance, list) and instance and rng.random() < 0.6:
        i = rng.randrange(len(instance))
        roll = rng.random()
        if roll < 0.2:
            return instance[:i] + instance[i + 1:]
        if roll < 0.35:
            return [*instance, instance[i]]
        return [*instance[:i], mutate(instance[i], pool, rng), *instance[i + 1:]]
    if isinstance(instance, dict) and rng.random() < 0.5:
        return {**instance, rng.choice(pool.names): _leaf(pool, rng)}
    return _leaf(pool, rng)


def _leaf(pool: Pool, rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(pool.numbers)
    if roll < 0.65:
        return rng.choice(pool.strings)
    if roll < 0.8:
        return None
    return rng.choice(pool.values)
