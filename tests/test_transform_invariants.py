"""The invariants the gemini profiles promise, on the real corpus and hand-written cases.

google-genai's own `types.Schema` is the offline acceptance oracle; what it does not check
(formats, dangling `required`, arrays without `items`, typeless nodes, additionalProperties
without `$`) is asserted here directly.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from google.genai import types
from invariants import assert_nothing_dropped_silently

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import ToolDef, ToolResult
from schema_compat.profiles.gemini import SCHEMA_FIELDS
from schema_compat.schema.walker import iter_nodes

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
CORPUS_FILES = sorted((DATA / "corpus").glob("*.json")) + sorted(
    (DATA / "corpus" / "servers").glob("*.json"))
CASES = json.loads((DATA / "cases" / "fidelity.json").read_text())
GEMINI_FORMATS = {"string": {"enum", "date-time"}, "integer": {"int32", "int64"},
                  "number": {"float", "double"}}


def _tools(path: Path) -> list[ToolDef]:
    sources, errors = load_sources([str(path)])
    assert not errors
    return [t for s in sources for t in s.tools]


def _results(path: Path, provider: str = "gemini") -> list[ToolResult]:
    return run(_tools(path), provider)


def assert_gemini_parameters(schema: Any, name: str) -> None:
    """What Gemini's `parameters` accepts, checked by its SDK and by hand."""
    types.FunctionDeclaration(name=name, parameters=types.Schema.model_validate(schema))
    for path, node in iter_nodes(schema):
        where = f"{name} at {path}"
        assert isinstance(node, dict), where
        assert set(node) <= SCHEMA_FIELDS, f"{where}: {set(node) - SCHEMA_FIELDS}"
        assert "type" in node or "anyOf" in node, f"{where}: typeless"
        t = node.get("type")
        assert t is None or t in {"string", "number", "integer", "boolean", "object",
                                  "array", "null"}, where
        if t == "array":
            assert isinstance(node.get("items"), dict), f"{where}: array without items"
        if "items" in node:
            assert t == "array", f"{where}: items on {t}"
        if "format" in node:
            assert node["format"] in GEMINI_FORMATS.get(t, set()), where
        if "enum" in node:
            assert t == "string" and all(isinstance(v, str) for v in node["enum"]), where
        if "required" in node:
            assert set(node["required"]) <= set(node.get("properties", {})), where
        assert "anyOf" not in node and "oneOf" not in node, f"{where}: union left"


@pytest.fixture(scope="module")
def corpus_results() -> dict[str, list[ToolResult]]:
    assert CORPUS_FILES, "tests/data/corpus is missing"
    return {p.name: _results(p) for p in CORPUS_FILES}


def test_corpus_has_no_error_left_and_gemini_accepts_every_tool(
        corpus_results: dict[str, list[ToolResult]]) -> None:
    total = 0
    for results in corpus_results.values():
        for r in results:
            total += 1
            assert [f for f in r.remaining if f.severity == "error"] == [], r.tool.name
            assert_gemini_parameters(r.transformed_schema, r.transformed_name)
    assert total > 500


def test_corpus_transform_is_idempotent(corpus_results: dict[str, list[ToolResult]]) -> None:
    for results in corpus_results.values():
        again = run([ToolDef(r.transformed_name, r.transformed_schema, r.tool.description)
                     for r in results], "gemini")
        for first, second in zip(results, again, strict=True):
            assert second.transformed_schema == first.transformed_schema
            assert second.changes == ()
            assert second.findings == tuple(f for f in first.remaining)


def test_corpus_gemini_json_has_no_error_left() -> None:
    for path in CORPUS_FILES:
        for r in _results(path, "gemini-json"):
            assert [f for f in r.remaining if f.severity == "error"] == [], r.tool.name
            types.FunctionDeclaration(name=r.transformed_name,
                                      parameters_json_schema=r.transformed_schema)


def test_original_is_never_mutated() -> None:
    tools = _tools(ROOT / "examples" / "mixed.json")
    before = copy.deepcopy([t.schema for t in tools])
    run(tools, "gemini")
    assert [t.schema for t in tools] == before


def test_fs_mcp_read_files_items_become_an_object_not_string() -> None:
    path = DATA / "corpus" / "servers" / "fs-mcp-repro-mcp-sdk.json"
    result = next(r for r in _results(path) if r.tool.name == "read_files")
    items = result.transformed_schema["properties"]["files"]["items"]
    assert items["type"] == "object"
    assert items["required"] == ["path"]
    assert items["properties"]["path"]["type"] == "string"
    optional = {k: v for k, v in items["properties"].items() if k != "path"}
    assert set(optional) == {"start_line", "end_line", "head", "tail", "read_to_next_pattern"}
    assert all(v["nullable"] is True for v in optional.values())
    assert {v["type"] for v in optional.values()} == {"integer", "string"}
    assert {c.safety for c in result.changes} == {"lossless"}


