"""The non-Gemini profiles held to the core's invariants on the corpus and the examples.

Vertex output goes through google-genai's `types.Schema` (the offline oracle, which takes
`anyOf` and `additionalProperties`); what no SDK checks for OpenAI and Anthropic is asserted
directly, with cases taken from the error reports in provider-rules.md.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from google.genai import types
from invariants import assert_nothing_dropped_silently
from oracle.dialect import output_validator

from schema_compat.engine import run
from schema_compat.extract.files import load_sources
from schema_compat.model import ToolDef, ToolResult, written_dialect
from schema_compat.profiles import get_profile
from schema_compat.schema.walker import iter_nodes

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
SOURCES = sorted((DATA / "corpus").glob("*.json")) + sorted(
    (DATA / "corpus" / "servers").glob("*.json")) + [ROOT / "examples" / "mixed.json"]
PROVIDERS = ("vertex", "openai", "anthropic", "portable", "openai-strict", "anthropic-strict",
             "bedrock", "mistral", "ollama",
             "xai", "deepseek", "deepseek-strict", "groq")
# Limits no transform can meet (tools per request; Anthropic's per-request complexity):
# they stay as findings, the tool is reported as not fixable.
UNFIXABLE = {"anthropic-strict": {"LIM001", "LIM004"}}
NAME_RULES = {
    "vertex": r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$",
    "openai": r"^[a-zA-Z0-9_-]{1,64}$",
    "anthropic": r"^[a-zA-Z0-9_-]{1,128}$",
    "portable": r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
    "openai-strict": r"^[a-zA-Z0-9_-]{1,64}$",
    "anthropic-strict": r"^[a-zA-Z0-9_-]{1,128}$",
    "bedrock": r"^[a-zA-Z0-9_-]{1,64}$",  # botocore's `ToolName` (BDR-01)
    "mistral": r"^[a-zA-Z0-9_-]{1,64}$",  # MIS-01
    "ollama": r"^.+$",
    "xai": r"^[a-zA-Z0-9_-]{1,64}$",
    "deepseek": r"^[a-zA-Z0-9_-]{1,64}$",
    "deepseek-strict": r"^[a-zA-Z0-9_-]{1,64}$",
    "groq": r"^[a-zA-Z0-9_-]{1,64}$",
}
# The fields of Ollama's Go `ToolProperty` (OLL-01): any other keyword is dropped unread.
OLLAMA_FIELDS = {"type", "items", "description", "enum", "properties", "required", "anyOf"}
# What DeepSeek's strict mode (beta) refuses (docs/providers.md DSK-03).
DEEPSEEK_STRICT_REFUSED = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "minLength", "maxLength", "pattern", "format", "multipleOf",
                           "maxItems"}


def _tools(path: Path) -> list[ToolDef]:
    sources, errors = load_sources([str(path)])
    assert not errors
    return [t for s in sources for t in s.tools]


@pytest.fixture(scope="module", params=PROVIDERS)
def provider_results(request: pytest.FixtureRequest) -> tuple[str, list[list[ToolResult]]]:
    return request.param, [run(_tools(p), request.param) for p in SOURCES]


def assert_root_object(schema: Any, name: str) -> None:
    assert isinstance(schema, dict), name
    assert schema.get("type") == "object", name
    assert not {"anyOf", "oneOf", "allOf"} & set(schema), name


def assert_vertex(schema: Any, name: str) -> None:
    types.FunctionDeclaration(name=name, parameters=types.Schema.model_validate(schema))
    for path, node in iter_nodes(schema):
        if isinstance(node, dict) and "anyOf" in node:
            assert set(node) == {"anyOf"}, f"{name} at {path}: anyOf with siblings"
        if isinstance(node, dict) and path:
            assert "type" in node or "anyOf" in node, f"{name} at {path}: typeless"
            assert "oneOf" not in node and "allOf" not in node and "$ref" not in node


def assert_ollama(schema: Any, name: str) -> None:
    """Nothing Ollama would drop is left, no type list (llama.cpp grammars break on them)
    and no `anyOf` beside `properties` (LCP-01)."""
    for path, node in iter_nodes(schema):
        if isinstance(node, dict):
            assert set(node) <= OLLAMA_FIELDS, (name, path, sorted(set(node) - OLLAMA_FIELDS))
            assert not isinstance(node.get("type"), list), (name, path)
            assert not ("anyOf" in node and "properties" in node), (name, path)


def _objects(schema: Any) -> list[tuple[Any, dict[str, Any]]]:
    return [(p, n) for p, n in iter_nodes(schema) if isinstance(n, dict) and (
        n.get("type") == "object" or (isinstance(n.get("type"), list) and "object" in n["type"])
        or "properties" in n)]


def _sorted_required(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_sorted_required(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _sorted_required(v) for k, v in schema.items()}
    if isinstance(schema.get("required"), list):
        out["required"] = sorted(schema["required"])
    return out


def assert_strict(schema: Any, name: str, provider: str) -> None:
    for path, node in _objects(schema):
        assert node.get("additionalProperties") is False, (name, path)
        if provider in ("openai-strict", "deepseek-strict"):
            assert set(node.get("required", [])) == set(node.get("properties", {})), (name, path)
    for path, node in iter_nodes(schema):
        if isinstance(node, dict):
            assert not {"oneOf", "allOf", "not", "if", "patternProperties"} & set(node), path
            if provider == "anthropic-strict":
                assert not {"minimum", "maximum", "minLength", "maxLength", "maxItems",
                            "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
                            "$ref"} & set(node), (name, path)
            if provider == "deepseek-strict":
                assert not DEEPSEEK_STRICT_REFUSED & set(node), (name, path)
                assert node.get("minItems", 0) in (0, 1), (name, path)
    if provider == "openai-strict":
        _openai_sdk_accepts(schema, name)


def assert_xai(schema: Any, name: str) -> None:
    """XAI-01: `allOf` holds one subschema at most and no reference is circular (none is
    left: a recursion is unrolled with every reference inlined)."""
    for path, node in iter_nodes(schema):
        if isinstance(node, dict):
            assert len(node.get("allOf", [])) <= 1, (name, path)
            assert "$ref" not in node, (name, path)


def _openai_sdk_accepts(schema: Any, name: str) -> None:
    """The OpenAI SDK's own strict-schema helper finds nothing to change (bar key order)."""
    strict_helper = pytest.importorskip("openai.lib._pydantic")._ensure_strict_json_schema
    work = copy.deepcopy(schema)
    out = strict_helper(work, path=(), root=work)
    assert _sorted_required(out) == _sorted_required(schema), name


