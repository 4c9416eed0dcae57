"""`json_copy` stands in for `copy.deepcopy` on schemas: it must make the same copy."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from test_engine_fuzz import SCHEMAS

from schema_compat.schema.jsoncopy import json_copy, json_tree_copy


def _same_shape(a: Any, b: Any, seen: dict[int, int]) -> None:
    """Equal, no container shared with the original, and aliasing kept as deepcopy keeps it."""
    assert type(a) is type(b) and a == b
    if isinstance(a, (dict, list)):
        assert a is not b
        assert seen.setdefault(id(a), id(b)) == id(b)
        for x, y in zip(a.values() if isinstance(a, dict) else a,
                        b.values() if isinstance(b, dict) else b, strict=True):
            _same_shape(x, y, seen)


@given(SCHEMAS)
def test_copies_json_like_deepcopy(value: Any) -> None:
    copied = json_copy(value)
    assert copied == copy.deepcopy(value)
    _same_shape(value, copied, {})


def test_a_container_used_twice_stays_one_container_in_the_copy() -> None:
    shared = {"type": "string"}
    doc = {"properties": {"a": shared, "b": shared}, "enum": [[1], [1]]}
    copied = json_copy(doc)
    assert copied["properties"]["a"] is copied["properties"]["b"]
    assert copied["properties"]["a"] is not shared
    copied["properties"]["a"]["type"] = "integer"
    assert shared == {"type": "string"}


def test_other_types_are_copied_by_deepcopy() -> None:
    inner = [1, {"x": 2}]
    doc = {"t": (inner, "s"), "set": {1, 2}}
    copied = json_copy(doc)
    assert copied == doc
    assert copied["t"][0] is not inner and copied["set"] is not doc["set"]


def test_the_tree_copy_gives_each_place_its_own_container() -> None:
    """The transform's working copy: a container met at two places is rewritten in place
    at one of them, so each place needs its own."""
    shared = {"type": "string", "enum": ["a"]}
    doc = {"properties": {"a": shared, "b": shared}, "t": ("x",)}
    copied = json_tree_copy(doc)
    assert copied == doc
    a, b = copied["properties"]["a"], copied["properties"]["b"]
    assert a is not b and a is not shared and a["enum"] is not b["enum"]
    assert copied["t"] == ("x",)


@given(SCHEMAS)
def test_the_tree_copy_is_equal_and_shares_no_container(value: Any) -> None:
    copied = json_tree_copy(value)
    assert copied == value
    containers: list[int] = []
    stack = [copied]
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list)):
            containers.append(id(node))
            stack.extend(node.values() if isinstance(node, dict) else node)
    assert len(containers) == len(set(containers))