def _nullable_to_json_schema(schema: Any) -> Any:
    """Read `nullable: true` as JSON Schema's null type, to validate transformed schemas."""
    if isinstance(schema, list):
        return [_nullable_to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: (_nullable_to_json_schema(v) if k in ("properties",) else v)
           for k, v in schema.items()}
    if "properties" in out:
        out["properties"] = {k: _nullable_to_json_schema(v)
                             for k, v in schema["properties"].items()}
    if "items" in out:
        out["items"] = _nullable_to_json_schema(schema["items"])
    if out.pop("nullable", False):
        t = out.get("type")
        if isinstance(t, str):
            out["type"] = [t, "null"]
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_fidelity_valid_arguments_stay_valid(case: dict[str, Any]) -> None:
    original = case["schema"]
    validator = jsonschema.Draft202012Validator(original)
    for sample in case["valid"]:
        validator.validate(sample)  # the samples themselves must be right
    for sample in case["invalid"]:
        assert not validator.is_valid(sample), sample
    result = run([ToolDef(case["name"], original)], "gemini")[0]
    assert_gemini_parameters(result.transformed_schema, case["name"])
    # Changes that narrow say so (tests/test_fidelity_corpus.py holds every declared effect
    # to sampled arguments); the cases' valid arguments are not among what they refuse.
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    for sample in case["valid"]:
        assert transformed.is_valid(sample), (sample, result.transformed_schema)


def test_nothing_is_dropped_silently(corpus_results: dict[str, list[ToolResult]]) -> None:
    """Every keyword that disappears has a change naming it (by path or in its text)."""
    results = [r for rs in corpus_results.values() for r in rs]
    results += _results(ROOT / "examples" / "mixed.json")
    assert_nothing_dropped_silently(results)


def test_keyword_named_properties_and_data_values_are_untouched() -> None:
    case = next(c for c in CASES if c["name"] == "typeless_and_keywords_named")
    result = run([ToolDef("t", case["schema"])], "gemini")[0]
    props = result.transformed_schema["properties"]
    assert props["format"] == {"type": "string", "description": "Output format."}
    assert props["anyOf"] == {"type": "string"}
    assert props["$ref"] == {"type": "string"}
    assert props["additionalProperties"] == {"type": "boolean"}
    assert props["raw"]["default"] == {"$ref": "#/nowhere"}
    assert props["meta"]["type"] == "object"
    assert result.transformed_schema["required"] == ["format"]
    assert not any(c.code.startswith("REF") for c in result.changes)


def test_ref_dag_bomb_is_refused_with_a_finding() -> None:
    defs: dict[str, Any] = {f"D{i}": {"type": "object", "properties": {
        "a": {"$ref": f"#/$defs/D{i - 1}"}, "b": {"$ref": f"#/$defs/D{i - 1}"}}}
        for i in range(1, 40)}
    defs["D0"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/D39"}}, "$defs": defs}
    assert len(json.dumps(schema)) < 5000
    result = run([ToolDef("bomb", schema)], "gemini")[0]
    codes = {f.code for f in result.remaining}
    assert "REF006" in codes
    assert result.fix_status == "unfixable"
    assert "$defs" in result.transformed_schema  # not inlined: the tool is left as it was


def test_recursive_ref_is_unrolled_and_reported_lossy() -> None:
    tools = _tools(ROOT / "examples" / "mixed.json")
    result = run([t for t in tools if t.name == "create_outline"], "gemini")[0]
    cuts = [c for c in result.changes if c.code == "REF003"]
    assert cuts and all(c.safety == "lossy" for c in cuts)
    assert "not described" in json.dumps(result.transformed_schema)
    assert result.fix_status == "lossy"


def test_remote_and_file_refs_are_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"type": "string", "description": "SECRET-CONTENT"}))
    schema = {"type": "object", "properties": {
        "a": {"$ref": f"file://{secret}"},
        "b": {"$ref": "http://127.0.0.1:9/never.json"},
        "c": {"$ref": "other.json#/x"}}}
    result = run([ToolDef("remote", schema)], "gemini")[0]
    assert {f.code for f in result.findings} >= {"REF004"}
    assert sum(f.code == "REF004" for f in result.findings) == 3
    text = json.dumps(result.transformed_schema)
    assert "SECRET-CONTENT" not in text
    assert [f for f in result.remaining if f.severity == "error"] == []
    assert all(c.safety == "lossy" for c in result.changes if c.code == "REF004")


