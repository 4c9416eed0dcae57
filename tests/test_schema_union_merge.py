"""An `allOf` whose branches are unions, and a union beside its node's own `type` (issue 28,
point 14): what a merge writes must accept only values the server accepts, or say that the
server accepts none there. Before, each union was collapsed to one type before the `allOf`
merge saw the other branch, and `allOf [anyOf [string, integer], anyOf [integer, boolean]]`
became `{"type": "string", "description": "The server also accepts integer."}` under gemini:
declared lossy, and every value it steered the model to was refused.

Checked with the oracle's sampler (tests/oracle): values generated from the transformed
schema, read in the profile's dialect, are validated by `jsonschema` against the original.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator
from oracle.dialect import as_json_schema
from oracle.measure import NOTHING, combine, consistent, measure

from schema_compat.engine import run
from schema_compat.model import ToolDef, ToolResult
from schema_compat.profiles import PROFILES
from schema_compat.schema.hints import NO_VALUE_HINT

STR, INT, BOOL, NUM = ({"type": t} for t in ("string", "integer", "boolean", "number"))


def _tool(v: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": v}, "required": ["v"]}


ISSUE = _tool({"allOf": [{"anyOf": [STR, INT]}, {"anyOf": [INT, BOOL]}]})
# each of these accepts some values, all of them integers
SOME = {
    "issue": ISSUE,
    "one-of": _tool({"allOf": [{"oneOf": [STR, INT]}, {"oneOf": [INT, BOOL]}]}),
    "own-type": _tool({"type": "integer", "anyOf": [STR, {"type": "integer", "minimum": 0}]}),
    "bounds": _tool({"allOf": [{"anyOf": [{"type": "integer", "minimum": 0}, STR]},
                               {"type": "integer", "maximum": 10}]}),
    "own-type-in-allOf": _tool({"type": "integer", "allOf": [{"anyOf": [STR, BOOL, NUM]}]}),
}
# each of these accepts no value at all
NONE = {
    "crossed": _tool({"allOf": [{"anyOf": [STR, BOOL]}, {"anyOf": [INT, NUM]}]}),
    "own-type": _tool({"type": "integer", "anyOf": [STR, BOOL]}),
    "branches": _tool({"allOf": [{"type": "string", "pattern": "a"}, INT]}),
}


def _one(schema: Any, profile: str, lossless_only: bool = False) -> ToolResult:
    return run([ToolDef("t", schema, "A tool.")], profile, lossless_only=lossless_only)[0]


def _accepts(schema: Any, profile: str, args: Any) -> bool:
    return bool(Draft202012Validator(as_json_schema(schema, profile)).is_valid(args))


@pytest.mark.parametrize("lossless_only", [False, True], ids=["all", "lossless-only"])
@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("name", list(SOME))
def test_a_merge_accepts_only_what_the_server_accepts(name: str, profile: str,
                                                      lossless_only: bool) -> None:
    original = SOME[name]
    r = _one(original, profile, lossless_only)
    assert _accepts(r.transformed_schema, profile, {"v": 3})  # the server accepts it
    assert not _accepts(r.transformed_schema, profile, {"v": "x"})  # and refuses this
    measured = measure(original, r.transformed_schema, profile, examples=150)
    declared = combine(c.accepts for c in r.changes)
    assert consistent(declared, measured.effect), (declared, measured, r.transformed_schema)
    if declared in ("equal", "narrower"):  # no change said it lets more through
        assert measured.gained is NOTHING, (measured.gained, r.transformed_schema)


@pytest.mark.parametrize("profile", ["gemini", "gemini-json", "vertex", "portable"])
def test_the_issues_all_of_of_two_unions_is_the_integers_it_leaves(profile: str) -> None:
    r = _one(ISSUE, profile)
    # (a one-branch `anyOf` is the provider's own where it takes `anyOf`)
    assert r.transformed_schema["properties"]["v"] in (
        {"type": "integer"}, {"anyOf": [{"type": "integer"}]})
    assert all((c.accepts, c.told) == ("equal", "kept") for c in r.changes), r.changes


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("name", list(NONE))
def test_where_the_server_accepts_nothing_the_model_is_told(name: str, profile: str) -> None:
    r = _one(NONE[name], profile)
    v = r.transformed_schema["properties"]["v"]
    if v == NONE[name]["properties"]["v"]:
        return  # left as it is: the provider reads it as the server does
    if v == {"anyOf": []} and all(c.accepts == "equal" for c in r.changes):
        return  # exact (ollama keeps an empty `anyOf`): the schema itself says no value fits
    assert NO_VALUE_HINT in v.get("description", ""), r.transformed_schema
    # the output accepts values where the original accepts none: the changes say so
    assert combine(c.accepts for c in r.changes) in ("wider", "changed"), r.changes


def test_a_branch_left_out_takes_its_description_along_and_says_so() -> None:
    schema = _tool({"allOf": [
        {"anyOf": [{"type": "string", "description": "A name."},
                   {"type": "integer", "description": "An id."}]},
        {"anyOf": [{"type": "integer", "description": "A count."}, BOOL]}]})
    r = _one(schema, "gemini")
    assert r.transformed_schema["properties"]["v"] == {
        "type": "integer", "description": "An id.\n\nA count."}
    [merge] = [c for c in r.changes if c.code == "UNI004"]
    assert (merge.accepts, merge.told) == ("equal", "lost")  # "A name." spoke of refused values
    assert "string" in merge.description


def test_vertex_moves_the_node_type_only_into_branches_it_meets() -> None:
    r = _one(SOME["own-type"], "vertex")
    assert r.transformed_schema["properties"]["v"] == {
        "anyOf": [{"type": "integer", "minimum": 0}]}
    [change] = [c for c in r.changes if c.code == "UNI007"]
    assert change.safety == "lossless" and "dropped string" in change.description
