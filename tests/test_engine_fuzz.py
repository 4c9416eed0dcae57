"""Random schema-shaped JSON through every profile: transform never raises, leaves
no error finding (a refused reference expansion aside) and is idempotent; for `gemini` and
`portable`, no error finding means google-genai's Schema accepts the output."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_transform_invariants import assert_gemini_parameters

from schema_compat.engine import run
from schema_compat.model import ToolDef
from schema_compat.profiles import PROFILES

KEYWORDS = [
    "type", "properties", "items", "anyOf", "oneOf", "allOf", "not", "if", "then", "else",
    "$ref", "$defs", "definitions", "enum", "const", "required", "additionalProperties",
    "patternProperties", "propertyNames", "prefixItems", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format", "pattern", "minItems",
    "uniqueItems", "contains", "default", "examples", "description", "nullable",
    "dependentRequired", "dependencies", "unevaluatedProperties", "x-foo", "$schema",
    "$anchor", "deprecated",
]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(["string", "integer", "number", "object", "array", "boolean", "null",
                     "OBJECT", "int", "any", "enum", "", "#", "#/$defs/A", "#/$defs/B",
                     "#/properties/a", "http://127.0.0.1:9/x", "date-time", "uri", "a", "b"]),
)
SCHEMAS = st.recursive(SCALARS, lambda children: st.one_of(
    st.lists(children, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYWORDS), st.sampled_from(["a", "b", "A", "B"])),
                    children, max_size=6)), max_leaves=40)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)))
def test_transform_never_raises_and_reaches_a_fixpoint(schema: Any, profile: str) -> None:
    result = run([ToolDef("t", schema)], profile)[0]
    json.dumps(result.transformed_schema)
    errors = [f for f in result.remaining if f.severity == "error" and f.code != "REF006"]
    assert errors == []
    again = run([ToolDef("t", result.transformed_schema)], profile)[0]
    assert again.transformed_schema == result.transformed_schema
    if profile in ("gemini", "portable") and not any(f.code == "REF006"
                                                     for f in result.remaining):
        assert_gemini_parameters(result.transformed_schema, "t")


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)))
def test_lossless_only_never_raises_and_reaches_a_fixpoint(schema: Any, profile: str) -> None:
    """With lossy fixes refused, junk stays in the schema while other fixes run around it."""
    result = run([ToolDef("t", schema)], profile, lossless_only=True)[0]
    json.dumps(result.transformed_schema)
    again = run([ToolDef("t", result.transformed_schema)], profile, lossless_only=True)[0]
    assert again.transformed_schema == result.transformed_schema


@pytest.mark.parametrize("profile", ["gemini", "portable"])
def test_a_union_of_malformed_objects_is_not_merged(profile: str) -> None:
    """Found by hypothesis: `properties: true` in object branches crashed the union merge
    when the malformed-keyword fix (lossy) was refused. The junk is reported instead."""
    schema = {"items": [{"properties": None}, {"properties": True}]}
    result = run([ToolDef("t", schema)], profile, lossless_only=True)[0]
    junk = {f.path for f in result.remaining if f.code == "TYP008"}
    assert junk == {("items", "anyOf", 0, "properties"), ("items", "anyOf", 1, "properties")}


def test_nested_defs_are_removed_on_the_record() -> None:
    """Found by hypothesis: a `$defs` block below the root was dropped without a change
    record, and where nothing else was inlined it was not dropped at all (REF002 stood)."""
    result = run([ToolDef("t", {"items": {"$defs": {}}})], "anthropic-strict")[0]
    assert [f.code for f in result.remaining if f.code == "REF002"] == []
    removed = [c for c in result.changes if c.code == "REF002"]
    assert [(c.path, c.safety) for c in removed] == [(("items", "$defs"), "lossless")]
    assert "$defs" not in result.transformed_schema["items"]


def test_defs_removed_where_they_stand_not_in_copies_of_a_target() -> None:
    """A `$defs` inside a reference's target goes with the `$defs` block holding it; it is
    not reported again at each place the target is copied to (which holds a `$ref`)."""
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A"},
                       "c": {"$ref": "#/$defs/A", "$defs": {"Z": {}}}},
        "$defs": {"A": {"type": "object", "$defs": {"B": {"type": "string"}},
                        "properties": {"x": {"$ref": "#/$defs/A/$defs/B"}}}},
    }
    result = run([ToolDef("t", schema)], "gemini")[0]
    removed = sorted(c.path for c in result.changes if c.code == "REF002")
    assert removed == [("$defs",), ("properties", "c", "$defs")]
    assert not [f for f in result.remaining if f.code == "REF002"]