def test_lossless_only_refuses_lossy_fixes() -> None:
    tools = _tools(ROOT / "examples" / "mixed.json")
    results = run(tools, "gemini", lossless_only=True)
    assert all(c.safety != "lossy" for r in results for c in r.changes)
    standing = {f.code for r in results for f in r.remaining if f.severity == "error"}
    assert {"NAM001", "REF003"} <= standing


def test_tool_names_are_sanitized_and_deduplicated() -> None:
    tools = [ToolDef("a/b", {"type": "object", "properties": {"x": {"type": "string"}}}),
             ToolDef("a_b", {"type": "object", "properties": {"x": {"type": "string"}}}),
             ToolDef("9lives " + "x" * 80, {"type": "object",
                                            "properties": {"x": {"type": "string"}}})]
    results = run(tools, "gemini")
    names = [r.transformed_name for r in results]
    assert names[0] == "a_b"
    assert names[1] == "a_b_2"
    assert names[2].startswith("_9lives_") and len(names[2]) <= 64
    assert len(set(names)) == 3
    for r in results:
        assert not [f for f in r.remaining if f.severity == "error"]


def test_boolean_and_missing_schemas() -> None:
    tools = [ToolDef("none", None), ToolDef("true_props", {
        "type": "object", "properties": {"any": True, "never": False},
        "additionalProperties": False})]
    results = run(tools, "gemini")
    assert results[0].transformed_schema == {"type": "object", "properties": {}}
    props = results[1].transformed_schema["properties"]
    assert props["any"]["type"] == "string"
    assert "additionalProperties" not in results[1].transformed_schema
    for r in results:
        assert not [f for f in r.remaining if f.severity == "error"]


def test_duplicate_names_are_judged_per_source() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string"}}}
    tools = [ToolDef("read", schema, source="a.json"), ToolDef("read", schema, source="b.json"),
             ToolDef("read", schema, source="b.json")]
    results = run(tools, "gemini")
    assert [r.transformed_name for r in results] == ["read", "read", "read_2"]
    assert [[f.code for f in r.findings if f.code != "NAM003"] for r in results] == [
        [], [], ["NAM002"]]


def test_every_finding_path_parses_back_to_its_node(
        corpus_results: dict[str, list[ToolResult]]) -> None:
    """The report's JSONPath, read by jsonpath-ng, reaches the node its JSON Pointer names."""
    from jsonpath_ng import parse as jsonpath_parse

    from schema_compat.paths import jsonpath, parse_pointer, pointer, resolve

    checked = 0
    for results in corpus_results.values():
        for r in results:
            for f in r.findings:
                if f.scope != "schema":
                    continue
                expected = resolve(r.tool.schema, f.path)
                found = [m.value for m in jsonpath_parse(jsonpath(f.path)).find(r.tool.schema)]
                assert found == [expected], (r.tool.name, jsonpath(f.path))
                tokens = parse_pointer(pointer(f.path))
                assert tokens == [str(k) for k in f.path]
                checked += 1
    assert checked > 1000


def test_hand_written_examples_are_accepted_by_google_genai() -> None:
    results = _results(ROOT / "examples" / "mixed.json") + _results(
        ROOT / "examples" / "fs_read_files.json")
    assert len(results) == 12
    for r in results:
        assert [f for f in r.remaining if f.severity == "error"] == [], r.tool.name
        assert_gemini_parameters(r.transformed_schema, r.transformed_name)
    again = run([ToolDef(r.transformed_name, r.transformed_schema) for r in results], "gemini")
    assert [r.transformed_schema for r in again] == [r.transformed_schema for r in results]


def test_all_of_with_type_lists_merges_to_the_shared_types() -> None:
    """A type list in an `allOf` branch once crashed the merge (unhashable list)."""
    schema = {"type": "object", "properties": {
        "k": {"allOf": [{"type": ["null", "number"]}, {"type": "null"}]},
        "n": {"allOf": [{"type": ["integer", "string"]}, {"type": ["number", "boolean"]}]},
        "x": {"allOf": [{"type": ["string"]}, {"type": "integer"}]}}}
    assert not [f for f in run([ToolDef("t", schema)], "gemini")[0].remaining
                if f.severity == "error"]
    result = run([ToolDef("t", schema)], "gemini-json")[0]
    props = result.transformed_schema["properties"]
    assert props["k"]["type"] == "null"
    assert props["n"]["type"] == "integer"
    merges = {c.path[1]: c.safety for c in result.changes if c.code == "UNI004"}
    assert merges == {"k": "lossless", "n": "lossless", "x": "lossy"}


