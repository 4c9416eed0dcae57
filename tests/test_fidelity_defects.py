"""Regression tests for the fidelity defects of issue 19, with the issue's own inputs: each
checks what the transformed schema accepts with `jsonschema` (through the oracle's reading
of the profile's dialect), not only what the change log says."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from oracle.dialect import as_json_schema

from schema_compat.engine import run
from schema_compat.model import ToolDef, ToolResult
from schema_compat.rules.registry import RULES

BASE = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
REF_WITH_SIBLINGS = {"type": "object", "properties": {"p": {
    "$ref": "#/$defs/Base", "properties": {"extra": {"type": "integer"}}}},
    "$defs": {"Base": BASE}}
ALL_OF_REF = {"type": "object", "properties": {"p": {"allOf": [
    {"$ref": "#/$defs/Base"}, {"properties": {"extra": {"type": "integer"}}}]}},
    "$defs": {"Base": BASE}}
CLOSED_BASE = {**BASE, "additionalProperties": False}
ALL_OF_CLOSED = {"type": "object", "properties": {"p": {"allOf": [
    CLOSED_BASE, {"properties": {"extra": {"type": "integer"}}}]}}}


def _one(schema: Any, profile: str, lossless_only: bool = False) -> ToolResult:
    return run([ToolDef("t", schema, "A tool.")], profile, lossless_only=lossless_only)[0]


def _accepts(result: ToolResult, profile: str, args: Any) -> bool:
    schema = as_json_schema(result.transformed_schema, profile)
    return bool(Draft202012Validator(schema).is_valid(args))


def _texts(schema: Any) -> str:
    return json.dumps(schema)


# 1. A `$ref` with sibling `properties` keeps the target's properties -------------------

@pytest.mark.parametrize("schema", [REF_WITH_SIBLINGS, ALL_OF_REF], ids=["siblings", "allOf"])
@pytest.mark.parametrize("profile", ["gemini", "gemini-json", "vertex", "openai", "portable"])
def test_ref_with_sibling_properties_keeps_the_targets_properties(schema: Any,
                                                                  profile: str) -> None:
    for lossless_only in (False, True):
        r = _one(schema, profile, lossless_only)
        p = r.transformed_schema["properties"]["p"]
        while "$ref" in p or "allOf" in p:  # left for the provider to resolve: follow it
            assert profile not in ("gemini", "vertex", "portable")
            break
        assert _accepts(r, profile, {"p": {"id": "a", "extra": 1}})
        assert not _accepts(r, profile, {"p": {"extra": 1}})  # id still required
        assert not _accepts(r, profile, {"p": {"id": "a", "extra": "x"}})
        assert "also requires" not in _texts(r.transformed_schema)
        assert all(c.safety == "lossless" for c in r.changes if c.code.startswith("REF"))


def test_openai_strict_lossless_only_never_requires_what_it_forbids() -> None:
    r = _one(REF_WITH_SIBLINGS, "openai-strict", lossless_only=True)
    assert "also requires" not in _texts(r.transformed_schema)
    assert _accepts(r, "openai-strict", {"p": {"id": "a", "extra": 1}})
    assert all(c.accepts == "equal" for c in r.changes)


# 2. allOf with a closed branch ---------------------------------------------------------

@pytest.mark.parametrize("profile", ["gemini-json", "vertex"])
def test_all_of_with_a_closed_branch_keeps_it_closed(profile: str) -> None:
    r = _one(ALL_OF_CLOSED, profile)
    assert not _accepts(r, profile, {"p": {"id": "", "extra": 0}})  # the original refuses it
    assert _accepts(r, profile, {"p": {"id": ""}})  # and is satisfiable
    assert not _accepts(r, profile, {"p": {}})
    [change] = [c for c in r.changes if c.code == "UNI004"]
    assert (change.accepts, change.safety) == ("equal", "lossless")
    assert "`extra`" in change.description  # the dropped name is said


@pytest.mark.parametrize("profile", ["gemini", "portable"])
def test_all_of_with_a_closed_branch_where_closing_is_not_possible(profile: str) -> None:
    # No `additionalProperties` there: the branch is opened first (declared wider, and
    # described), then merged exactly; the result accepts no less than the original.
    r = _one(ALL_OF_CLOSED, profile)
    assert _accepts(r, profile, {"p": {"id": ""}})
    assert not _accepts(r, profile, {"p": {}})
    opened = [c for c in r.changes if c.code == "OBJ001"]
    assert opened and all(c.accepts == "wider" and c.told == "described" for c in opened)
    assert [c.accepts for c in r.changes if c.code == "UNI004"] == ["equal"]
    # with lossless-only the branch stays closed (OBJ001 refused) and the merge drops `extra`
    strict = _one(ALL_OF_CLOSED, profile, lossless_only=True)
    assert [c.code for c in strict.changes] == ["UNI004"]
    assert not _accepts(strict, profile, {"p": {"id": "", "extra": 0}})
    assert any(f.code == "OBJ001" for f in strict.remaining)


# 3. OBJ008 says it narrows ----------------------------------------------------------------

def test_closing_an_object_in_strict_mode_is_declared_narrower() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    r = _one(schema, "openai-strict")
    [change] = [c for c in r.changes if c.code == "OBJ008"]
    assert (change.accepts, change.told, change.safety) == ("narrower", "kept", "lossy")
    assert _accepts(_one(schema, "openai"), "openai", {"q": "a", "more": 1})
    assert not _accepts(r, "openai-strict", {"q": "a", "more": 1})
    assert RULES["OBJ008"].effect == ("narrower", "kept")
    [finding] = [f for f in r.findings if f.code == "OBJ008"]
    assert (finding.fix_safety, finding.fix_accepts) == ("lossy", "narrower")


# 4. --lossless-only applies no widening fix --------------------------------------------

@pytest.mark.parametrize(("profile", "schema", "refused", "outside"), [
    ("gemini", {"type": "object", "properties": {"q": {"type": "string"}},
                "additionalProperties": False}, "OBJ001", {"q": "a", "x": 1}),
    ("openai-strict", {"type": "object", "properties": {"q": {"type": "string"}}},
     "OBJ009", {"q": None}),
    ("gemini-json", {"type": "object", "properties": {"q": {"type": "string",
                                                            "minLength": 2}}},
     "ANN004", {"q": "a"}),
    ("anthropic-strict", {"type": "object", "properties": {"count": {
        "type": "integer", "maximum": 1000}}, "required": ["count"],
        "additionalProperties": False}, "CON007", {"count": 1001}),
    ("gemini", {"type": "object", "properties": {"r": {"type": "number",
                                                       "exclusiveMinimum": 0}}},
     "CON001", {"r": 0}),
])
def test_lossless_only_refuses_fixes_that_widen(profile: str, schema: Any, refused: str,
                                                outside: Any) -> None:
    widened = _one(schema, profile)
    assert any(c.code == refused and c.accepts != "equal" for c in widened.changes)
    r = _one(schema, profile, lossless_only=True)
    assert not any(c.code == refused for c in r.changes)
    assert all(c.safety == "lossless" and c.accepts == "equal" for c in r.changes)
    assert any(f.code == refused for f in r.remaining)  # the finding stands
    assert not Draft202012Validator(schema).is_valid(outside)
    assert not _accepts(r, profile, outside)


# 5. A union's kept branch and a reference's target keep their descriptions -------------

def test_null_union_keeps_the_kept_branchs_description() -> None:
    schema = {"type": "object", "properties": {"f": {"description": "outer", "anyOf": [
        {"type": "string", "description": "inner: must be a SQL WHERE clause"},
        {"type": "null"}]}}}
    for profile in ("gemini", "vertex", "portable"):
        f = _one(schema, profile).transformed_schema["properties"]["f"]
        assert "outer" in f["description"]
        assert "inner: must be a SQL WHERE clause" in f["description"]


def test_reference_target_keeps_its_description_beside_the_use_sites() -> None:
    schema = {"type": "object", "properties": {"p": {"$ref": "#/$defs/T",
                                                     "description": "where to write"}},
              "$defs": {"T": {"type": "string", "description": "an absolute path"}}}
    for profile in ("gemini", "vertex", "openai-strict"):
        text = _texts(_one(schema, profile).transformed_schema["properties"]["p"])
        assert "where to write" in text and "an absolute path" in text, profile
    # gemini-json keeps the reference (a description may stand beside it) and the target
    kept = _one(schema, "gemini-json").transformed_schema
    assert kept["properties"]["p"]["description"] == "where to write"
    assert kept["$defs"]["T"]["description"] == "an absolute path"


# 6. The tool's fix status is the worst of its findings' ----------------------------------

def test_fix_status_is_the_worst_finding_tag() -> None:
    # splitting the type list makes a union the next pass collapses (lossy): the type
    # list's finding says what its fix cost
    schema = {"type": "object", "properties": {"v": {"type": ["string", "integer", "null"]}}}
    r = _one(schema, "gemini")
    assert r.fix_status == "lossy"
    [finding] = [f for f in r.findings if f.code == "TYP001"]
    assert finding.fix_safety == "lossy"


def test_check_text_lists_the_effect_beside_the_safety(run_cli: Any, tmp_path: Any) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "description": "A tool.",
                                           "inputSchema": {"type": "object", "properties": {
                                               "q": {"type": "string"}}}}]}))
    out = run_cli("check", str(path), "-p", "openai-strict").stdout
    line = next(ln for ln in out.splitlines() if "OBJ008" in ln)
    assert re.search(r"\[lossy: narrower, kept\]", line), out
    assert "fixable (lossy)" in out


def test_a_finding_inside_a_definition_carries_what_its_copies_cost() -> None:
    # the union inside the definition is collapsed (lossy) where the definition is copied
    # to; its finding says so, not the reference's (whose inlining is lossless)
    schema = {"type": "object", "properties": {"rule": {"$ref": "#/$defs/Rule"}},
              "$defs": {"Rule": {"type": "object", "properties": {
                  "min": {"anyOf": [{"type": "number"}, {"type": "string"}]}}}}}
    r = _one(schema, "gemini")
    tags = {(f.code, f.path): f.fix_safety for f in r.findings if f.fix_safety}
    assert tags[("UNI003", ("$defs", "Rule", "properties", "min", "anyOf"))] == "lossy"
    assert tags[("REF001", ("properties", "rule", "$ref"))] == "lossless"
    assert r.fix_status == "lossy"
