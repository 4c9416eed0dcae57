"""Read a profile's output as plain JSON Schema 2020-12, so `jsonschema` can judge it.

Independent of the package: nothing here imports schema_compat. The Gemini `parameters`
dialect (profiles gemini and vertex, and portable, whose output is gemini's form: a provider
that ignores `nullable` refuses the null it allows, which this reading does not show) is
OpenAPI 3.0's Schema object: `nullable: true` adds null to what the node accepts (also
beside an `enum`: the model may send null there, so reading it the permissive way can only
make a widening more visible), `type` may be written in upper case (the SDK's enum names), and
the integer keywords may come as decimal strings (int64 in the proto's JSON). Every other
profile's output is JSON Schema already.

The original is read by the draft its `$schema` declares (`original_validator`: draft-04's
boolean `exclusiveMinimum`, draft-07's `dependencies` and array-form `items` mean what that
draft says), 2020-12 where it declares none (MCP's default dialect since 2025-11-25). The
output is read as 2020-12 whatever its `$schema` says, as providers read it.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.protocols import Validator

OPENAPI_PROFILES = frozenset({"gemini", "vertex", "portable"})

_INT_KEYWORDS = frozenset({"minItems", "maxItems", "minLength", "maxLength",
                           "minProperties", "maxProperties"})
# keywords whose value is one subschema / a map of them / a list of them
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
        "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems")
_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LIST = ("anyOf", "oneOf", "allOf", "prefixItems")


def original_validator(schema: Any) -> Validator:
    """A validator for an input schema, of the draft it declares (2020-12 when none)."""
    cls = validators.validator_for(schema, default=Draft202012Validator)
    return cls(schema)


def output_validator(schema: Any, profile: str) -> Validator:
    """A validator for a profile's output, read as 2020-12 (`as_json_schema`)."""
    return Draft202012Validator(as_json_schema(schema, profile))


def as_json_schema(schema: Any, profile: str) -> Any:
    """`schema` as a 2020-12 document (a copy; the input is left as it is)."""
    if profile not in OPENAPI_PROFILES:
        return schema
    return _openapi(schema)


def _openapi(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _ONE:
            out[key] = _openapi(value)
        elif key in _MAP and isinstance(value, dict):
            out[key] = {k: _openapi(v) for k, v in value.items()}
        elif key in _LIST and isinstance(value, list):
            out[key] = [_openapi(v) for v in value]
        elif key == "type" and isinstance(value, str):
            out[key] = value.lower()
        elif key in _INT_KEYWORDS and isinstance(value, str) and value.isdigit():
            out[key] = int(value)
        else:
            out[key] = value
    if out.pop("nullable", False) is not True:
        return out
    t = out.get("type")
    if not any(k in out for k in _NARROWING):
        if isinstance(t, str):
            out["type"] = [t, "null"]
        elif isinstance(t, list) and "null" not in t:
            out["type"] = [*t, "null"]
        return out
    # beside an enum, a const, a reference or a composition: null, or what the node says
    # (definitions stay where the document's pointers find them)
    defs = {k: out.pop(k) for k in ("$defs", "definitions") if k in out}
    return {"anyOf": [{"type": "null"}, out], **defs}


_NARROWING = ("enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not", "if")