def test_closing_an_object_without_properties_is_not_dropped_as_lossless() -> None:
    """`additionalProperties: false` with no properties accepts only `{}`; removing it widens
    what is accepted, so the change is hinted and described, never lossless."""
    schema = {"type": "object", "properties": {
        "opts": {"type": "object", "properties": {}, "additionalProperties": False}}}
    result = run([ToolDef("t", schema)], "gemini")[0]
    drop = [c for c in result.changes if c.code == "OBJ001"]
    assert [(c.path, c.safety) for c in drop] == [
        (("properties", "opts", "additionalProperties"), "hinted")]
    assert result.transformed_schema["properties"]["opts"]["description"] == \
        "No properties are accepted."


@pytest.mark.parametrize("profile", ["openai-strict", "anthropic-strict"])
def test_closing_an_empty_object_in_strict_mode_is_lossy(profile: str) -> None:
    """OBJ008's own docs: an object that lists no properties, once closed, accepts only `{}`.
    Closing any object narrows what is accepted (lossy); where other keys were expected, the
    description says so."""
    schema = {"type": "object", "properties": {
        "opts": {"type": "object", "properties": {}},
        "named": {"type": "object", "properties": {"a": {"type": "string"}},
                  "required": ["a"]}},
        "required": ["opts", "named"]}
    result = run([ToolDef("t", schema)], profile)[0]
    closed = {c.path[:2]: (c.safety, c.accepts, c.told) for c in result.changes
              if c.code == "OBJ008"}
    assert closed[("properties", "opts")] == ("lossy", "narrower", "described")
    assert closed[("properties", "named")] == ("lossy", "narrower", "kept")


def _follow_pointer(document: Any, text: str) -> Any:
    from schema_compat.paths import parse_pointer

    tokens = parse_pointer(text)
    assert tokens is not None, text
    node = document
    for token in tokens:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


@pytest.mark.parametrize("profile", ["gemini-json", "vertex", "openai", "openai-strict",
                                     "anthropic-strict", "portable"])
def test_every_finding_path_reaches_the_pointers_node_in_every_profile(profile: str) -> None:
    """The report's two strings for a finding, read independently (jsonpath-ng for the
    JSONPath, RFC 6901 by hand for the pointer), land on the same node of the original."""
    from jsonpath_ng import parse as jsonpath_parse

    from schema_compat.paths import jsonpath, pointer

    tools = [t for path in CORPUS_FILES for t in _tools(path)]
    checked = 0
    for r in run(tools, profile):
        for f in r.findings:
            if f.scope != "schema":
                continue
            node = _follow_pointer(r.tool.schema, pointer(f.path))
            found = [m.value for m in jsonpath_parse(jsonpath(f.path)).find(r.tool.schema)]
            assert found == [node], (profile, r.tool.name, jsonpath(f.path))
            checked += 1
    assert checked > 10, checked


def test_property_names_that_langchain_misreads_are_warned_about_and_kept() -> None:
    schema = {"type": "object", "properties": {
        "anyOf": {"type": "string"}, "additionalProperties": {"type": "boolean"},
        "nested": {"type": "object", "properties": {"oneOf": {"type": "string"},
                                                    "exclusiveMinimum": {"type": "integer"},
                                                    "allOf": {"type": "string"}}}}}
    for profile in ("gemini", "vertex", "portable"):
        result = run([ToolDef("t", schema)], profile)[0]
        flagged = sorted(f.path for f in result.findings if f.code == "CNV001")
        assert flagged == [("properties", "additionalProperties"), ("properties", "anyOf"),
                           ("properties", "nested", "properties", "exclusiveMinimum"),
                           ("properties", "nested", "properties", "oneOf")], profile
        assert {f.severity for f in result.findings if f.code == "CNV001"} == {"warning"}
        assert result.transformed_schema == schema  # names are the server's: never renamed


@pytest.mark.parametrize("profile", ["gemini", "portable"])
def test_an_empty_union_is_flagged_and_removed_as_lossy(profile: str) -> None:
    """`anyOf: []` accepts nothing (and is not valid JSON Schema); it was once left in the
    output, unflagged, as a union Gemini's clients refuse."""
    schema = {"type": "object", "properties": {"a": {"anyOf": []},
                                               "b": {"oneOf": [], "type": "string"}}}
    result = run([ToolDef("t", schema)], profile)[0]
    flagged = {f.path for f in result.findings if f.code in ("UNI002", "UNI003")}
    assert flagged == {("properties", "a", "anyOf"), ("properties", "b", "oneOf")}
    empties = [c for c in result.changes if "empty" in c.description]
    assert {c.safety for c in empties} == {"lossy"} and len(empties) == 2
    assert_gemini_parameters(result.transformed_schema, "t")
    assert result.transformed_schema["properties"]["b"] == {"type": "string"}


def test_an_empty_root_union_is_removed_in_openai_strict() -> None:
    result = run([ToolDef("t", {"anyOf": []})], "openai-strict")[0]
    assert [f for f in result.remaining if f.severity == "error"] == []
    assert result.transformed_schema["type"] == "object"
    assert any(c.code == "ROOT001" and c.safety == "lossy" for c in result.changes)