def test_no_error_left_and_provider_shape(
        provider_results: tuple[str, list[list[ToolResult]]]) -> None:
    provider, per_source = provider_results
    total = 0
    for results in per_source:
        names = [r.transformed_name for r in results]
        assert len(set(names)) == len(names)
        for r in results:
            total += 1
            assert [f for f in r.remaining if f.severity == "error" and
                    f.code not in UNFIXABLE.get(provider, set())] == [], r.tool.name
            assert re.fullmatch(NAME_RULES[provider], r.transformed_name), r.transformed_name
            assert_root_object(r.transformed_schema, r.tool.name)
            if provider in ("vertex", "portable"):
                assert_vertex(r.transformed_schema, r.transformed_name)
            if provider.endswith("-strict"):
                assert_strict(r.transformed_schema, r.tool.name, provider)
            if provider == "ollama":
                assert_ollama(r.transformed_schema, r.tool.name)
            if provider == "xai":
                assert_xai(r.transformed_schema, r.tool.name)
            if provider in ("openai", "portable", "openai-strict"):
                for path, node in iter_nodes(r.transformed_schema):
                    if isinstance(node, dict) and node.get("type") == "array":
                        # prefixItems: acceptance by OpenAI unknown (in none of its lists)
                        assert "items" in node or "prefixItems" in node, (r.tool.name, path)
    assert total > 500


