"""One MCP tool becomes one ToolDef, whichever way it comes in: a file, the library API, the
MCP SDK's `Tool`, or a listing the proxy relays (schema_compat/mcp_tool.py).

The odd tools below are the cases where the three conversions used to disagree: the API
turned a name that is not a string into its `str()` and kept a description that is not a
string, where the file loader used the `<tool N>` placeholder and no description. Each case
is sent through every entry point and must come out as the ToolDef written here, and be
judged with the same findings.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.types import Tool

from schema_compat import check, transform
from schema_compat.extract import load_source_text
from schema_compat.model import ToolDef
from schema_compat.proxy.relay import Relay
from schema_compat.requests import mcp_listing, plan

OBJ: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}

# (tool object, expected name, expected description, expected schema), each tool at index 0
CASES: dict[str, tuple[dict[str, Any], str, str | None, Any]] = {
    "number description": ({"name": "t", "description": 5, "inputSchema": OBJ},
                           "t", None, OBJ),
    "object description": ({"name": "t", "description": {"text": "x"}, "inputSchema": OBJ},
                           "t", None, OBJ),
    "null description": ({"name": "t", "description": None, "inputSchema": OBJ},
                         "t", None, OBJ),
    "number name": ({"name": 5, "description": "Reads.", "inputSchema": OBJ},
                    "<tool 0>", "Reads.", OBJ),
    "no name": ({"description": "Reads.", "inputSchema": OBJ}, "<tool 0>", "Reads.", OBJ),
    "no schema": ({"name": "t", "description": "Reads."}, "t", "Reads.", None),
    "array schema": ({"name": "t", "description": "Reads.", "inputSchema": [1, "two"]},
                     "t", "Reads.", [1, "two"]),
    "other fields": ({"name": "t", "title": "T", "description": "Reads.",
                      "annotations": {"readOnlyHint": True}, "inputSchema": OBJ,
                      "outputSchema": {"type": "object"}}, "t", "Reads.", OBJ),
}
IDS = list(CASES)


def _expected(case: str, source: str) -> ToolDef:
    tool, name, description, schema = CASES[case]
    return ToolDef(name, schema, description, source, 0, tool)


def _from_file(tool: dict[str, Any]) -> ToolDef:
    [loaded] = load_source_text(json.dumps({"tools": [tool]}), "odd.json").tools
    return loaded


def _from_proxy(tool: dict[str, Any], monkeypatch: pytest.MonkeyPatch
                ) -> tuple[list[ToolDef], list[Any], Relay]:
    """The ToolDefs the proxy's relay hands the engine for a one-tool listing, and the
    listing the client is sent."""
    from schema_compat import engine

    seen: list[ToolDef] = []
    real = engine.run_ruleset

    def spy(tools: Any, *args: Any, **kwargs: Any) -> Any:
        seen.extend(tools)
        return real(tools, *args, **kwargs)

    monkeypatch.setattr(engine, "run_ruleset", spy)
    relay = Relay("gemini", 10.0, lambda _: None)
    sent = relay.rewrite_listing({"tools": [tool]})["tools"]
    return seen, sent, relay


@pytest.mark.parametrize("case", IDS)
def test_a_file_gives_the_tooldef(case: str) -> None:
    assert _from_file(CASES[case][0]) == _expected(case, "odd.json")


@pytest.mark.parametrize("case", IDS)
def test_the_library_api_gives_the_tooldef(case: str) -> None:
    [result] = check([CASES[case][0]], "gemini").results
    assert result.tool == _expected(case, "")
    [result] = transform([CASES[case][0]], "openai")
    assert result.tool == _expected(case, "")


@pytest.mark.parametrize("case", IDS)
def test_file_and_api_are_judged_alike(case: str) -> None:
    """The findings (and their messages, which name the tool) are the same either way."""
    tool = CASES[case][0]
    for provider in ("gemini", "openai-strict"):
        [by_dict] = check([tool], provider).results
        [by_file] = check([_from_file(tool)], provider).results
        assert [(f.code, f.path, f.message) for f in by_dict.findings] == \
            [(f.code, f.path, f.message) for f in by_file.findings]


def test_a_number_name_is_reported_under_the_placeholder() -> None:
    [result] = check([CASES["number name"][0]], "gemini").results
    assert result.tool.name == "<tool 0>"
    assert "'5'" not in " ".join(f.message for f in result.findings)


@pytest.mark.parametrize("case", [c for c in IDS if isinstance(CASES[c][0].get("name"), str)])
def test_the_proxy_gives_the_tooldef(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen, sent, relay = _from_proxy(CASES[case][0], monkeypatch)
    assert seen == [_expected(case, "upstream")]
    assert relay.names == {"t": "t"}
    # the client's entry keeps every field the upstream sent
    assert set(CASES[case][0]) <= set(sent[0])


@pytest.mark.parametrize("case", ["number name", "no name"])
def test_the_proxy_passes_a_tool_without_a_string_name_through(
        case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client would call such a tool by a name the upstream does not know."""
    seen, sent, relay = _from_proxy(CASES[case][0], monkeypatch)
    assert seen == []
    assert sent == [CASES[case][0]]
    assert relay.names == {}