def test_keywords_with_values_of_the_wrong_type_are_removed_and_reported() -> None:
    """google-genai's Schema refuses them, so one would get the whole request rejected."""
    schema = {"type": "object", "description": {}, "properties": {
        "n": {"type": "integer", "maximum": {"a": 1}, "minimum": 0, "minItems": 1.5},
        "s": {"type": "string", "pattern": {"x": 1}, "nullable": "yes", "title": "S"}}}
    result = run([ToolDef("t", schema)], "gemini")[0]
    flagged = sorted(f.path for f in result.findings if f.code == "VAL005")
    assert flagged == [("description",), ("properties", "n", "maximum"),
                       ("properties", "n", "minItems"), ("properties", "s", "nullable"),
                       ("properties", "s", "pattern")]
    assert {c.safety for c in result.changes if c.code == "VAL005"} == {"lossy"}
    assert_gemini_parameters(result.transformed_schema, "t")
    assert result.transformed_schema["properties"]["n"] == {"type": "integer", "minimum": 0}
    assert result.transformed_schema["properties"]["s"] == {"type": "string", "title": "S"}


def test_one_of_with_overlapping_branches_is_not_merged_as_lossless() -> None:
    """`oneOf` refuses a value that matches two branches: integers under `oneOf [integer,
    number]`, null when two branches take it. Merging those accepts them: wider, which is
    hinted where the description says what the server refuses, lossy where it does not."""
    schema = {"type": "object", "properties": {
        "n": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
        "z": {"oneOf": [{"type": ["number", "null"]}, {"type": "null"}]},
        "ok": {"oneOf": [{"type": "number"}, {"type": "null"}]},
        "any": {"anyOf": [{"type": "integer"}, {"type": "number"}]}}}
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({"n": 1}) and not validator.is_valid({"z": None})
    result = run([ToolDef("t", schema)], "gemini")[0]
    by_prop: dict[str, set[str]] = {}
    for c in result.changes:
        if c.code.startswith("UNI"):
            by_prop.setdefault(c.path[1], set()).add(c.safety)
    assert by_prop == {"n": {"hinted"}, "z": {"lossy"}, "ok": {"lossless"},
                       "any": {"lossless"}}
    assert {c.accepts for c in result.changes
            if c.code.startswith("UNI") and c.path[1] in ("n", "z")} == {"wider"}
    assert "refuses" in result.transformed_schema["properties"]["n"]["description"]


def test_enum_branches_merge_to_what_the_union_accepts_and_keep_what_each_value_means(
) -> None:
    """Branches that are each an enum of one type merge into one enum. A `oneOf` refuses a
    value two branches list, so it is left out; per-value titles and descriptions (Zod's
    described literals) are what tells the model which value means what, so they are
    described, never dropped as lossless."""
    two = [{"type": "string", "enum": ["a", "b"]}, {"type": "string", "enum": ["b", "c"]}]
    schema = {"type": "object", "properties": {
        "one": {"oneOf": two},
        "any": {"anyOf": two},
        "mode": {"oneOf": [{"const": "fast", "title": "Fast", "description": "Skips checks."},
                           {"const": "safe", "description": "Runs every check."}]},
        "none": {"oneOf": [{"type": "string", "enum": ["a"]},
                           {"type": "string", "enum": ["a"], "description": "A"}]},
        # `minLength` refuses "b" in the second branch, so the original accepts "b": the
        # branches' enums are not what they accept, and no value may be left out
        "bounded": {"oneOf": [two[0], {**two[1], "minLength": 2}]}}}
    result = run([ToolDef("t", schema)], "gemini")[0]
    out = result.transformed_schema["properties"]
    assert_gemini_parameters(result.transformed_schema, "t")
    safety = {c.path[1]: c.safety for c in result.changes if c.code.startswith("UNI")}
    assert safety == {"one": "lossless", "any": "lossless", "mode": "hinted",
                      "none": "lossy", "bounded": "hinted"}
    found = {f.path[1]: f.fix_safety for f in result.findings if f.code.startswith("UNI")}
    assert found == safety  # the check says what the transform will do
    assert out["one"]["enum"] == ["a", "c"] and out["any"]["enum"] == ["a", "b", "c"]
    assert out["mode"]["enum"] == ["fast", "safe"]
    assert out["mode"]["description"] == ('Values: "fast" (Fast): Skips checks; "safe": '
                                          "Runs every check.")
    assert "refuses \"a\"" in out["none"]["description"]
    # what the change says is described is in the description
    assert out["bounded"]["description"] == ('Exactly one of: one of "a", "b"; one of "b", '
                                             '"c" (min length 2).')
    original = jsonschema.Draft202012Validator(schema)
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    for prop in schema["properties"]:
        for value in ["a", "b", "c", "d", "fast", "safe", "bb"]:
            before, after = (v.is_valid({prop: value}) for v in (original, transformed))
            if safety[prop] == "lossless":
                assert before == after, (prop, value)
            elif safety[prop] == "hinted":
                assert after or not before, (prop, value)  # nothing accepted is refused