def test_transform_is_idempotent(provider_results: tuple[str, list[list[ToolResult]]]) -> None:
    provider, per_source = provider_results
    for results in per_source:
        # read again as written: in the provider's dialect (gemini's `nullable` is OpenAPI's)
        dialect = written_dialect(get_profile(provider).nullable_keyword)
        again = run([ToolDef(r.transformed_name, r.transformed_schema, r.tool.description,
                             dialect=dialect) for r in results], provider)
        for first, second in zip(results, again, strict=True):
            assert second.transformed_schema == first.transformed_schema, first.tool.name
            assert second.transformed_name == first.transformed_name
            assert second.changes == ()


def test_nothing_is_dropped_silently(
        provider_results: tuple[str, list[list[ToolResult]]]) -> None:
    _, per_source = provider_results
    assert_nothing_dropped_silently(r for rs in per_source for r in rs)


OBJ_A = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
OBJ_B = {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}


@pytest.mark.parametrize("provider", ["openai", "anthropic", "vertex"])
def test_root_union_is_merged(provider: str) -> None:
    # anthropics/claude-code#5319: "input_schema does not support oneOf, allOf, or anyOf at
    # the top level"; chatanywhere/GPT_API_free#403 for OpenAI.
    for key in ("anyOf", "oneOf"):
        r = run([ToolDef("t", {key: [OBJ_A, OBJ_B]})], provider)[0]
        assert "ROOT001" in {f.code for f in r.findings}
        assert_root_object(r.transformed_schema, "t")
        assert set(r.transformed_schema["properties"]) == {"path", "url"}
    r = run([ToolDef("t", {"allOf": [OBJ_A, OBJ_B]})], provider)[0]
    assert r.transformed_schema["required"] == ["path", "url"]
    assert {c.safety for c in r.changes} == {"lossless"}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_root_without_type(provider: str) -> None:
    # Kilo-Org/kilocode#12238: "tools.0.custom.input_schema.type: Field required"
    r = run([ToolDef("t", {"properties": {"q": {"type": "string"}}}, "d")], provider)[0]
    assert [f.code for f in r.findings] == ["ROOT002"]
    assert r.transformed_schema["type"] == "object"


def test_openai_names_and_limits() -> None:
    # run-llama/llama_index#16093: "string does not match pattern ... '^[a-zA-Z0-9_-]+$'"
    schema = {"type": "object", "properties": {}}
    tools = [ToolDef("files.read", schema), ToolDef("files_read", schema),
             ToolDef("9" * 70, schema), ToolDef("ok", schema, "x" * 1100)]
    results = run(tools, "openai")
    names = [r.transformed_name for r in results]
    assert names[:2] == ["files_read", "files_read_2"]
    assert names[2] != "9" * 70 and len(names[2]) <= 64 and names[2][0] == "9"
    assert [f.code for f in results[3].findings] == ["NAM004"]
    assert results[3].findings[0].severity == "warning"
    many = run([ToolDef(f"t{i}", schema, "d") for i in range(130)], "openai")
    assert {f.code for r in many[128:] for f in r.findings} == {"LIM001"}
    # streamnative/streamnative-mcp-server#26: "array schema missing items"
    r = run([ToolDef("t", {"type": "object", "properties": {
        "configs": {"type": "array"}}})], "openai")[0]
    assert "items" in r.transformed_schema["properties"]["configs"]


def test_anthropic_allows_long_names_and_dots_are_renamed() -> None:
    schema = {"type": "object", "properties": {}}
    results = run([ToolDef("a" * 100, schema), ToolDef("admin.tools.list", schema)],
                  "anthropic")
    assert results[0].findings == () or all(f.code == "NAM003" for f in results[0].findings)
    assert results[1].transformed_name == "admin_tools_list"


