"""What a change claims about the arguments accepted, on the shapes issue 28 found untrue.

Each shape is transformed for the profile the issue names; the changes' combined effect must
allow what `jsonschema` says of the issue's own counterexample (the original read by the
draft it declares, the output as the provider reads it: tests/oracle/dialect.py) and of
arguments sampled from both sides (tests/oracle/measure.py). Nothing here asks the package
what its changes did to the arguments.
"""

from __future__ import annotations

from typing import Any

import pytest
from oracle.dialect import original_validator, output_validator
from oracle.measure import combine, consistent, effect_of, measure

from schema_compat.api import transform

D4 = "http://json-schema.org/draft-04/schema#"
D7 = "http://json-schema.org/draft-07/schema#"

# (name, schema, profiles, the issue's counterexample)
SHAPES: list[tuple[str, dict[str, Any], tuple[str, ...], dict[str, Any]]] = [
    ("draft-04 exclusive minimum",
     {"$schema": D4, "type": "object",
      "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}},
      "required": ["n"]},
     ("openai", "anthropic", "gemini", "openai-strict", "anthropic-strict"), {"n": 0}),
    ("draft-07 dependencies, tuple items",
     {"$schema": D7, "type": "object",
      "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                     "t": {"type": "array", "items": [{"type": "string"}],
                           "additionalItems": False}},
      "dependencies": {"a": ["b"]}},
     ("gemini-json", "openai", "anthropic", "gemini", "openai-strict"), {"a": "x"}),
    ("closed object with anyOf",
     {"type": "object", "properties": {"x": {
         "type": "object", "properties": {"a": {"type": "string"}},
         "additionalProperties": False,
         "anyOf": [{"properties": {"b": {"type": "string"}}, "required": ["b"]},
                   {"required": ["a"]}]}}, "required": ["x"]},
     ("vertex", "gemini", "portable", "openai-strict"), {"x": {"b": ""}}),
    ("closed root with anyOf",
     {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False,
      "anyOf": [{"properties": {"b": {"type": "string"}}, "required": ["b"]},
                {"required": ["a"]}]},
     ("vertex", "gemini", "openai", "anthropic-strict"), {"b": ""}),
    ("nullable in a declared JSON Schema document",
     {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
      "properties": {"age": {"type": "integer", "nullable": True}}, "required": ["age"]},
     ("gemini", "vertex", "portable", "openai", "gemini-json"), {"age": None}),
    ("reference by anchor",
     {"type": "object", "properties": {"n": {"$ref": "#node"}}, "required": ["n"],
      "$defs": {"N": {"$anchor": "node", "type": "string"}}},
     ("gemini-json", "openai-strict", "gemini", "anthropic-strict"), {"n": 1}),
    ("reference into definitions",
     {"type": "object", "properties": {"op": {"$ref": "#/definitions/Op"}},
      "required": ["op"], "definitions": {"Op": {"type": "string", "enum": ["add", "sub"]}}},
     ("gemini-json", "openai-strict", "gemini", "vertex"), {"op": "mul"}),
]
CASES = [pytest.param(schema, profile, lossless_only, args, id=f"{name}-{profile}"
                      + ("-lossless-only" if lossless_only else ""))
         for name, schema, profiles, args in SHAPES for profile in profiles
         for lossless_only in (False, True)]


@pytest.mark.parametrize(("schema", "profile", "lossless_only", "args"), CASES)
def test_declared_effect_holds_on_the_issues_arguments(schema: dict[str, Any], profile: str,
                                                       lossless_only: bool,
                                                       args: dict[str, Any]) -> None:
    result = transform([{"name": "t", "description": "d", "inputSchema": schema}], profile,
                       lossless_only=lossless_only)[0]
    declared = combine(c.accepts for c in result.changes if c.scope == "schema")
    before = original_validator(schema).is_valid(args)
    after = output_validator(result.transformed_schema, profile).is_valid(args)
    shown = effect_of(before and not after, after and not before)
    assert consistent(declared, shown), (declared, args, before, after,
                                         result.transformed_schema)
    sampled = measure(schema, result.transformed_schema, profile, examples=60)
    assert consistent(declared, sampled.effect), (declared, sampled,
                                                  result.transformed_schema)


@pytest.mark.parametrize("name", ["reference by anchor", "reference into definitions"])
@pytest.mark.parametrize("profile", ["gemini-json", "openai-strict"])
def test_nothing_a_reference_names_is_removed(name: str, profile: str) -> None:
    """Every reference of the output still resolves (issue 28: ANN001 removed the
    `$anchor`, ANN004 the `definitions` a reference named)."""
    schema = next(s for n, s, _, _ in SHAPES if n == name)
    result = transform([{"name": "t", "description": "d", "inputSchema": schema}], profile,
                       lossless_only=True)[0]
    validator = output_validator(result.transformed_schema, profile)
    validator.is_valid({"n": "x", "op": "add"})  # resolves every reference it meets
    assert not [f for f in result.remaining if f.code == "REF005"]


@pytest.mark.parametrize("profile", ["gemini", "vertex", "portable"])
def test_nullable_in_an_undeclared_document_is_read_as_json_schema(profile: str) -> None:
    """An MCP tool's schema is JSON Schema, where `nullable` means nothing: the server
    refuses null, and so must what the provider is sent (issue 28 point 11)."""
    schema = {"type": "object", "properties": {"age": {"type": "integer", "nullable": True}},
              "required": ["age"]}
    assert not original_validator(schema).is_valid({"age": None})
    out = transform([{"name": "t", "description": "d", "inputSchema": schema}], profile,
                    lossless_only=True)[0].transformed_schema
    assert not output_validator(out, profile).is_valid({"age": None})
    assert output_validator(out, profile).is_valid({"age": 3})


def test_a_rewritten_draft_04_document_says_2020_12() -> None:
    """The output read by the draft its own `$schema` names refuses what the original
    refuses: the bound and the draft were rewritten together (issue 28)."""
    schema = SHAPES[0][1]
    for profile in ("openai", "anthropic"):
        out = transform([{"name": "t", "description": "d", "inputSchema": schema}],
                        profile)[0].transformed_schema
        assert out["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert not original_validator(out).is_valid({"n": 0})
        assert original_validator(out).is_valid({"n": 0.5})