def test_a_branch_listed_twice_in_one_of_is_refused_by_the_server_and_said_so() -> None:
    """`oneOf [X, X, ...]` refuses whatever X accepts (it matches twice); dropping the
    repeat accepts it, which is lossy unless the enum merge leaves those values out."""
    string, a, b = {"type": "string"}, {"type": "string", "enum": ["a"]}, \
        {"type": "string", "enum": ["b"]}
    schema = {"type": "object", "properties": {
        "twice": {"oneOf": [string, dict(string)]},
        "twice_with_other": {"oneOf": [string, dict(string), {"type": "integer"}]},
        "enums": {"oneOf": [a, dict(a), b]},
        "any": {"anyOf": [string, dict(string)]}}}
    original = jsonschema.Draft202012Validator(schema)
    assert not original.is_valid({"twice": "x"}) and not original.is_valid({"enums": "a"})
    result = run([ToolDef("t", schema)], "gemini")[0]
    safety = {c.path[1]: c.safety for c in result.changes if c.code.startswith("UNI")}
    assert safety == {"twice": "lossy", "twice_with_other": "lossy", "enums": "lossless",
                      "any": "lossless"}
    found = {f.path[1]: f.fix_safety for f in result.findings if f.code.startswith("UNI")}
    assert found == safety  # the check says what the transform will do
    out = result.transformed_schema["properties"]
    assert "The server refuses string" in out["twice"]["description"]
    assert out["enums"]["enum"] == ["b"]
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    for value in ["a", "b", "c", 1]:
        assert original.is_valid({"enums": value}) == transformed.is_valid({"enums": value})
    strict = run([ToolDef("t", schema)], "gemini", lossless_only=True)[0]
    assert {c.path[1] for c in strict.changes if c.code.startswith("UNI")} == {"enums", "any"}
    assert {f.path[1] for f in strict.remaining if f.code.startswith("UNI")} >= {
        "twice", "twice_with_other"}


_S = "string"
_UNION_CASES = {
    # null two oneOf branches accept is refused: the merge is not nullable
    "null twice": ({"oneOf": [{"type": [_S, "null"], "enum": ["a", None]},
                              {"type": [_S, "null"], "enum": ["b", None]}]}, "lossless"),
    "null once": ({"oneOf": [{"type": [_S, "null"], "enum": ["a", None]},
                             {"type": _S, "enum": ["b"]}]}, "lossless"),
    "null in a described branch": ({"anyOf": [{"type": [_S, "null"], "enum": ["a", None]},
                                              {"type": _S, "enum": ["b"], "title": "B"}]},
                                   "hinted"),
    "null in a bounded branch": ({"anyOf": [{"type": [_S, "null"], "enum": ["a", None]},
                                            {"type": _S, "minLength": 2}]}, "hinted"),
    "the node's own enum": ({"enum": ["a"], "oneOf": [{"type": _S, "enum": ["a"]},
                                                      {"type": _S, "enum": ["b"]}]}, "hinted"),
    "the node's own type": ({"type": "integer", "anyOf": [{"type": _S, "enum": ["a"]},
                                                          {"type": _S, "enum": ["b"]}]},
                            "lossy"),
    "typed literals, one twice": ({"oneOf": [{"type": _S, "const": "a"},
                                             {"type": _S, "const": "a"},
                                             {"type": _S, "const": "b"}]}, "lossless"),
    "integer enums, one twice": ({"oneOf": [{"type": "integer", "enum": [1]},
                                            {"type": "integer", "enum": [1]},
                                            {"type": "integer", "enum": [2]}]}, "lossy"),
    "a repeat made by removing x- keys": ({"oneOf": [{"type": _S, "enum": ["a"]},
                                                     {"type": _S, "enum": ["a"], "x-k": 1},
                                                     {"type": _S, "enum": ["b"]}]}, "lossless"),
    "one branch under the node's own enum": ({"enum": ["a"], "oneOf": [
        {"type": _S, "enum": ["b"]}]}, "lossy"),
    "one branch under the node's own bound": ({"minLength": 1, "anyOf": [
        {"type": _S, "minLength": 3}]}, "lossy"),
    "a repeat under the node's own enum": ({"enum": ["a", "b"], "oneOf": [
        {"type": _S, "enum": ["a"]}, {"type": _S, "enum": ["a"]}, {"type": _S, "enum": ["b"]}]},
        "lossy"),
    "a branch whose values are all refused": (
        {"description": "P", "oneOf": [{"type": _S, "enum": ["a"], "description": "A"},
                                       {"type": _S, "enum": ["a", "b"], "description": "AB"}]},
        "hinted"),
}