def test_vertex_keeps_additional_properties_and_any_of() -> None:
    schema = {"type": "object", "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "v": {"description": "A value.", "anyOf": [{"type": "string"}, {"type": "integer"},
                                                   {"type": "null"}]}}}
    r = run([ToolDef("t", schema)], "vertex")[0]
    out = r.transformed_schema
    assert out["properties"]["tags"]["additionalProperties"] == {"type": "string"}
    assert out["properties"]["v"] == {"anyOf": [
        {"type": "string", "nullable": True, "description": "A value."},
        {"type": "integer", "nullable": True, "description": "A value."}]}
    assert {c.safety for c in r.changes} == {"lossless"}
    assert_vertex(out, "t")


def test_openai_strict_required_and_closed_objects() -> None:
    # ash-project/ash_ai#155: "'required' is required to be supplied and to be an array
    # including every key in properties. Missing 'id'."; lastmile-ai/openai-agents-mcp#2:
    # "'additionalProperties' is required to be supplied and to be false."
    schema = {"type": "object", "properties": {
        "id": {"type": "string"},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "when": {"$ref": "#/$defs/When"},
        "permissions": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}}},
        "$defs": {"When": {"type": "object", "properties": {"at": {"type": "string"}}}}}
    r = run([ToolDef("t", schema, "d")], "openai-strict")[0]
    out = r.transformed_schema
    assert_strict(out, "t", "openai-strict")
    props = out["properties"]
    assert props["id"]["type"] == ["string", "null"]
    assert props["mode"]["enum"] == ["a", "b", None]
    assert props["when"]["anyOf"] == [{"$ref": "#/$defs/When"}, {"type": "null"}]
    assert out["$defs"]["When"]["additionalProperties"] is False
    assert "The server also accepts other keys" in props["tags"]["description"]
    assert r.fix_status == "lossy"  # the map became a closed object


def test_openai_strict_keeps_recursion_and_drops_unsupported_with_hints() -> None:
    # makenotion/notion-mcp-server#102: "'allOf' is not permitted"; "'default' is not
    # permitted"
    schema = {"type": "object", "required": ["node"], "properties": {
        "node": {"$ref": "#/$defs/Node"},
        "n": {"type": "integer", "default": 3},
        "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                           {"properties": {"b": {"type": "string"}}}]}},
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}
    r = run([ToolDef("t", schema, "d")], "openai-strict")[0]
    out = r.transformed_schema
    assert out["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert "Default: 3." in out["properties"]["n"]["description"]
    assert set(out["properties"]["both"]["properties"]) == {"a", "b"}
    assert not [f for f in r.remaining if f.severity == "error"]
    assert_strict(out, "t", "openai-strict")


def test_openai_strict_limits() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(11):
        deep = {"type": "object", "properties": {"x": deep}, "required": ["x"],
                "additionalProperties": False}
    r = run([ToolDef("t", deep, "d")], "openai-strict")[0]
    assert "LIM002" in {f.code for f in r.remaining}
    many = {"type": "object", "additionalProperties": False, "required": ["e"],
            "properties": {"e": {"type": "string", "enum": [str(i) for i in range(1001)]}}}
    r = run([ToolDef("t", many, "d")], "openai-strict")[0]
    assert "LIM003" in {f.code for f in r.remaining}


def test_anthropic_strict_no_recursion_no_bounds_and_complexity() -> None:
    schema = {"type": "object", "properties": {
        "n": {"type": "integer", "minimum": 1, "maximum": 9},
        "s": {"type": "string", "maxLength": 5},
        "l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
        "tree": {"$ref": "#/$defs/T"}},
        "$defs": {"T": {"type": "object", "properties": {"kids": {
            "type": "array", "items": {"$ref": "#/$defs/T"}}}}}}
    r = run([ToolDef("t", schema, "d")], "anthropic-strict")[0]
    out = r.transformed_schema
    assert_strict(out, "t", "anthropic-strict")
    assert out["properties"]["n"]["description"] == "Must be at least 1. Must be at most 9."
    assert out["properties"]["l"]["minItems"] == 1
    assert "required" not in out  # optional parameters stay optional
    assert any(c.code == "REF003" and c.safety == "lossy" for c in r.changes)
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(25)}}
    r = run([ToolDef("t", wide, "d")], "anthropic-strict")[0]
    assert "LIM004" in {f.code for f in r.remaining}
    assert r.fix_status == "unfixable"


