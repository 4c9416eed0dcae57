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

# 4. --lossless-only applies no widening fix --------------------------------------------

# 5. A union's kept branch and a reference's target keep their descriptions -------------

# 6. The tool's fix status is the worst of its findings' ----------------------------------

def test_check_text_lists_the_effect_beside_the_safety(cli_here: Any, tmp_path: Any) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "description": "A tool.",
                                           "inputSchema": {"type": "object", "properties": {
                                               "q": {"type": "string"}}}}]}))
    out = cli_here("check", str(path), "-p", "openai-strict").stdout
    line = next(ln for ln in out.splitlines() if "OBJ008" in ln)
    assert re.search(r"\[lossy: narrower, kept\]", line), out
    assert "fixable (lossy)" in out

