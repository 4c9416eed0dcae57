"""`nullable` in the exact merge (schema/merge.py) and its two callers: the `allOf` merge
(UNI004, `all_of_merge.all_of_exact`) and the `$ref`-sibling inliner (`inliner.with_siblings`).

`nullable: true` adds null to what its part accepts (OpenAPI, as the type-list and
null-union rules write it), so two parts that must both hold take null only where both do;
a `nullable: true` without a `type` beside a `$ref` or `allOf` says "or null" of the node
(what `anyOf [X, null]` becomes) and stays. End to end, the original is judged as JSON
Schema 2020-12 and the output in the profile's dialect (tests/oracle/dialect.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from oracle.dialect import as_json_schema

from schema_compat.api import transform
from schema_compat.schema.all_of_merge import all_of_exact
from schema_compat.schema.inliner import with_siblings
from schema_compat.schema.merge import merge_exact


def _merged(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any] | None:
    found = merge_exact(first, second)
    return None if found is None else found.node


@pytest.mark.parametrize(("first", "second", "expected"), [
    # null only where both parts take it
    ({"type": "string", "nullable": True}, {"type": "string"}, {"type": "string"}),
    ({"type": "string"}, {"type": "string", "nullable": True}, {"type": "string"}),
    ({"type": "string", "nullable": True}, {"type": ["string", "null"]},
     {"type": "string", "nullable": True}),
    ({"type": "number", "nullable": True}, {"type": "null"}, {"type": "null"}),
    ({"type": "integer", "nullable": True}, {"type": "number", "nullable": True},
     {"type": "integer", "nullable": True}),
    # a part without a type refuses null by its enum or const, else lets it through
    ({"type": "string", "nullable": True}, {"enum": ["a"]},
     {"type": "string", "enum": ["a"]}),
    ({"type": "string", "nullable": True}, {"enum": ["a", None]},
     {"type": "string", "nullable": True, "enum": ["a", None]}),
    ({"type": "string", "nullable": True}, {"minLength": 2},
     {"type": "string", "nullable": True, "minLength": 2}),
    # a union that refuses null: `nullable` goes, the union stays
    ({"type": "string", "nullable": True}, {"anyOf": [{"type": "string"}, {"type": "integer"}]},
     {"type": "string", "anyOf": [{"type": "string"}, {"type": "integer"}]}),
    ({"type": "string", "nullable": True},
     {"anyOf": [{"type": "string"}, {"type": "integer", "nullable": True}]},
     {"type": "string", "nullable": True,
      "anyOf": [{"type": "string"}, {"type": "integer", "nullable": True}]}),
    # where a part may or may not take null, `nullable` beside it cannot be written
    ({"type": "string", "nullable": True}, {"$ref": "#/$defs/S"}, None),
    # nothing left: not the merge's to write (the enum's null was `nullable`'s)
    ({"type": "null"}, {"enum": ["a"], "nullable": True}, None),
    ({"type": "string", "nullable": True}, {"type": "integer"}, None),
    # without `nullable`, types as before
    ({"type": ["string", "null"]}, {"type": "string"}, {"type": "string"}),
    ({"type": ["string", "null"]}, {"minLength": 1}, {"type": ["string", "null"], "minLength": 1}),
])
def test_merge_intersects_nullable(first: dict[str, Any], second: dict[str, Any],
                                   expected: dict[str, Any] | None) -> None:
    assert _merged(first, second) == expected
    if expected is not None:  # the same values whichever part comes first
        swapped = _merged(second, first)
        assert swapped is not None
        assert {k: v for k, v in swapped.items()} == expected


@pytest.mark.parametrize(("first", "second", "expected"), [
    # bounds: the tighter of each; an enum: the values both list (1 is 1.0, true is not 1)
    ({"type": "integer", "minimum": 1, "maximum": 10}, {"minimum": 3, "maximum": 20},
     {"type": "integer", "minimum": 3, "maximum": 10}),
    ({"enum": [1, 2, "a"]}, {"enum": [1.0, "a", True]}, {"enum": [1, "a"]}),
    # objects: a closed part closes the merge; a property both describe holds both
    ({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
     {"type": "object", "additionalProperties": {"type": "string"}},
     {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}),
    ({"type": "object", "properties": {"a": {"type": "string"}}},
     {"type": "object", "properties": {"a": {"minLength": 2}}},
     {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}),
    ({"type": "object", "additionalProperties": {"type": "string"}},
     {"type": "object", "properties": {"b": {"maxLength": 3}}},
     {"type": "object", "additionalProperties": {"type": "string"},
      "properties": {"b": {"type": "string", "maxLength": 3}}}),
    # two schemas for the other keys cannot be written as one
    ({"type": "object", "additionalProperties": {"type": "string"}},
     {"type": "object", "additionalProperties": {"type": "integer"}}, None),
])
def test_merge_takes_what_both_parts_allow(first: dict[str, Any], second: dict[str, Any],
                                          expected: dict[str, Any] | None) -> None:
    assert _merged(first, second) == expected
    if expected is not None:  # the merge accepts exactly what both parts do
        both = {"allOf": [first, second]}
        for value in (1, 3, 10, 11, "a", "abcd", {"a": "xy"}, {"a": "x"}, {"b": "abcd"},
                      {"b": "ab"}, {"c": 1}, {"c": "s"}):
            assert Draft202012Validator(expected).is_valid(value) == \
                Draft202012Validator(both).is_valid(value), value


@pytest.mark.parametrize(("node", "expected"), [
    # a way of taking branches that are all `{}`: anything
    ({"allOf": [{"anyOf": [{}, {"type": "string"}]}, {"anyOf": [{}, {"type": "integer"}]}]},
     {"anyOf": [{}, {"type": "integer"}, {"type": "string"}]}),
    # a way through a `false` branch, or through disjoint branches, is no way
    ({"allOf": [{"anyOf": [False, {"type": "string"}]},
                {"anyOf": [{"minLength": 2}, {"type": "integer"}]}]},
     {"anyOf": [{"type": "string", "minLength": 2}]}),
    # 9 x 9 x 9 ways: more than are written out
    ({"allOf": [{"anyOf": [{"type": "string", "minLength": n} for n in range(9)]}] * 3}, None),
])
def test_all_of_crosses_the_unions_its_branches_hold(node: dict[str, Any],
                                                    expected: dict[str, Any] | None) -> None:
    found = all_of_exact(node)
    assert (None if found is None else found.node) == expected
    if expected is not None:
        for value in ("", "ab", 1, None, [], {}):
            assert Draft202012Validator(expected).is_valid(value) == \
                Draft202012Validator(node).is_valid(value), value


def test_all_of_branch_nullable_needs_every_branch() -> None:
    found = all_of_exact({"allOf": [{"type": "string", "nullable": True}, {"type": "string"}]})
    assert found is not None and found.node == {"type": "string"}


def test_all_of_own_untyped_nullable_says_or_null() -> None:
    # `anyOf [allOf [...], null]` after the null-union rule: the node, or null
    found = all_of_exact({"nullable": True, "allOf": [{"type": "string"}, {"minLength": 2}]})
    assert found is not None
    assert found.node == {"type": "string", "minLength": 2, "nullable": True}


def test_all_of_own_typed_nullable_is_intersected() -> None:
    # `{type: [string, null], allOf: [{type: string}]}` after the type-list rule
    found = all_of_exact({"type": "string", "nullable": True, "allOf": [{"type": "string"}]})
    assert found is not None and found.node == {"type": "string"}


def test_ref_sibling_nullable_is_kept() -> None:
    node, _ = with_siblings({"type": "object", "properties": {"a": {"type": "string"}}},
                            {"nullable": True}, "#/$defs/X")
    assert node == {"type": "object", "properties": {"a": {"type": "string"}},
                    "nullable": True}


def test_ref_sibling_nullable_is_kept_when_the_parts_stay_apart() -> None:
    body = {"type": "string", "pattern": "a"}
    node, detail = with_siblings(body, {"nullable": True, "pattern": "b"}, "#/$defs/X")
    assert node == {"allOf": [body, {"pattern": "b"}], "nullable": True}
    assert "under `allOf`" in detail


def test_ref_sibling_typed_nullable_is_intersected() -> None:
    # `{$ref, type: [string, null]}` after the type-list rule, the target refusing null
    node, _ = with_siblings({"type": "string"}, {"type": "string", "nullable": True},
                            "#/$defs/X")
    assert node == {"type": "string"}


def _judged(schema: dict[str, Any], profile: str, args: list[Any]
            ) -> list[tuple[bool, bool]]:
    result = transform([{"name": "t", "description": "A tool.", "inputSchema": schema}],
                       profile)[0]
    assert all(c.safety == "lossless" for c in result.changes), result.changes
    before = Draft202012Validator(schema)
    after = Draft202012Validator(as_json_schema(result.transformed_schema, profile))
    return [(before.is_valid({"v": a}), after.is_valid({"v": a})) for a in args]


@pytest.mark.parametrize("profile", ["gemini", "vertex", "portable"])
def test_nullable_reference_keeps_null_end_to_end(profile: str) -> None:
    schema = {"type": "object", "properties": {"v": {"anyOf": [
        {"$ref": "#/$defs/X"}, {"type": "null"}]}},
        "$defs": {"X": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    assert _judged(schema, profile, [None, {"a": "x"}, "s"]) == [
        (True, True), (True, True), (False, False)]


@pytest.mark.parametrize("profile", ["gemini", "vertex", "portable"])
def test_ref_sibling_type_list_refused_by_target_end_to_end(profile: str) -> None:
    schema = {"type": "object", "properties": {"v": {
        "$ref": "#/$defs/X", "type": ["string", "null"]}},
        "$defs": {"X": {"type": "string", "minLength": 2}}}
    assert _judged(schema, profile, [None, "ab", "a"]) == [
        (False, False), (True, True), (False, False)]


@pytest.mark.parametrize("profile", ["gemini", "vertex", "portable"])
def test_all_of_null_in_one_branch_end_to_end(profile: str) -> None:
    schema = {"type": "object", "properties": {"v": {"allOf": [
        {"type": ["string", "null"]}, {"type": "string", "maxLength": 3}]}}}
    assert _judged(schema, profile, [None, "ab", "abcd"]) == [
        (False, False), (True, True), (False, False)]