def test_anthropic_strict_limits_are_summed_per_request() -> None:
    """ANTS-05 counts over every strict tool of a request: three tools of 10 optional
    parameters each pass alone, the third takes the request past 24."""
    def tool(name: str, source: str = "a.json") -> ToolDef:
        props = {f"p{i}": {"type": "string"} for i in range(10)}
        return ToolDef(name, {"type": "object", "properties": props}, "d", source=source)

    results = run([tool("t1"), tool("t2"), tool("t3"), tool("t4"), tool("u1", "b.json")],
                  "anthropic-strict")
    flagged = {r.tool.name: [f.message for f in r.remaining if f.code == "LIM004"]
               for r in results}
    assert flagged["t1"] == [] and flagged["t2"] == []
    assert flagged["t3"] == ["10 optional parameters here, 30 with the 20 of the tools "
                             "listed before it; strict tool use allows 24 per request"]
    assert len(flagged["t4"]) == 1
    assert flagged["u1"] == []  # another source is another request
    unions = {"type": "object", "properties": {
        f"u{i}": {"type": ["string", "null"]} for i in range(9)}, "required": [
        f"u{i}" for i in range(9)]}
    two = run([ToolDef("a", unions, "d"), ToolDef("b", unions, "d")], "anthropic-strict")
    assert [f.code for f in two[0].remaining] == []
    assert [f.code for f in two[1].remaining] == ["LIM004"]


def test_check_all_prints_a_matrix(run_cli: Any) -> None:
    proc = run_cli("check", "--provider", "all", "examples/mixed.json")
    assert proc.returncode == 1, proc.stderr
    from schema_compat.profiles import PROFILES

    head = proc.stdout.splitlines()[2].split()
    key = " ".join(proc.stdout.split("columns: ", 1)[1].split())  # wrapped to the terminal
    # every profile has a column: under its label, which the key below spells out
    for name, profile in PROFILES.items():
        assert profile.label in head and f"{profile.label} {name}" in key
    assert "total ✓" in proc.stdout and "total ✗" in proc.stdout


def test_matrix_fits_an_80_column_terminal() -> None:
    import io

    from rich.console import Console

    from schema_compat.profiles import PROFILES
    from schema_compat.report.matrix import render_matrix

    tools = _tools(ROOT / "examples" / "mixed.json")
    by_provider = {p: run(tools, p) for p in PROFILES}
    out = io.StringIO()
    render_matrix(by_provider, Console(file=out, width=80, no_color=True))
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    # more profiles than one 80-column table holds: the columns go on in a second table
    heads = [line.split() for line in lines if line.lstrip().startswith("tool")]
    assert len(heads) > 1 and all(head[0] == "tool" for head in heads)
    assert [label for head in heads for label in head[1:]] == [
        PROFILES[p].label for p in PROFILES]
    assert heads[0][1:7] == ["GEM", "GEM-J", "VTX", "OAI", "OAI-S", "ANT"]
    # as evenly as they fit: no table has two columns more than another
    assert max(map(len, heads)) - min(map(len, heads)) <= 1
    assert any(line.startswith("columns: GEM gemini, GEM-J gemini-json") for line in lines)
    rows = [line for line in lines if line.lstrip().startswith("search_orders")]
    cells = [cell for row in rows for cell in row.split()[1:]]
    assert len(rows) == len(heads) and len(cells) == len(PROFILES)
    assert set(cells) <= {"✓", "fix", "lossy", "✗"}


