"""Malformed keyword values crash no profile: each is a finding at its JSONPath, in every
profile, and the rest of the report is still produced.

`required: [[]]` once ended `check -p openai-strict` (and anthropic-strict, and `-p all`)
in "internal error: TypeError: unhashable type" with the whole report lost: the strict
rules hashed each entry of `required`. The command-line cases below are that report; the
property test generates schemas with malformed values at any depth (tests/malformed_schemas.py)
and holds every profile to three things, with and without `--lossless-only`:

- check and transform never raise, and the transformed schema is checked again without
  raising, with the same findings the transform left;
- every malformed value has a finding that points at it (its keyword, or inside it);
- whatever the transformed schema still has that the JSON Schema 2020-12 meta-schema
  refuses (jsonschema's own validator, not ours, is the judge) is a finding left standing
  (with lossy fixes refused; or where the passes run out, as on a recursive `$ref` with
  siblings in openai-strict, whose copies grow each pass).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from inprocess import run_main
from jsonschema import Draft202012Validator
from malformed_schemas import documents, unwrap

from schema_compat.cli import main
from schema_compat.engine import RuleSet, make_ruleset, run_ruleset
from schema_compat.engine.check import detected
from schema_compat.model import Finding, ToolDef
from schema_compat.profiles import PROFILES
from schema_compat.schema.keywords import (
    MIXED_KEYWORDS,
    SCHEMA_KEYWORDS,
    SCHEMA_LIST_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
)
from schema_compat.schema.walker import children

PROFILE_NAMES = sorted(PROFILES)
PLANS = [make_ruleset(name, lossless_only=lossless) for name in PROFILE_NAMES
         for lossless in (False, True)]
META = Draft202012Validator(Draft202012Validator.META_SCHEMA)


# --- the cases of the issue, through the command line -------------------------------------

def _listing(tmp_path: Path) -> Path:
    """Two tools with a malformed `required` (one at the root, one in a nested object)
    between two sound ones, in one MCP listing."""
    sound = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    tools = [
        {"name": "first_ok", "description": "A sound tool.", "inputSchema": sound},
        {"name": "list_in_required", "description": "Root `required` holds a list.",
         "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}},
                         "required": [[]]}},
        {"name": "object_in_required", "description": "Nested `required` holds an object.",
         "inputSchema": {"type": "object", "properties": {"o": {
             "type": "object", "properties": {"a": {"type": "string"}},
             "required": [{"a": 1}]}}}},
        {"name": "last_ok", "description": "Another sound tool.", "inputSchema": sound},
    ]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}))
    return path


# profile -> the rule reporting a `required` entry that is not a name, and where: OBJ006
# (dangling-required) where the profile has it, which reports the whole keyword; else
# VAL005 (malformed-value), which reports the entry.
REQUIRED_JUNK = {
    "gemini": ("OBJ006", ""), "vertex": ("OBJ006", ""), "portable": ("OBJ006", ""),
    "openai-strict": ("OBJ006", ""), "anthropic-strict": ("OBJ006", ""),
    "gemini-json": ("VAL005", "[0]"), "openai": ("VAL005", "[0]"),
    "anthropic": ("VAL005", "[0]"), "bedrock": ("VAL005", "[0]"), "mistral": ("VAL005", "[0]"),
    "ollama": ("OBJ006", ""),
    "deepseek-strict": ("OBJ006", ""), "xai": ("VAL005", "[0]"),
    "deepseek": ("VAL005", "[0]"), "groq": ("VAL005", "[0]"),
}


# anthropic-strict sends `list_in_required` without `strict` (with the entry removed, strict
# decoding would enforce nothing there: LIM001, info), so it is checked as `anthropic` is
SENT_WITHOUT_STRICT = {("anthropic-strict", "list_in_required"): ("VAL005", "[0]")}


def test_every_profile_is_named_in_the_table_above() -> None:
    assert sorted(REQUIRED_JUNK) == PROFILE_NAMES


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_a_required_entry_that_is_no_name_is_an_error_at_its_path(
        profile: str, tmp_path: Path) -> None:
    code, out, err = run_main(main, ["check", "--json", "-p", profile,
                                     str(_listing(tmp_path))])
    assert (code, err) == (1, "")
    report = json.loads(out)
    tools = {t["name"]: t for t in report["tools"]}
    assert list(tools) == ["first_ok", "list_in_required", "object_in_required", "last_ok"]
    for name, path in (("list_in_required", "$.required"),
                       ("object_in_required", "$.properties.o.required")):
        rule, below = SENT_WITHOUT_STRICT.get((profile, name), REQUIRED_JUNK[profile])
        if (profile, name) in SENT_WITHOUT_STRICT:
            assert ("LIM001", "$", "info") in [(i["code"], i["path"], i["severity"])
                                               for i in tools[name]["issues"]]
        errors = [(i["code"], i["path"]) for i in tools[name]["issues"]
                  if i["severity"] == "error"]
        assert (rule, path + below) in errors, (name, errors)
        # one finding for one problem: VAL005 leaves `required` to OBJ006 where it is
        assert {c for c, p in errors if p.startswith(path)} & {"OBJ006", "VAL005"} == {rule}
        assert tools[name]["status"] == "INCOMPATIBLE"
    # the sound tools are reported as usual, with no finding about `required` at all
    for name in ("first_ok", "last_ok"):
        assert not [i for i in tools[name]["issues"] if i["path"].endswith("required")]


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_transform_removes_the_entries_that_are_no_names_and_says_so(
        profile: str, tmp_path: Path) -> None:
    written = tmp_path / "out.json"
    code, out, err = run_main(main, ["transform", "--json", "-p", profile, "-o", str(written),
                                     str(_listing(tmp_path))])
    assert code == 0, err
    schemas = {t["name"]: t["inputSchema"] for t in json.loads(written.read_text())["tools"]}
    assert list(schemas) == ["first_ok", "list_in_required", "object_in_required", "last_ok"]
    for schema in schemas.values():
        assert list(META.iter_errors(schema)) == []
    nested = schemas["object_in_required"]["properties"]["o"]
    assert all(isinstance(r, str) for r in nested.get("required", []))
    # (anthropic-strict sends a tool outside its strict budget as a plain anthropic one,
    # where VAL005 makes the change)
    changes = {t["name"]: t["transforms_applied"] for t in json.loads(out)["tools"]}
    for name, path in (("list_in_required", "$.required"),
                       ("object_in_required", "$.properties.o.required")):
        made = [c["code"] for c in changes[name] if c["path"] == path]
        assert {"OBJ006", "VAL005"} & set(made), (name, changes[name])


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_lossless_only_says_what_malformed_value_it_leaves(
        profile: str, tmp_path: Path) -> None:
    """A removal refused as lossy (VAL005's) leaves the junk in the output; the tool is
    then reported still incompatible, at the junk's path, with exit 1."""
    code, out, err = run_main(main, ["transform", "--lossless-only", "-p", profile,
                                     str(_listing(tmp_path))])
    schemas = {t["name"]: t["inputSchema"] for t in json.loads(out)["tools"]}
    assert len(schemas) == 4
    left = []
    for name, path in (("list_in_required", "$.required"),
                       ("object_in_required", "$.properties.o.required")):
        if list(META.iter_errors(schemas[name])):
            left.append(name)
            # the tool's name, then its errors left under it
            assert re.search(rf"^  {name}\n(?:    .*\n)*?    [A-Z]+\d+ {re.escape(path)}", err,
                             re.M), err
    if left:
        assert code == 1
    if REQUIRED_JUNK[profile][0] == "VAL005":  # a lossy fix: refused here
        assert left == ["list_in_required", "object_in_required"]


@pytest.mark.parametrize("profile", ["openai", "openai-strict", "anthropic"])
def test_draft_4_boolean_exclusive_bounds_are_rewritten_losslessly(profile: str) -> None:
    """2020-12 (Anthropic's meta-schema, provider-rules.md ANT-05) wants a number; draft 4's
    `minimum: 5, exclusiveMinimum: true` says the same as `exclusiveMinimum: 5`. (The
    profiles with CON001, which removes exclusive bounds whatever their value, leave it to
    CON001.)"""
    schema = {"type": "object", "properties": {
        "n": {"type": "number", "minimum": 5, "exclusiveMinimum": True},
        "m": {"type": "number", "maximum": 1, "exclusiveMaximum": False}}}
    [result] = run_ruleset([ToolDef("t", schema)], make_ruleset(profile))
    flagged = {(f.code, f.path, f.fix_safety) for f in result.findings}
    assert {("VAL005", ("properties", "n", "exclusiveMinimum"), "lossless"),
            ("VAL005", ("properties", "m", "exclusiveMaximum"), "lossless")} <= flagged
    props = result.transformed_schema["properties"]
    assert props["n"]["exclusiveMinimum"] == 5 and "minimum" not in props["n"]
    assert props["m"]["maximum"] == 1 and "exclusiveMaximum" not in props["m"]
    assert _meta_errors(result.transformed_schema) == set()


@pytest.mark.parametrize("plan", PLANS, ids=lambda p: f"{p.profile.name}-{p.lossless_only}")
@pytest.mark.parametrize("junk", [None, [[]], "string"])
def test_a_reference_to_junk_is_unresolvable_not_inlined(plan: RuleSet, junk: Any) -> None:
    """Found by the property test: the inliner took `$defs: {D: null}` for the target's
    schema and crashed on it."""
    schema = {"type": "object", "properties": {"b": {"$ref": "#/$defs/D"}},
              "$defs": {"D": junk}}
    [result] = run_ruleset([ToolDef("t", schema)], plan)
    found = {(f.code, f.path) for f in result.findings}
    assert ("TYP008", ("$defs", "D")) in found
    if "REF005" in plan.codes:
        assert ("REF005", ("properties", "b", "$ref")) in found
        assert "which is not a schema" in next(
            f.message for f in result.findings if f.code == "REF005")


def test_all_profiles_at_once_report_every_tool(tmp_path: Path) -> None:
    code, out, err = run_main(main, ["check", "--json", "-p", "all", str(_listing(tmp_path))])
    assert (code, err) == (1, "")
    matrix = json.loads(out)["matrix"]
    rows = {r["tool"]: r["cells"] for r in matrix["rows"]}
    assert list(rows) == ["first_ok", "list_in_required", "object_in_required", "last_ok"]
    for name in ("list_in_required", "object_in_required"):
        assert sorted(rows[name]) == PROFILE_NAMES
        assert "compatible" not in rows[name].values()


@pytest.mark.parametrize("profile", ["openai-strict", "anthropic-strict", "all"])
def test_the_text_report_of_the_strict_profiles_is_produced(
        profile: str, tmp_path: Path) -> None:
    code, out, err = run_main(main, ["check", "-p", profile, str(_listing(tmp_path))])
    assert (code, err) == (1, "")
    assert "internal error" not in out
    for name in ("first_ok", "list_in_required", "object_in_required", "last_ok"):
        assert name in out


# --- malformed values anywhere, every profile ---------------------------------------------

_ONE = SCHEMA_KEYWORDS | MIXED_KEYWORDS
_MANY = SCHEMA_MAP_KEYWORDS | SCHEMA_LIST_KEYWORDS | MIXED_KEYWORDS


def _keyword_index(path: tuple[Any, ...]) -> int:
    """The index in `path` of the keyword whose value holds what `path` names (walking
    down through the subschemas it passes)."""
    i = keyword = 0
    while i < len(path):
        key, keyword = path[i], i
        if key in _MANY and i + 1 < len(path) and (
                key not in MIXED_KEYWORDS or isinstance(path[i + 1], int)
                or key == "dependencies"):
            i += 2
        elif key in _ONE:
            i += 1
        else:
            break
    return keyword


def _points_at(finding: tuple[Any, ...], path: tuple[Any, ...]) -> bool:
    """Whether a finding at `finding` is about the value at `path`: it names that value's
    keyword (or the entry), or something inside the value."""
    on_the_way = finding == path[:len(finding)] or path == finding[:len(path)]
    return on_the_way and len(finding) > _keyword_index(path)


def test_points_at_needs_the_keyword_not_just_the_node() -> None:
    assert _points_at(("properties", "a", "minimum"), ("properties", "a", "minimum"))
    assert not _points_at(("properties", "a"), ("properties", "a", "minimum"))
    assert _points_at(("required",), ("required", 0))
    assert _points_at(("required", 0), ("required",))
    assert _points_at(("properties",), ("properties", "a"))
    assert not _points_at((), ("properties", "a"))
    assert _points_at(("$defs", "D", "anyOf", 1), ("$defs", "D", "anyOf", 1))
    assert not _points_at(("$defs", "D"), ("$defs", "D", "anyOf", 1))


def _dialect_only(path: tuple[Any, ...], plan: RuleSet) -> bool:
    """`nullable` is a keyword of the OpenAPI profiles only; elsewhere any value is fine."""
    return path[-1] == "nullable" and not plan.profile.nullable_keyword


def _meta_errors(schema: Any) -> set[tuple[tuple[Any, ...], str]]:
    """(path, message) of what the 2020-12 meta-schema refuses in `schema`, asked one
    schema node at a time (its subschemas stood in for by `{}`, each node met by the
    walk): a deep document would take the validator past any stack."""
    found: set[tuple[tuple[Any, ...], str]] = set()
    stack: list[tuple[tuple[Any, ...], Any]] = [((), schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        kids = children(node)
        shallow = dict(node)
        for rel, _ in kids:
            if len(rel) == 1:
                shallow[rel[0]] = {}
            else:
                key, at = rel
                if shallow[key] is node[key]:
                    shallow[key] = type(node[key])(node[key])
                shallow[key][at] = {}
        found.update((path + rel, message) for rel, message in _shallow_errors(shallow))
        stack.extend((path + rel, kid) for rel, kid in kids)
    return found


_SEEN: dict[str, list[tuple[tuple[Any, ...], str]]] = {}


def _shallow_errors(node: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    """The meta-schema's errors in one node whose subschemas are `{}`: remembered by the
    node's JSON text, since the copies a transform makes of a definition repeat a lot (and
    the validator takes milliseconds a node)."""
    text = json.dumps(node, sort_keys=True)
    found = _SEEN.get(text)
    if found is None:
        found = _SEEN[text] = [(tuple(e.absolute_path), e.message)
                               for e in META.iter_errors(node)]
    return found


def _unsaid(errors: set[tuple[tuple[Any, ...], str]], findings: list[Finding],
            ) -> list[tuple[tuple[Any, ...], str]]:
    """The meta-schema's `errors` that no finding points at (`_points_at`; a finding at or
    above the error by set lookups first: an output can hold thousands of findings)."""
    at = {f.path for f in findings}
    return sorted(((p, m) for p, m in errors
                   if not any(p[:i] in at for i in range(_keyword_index(p) + 1, len(p) + 1))
                   and not any(f.path[:len(p)] == p for f in findings)), key=repr)


def test_the_meta_schema_is_asked_of_every_node() -> None:
    deep: Any = {"type": "string", "minLength": -1}
    for _ in range(300):
        deep = {"type": "object", "properties": {"a": deep}, "required": ["a"]}
    deep["anyOf"] = [{"type": 1}]
    where = {p for p, _ in _meta_errors(deep)}
    assert where == {("properties", "a") * 300 + ("minLength",), ("anyOf", 0, "type")}


def _unfixed(findings: list[Finding]) -> list[Finding]:
    return [f._replace(fix_safety=None, fix_accepts=None, fix_told=None) for f in findings]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(documents())
def test_every_profile_flags_each_malformed_value_and_survives(tree: Any) -> None:
    schema, bad = unwrap(tree)
    refused = _meta_errors(schema)
    assert bool(bad) == bool(refused)  # the generator's junk is junk, and only it
    for plan in PLANS:
        [result] = run_ruleset([ToolDef("t", json.loads(json.dumps(schema)))], plan)
        findings = [f for f in result.findings if f.scope == "schema"]
        missed = [p for p in bad if not _dialect_only(p, plan)
                  and not any(_points_at(f.path, p) for f in findings)]
        assert missed == [], (plan.profile.name, missed)
        assert _unsaid(refused, findings) == [], plan.profile.name
        out = result.transformed_schema
        json.dumps(out)
        left = [f for f in result.remaining if f.scope == "schema"]
        # what a check walk of the output finds is what was left (each finding's fix is the
        # run's record of it, which a walk alone does not know: compared without it; a
        # second run could not be asked, its passes running out on recursive copies)
        assert _unfixed(detected(out, plan)) == _unfixed(left), plan.profile.name
        assert _unsaid(_meta_errors(out), left) == [], (plan.profile.name,
                                                        plan.lossless_only)
