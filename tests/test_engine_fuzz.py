"""Random schema-shaped JSON through every profile: transform never raises, leaves
no error finding (a refused reference expansion and a `type` naming no JSON type aside) and
is idempotent; for `gemini` and
`portable`, no error finding means google-genai's Schema accepts the output."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_transform_invariants import assert_gemini_parameters

from schema_compat.engine import run
from schema_compat.engine import transform as engine_transform
from schema_compat.model import ToolDef, written_dialect
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


def _written(profile: str) -> str:
    """The dialect the profile's output is in: read back as written (gemini's `nullable`)."""
    return written_dialect(PROFILES[profile].nullable_keyword)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)))
def test_transform_never_raises_and_reaches_a_fixpoint(schema: Any, profile: str) -> None:
    result = run([ToolDef("t", schema)], profile)[0]
    json.dumps(result.transformed_schema)
    # a refused reference expansion, and a `type` naming no JSON type (a typo has no fix:
    # issue 28 #18), stay
    errors = [f for f in result.remaining if f.severity == "error" and f.code != "REF006"
              and not (f.code == "TYP003" and f.fix_safety is None)]
    assert errors == []
    again = run([ToolDef("t", result.transformed_schema, dialect=_written(profile))], profile)[0]
    assert again.transformed_schema == result.transformed_schema
    if profile in ("gemini", "portable") and not any(f.severity == "error"
                                                     for f in result.remaining):
        assert_gemini_parameters(result.transformed_schema, "t")


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)))
def test_lossless_only_never_raises_and_reaches_a_fixpoint(schema: Any, profile: str) -> None:
    """With lossy fixes refused, junk stays in the schema while other fixes run around it."""
    result = run([ToolDef("t", schema)], profile, lossless_only=True)[0]
    json.dumps(result.transformed_schema)
    again = run([ToolDef("t", result.transformed_schema, dialect=_written(profile))], profile,
                lossless_only=True)[0]
    assert again.transformed_schema == result.transformed_schema


@pytest.mark.parametrize("profile", ["gemini", "portable"])
def test_a_union_of_malformed_objects_is_not_merged(profile: str) -> None:
    """Found by hypothesis: `properties: true` in object branches crashed the union merge
    when the malformed-keyword fix (lossy) was refused. The junk is reported instead.
    (Lossless-only refuses the tuple's and the union's fixes too, which widen: the union is
    written out here, and the malformed-keyword rule is left out to let the merge meet it.)"""
    union = {"anyOf": [{"properties": None}, {"properties": True}]}
    schema = {"type": "object", "properties": {"p": {"type": "array", "items": union}}}
    result = run([ToolDef("t", schema)], profile, lossless_only=True)[0]
    junk = {f.path for f in result.remaining if f.code == "TYP008"}
    at = ("properties", "p", "items", "anyOf")
    assert junk == {(*at, 0, "properties"), (*at, 1, "properties")}
    unmerged = run([ToolDef("t", schema)], profile, ignore=["TYP008"])[0]
    kept = unmerged.transformed_schema["properties"]["p"]["items"]["anyOf"]
    assert [b["properties"] for b in kept] == [None, True]
    assert any(f.code == "UNI003" for f in unmerged.remaining)


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


def _containers_at_two_places(doc: Any) -> list[Any]:
    seen: set[int] = set()
    twice = []
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list)):
            if id(node) in seen:
                twice.append(node)
            seen.add(id(node))
            stack.extend(node.values() if isinstance(node, dict) else node)
    return twice


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)), st.booleans())
def test_the_transformed_schema_has_each_object_at_one_place(
        schema: Any, profile: str, lossless_only: bool) -> None:
    """The passes rewrite the working copy in place, so a fix must not put one object at
    two places (each place would be rewritten with the change recorded at one)."""
    result = run([ToolDef("t", schema)], profile, lossless_only=lossless_only)[0]
    assert _containers_at_two_places(result.transformed_schema) == []


def test_siblings_pushed_into_union_branches_are_fixed_in_each_on_the_record() -> None:
    """Found by review: UNI007 gave every branch the same `items` object; the next pass
    fixed it in place in the first branch, and the second branch changed with no record
    (and, with findings reused on moved nodes, was left unfixed)."""
    # (the type list splits into an `anyOf` in the pass that pushes `items` into the
    # branches; its integer branch's exclusive bound is fixed in the next, in each copy)
    schema = {"type": "object", "properties": {"p": {
        "anyOf": [{"type": "array"}, {"type": "array", "minItems": 1}],
        "items": {"type": ["string", "integer"], "exclusiveMaximum": 9}}}}
    result = run([ToolDef("t", schema)], "vertex")[0]
    fixed = {c.path for c in result.changes if c.code == "CON001"}
    for branch in (0, 1):
        items = ("properties", "p", "anyOf", branch, "items")
        assert (*items, "anyOf", 1, "exclusiveMaximum") in fixed
        assert result.transformed_schema["properties"]["p"]["anyOf"][branch]["items"] == {
            "anyOf": [{"type": "string"}, {"type": "integer", "maximum": 8}]}
    assert run([ToolDef("t", result.transformed_schema, dialect=_written("vertex"))],
               "vertex")[0].changes == ()


def test_a_subschema_shared_by_two_places_is_fixed_at_both_on_the_record() -> None:
    """Found by review: a library caller's document with one dict at two places was
    rewritten in place at both, with the change recorded at one."""
    shared = {"anyOf": [{"type": "object", "properties": {"x": {"type": ["string", "integer"]}}},
                        {"type": "null"}]}
    schema = {"type": "object", "properties": {"a": shared, "b": shared}}
    before = json.dumps(schema)
    result = run([ToolDef("t", schema)], "gemini")[0]
    assert json.dumps(schema) == before  # the caller's document is left alone
    typ001 = {c.path[:2] for c in result.changes if c.code == "TYP001"}
    assert typ001 == {("properties", "a"), ("properties", "b")}
    assert _containers_at_two_places(result.transformed_schema) == []


def test_a_shared_subschema_is_fixed_at_both_places_after_a_document_fix() -> None:
    """Found by review: REF008's fix (a required recursion made optional) copied the
    document keeping the caller's shared objects, so what followed was rewritten at both
    places with the change recorded at one."""
    shared = {"type": "object",
              "properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}
    schema = {"type": "object", "required": ["node"],
              "properties": {"a": shared, "b": shared, "node": {"$ref": "#/$defs/N"}},
              "$defs": {"N": {"type": "object", "required": ["next"],
                              "properties": {"next": {"$ref": "#/$defs/N"}}}}}
    result = run([ToolDef("t", schema)], "gemini-json")[0]
    assert "REF008" in {c.code for c in result.changes}
    places = {c.path[:2] for c in result.changes if c.code == "UNI004"}
    assert places == {("properties", "a"), ("properties", "b")}
    assert _containers_at_two_places(result.transformed_schema) == []


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(SCHEMAS, st.sampled_from(sorted(PROFILES)), st.booleans())
def test_every_pass_works_on_a_document_with_each_object_at_one_place(
        schema: Any, profile: str, lossless_only: bool) -> None:
    """What the passes are handed and what they leave, not only the output (a shared
    object dropped with `$defs` would leave no trace in it)."""
    real = engine_transform.node_pass
    seen: list[Any] = []

    def checked(root: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(_containers_at_two_places(root))
        result = real(root, *args, **kwargs)
        seen.append(_containers_at_two_places(result[0]))
        return result

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine_transform, "node_pass", checked)
        run([ToolDef("t", schema)], profile, lossless_only=lossless_only)
    assert not any(seen)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_outputs_have_each_object_at_one_place_on_the_corpus_and_generated_models(
        profile: str) -> None:
    """As above, over real listings and Pydantic-style models (references with siblings:
    REF009's one-level inlining once shared the definition's objects)."""
    from test_rule_gates import _corpus_schemas

    from benchmarks.generate import pydantic_schemas

    schemas = _corpus_schemas() + pydantic_schemas(80)
    results = run([ToolDef(f"t{i}", s) for i, s in enumerate(schemas)], profile)
    shared = [r.tool.name for r in results if _containers_at_two_places(r.transformed_schema)]
    assert shared == []