def test_object_and_array_shapes_openai_refuses() -> None:
    """OAI-08 (items also under a type list) and OAI-10 (object without properties)."""
    schema = {"type": "object", "properties": {"x": {"type": ["string", "array"]},
                                               "y": {"type": "object"}}}
    r = run([ToolDef("t", schema, "d")], "openai")[0]
    assert {(f.code, f.severity) for f in r.findings} == {("TYP004", "warning"),
                                                          ("OBJ010", "warning")}
    out = r.transformed_schema
    assert out["properties"]["x"]["items"]["type"] == "string"
    assert out["properties"]["y"]["properties"] == {}
    assert {(c.code, c.safety) for c in r.changes} == {("TYP004", "lossy"),
                                                       ("OBJ010", "lossless")}
    assert not r.remaining
    # Closing an object that declared nothing is lossy, even once `properties: {}` is added.
    r = run([ToolDef("t", {"type": "object"}, "d")], "openai-strict")[0]
    assert ("OBJ008", "lossy") in {(c.code, c.safety) for c in r.changes}


def test_transform_refuses_several_providers(run_cli: Any) -> None:
    proc = run_cli("transform", "--provider", "all", "examples/mixed.json")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "schema-compat: error: --provider 'all': this command takes one provider "
        "(`schema-compat check --provider all` compares them; transform or diff for one at "
        "a time)")
    assert proc.stdout == ""


def test_check_several_providers_json_carries_the_matrix(run_cli: Any) -> None:
    import json

    import jsonschema

    from schema_compat.profiles import PROFILES
    from schema_compat.report.json import report_json_schema

    proc = run_cli("check", "--provider", "openai,vertex", "--json", "examples/mixed.json")
    data = json.loads(proc.stdout)
    jsonschema.validate(data, report_json_schema())
    matrix = data["matrix"]
    assert data["provider"] == "openai,vertex"
    assert matrix["providers"] == ["openai", "vertex"]
    assert len(matrix["rows"]) == len(data["tools"]) == 10
    for p in matrix["providers"]:
        assert sum(matrix["totals"][p].values()) == 10
    row = next(r for r in matrix["rows"] if r["tool"] == "github/search issues")
    assert row["cells"]["openai"] == "fixable-lossy"  # the rename
    assert matrix["name_maps"]["openai"] == {"github_search_issues": "github/search issues"}
    single = json.loads(run_cli("check", "--provider", "openai", "--json",
                                "examples/mixed.json").stdout)
    assert "matrix" not in single
    everything = json.loads(run_cli("check", "--provider", "all", "--json",
                                    "examples/mixed.json").stdout)
    assert everything["matrix"]["providers"] == list(PROFILES)


CASES = __import__("json").loads((DATA / "cases" / "fidelity.json").read_text())


