"""The invariants the gemini profiles promise, on the real corpus and hand-written cases.

google-genai's own `types.Schema` is the offline acceptance oracle; what it does not check
(formats, dangling `required`, arrays without `items`, typeless nodes, additionalProperties
without `$`) is asserted here directly. What one rule does is in its cases, tests/rules/CODE.yaml
(tests/test_rule_cases.py); what stays here holds across rules: the corpus, idempotence, paths,
nothing dropped silently, files never read.
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
from oracle.dialect import output_validator

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import OPENAPI, ToolDef, ToolResult
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
        again = run([ToolDef(r.transformed_name, r.transformed_schema, r.tool.description,
                             dialect=OPENAPI) for r in results], "gemini")
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
    transformed = output_validator(result.transformed_schema, "gemini")
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
    again = run([ToolDef(r.transformed_name, r.transformed_schema, dialect=OPENAPI)
                 for r in results], "gemini")
    assert [r.transformed_schema for r in again] == [r.transformed_schema for r in results]


def _follow_pointer(document: Any, text: str) -> Any:
    from schema_compat.paths import parse_pointer

    tokens = parse_pointer(text)
    assert tokens is not None, text
    node = document
    for token in tokens:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


@pytest.mark.parametrize("profile", ["gemini-json", "vertex", "openai", "openai-strict",
                                     "anthropic-strict", "portable", "ollama"])
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


def test_a_profile_built_by_the_caller_does_not_change_another_of_the_same_name() -> None:
    """What the union prediction caches per profile is the profile's own, even when a
    caller builds another profile under the same name (`make_ruleset` takes any Profile)."""
    from schema_compat.engine import make_ruleset, run_ruleset
    from schema_compat.profiles import get_profile

    gemini = get_profile("gemini")
    assert gemini is not None and "writeOnly" not in gemini.allowed_keywords
    custom = gemini._replace(allowed_keywords=gemini.allowed_keywords | {"writeOnly"})
    schema = {"type": "object", "properties": {"p": {"oneOf": [
        {"type": "string", "writeOnly": True}, {"type": "string"}]}}}
    for profile in (custom, gemini):
        result = run_ruleset([ToolDef("t", copy.deepcopy(schema))], make_ruleset(profile))[0]
        changes = [c.safety for c in result.changes if c.code == "UNI002"]
        assert [f.fix_safety for f in result.findings if f.code == "UNI002"] == changes

