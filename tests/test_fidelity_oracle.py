"""The semantic oracle (tests/oracle) on pairs whose effect is known by hand.

The oracle decides what a transform did to the set of accepted arguments without asking the
package; these tests hold it to pairs written here, so that a blind spot in its generator or
its reading of a dialect shows up as a failure, not as a silent "equal".
"""

from __future__ import annotations

from typing import Any

import pytest
from oracle.dialect import as_json_schema
from oracle.measure import NOTHING, combine, consistent, measure

OBJ: dict[str, Any] = {"type": "object", "properties": {"n": {"type": "integer"}}}


def _with(**n: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"n": {"type": "integer", **n}}}


@pytest.mark.parametrize(("original", "transformed", "profile", "effect"), [
    (_with(maximum=1000), _with(), "openai", "wider"),
    (_with(), _with(maximum=1000), "openai", "narrower"),
    (OBJ, {**OBJ, "additionalProperties": False}, "openai-strict", "narrower"),
    ({**OBJ, "additionalProperties": False}, OBJ, "gemini", "wider"),
    (_with(exclusiveMinimum=0), _with(minimum=1), "gemini", "equal"),
    (_with(exclusiveMinimum=0), _with(minimum=0), "openai", "wider"),
    ({"type": "object", "properties": {"n": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
     {"type": "object", "properties": {"n": {"type": "string", "nullable": True}}},
     "gemini", "equal"),
    # the same `nullable` read as plain JSON Schema says nothing: null is refused
    ({"type": "object", "properties": {"n": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
     {"type": "object", "properties": {"n": {"type": "string", "nullable": True}}},
     "openai", "narrower"),
    ({"type": "object", "properties": {"n": {"type": "string", "enum": ["a", "b"]}}},
     {"type": "OBJECT", "properties": {"n": {"type": "STRING", "enum": ["a", "b"]}}},
     "gemini", "equal"),
    ({"type": "object", "properties": {"n": {"type": ["string", "integer"]}}},
     {"type": "object", "properties": {"n": {"type": "string"}}}, "gemini", "narrower"),
    ({"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}},
     {"type": "object", "properties": {"n": {"type": "string", "enum": ["1", "2"]}}},
     "gemini", "changed"),
    ({"type": "object", "properties": {"p": {"$ref": "#/$defs/B"}}, "required": ["p"],
      "$defs": {"B": {"type": "object", "properties": {"id": {"type": "string"}},
                      "required": ["id"]}}},
     {"type": "object", "properties": {"p": {"type": "object",
                                             "properties": {"id": {"type": "string"}},
                                             "required": ["id"]}}, "required": ["p"]},
     "gemini", "equal"),
    ({"type": "object", "properties": {"p": {"type": "object", "properties": {
        "id": {"type": "string"}}, "required": ["id"], "minProperties": 1}}},
     {"type": "object", "properties": {"p": {"type": "object", "properties": {
         "id": {"type": "string"}}, "required": ["id"], "minProperties": "1"}}},
     "gemini", "equal"),
])
def test_oracle_measures_known_pairs(original: Any, transformed: Any, profile: str,
                                     effect: str) -> None:
    measured = measure(original, transformed, profile, examples=200)
    assert measured.effect == effect, measured


def test_oracle_names_the_argument_that_tells_the_sides_apart() -> None:
    measured = measure(_with(maximum=1000), _with(), "openai", examples=200)
    assert measured.lost is NOTHING
    assert measured.gained["n"] > 1000


def test_nullable_beside_an_enum_or_a_reference_reads_as_null_or_the_node() -> None:
    node = {"type": "STRING", "enum": ["a"], "nullable": True}
    assert as_json_schema(node, "gemini") == {
        "anyOf": [{"type": "null"}, {"type": "string", "enum": ["a"]}]}
    assert as_json_schema(node, "openai") is node  # JSON Schema already: read as it is


D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
DEPENDS: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"},
                                                            "b": {"type": "string"}}}


@pytest.mark.parametrize(("original", "transformed", "profile", "effect"), [
    # draft-04: `exclusiveMinimum: true` makes `minimum` exclusive
    ({"$schema": D4, **_with(minimum=0, exclusiveMinimum=True)}, _with(exclusiveMinimum=0),
     "openai", "equal"),
    ({"$schema": D4, **_with(minimum=0, exclusiveMinimum=True)}, _with(minimum=0),
     "openai", "wider"),
    # draft-07 `dependencies`: the same keyword read as 2020-12 (its `$schema` gone) is
    # ignored, which accepts {"a": "x"}; `dependentRequired` says it in 2020-12
    ({"$schema": D7, **DEPENDS, "dependencies": {"a": ["b"]}},
     {**DEPENDS, "dependencies": {"a": ["b"]}}, "gemini-json", "wider"),
    ({"$schema": D7, **DEPENDS, "dependencies": {"a": ["b"]}},
     {**DEPENDS, "dependentRequired": {"a": ["b"]}}, "gemini-json", "equal"),
    # the output is read as 2020-12 whatever its own `$schema` says, as providers read it
    ({"$schema": D7, **DEPENDS, "dependencies": {"a": ["b"]}},
     {"$schema": D7, **DEPENDS, "dependencies": {"a": ["b"]}}, "openai", "wider"),
])
def test_the_original_is_read_by_the_draft_it_declares(original: Any, transformed: Any,
                                                       profile: str, effect: str) -> None:
    measured = measure(original, transformed, profile, examples=200)
    assert measured.effect == effect, measured


def test_effects_combine_and_compare_as_sets_do() -> None:
    assert combine([]) == "equal"
    assert combine(["equal", "narrower"]) == "narrower"
    assert combine(["narrower", "wider"]) == "changed"
    assert consistent("changed", "narrower") and consistent("wider", "equal")
    assert not consistent("equal", "wider") and not consistent("narrower", "wider")
    assert not consistent("wider", "changed")
