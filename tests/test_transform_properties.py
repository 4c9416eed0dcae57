"""Property tests on well-formed schemas, for several profiles.

`test_engine_fuzz.py` throws schema-shaped junk at the engine; here the schemas are valid JSON
Schema built from the keywords the profiles know (types and type lists, objects, arrays,
unions, `const`/`enum`, bounds, formats, `$defs` with non-recursive `$ref`s, including a DAG of
references), and each comes with instances drawn from its own shape, valid or not.

Asserted for every profile: transform never raises, leaves no error finding, and is
idempotent. Where every change was lossless, the original and the transformed schema accept
exactly the same instances (each direction of "valid under one is valid under the other");
where none was lossy, in the non-strict profiles, what the original accepts stays accepted.
OpenAPI's `nullable: true` (the Gemini profiles' way to say "or null") is read as JSON
Schema's `anyOf [..., {"type": "null"}]` to validate the transformed schema.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle.dialect import output_validator
from test_transform_invariants import assert_gemini_parameters

from schema_compat.engine import run
from schema_compat.model import JSON_SCHEMA, ToolDef, ToolResult, written_dialect
from schema_compat.profiles import get_profile
from schema_compat.rules.registry import RULES
from schema_compat.schema.keywords import (
    MIXED_KEYWORDS,
    SCHEMA_KEYWORDS,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
)

PROFILES = ["gemini", "gemini-json", "vertex", "portable", "openai", "openai-strict",
            "anthropic", "anthropic-strict"]
NAMES = ["a", "b", "id", "kind", "Zeta"]
STRINGS = ["", "a", "ab", "abc", "2024-01-02T03:04:05Z", "x" * 12, "B"]
PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, database=None,
                             suppress_health_check=list(HealthCheck))

# --- schemas -----------------------------------------------------------------------------


def _strings() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"type": st.just("string")}, optional={
        "minLength": st.integers(0, 3), "maxLength": st.integers(1, 6),
        "format": st.sampled_from(["date-time", "uri", "email", "uuid"]),
        "pattern": st.sampled_from(["^a", "b$", "^[a-z]*$"]),
        "enum": st.lists(st.sampled_from(STRINGS), min_size=1, max_size=3, unique=True),
        "description": st.sampled_from(["A string.", "Name"]),
        "default": st.sampled_from(STRINGS), "title": st.just("T"),
    })


def _numbers() -> st.SearchStrategy[dict[str, Any]]:
    bound = st.integers(-3, 3)
    return st.fixed_dictionaries({"type": st.sampled_from(["integer", "number"])}, optional={
        "minimum": bound, "maximum": bound, "exclusiveMinimum": bound,
        "exclusiveMaximum": bound, "multipleOf": st.sampled_from([1, 2, 0.5]),
        "enum": st.lists(st.integers(-3, 3), min_size=1, max_size=3, unique=True),
        "format": st.sampled_from(["int32", "int64", "double"]),
        "default": bound, "examples": st.lists(bound, max_size=2),
    })


def _scalars(refs: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    options = [
        _strings(), _numbers(),
        st.just({"type": "boolean"}), st.just({"type": "null"}),
        st.builds(lambda v: {"const": v}, st.sampled_from([1, "x", True, None, 2.5])),
        st.builds(lambda v: {"enum": v}, st.lists(
            st.sampled_from([1, "x", True, None, "y", 0]), min_size=1, max_size=4,
            unique_by=lambda v: (type(v), v))),
        st.builds(lambda t: {"type": t}, st.lists(
            st.sampled_from(["string", "integer", "number", "boolean", "null"]),
            min_size=1, max_size=3, unique=True)),
        st.just({}),
    ]
    if refs:
        options.append(st.builds(lambda r: {"$ref": f"#/$defs/{r}"}, st.sampled_from(refs)))
    return st.one_of(*options)


def _compound(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    objects = st.builds(
        _object, st.dictionaries(st.sampled_from(NAMES), children, max_size=3),
        st.lists(st.sampled_from(NAMES), max_size=2, unique=True),
        st.sampled_from([None, False, True, "schema"]), children)
    arrays = st.fixed_dictionaries({"type": st.just("array"), "items": children}, optional={
        "minItems": st.integers(0, 2), "maxItems": st.integers(1, 3),
        "uniqueItems": st.booleans()})
    unions = st.builds(lambda k, bs: {k: bs}, st.sampled_from(["anyOf", "oneOf", "allOf"]),
                       st.lists(children, min_size=1, max_size=3))
    nullable = st.builds(lambda c: {"anyOf": [c, {"type": "null"}]}, children)
    return st.one_of(objects, arrays, unions, nullable)


def _object(props: dict[str, Any], required: list[str], extra: Any,
            extra_schema: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "object", "properties": props}
    required = [r for r in required if r in props]
    if required:
        node["required"] = required
    if extra == "schema":
        node["additionalProperties"] = extra_schema
    elif extra is not None:
        node["additionalProperties"] = extra
    return node


def _tree(refs: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.recursive(_scalars(refs), _compound, max_leaves=8)


@st.composite
def schemas(draw: st.DrawFn) -> dict[str, Any]:
    """A root object; `$defs` entries may refer to earlier ones only (a DAG, no cycle)."""
    defs: dict[str, Any] = {}
    for i in range(draw(st.integers(0, 3))):
        defs[f"D{i}"] = draw(_tree(list(defs)))
    props = draw(st.dictionaries(st.sampled_from(NAMES), _tree(list(defs)), max_size=4))
    root = _object(props, draw(st.lists(st.sampled_from(NAMES), max_size=3, unique=True)),
                   draw(st.sampled_from([None, False])), None)
    if defs:
        root["$defs"] = defs
    return root


# --- instances ---------------------------------------------------------------------------

ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-4, 4),
                      st.sampled_from([0.5, -1.5, 2.0, 1e9]), st.sampled_from(STRINGS),
                      st.just({}), st.just([]), st.just({"id": 1}))


def instance(draw: st.DrawFn, schema: Any, root: dict[str, Any], depth: int = 0) -> Any:
    """A value shaped by `schema` (so often valid), sometimes deliberately anything."""
    if depth > 6 or not isinstance(schema, dict) or draw(st.integers(0, 9)) == 0:
        return draw(ANY_VALUE)
    if "$ref" in schema:
        return instance(draw, root["$defs"][schema["$ref"].rsplit("/", 1)[1]], root, depth + 1)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return draw(st.sampled_from(schema["enum"]))
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return instance(draw, draw(st.sampled_from(schema[key])), root, depth + 1)
    t = schema.get("type")
    if isinstance(t, list):
        t = draw(st.sampled_from(t)) if t else None
    if t == "object":
        props = schema.get("properties", {})
        keys = draw(st.lists(st.sampled_from(sorted(props)), unique=True)) if props else []
        value = {k: instance(draw, props[k], root, depth + 1) for k in keys}
        if draw(st.integers(0, 4)) == 0:
            value["extra"] = draw(ANY_VALUE)
        return value
    if t == "array":
        return [instance(draw, schema.get("items"), root, depth + 1)
                for _ in range(draw(st.integers(0, 3)))]
    if t == "string":
        return draw(st.sampled_from(STRINGS))
    if t == "integer":
        return draw(st.integers(-4, 4))
    if t == "number":
        return draw(st.one_of(st.integers(-4, 4), st.sampled_from([0.5, -1.5, 2.5])))
    if t == "boolean":
        return draw(st.booleans())
    if t == "null":
        return None
    return draw(ANY_VALUE)


@st.composite
def schema_and_instances(draw: st.DrawFn) -> tuple[dict[str, Any], list[Any]]:
    schema = draw(schemas())
    return schema, [instance(draw, schema, schema) for _ in range(12)]


# --- reading the output as JSON Schema ---------------------------------------------------


def _map_subschemas(node: dict[str, Any], fn: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in SCHEMA_KEYWORDS or key in MIXED_KEYWORDS or key in SCHEMA_LIST_KEYWORDS:
            out[key] = fn(value)
        elif key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
            out[key] = {k: fn(v) for k, v in value.items()}
        else:
            out[key] = value
    return out


def close_declared(node: Any) -> Any:
    """What OBJ008 counts lossless in strict mode (its docs): an open object that lists its
    properties is closed. The strict profiles are compared against the original so closed."""
    if isinstance(node, list):
        return [close_declared(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = _map_subschemas(node, close_declared)
    props, req = out.get("properties"), out.get("required", [])
    if out.get("type") == "object" and isinstance(props, dict) and props \
            and "additionalProperties" not in out and all(r in props for r in req):
        out["additionalProperties"] = False
    return out


def _transform(schema: dict[str, Any], profile: str, dialect: str = JSON_SCHEMA) -> ToolResult:
    return run([ToolDef("t", schema, dialect=dialect)], profile)[0]


# --- properties --------------------------------------------------------------------------


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(schemas(), st.sampled_from(PROFILES))
def test_transform_never_raises_leaves_no_error_and_is_idempotent(
        schema: dict[str, Any], profile: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema)
    result = _transform(schema, profile)
    # a size limit (LIM004: more than 16 unions in one strict request, which nested nullable
    # unions reach) has no fix: nothing a transform may do lowers it, so its finding stands
    errors = [(f.code, f.path) for f in result.remaining if f.severity == "error"
              and not (f.code.startswith("LIM") and RULES[f.code].fix is None)]
    assert errors == [], (profile, errors, result.transformed_schema)
    # read again as written: in the provider's dialect (gemini's `nullable` is OpenAPI's)
    again = _transform(result.transformed_schema, profile,
                       written_dialect(get_profile(profile).nullable_keyword))
    assert again.transformed_schema == result.transformed_schema, profile
    assert again.changes == (), (profile, again.changes)
    if profile in ("gemini", "portable"):
        # No error finding must mean accepted: google-genai's Schema and the field rules.
        assert_gemini_parameters(result.transformed_schema, "t")


def _check_equivalence(profile: str, schema: dict[str, Any], instances: list[Any]) -> None:
    result = _transform(schema, profile)
    if any(c.safety != "lossless" for c in result.changes):
        return
    if profile.endswith("-strict"):
        schema = close_declared(schema)
    before = jsonschema.Draft202012Validator(schema)
    after = output_validator(result.transformed_schema, profile)
    for value in instances:
        assert before.is_valid(value) == after.is_valid(value), (
            profile, value, before.is_valid(value), result.transformed_schema,
            [(c.code, c.path) for c in result.changes])


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(schema_and_instances(), st.sampled_from(["gemini", "vertex", "portable"]))
def test_lossless_gemini_family_output_accepts_exactly_what_the_original_does(
        case: tuple[dict[str, Any], list[Any]], profile: str) -> None:
    _check_equivalence(profile, *case)


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(schema_and_instances(),
       st.sampled_from(["gemini-json", "openai", "openai-strict", "anthropic",
                        "anthropic-strict"]))
def test_lossless_json_schema_output_accepts_exactly_what_the_original_does(
        case: tuple[dict[str, Any], list[Any]], profile: str) -> None:
    _check_equivalence(profile, *case)


@pytest.mark.slow
def test_the_instances_reach_both_sides_of_the_question() -> None:
    """The generator must give valid and invalid instances, or equivalence says little."""
    seen = {True: 0, False: 0}

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(schema_and_instances())
    def tally(case: tuple[dict[str, Any], list[Any]]) -> None:
        schema, instances = case
        validator = jsonschema.Draft202012Validator(schema)
        for value in instances:
            seen[validator.is_valid(value)] += 1

    tally()
    assert seen[True] > 100 and seen[False] > 100, seen


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(schema_and_instances(),
       st.sampled_from(["gemini", "vertex", "portable", "gemini-json", "openai", "anthropic"]))
def test_without_lossy_changes_every_valid_instance_stays_valid(
        case: tuple[dict[str, Any], list[Any]], profile: str) -> None:
    """A hinted change only removes a constraint (and describes it): what the original
    accepted, the output still accepts. (Not so in the strict profiles, where a hinted fix
    makes optional properties required and nullable.)"""
    schema, instances = case
    result = _transform(schema, profile)
    if any(c.safety == "lossy" for c in result.changes):
        return
    before = jsonschema.Draft202012Validator(schema)
    after = output_validator(result.transformed_schema, profile)
    for value in instances:
        if before.is_valid(value):
            assert after.is_valid(value), (profile, value, result.transformed_schema)
