"""`schema-compat explain`: a provider's real error text mapped back to the tool, the JSONPath
in its schema and the rule covering it.

The cases are data (tests/data/explain/cases.yaml): the error messages of provider-rules.md's
catalogue, rewritten to the tool indices and names of one listing, each with the tool, path
and rule expected, worked out by hand from the listing (which property is the N-th entry of
a map is read off the listing as written, not from the code under test).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonpath_ng
import pytest
import yaml
from inprocess import REPO_ROOT, run_main

from schema_compat import cli
from schema_compat.api import check
from schema_compat.explain import MAX_ERROR_CHARS, SHAPES, parse_error

DATA = yaml.safe_load((REPO_ROOT / "tests/data/explain/cases.yaml").read_text("utf-8"))
CASES: list[dict[str, Any]] = DATA["cases"]


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(DATA["listing"]), "utf-8")
    return path


def _explain(*args: str) -> tuple[int, str, str]:
    return run_main(cli.main, ["explain", *args])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_catalogue_error_maps_to_its_tool_path_and_rule(case: dict[str, Any],
                                                              listing: Path) -> None:
    provider = ["--provider", case["provider"]] if case.get("provider") else []
    code, out, err = _explain("--json", case["error"], str(listing), *provider)
    answer = json.loads(out)
    expect = case["expect"]
    got = {"exit": code, "tool": answer["tool"], "path": answer["path"],
           "rule": (answer["rule"] or {}).get("code")}
    assert got == expect, (answer, err)
    assert answer["matched"] is (expect["rule"] is not None)
    if expect["path"] is not None and expect["exit"] == 0:
        # the JSONPath and the pointer name the same node of that tool's schema
        tool = next(t for t in DATA["listing"]["tools"] if t["name"] == expect["tool"])
        hits = jsonpath_ng.parse(answer["path"]).find(tool["inputSchema"])  # type: ignore[attr-defined]
        assert len(hits) == 1
        node = tool["inputSchema"]
        for token in answer["pointer"].split("/")[1:]:
            node = node[int(token)] if isinstance(node, list) else node[token]
        assert node == hits[0].value


def test_the_rule_named_is_one_the_profile_flags_on_that_tool() -> None:
    """Checked apart from explain: each rule a case names is a finding of that profile's
    check on that tool."""
    for case in CASES:
        rule = case["expect"]["rule"]
        if rule is None:
            continue
        parsed = parse_error(case["error"])
        assert parsed is not None, case["name"]
        from schema_compat.profiles import PROFILES

        profile = case.get("provider") or next(
            p for p in parsed.shape.profiles if p in PROFILES)
        tools = DATA["listing"]["tools"]
        results = check(tools, profile).results
        codes = {f.code for r in results if r.tool.name == case["expect"]["tool"]
                 for f in r.findings}
        assert rule in codes, (case["name"], profile, codes)


def test_every_shape_has_a_case() -> None:
    seen = {parsed.shape.name for c in CASES if (parsed := parse_error(c["error"]))}
    assert {s.name for s in SHAPES} - seen == {"vertex-schema"}  # Vertex's other messages


def test_text_names_tool_path_rule_and_a_transform_that_fixes_it(listing: Path,
                                                                   tmp_path: Path) -> None:
    error = ("Invalid JSON payload received. Unknown name \"const\" at 'tools[0]."
             "function_declarations[1].parameters.properties[1].value.any_of[0]': Cannot "
             "find field.")
    code, out, err = _explain(error, str(listing))
    assert code == 0, err
    lines = dict(line.split(":", 1) for line in out.splitlines() if not line.startswith(" "))
    assert lines["tool"].split() == ["search.files", "(index", "1", "in", f"{listing})"]
    assert lines["path"].strip() == "$.properties.mode.anyOf[0].const"
    assert lines["rule"].split()[:2] == ["VAL001", "const-unsupported"]
    assert "lossless" in lines["fix"]
    command = lines["do"].split()
    assert command[:4] == ["schema-compat", "transform", "-p", "gemini"]
    # the command given does what it says: after it, gemini flags no `const` on that tool
    out_file = tmp_path / "fixed.json"
    code, _, err = run_main(cli.main, [*command[1:-2], "-o", str(out_file)])
    assert code == 0, err
    fixed = json.loads(out_file.read_text("utf-8"))["tools"][1]
    assert fixed["name"] == "search.files"
    assert "VAL001" not in {f.code for f in check([fixed], "gemini").results[0].findings}


def test_no_rule_covering_it_shows_the_node(listing: Path) -> None:
    code, out, _ = _explain("FunctionDeclaration 'read_node' in the request exceeds the "
                            "maximum allowed nesting depth.", str(listing))
    assert code == 0
    assert "none of gemini's rules covers this place" in out
    node = next(line for line in out.splitlines() if line.startswith("node:"))
    assert json.loads(node.split(":", 1)[1]) == DATA["listing"]["tools"][5]["inputSchema"]


def test_unrecognised_text_is_one_line_naming_the_shapes_understood(listing: Path) -> None:
    code, out, err = _explain("Something went wrong.", str(listing))
    assert (code, out) == (1, "")
    assert len(err.strip().splitlines()) == 1
    assert all(word in err for word in ("Gemini", "OpenAI", "Anthropic", "Bedrock"))


def test_something_not_found_exits_1_and_says_what(listing: Path) -> None:
    code, out, _ = _explain("Invalid 'tools[14].function.name': string does not match "
                            "pattern.", str(listing))
    assert code == 1
    assert "tool 14" in out and "14 tool(s)" in out


@pytest.mark.parametrize(("args", "says"), [
    (["--provider", "nope"], "unknown provider 'nope'"),
    ([], "no SOURCE given"),
    (["missing.json"], "missing.json"),
])
def test_bad_usage_exits_2_with_one_line(args: list[str], says: str, listing: Path) -> None:
    sources = [str(listing)] if args[:1] == ["--provider"] else []
    code, out, err = _explain("tools.0.custom.name: bad", *sources, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and says in err


def test_names_from_the_error_and_the_source_are_escaped(tmp_path: Path) -> None:
    source = tmp_path / "tools.json"
    name = "evil\x1b[31mtool"
    source.write_text(json.dumps({"tools": [{"name": name, "inputSchema": {
        "type": "object", "properties": {"x": {"type": "array"}}}}]}), "utf-8")
    code, out, _ = _explain(f"Invalid schema for function '{name}': In context=("
                            "'properties', 'x'), array schema missing items.", str(source))
    assert code == 0
    assert "\x1b" not in out and "evil\\x1b[31mtool" in out


def test_thetransform_command_echoes_no_secret(listing: Path) -> None:
    from schema_compat.commands.explain import ExplainOptions, transform_command
    from schema_compat.commands.inputs import LiveOpts

    live = LiveOpts(url=["https://user:pw@host.example/mcp?token=s3cret"],
                    header=["Authorization: Bearer s3cret"], env=["KEY=s3cret"])
    text = transform_command("gemini", ExplainOptions("", None, None, "original", False,
                                                       live))
    assert "s3cret" not in text and "pw" not in text
    assert "https://host.example/mcp" in text and "--header" in text


HOSTILE = [
    "Invalid schema for function 'f': In context=(" + "1" * 60,
    "Invalid schema for function 'f': In context=(" + "1" * MAX_ERROR_CHARS,
    "Invalid schema for function 'f': In context=(" + "'a', 1, " * 3000,
    "because `x` functionDeclaration `parameters" + "." * MAX_ERROR_CHARS,
    "because " + "x" * MAX_ERROR_CHARS,
    "tools[0].function_declarations[0]." * 1000,
    "Unknown name \"" + "a" * MAX_ERROR_CHARS,
    "x" * 10 * MAX_ERROR_CHARS,
    "`" * MAX_ERROR_CHARS,
]


def test_hostile_error_text_is_read_in_bounded_time() -> None:
    """Every shape is tried on texts built to make a backtracking regex stall: each is read
    (or refused) well within the timeout, in a process of its own so a stall cannot hang
    the run."""
    script = ("import json, sys\nfrom schema_compat.explain import parse_error\n"
              "for text in json.load(sys.stdin):\n    parse_error(text)\nprint('done')\n")
    proc = subprocess.run([sys.executable, "-c", script], input=json.dumps(HOSTILE),
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.stdout.strip() == "done", proc.stderr


def test_a_text_past_the_cap_is_read_from_its_start() -> None:
    error = ("tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$' "
             + "x" * MAX_ERROR_CHARS)
    parsed = parse_error(error)
    assert parsed is not None and parsed.tool_at == 1
    assert parse_error("x" * MAX_ERROR_CHARS + " tools.1.custom.name: bad") is None


def test_json_answers_carry_the_same_keys_mapped_or_not(listing: Path) -> None:
    mapped = json.loads(_explain("--json", CASES[0]["error"], str(listing))[1])
    code, out, err = _explain("--json", "Something went wrong.", str(listing))
    unmapped = json.loads(out)
    assert code == 1 and err == ""
    assert set(unmapped) == set(mapped)
    assert unmapped["matched"] is False and unmapped["tool"] is None
    assert "understood" in unmapped["problem"]


GEMINI_TOOLS = [
    {"functionDeclarations": [
        {"name": "a", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}},
        {"name": "b", "parameters": {"type": "object", "additionalProperties": False,
                                     "properties": {"y": {"type": "string"}}}}]},
    {"googleSearch": {}},
    {"functionDeclarations": [
        {"name": "c", "parameters": {"type": "object", "properties": {
            "z": {"type": "string", "const": "q"}}}}]},
]


@pytest.mark.parametrize(("error", "tool", "path"), [
    ("Unknown name \"const\" at 'tools[2].function_declarations[0].parameters.properties[0]"
     ".value'", "c", "$.properties.z.const"),
    ("Unknown name \"additionalProperties\" at 'tools[0].function_declarations[1].parameters'",
     "b", "$.additionalProperties"),
    ("Unknown name \"additionalProperties\" at 'tools[0].function_declarations[2].parameters'",
     None, None),
    ("Unknown name \"const\" at 'tools[1].function_declarations[0].parameters'", None, None),
])
def test_a_gemini_tools_list_is_indexed_by_entry_then_declaration(
        error: str, tool: str | None, path: str | None, tmp_path: Path) -> None:
    """tools[T] counts every entry of the list (a built-in too); F counts within it."""
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps(GEMINI_TOOLS), "utf-8")
    code, out, err = _explain("--json", error, str(source))
    answer = json.loads(out)
    assert (code, answer["tool"], answer["path"]) == (0 if tool else 1, tool, path), err


INLINED = ("Invalid JSON payload received. Unknown name \"x\" at 'tools[0].function_declarations"
           "[5].parameters.properties[0].value.items.properties[0].value': Cannot find field.")


def test_indices_read_against_the_schemas_sent(listing: Path) -> None:
    """read_node's items are a `$ref` as listed and the inlined Node as transform sends
    them: the same index path names a place only in the schema that was sent."""
    code, out, _ = _explain("--json", INLINED, str(listing))
    original = json.loads(out)
    assert (code, original["tool"], original["sent"]) == (1, "read_node", "original")
    assert "properties[0]" in original["problem"]
    code, out, _ = _explain("--json", "--sent", "transformed", INLINED, str(listing))
    sent = json.loads(out)
    assert (code, sent["tool"], sent["path"]) == (0, "read_node",
                                                  "$.properties.node.items.properties.id")
    # what gemini was sent there is the listing's Node.id, inlined
    assert sent["node"] == DATA["listing"]["tools"][5]["inputSchema"]["$defs"]["Node"][
        "properties"]["id"]
    assert sent["rule"] is None and sent["matched"] is False


def test_a_transformed_name_is_the_tool_sent(listing: Path) -> None:
    error = ("Invalid schema for function 'search_files': In context=('properties', 'tags'), "
             "array schema missing items.")
    code, out, _ = _explain("--json", "--sent", "transformed", error, str(listing))
    answer = json.loads(out)
    assert (code, answer["tool"], answer["tool_index"]) == (0, "search_files", 1)


def test_bad_usage_comes_before_an_unrecognised_text() -> None:
    code, out, err = _explain("Something went wrong.")
    assert (code, out) == (2, "") and "no SOURCE given" in err


def test_a_request_wide_limit_names_its_rule_and_the_tools_past_it(tmp_path: Path) -> None:
    source = tmp_path / "many.json"
    source.write_text(json.dumps({"tools": [
        {"name": f"t{i}", "description": "d", "inputSchema": {"type": "object"}}
        for i in range(130)]}), "utf-8")
    error = ("Invalid 'tools': array too long. Expected an array with maximum length 128, "
             "but got an array with length 130 instead.")
    code, out, _ = _explain("--json", error, str(source))
    answer = json.loads(out)
    assert (code, answer["tool"], answer["rule"]["code"]) == (0, None, "LIM001")
    assert "'t128', 't129'" in answer["inferred"] and "'t127'" not in answer["inferred"]
    code, out, _ = _explain(error, str(source))
    assert code == 0 and "rule:   LIM001 too-many-tools" in out


def test_a_tool_less_error_fitting_several_tools_names_those_a_rule_flags(
        tmp_path: Path) -> None:
    source = tmp_path / "tools.json"
    union = {"anyOf": [{"type": "object"}, {"type": "object"}]}
    source.write_text(json.dumps({"tools": [
        {"name": "plain", "inputSchema": {"type": "object"}},
        {"name": "u1", "inputSchema": union}, {"name": "u2", "inputSchema": union}]}), "utf-8")
    code, out, _ = _explain("--json", "Unable to submit request because function parameters "
                            "schema should be of type OBJECT", str(source))
    answer = json.loads(out)
    assert (code, answer["tool"]) == (1, None)
    assert "2 tools fit it: 'u1', 'u2'" in answer["problem"]


CORPUS = sorted((REPO_ROOT / "tests/data/corpus/servers").glob("*.json"))


def _gemini_at(schema: Any, path: tuple[Any, ...]) -> str | None:
    """The place `path` names, as Gemini's proto parser writes it: a property by its
    position among its siblings as written, field names snake_cased; None for a place
    under `$defs` (Gemini's errors never name one)."""
    out, node = "parameters", schema
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        elif out.endswith(".properties") or out.endswith("].properties"):
            out = out.removesuffix(".properties") + f".properties[{list(node).index(key)}].value"
        elif key.startswith("$") or not isinstance(node, dict):
            return None
        else:
            out += "." + "".join(f"_{c.lower()}" if c.isupper() else c for c in key)
        node = node[key]
    return out


def test_a_gemini_error_built_from_each_corpus_finding_maps_back_to_it() -> None:
    """For every finding gemini's check makes on a corpus tool that blames a keyword (the
    node's `Unknown name "kw"`), the error Gemini would give is written here from the
    schema's own key order, and explain must name that tool, that place and a rule found
    there."""
    from schema_compat.api import load_tools
    from schema_compat.explain import explain
    from schema_compat.paths import jsonpath

    tried = 0
    for path in CORPUS:
        tools, errors = load_tools(str(path))
        assert not errors
        results = check(tools, "gemini").results
        for index, result in enumerate(results):
            for finding in result.findings:
                if finding.scope != "schema" or finding.path[-1:] != (finding.keyword,):
                    continue
                at = _gemini_at(result.tool.schema, finding.path[:-1])
                if at is None:
                    continue
                error = (f"Invalid JSON payload received. Unknown name \"{finding.keyword}\" "
                         f"at 'tools[0].function_declarations[{index}].{at}': Cannot find "
                         "field.")
                parsed = parse_error(error)
                assert parsed is not None, error
                found = explain(parsed, tools, results, "gemini")
                assert found.tool is result.tool, error
                assert jsonpath(found.target) == jsonpath(finding.path), error
                assert found.finding is not None and found.finding.path == finding.path
                tried += 1
    assert tried > 50