@pytest.mark.parametrize(("profile", "name"), [
    (profile, name) for profile in ("gemini", "vertex", "portable") for name in _UNION_CASES
    if profile != "vertex" or "anyOf" not in _UNION_CASES[name][0]])  # vertex keeps anyOf
def test_a_merged_union_keeps_its_safety_class_and_the_check_predicts_it(profile: str,
                                                                         name: str) -> None:
    """Each union case: the change's safety class holds for the instances (lossless: the
    same accepted; hinted: nothing accepted is refused; lossy: reported), and the check's
    finding says beforehand the safety the transform's change has."""
    prop, expected = _UNION_CASES[name]
    schema = {"type": "object", "properties": {"p": prop}}
    result = run([ToolDef("t", copy.deepcopy(schema))], profile)[0]
    union = [c for c in result.changes if c.code in ("UNI002", "UNI003")]
    assert [c.safety for c in union] == [expected], result.changes
    predicted = [f.fix_safety for f in result.findings if f.code in ("UNI002", "UNI003")]
    assert predicted == [expected]
    original = jsonschema.Draft202012Validator(schema)
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    worst = max(("lossless", "hinted", "lossy").index(c.safety) for c in result.changes)
    for value in ["a", "b", "bb", "c", None, 1, 2, 1.5, True]:
        before, after = (v.is_valid({"p": value}) for v in (original, transformed))
        if worst == 0:
            assert before == after, (value, result.transformed_schema)
        elif worst == 1:
            assert after or not before, (value, result.transformed_schema)
    if name == "a branch whose values are all refused":
        assert '"a"' not in result.transformed_schema["properties"]["p"]["description"]


@pytest.mark.parametrize(("prop", "nullable"), [
    ({"type": "string", "enum": ["a", None]}, False),  # the type refuses null
    ({"type": ["string", "null"], "enum": ["a", None]}, True),
    ({"enum": ["a", None]}, True),
    ({"type": ["string", "null"], "enum": ["a"]}, False),  # the enum refuses null (TYP001)
])
def test_null_in_an_enum_becomes_nullable_only_where_the_type_accepts_null(
        prop: dict[str, Any], nullable: bool) -> None:
    schema = {"type": "object", "properties": {"p": prop}}
    result = run([ToolDef("t", copy.deepcopy(schema))], "gemini")[0]
    out = result.transformed_schema["properties"]["p"]
    assert out.get("nullable", False) is nullable and out["enum"] == ["a"]
    assert {c.safety for c in result.changes} == {"lossless"}
    original = jsonschema.Draft202012Validator(schema)
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    for value in ["a", "b", None]:
        assert original.is_valid({"p": value}) == transformed.is_valid({"p": value})


@pytest.mark.parametrize(("prop", "safety"), [
    # the node's own enum replaces the branch's: "b" was refused, "a" is not accepted
    ({"enum": ["a"], "anyOf": [{"type": "string", "enum": ["b"]}, {"type": "null"}]}, "lossy"),
    # Pydantic's Optional field: the field's title, description and default win over the
    # model's, which say the same thing of it
    ({"anyOf": [{"type": "string", "title": "X", "description": "inner"}, {"type": "null"}],
      "title": "F", "description": "outer", "default": None}, "lossless"),
    ({"oneOf": [{"type": "string"}, {"type": "null"}]}, "lossless"),
])
def test_a_nullable_union_of_one_branch_says_what_moving_it_up_replaced(
        prop: dict[str, Any], safety: str) -> None:
    """UNI001 moves the one branch left up into the node, whose own keywords win; where
    they say otherwise than the branch's, a constraint is gone (lossy). UNI002 does not
    also flag `oneOf [X, null]`: no union is left once UNI001 has fixed it."""
    schema = {"type": "object", "properties": {"p": prop}}
    result = run([ToolDef("t", copy.deepcopy(schema))], "gemini")[0]
    assert [(c.code, c.safety) for c in result.changes if c.code.startswith("UNI")] == [
        ("UNI001", safety)]
    assert [(f.code, f.fix_safety) for f in result.findings if f.code.startswith("UNI")] == [
        ("UNI001", safety)]