def test_an_sdk_tool_gives_the_tooldef_a_dict_gives() -> None:
    tool = CASES["other fields"][0]
    [by_sdk] = check([Tool.model_validate(tool)], "gemini").results
    [by_dict] = check([tool], "gemini").results
    for field in ("name", "schema", "description", "source", "index", "schema_optional"):
        assert getattr(by_sdk.tool, field) == getattr(by_dict.tool, field), field
    assert by_sdk.tool.raw["annotations"] == {"readOnlyHint": True}
    assert by_sdk.findings == by_dict.findings


def test_the_way_back_keeps_an_mcp_tools_fields_and_names_it_as_sent() -> None:
    """A planned request as one MCP listing: each tool under its sent name with its
    transformed schema; an MCP original's other fields come back as they were (a malformed
    description too: the way back does not edit them), and a tool with no schema gets an
    empty object schema, which MCP requires."""
    tools = [CASES["other fields"][0], CASES["no schema"][0] | {"name": "u"},
             {"name": "v", "description": 5, "inputSchema": OBJ}]
    entries = mcp_listing(plan({"fs": tools}, "openai", name_prefix="server"))
    assert [e["name"] for e in entries] == ["fs_t", "fs_u", "fs_v"]
    assert {k: v for k, v in entries[0].items() if k != "inputSchema"} == {
        "name": "fs_t", "title": "T", "description": "Reads.",
        "annotations": {"readOnlyHint": True}, "outputSchema": {"type": "object"}}
    assert entries[1] == {"name": "fs_u", "description": "Reads.",
                          "inputSchema": {"type": "object", "properties": {}}}
    assert entries[2]["description"] == 5


def test_the_way_back_from_another_shape_is_an_mcp_tool(tmp_path: Any) -> None:
    """Tools of two sources are written as one MCP listing: an OpenAI tool becomes an MCP
    tool with its description, its schema under `inputSchema` and nothing of its wrapper."""
    from schema_compat.extract import load_sources
    from schema_compat.output.document import results_pieces
    from schema_compat.profiles import PROFILES

    (tmp_path / "a.json").write_text(json.dumps({"tools": [CASES["other fields"][0]]}))
    (tmp_path / "b.json").write_text(json.dumps([
        {"type": "function", "function": {"name": "w", "description": "Writes.",
                                          "parameters": OBJ}},
        {"type": "function", "function": {"name": "x", "description": 7}}]))
    loaded, errors = load_sources([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert errors == []
    tools = [t for src in loaded for t in src.tools]
    document = json.loads("".join(
        results_pieces(loaded, transform(tools, "openai"), PROFILES["openai"])))
    t, w, x = document["tools"]
    assert t["title"] == "T" and t["outputSchema"] == {"type": "object"}
    assert w == {"description": "Writes.", "name": "w", "inputSchema": w["inputSchema"]}
    assert w["inputSchema"]["properties"] == OBJ["properties"]
    assert x == {"name": "x", "inputSchema": {"type": "object", "properties": {}}}


# --- the dialect a schema is read in (issue 28 point 11) ----------------------------------

NULLABLE = {"type": "object", "properties": {"age": {"type": "integer", "nullable": True}},
            "required": ["age"]}
MARK = {"schema-compat/dialect": "openapi-3.0"}


@pytest.mark.parametrize(("document", "dialect"), [
    ({"tools": [{"name": "t", "inputSchema": NULLABLE}]}, "json-schema"),
    ({"tools": [{"name": "t", "inputSchema": NULLABLE, "_meta": MARK}]}, "openapi-3.0"),
    ({"tools": [{"name": "t", "inputSchema": NULLABLE,
                 "_meta": {"schema-compat/dialect": "other"}}]}, "json-schema"),
    ({"functionDeclarations": [{"name": "t", "parameters": NULLABLE}]}, "openapi-3.0"),
    ({"functionDeclarations": [{"name": "t", "parametersJsonSchema": NULLABLE}]},
     "json-schema"),
    ({"tools": [{"type": "function", "function": {"name": "t", "parameters": NULLABLE}}]},
     "json-schema"),
])
def test_a_tool_is_read_in_its_sources_dialect(document: dict[str, Any], dialect: str) -> None:
    [tool] = load_source_text(json.dumps(document), "x.json").tools
    assert tool.dialect == dialect
    # gemini reads `nullable` as "or null": only a JSON Schema document loses it
    [result] = transform([tool], "gemini")
    kept = result.transformed_schema["properties"]["age"].get("nullable")
    assert kept is (None if dialect == "json-schema" else True)


def test_the_sdk_tool_and_the_dict_say_the_same_dialect() -> None:
    entry = {"name": "t", "description": "d", "inputSchema": NULLABLE, "_meta": MARK}
    [from_dict] = check([entry], "gemini").results
    [from_sdk] = check([Tool.model_validate(entry)], "gemini").results
    assert from_dict.tool.dialect == from_sdk.tool.dialect == "openapi-3.0"
    assert from_dict.findings == from_sdk.findings == ()


def test_the_written_mark_keeps_the_tools_own_meta() -> None:
    entry = {"name": "t", "inputSchema": NULLABLE, "_meta": {"io.example/x": 1}}
    [result] = transform([entry], "vertex")
    [written] = mcp_listing(plan([entry], "vertex"))
    assert written["_meta"] == {"io.example/x": 1, **MARK}
    assert "nullable" not in written["inputSchema"]["properties"]["age"]
    assert result.changes[0].code == "ROOT003"
    # for a provider that reads JSON Schema, nothing is marked
    [plain] = mcp_listing(plan([entry], "openai"))
    assert plain["_meta"] == {"io.example/x": 1}