@pytest.mark.parametrize("provider", ["vertex", "openai", "anthropic", "portable"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_fidelity_valid_arguments_stay_valid(case: dict[str, Any], provider: str) -> None:

    result = run([ToolDef(case["name"], case["schema"])], provider)[0]
    # Some changes narrow (a typeless object given `type: object`, open variants merged);
    # they say so, and the cases' valid arguments are not among what they refuse. That
    # every change's declared effect holds is tests/test_fidelity_corpus.py's to check.
    validator = output_validator(result.transformed_schema, provider)
    for sample in case["valid"]:
        assert validator.is_valid(sample), (sample, result.transformed_schema)


def _fill_nulls(sample: Any, schema: Any, root: Any) -> Any:
    """What a model sends under OpenAI strict mode: every optional key present, as null."""
    import jsonschema

    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        target = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return _fill_nulls(sample, {**target, **{k: v for k, v in schema.items()
                                                 if k != "$ref"}}, root)
    if not isinstance(schema, dict):
        return sample
    if isinstance(schema.get("anyOf"), list):
        for branch in schema["anyOf"]:
            filled = _fill_nulls(sample, branch, root)
            if jsonschema.Draft202012Validator(root).evolve(schema=branch).is_valid(filled):
                return filled
        return sample
    if isinstance(sample, dict) and isinstance(schema.get("properties"), dict):
        out = dict(sample)
        for key, sub in schema["properties"].items():
            out[key] = _fill_nulls(out[key], sub, root) if key in out else None
        return out
    if isinstance(sample, list) and isinstance(schema.get("items"), dict):
        return [_fill_nulls(x, schema["items"], root) for x in sample]
    return sample


STRICT = ["openai-strict", "anthropic-strict"]


def _lossless_under(case: dict[str, Any], provider: str) -> bool:
    """Whether strict mode changes nothing in the case but what it always changes: objects
    closed to keys they do not list (narrower, nothing described) and optional properties
    made required and nullable (what `_fill_nulls` sends)."""
    result = run([ToolDef(case["name"], case["schema"])], provider)[0]
    return all(c.safety != "lossy" or c.code == "OBJ009"
               or (c.code == "OBJ008" and c.told == "kept") for c in result.changes)


# Closing an object that had other keys (described) is held to what the change says it does
# in test_strict_closing_an_open_root_is_reported_and_only_drops_unknown_keys.
STRICT_LOSSLESS = [
    pytest.param(case, provider, id=f"{case['name']}-{provider}")
    for case in CASES
    for provider in STRICT
    if _lossless_under(case, provider)
]


def test_strict_lossless_cases_cover_most_of_the_hand_written_set() -> None:
    # Not counted, in both strict profiles: typeless_and_keywords_named (an open root closed,
    # a typeless object typed: narrower) and allof_merge (branches closed one by one before
    # they merge, which the merge cannot prove keeps the arguments: declared changed).
    assert len(STRICT_LOSSLESS) >= 2 * len(CASES) - 4


@pytest.mark.parametrize("provider", STRICT)
def test_strict_closing_an_open_root_is_reported_and_only_drops_unknown_keys(
    provider: str,
) -> None:
    import jsonschema

    case = next(c for c in CASES if c["name"] == "typeless_and_keywords_named")
    result = run([ToolDef(case["name"], case["schema"])], provider)[0]
    closed = [(c.code, c.path) for c in result.changes
              if c.code == "OBJ008" and c.told == "described"]
    assert closed == [("OBJ008", ())]
    out = result.transformed_schema
    validator = jsonschema.Draft202012Validator(out)
    for sample in case["valid"]:
        unknown = set(sample) - set(case["schema"].get("properties", {}))
        assert unknown, "the case exists to carry a key the schema does not declare"
        assert not validator.is_valid(sample)
        known = {k: v for k, v in sample.items() if k not in unknown}
        sent = _fill_nulls(known, out, out) if provider == "openai-strict" else known
        assert validator.is_valid(sent), (sent, out)


@pytest.mark.parametrize(("case", "provider"), STRICT_LOSSLESS)
def test_strict_fidelity(case: dict[str, Any], provider: str) -> None:
    import jsonschema

    result = run([ToolDef(case["name"], case["schema"])], provider)[0]
    out = result.transformed_schema
    validator = jsonschema.Draft202012Validator(out)
    for sample in case["valid"]:
        sent = _fill_nulls(sample, out, out) if provider == "openai-strict" else sample
        assert validator.is_valid(sent), (sent, out)


@pytest.mark.parametrize("provider", ["vertex", "gemini-json", "openai", "openai-strict",
                                      "anthropic", "anthropic-strict", "gemini", "portable"])
def test_an_empty_union_is_flagged_once_and_removed_lossy(provider: str) -> None:
    """`anyOf: []` accepts nothing and breaks the meta-schema; every profile reports it once
    (UNI009, or the union rules of gemini and portable) and no transform leaves it."""
    schema = {"type": "object", "properties": {"a": {"anyOf": []}, "b": {"oneOf": []}}}
    r = run([ToolDef("t", schema, "d")], provider)[0]
    flagged = sorted((f.path, f.code) for f in r.findings if f.keyword in ("anyOf", "oneOf"))
    assert [p for p, _ in flagged] == [("properties", "a", "anyOf"),
                                       ("properties", "b", "oneOf")], flagged
    out = r.transformed_schema
    for key in ("a", "b"):
        assert out["properties"][key].get("anyOf") != []
        assert "oneOf" not in out["properties"][key]
    lossy = {c.path for c in r.changes if c.safety == "lossy"}
    assert ("properties", "a", "anyOf") in lossy and ("properties", "b", "oneOf") in lossy