def test_the_check_predicts_a_union_of_references_as_the_inlined_merge() -> None:
    """Pydantic's discriminated union is `oneOf` of `$ref`s: the transform inlines them
    before merging the objects, and the check says so of the original. The variants are
    open to other keys, so the merged object holds `radius` to a number in a square too
    (a square with `radius: "x"` was accepted): changed, lossy."""
    def model(tag: str, field: str) -> dict[str, Any]:
        return {"type": "object", "properties": {"kind": {"const": tag}, field: {"type": "number"}},
                "required": ["kind", field]}

    schema = {"type": "object", "properties": {"shape": {"oneOf": [
        {"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}]}},
        "$defs": {"Circle": model("circle", "radius"), "Square": model("square", "side")}}
    for profile in ("gemini", "vertex", "portable"):
        result = run([ToolDef("t", copy.deepcopy(schema))], profile)[0]
        assert [c.safety for c in result.changes if c.code == "UNI002"] == ["lossy"]
        assert [f.fix_safety for f in result.findings if f.code == "UNI002"] == ["lossy"]


def test_a_profile_built_by_the_caller_does_not_change_another_of_the_same_name() -> None:
    """What the union prediction caches per profile is the profile's own, even when a
    caller builds another profile under the same name (`make_plan` takes any Profile)."""
    from schema_compat.engine import make_plan, run_plan
    from schema_compat.profiles import get_profile

    gemini = get_profile("gemini")
    assert gemini is not None and "writeOnly" not in gemini.allowed_keywords
    custom = gemini._replace(allowed_keywords=gemini.allowed_keywords | {"writeOnly"})
    schema = {"type": "object", "properties": {"p": {"oneOf": [
        {"type": "string", "writeOnly": True}, {"type": "string"}]}}}
    for profile in (custom, gemini):
        result = run_plan([ToolDef("t", copy.deepcopy(schema))], make_plan(profile))[0]
        changes = [c.safety for c in result.changes if c.code == "UNI002"]
        assert [f.fix_safety for f in result.findings if f.code == "UNI002"] == changes


def test_a_type_list_that_refuses_null_never_becomes_nullable() -> None:
    """`type: [string, integer]` with null in its enum refuses null: splitting the types
    into `anyOf` branches must not leave the null for VAL003 to read as `nullable`."""
    schema = {"type": "object", "properties": {"p": {"type": ["string", "integer"],
                                                     "enum": ["a", None]}}}
    result = run([ToolDef("t", copy.deepcopy(schema))], "gemini")[0]
    transformed = jsonschema.Draft202012Validator(
        _nullable_to_json_schema(result.transformed_schema))
    assert not jsonschema.Draft202012Validator(schema).is_valid({"p": None})
    assert not transformed.is_valid({"p": None})
    assert all("nullable" not in c.description for c in result.changes)


def _tagged(tag: Any, field: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"kind": {"const": tag}, field: {"type": "number"}},
            "required": ["kind", field], "additionalProperties": False}


@pytest.mark.parametrize(("branches", "defs", "safety"), [
    ([_tagged("circle", "radius"), _tagged("square", "side")], {}, "lossless"),
    ([{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
     {"Circle": _tagged("circle", "radius"), "Square": _tagged("square", "side")}, "lossless"),
    # the same tag twice, or 1 and 1.0 (equal to JSON Schema): a value can match both
    ([_tagged("circle", "radius"), _tagged("circle", "side")], {}, "hinted"),
    ([_tagged(1, "radius"), _tagged(1.0, "side")], {}, "hinted"),
])
@pytest.mark.parametrize("profile", ["openai-strict", "anthropic-strict"])
def test_a_tagged_one_of_becomes_any_of_losslessly_in_strict_mode(
        branches: list[Any], defs: dict[str, Any], safety: str, profile: str) -> None:
    """Branches told apart by a required property's single value cannot both match, so
    `anyOf` accepts what `oneOf` did (lossless, nothing added to the description); where
    they can, "exactly one" is described (hinted). The check says so beforehand."""
    schema: dict[str, Any] = {"type": "object", "properties": {"shape": {"oneOf": branches}},
                              "required": ["shape"], "additionalProperties": False}
    if defs:
        schema["$defs"] = defs
    result = run([ToolDef("t", copy.deepcopy(schema))], profile)[0]
    assert [c.safety for c in result.changes if c.code == "UNI008"] == [safety]
    assert [f.fix_safety for f in result.findings if f.code == "UNI008"] == [safety]
    shape = result.transformed_schema["properties"]["shape"]
    assert ("description" in shape) is (safety == "hinted")
    original = jsonschema.Draft202012Validator(schema)
    transformed = jsonschema.Draft202012Validator(result.transformed_schema)
    for value in [{"kind": "circle", "radius": 1}, {"kind": "square", "side": 2},
                  {"kind": "circle", "radius": 1, "side": 2}, {"kind": 1, "radius": 1}]:
        if safety == "lossless":
            assert original.is_valid({"shape": value}) == transformed.is_valid({"shape": value})
