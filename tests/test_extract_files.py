"""File shapes: every accepted shape loads with the right tools and writes back unchanged.

Fixtures are real files under tests/data/shapes; the corpus copy under tests/data/corpus
holds real captures from MCP servers (a copy of ../shared/corpus, so the suite is
self-contained).
"""

from __future__ import annotations

import copy
import filecmp
import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schema_compat.extract import (
    SHAPES,
    LoadedSource,
    SourceLoadError,
    load_source_text,
    load_sources,
)
from schema_compat.extract.shapes import analyse
from schema_compat.jsonio import dump_json
from schema_compat.model import SourceError
from schema_compat.output.write_back import iter_write_back

TESTS = Path(__file__).resolve().parent
SHAPES_DIR = TESTS / "data" / "shapes"
CORPUS = TESTS / "data" / "corpus"
# ../shared beside the checkout (SCHEMA_COMPAT_SHARED: where it is when the suite runs from a
# copy of the tree, as `make test-compiled` does)
SHARED_CORPUS = Path(os.environ.get("SCHEMA_COMPAT_SHARED")
                     or Path(__file__).resolve().parents[2] / "shared") / "corpus"
CORPUS_FILES = sorted(CORPUS.glob("*.json")) + sorted((CORPUS / "servers").glob("*.json"))

Key = str | int
NEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"changed": {"type": "string", "description": "written by the test"}},
    "required": ["changed"],
}

UNMATCHED = (
    "not a tool listing: expected an MCP tools/list result, a list of tools, one tool, "
    "a JSON Schema, or an OpenAI/Anthropic/Gemini tool list; found "
)


def write_back(source: LoadedSource, replacements: dict[int, tuple[str, Any]],
               gemini_field: str | None = None) -> Any:
    """The document `iter_write_back` writes with `replacements` (index: name and schema),
    read back."""
    text = "".join(iter_write_back(source, list(replacements),
                                   lambda i: (*replacements[i], None), gemini_field=gemini_field))
    return json.loads(text)


def load(name: str) -> LoadedSource:
    sources, errors = load_sources([str(SHAPES_DIR / name)])
    assert errors == []
    assert len(sources) == 1
    return sources[0]


def load_error(name: str) -> SourceError:
    path = str(SHAPES_DIR / name)
    sources, errors = load_sources([path])
    assert sources == []
    assert len(errors) == 1
    assert errors[0].source == path
    return errors[0]


def get(document: Any, path: tuple[Key, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


def has(document: Any, path: tuple[Key, ...]) -> bool:
    try:
        get(document, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def put(document: Any, path: tuple[Key, ...], value: Any) -> Any:
    if not path:
        return value
    get(document, path[:-1])[path[-1]] = value
    return document


def dumped(value: Any) -> str:
    """Compare as text so key order counts too."""
    return json.dumps(value, indent=1, ensure_ascii=False)


# --- every shape --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    file: str
    shape: str
    names: tuple[str, ...]
    descriptions: tuple[str | None, ...]
    # Where each tool's schema sits (or would be written); None for the bare-schema root name.
    schema_paths: tuple[tuple[Key, ...], ...]
    name_paths: tuple[tuple[Key, ...] | None, ...]


READ, WRITE = "Read a text file.", "Write a text file."
WEATHER = "Current weather for a city."
MCP_NAMES = ("read_file", "write_file")


def mcp_case(file: str, shape: str, prefix: tuple[Key, ...]) -> Case:
    return Case(
        file,
        shape,
        MCP_NAMES,
        (READ, WRITE),
        tuple((*prefix, i, "inputSchema") for i in range(2)),
        tuple((*prefix, i, "name") for i in range(2)),
    )


def gemini_case(file: str, where: tuple[tuple[Key, ...], ...]) -> Case:
    fields = ("parameters", "parametersJsonSchema", "parameters")
    return Case(
        file,
        "gemini",
        ("get_weather", "lookup", "ping"),
        (WEATHER, "Look a record up.", "Check the service is up."),
        tuple((*w, f) for w, f in zip(where, fields, strict=True)),
        tuple((*w, "name") for w in where),
    )


CASES = [
    mcp_case("jsonrpc.json", "jsonrpc", ("result", "tools")),
    mcp_case("mcp.json", "mcp", ("tools",)),
    mcp_case("mcp-capture.json", "mcp", ("tools",)),
    mcp_case("tool-list.json", "tool-list", ()),
    Case("tool.json", "tool", ("read_file",), (READ,), (("inputSchema",),), (("name",),)),
    Case("bare_schema.json", "schema", ("bare_schema",), (None,), ((),), (None,)),
    Case(
        "anthropic-list.json",
        "anthropic",
        ("get_weather", "get_time"),
        (WEATHER, "Current time in a timezone."),
        ((0, "input_schema"), (2, "input_schema")),
        ((0, "name"), (2, "name")),
    ),
    Case(
        "anthropic-request.json",
        "anthropic",
        ("get_weather", "get_time"),
        (WEATHER, "Current time in a timezone."),
        (("tools", 0, "input_schema"), ("tools", 2, "input_schema")),
        (("tools", 0, "name"), ("tools", 2, "name")),
    ),
    Case(
        "anthropic-tool.json",
        "anthropic",
        ("get_weather",),
        (WEATHER,),
        (("input_schema",),),
        (("name",),),
    ),
    Case(
        "openai-chat.json",
        "openai",
        ("get_weather", "list_cities"),
        (WEATHER, "Every known city."),
        ((0, "function", "parameters"), (1, "function", "parameters")),
        ((0, "function", "name"), (1, "function", "name")),
    ),
    Case(
        "openai-request.json",
        "openai",
        ("get_weather", "list_cities"),
        (WEATHER, "Every known city."),
        (("tools", 0, "function", "parameters"), ("tools", 1, "function", "parameters")),
        (("tools", 0, "function", "name"), ("tools", 1, "function", "name")),
    ),
    Case(
        "openai-responses.json",
        "openai",
        ("get_weather", "get_time"),
        (WEATHER, "Current time."),
        ((0, "parameters"), (2, "parameters")),
        ((0, "name"), (2, "name")),
    ),
    Case(
        "openai-tool.json",
        "openai",
        ("get_weather",),
        (WEATHER,),
        (("function", "parameters"),),
        (("function", "name"),),
    ),
    gemini_case(
        "gemini-declarations.json",
        tuple(("functionDeclarations", j) for j in range(3)),
    ),
    gemini_case(
        "gemini-list.json",
        (
            (0, "functionDeclarations", 0),
            (0, "functionDeclarations", 1),
            (2, "functionDeclarations", 0),
        ),
    ),
    gemini_case(
        "gemini-tools.json",
        tuple(("tools", 0, "functionDeclarations", j) for j in range(3)),
    ),
    Case(
        "gemini-snake.json",
        "gemini",
        ("get_weather", "lookup"),
        (WEATHER, "Look a record up."),
        (
            ("tools", 0, "function_declarations", 0, "parameters"),
            ("tools", 0, "function_declarations", 1, "parameters_json_schema"),
        ),
        (
            ("tools", 0, "function_declarations", 0, "name"),
            ("tools", 0, "function_declarations", 1, "name"),
        ),
    ),
]
CASE_IDS = [case.file for case in CASES]


def test_shape_names_are_the_documented_ones() -> None:
    assert SHAPES == (
        "jsonrpc",
        "mcp",
        "anthropic",
        "openai",
        "gemini",
        "tool-list",
        "tool",
        "schema",
    )
    assert {case.shape for case in CASES} == set(SHAPES)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_shape_loads_its_tools(case: Case) -> None:
    source = load(case.file)
    label = str(SHAPES_DIR / case.file)
    on_disk = json.loads((SHAPES_DIR / case.file).read_text(encoding="utf-8"))
    assert source.label == label
    assert source.shape == case.shape
    assert source.document == on_disk
    assert analyse(on_disk).shape == case.shape
    assert [t.name for t in source.tools] == list(case.names)
    assert [t.description for t in source.tools] == list(case.descriptions)
    assert [t.index for t in source.tools] == list(range(len(case.names)))
    assert {t.source for t in source.tools} == {label}
    for tool, path in zip(source.tools, case.schema_paths, strict=True):
        if has(source.document, path):
            # The very object from the document: no copy, so paths and identity line up.
            assert tool.schema is get(source.document, path)
        else:
            assert tool.schema is None


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_identity_write_back_gives_the_document_back(case: Case) -> None:
    source = load(case.file)
    before = dumped(source.document)
    out = write_back(source, {t.index: (t.name, t.schema) for t in source.tools})
    assert dumped(out) == before
    assert dumped(source.document) == before
    for gemini_field in ("parameters", "parametersJsonSchema"):
        if case.shape != "gemini":  # the field choice only means something for Gemini
            assert (
                write_back(
                    source, {0: (case.names[0], source.tools[0].schema)}, gemini_field=gemini_field
                )
                == source.document
            )


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_a_changed_schema_changes_only_that_field(case: Case) -> None:
    source = load(case.file)
    for tool, path in zip(source.tools, case.schema_paths, strict=True):
        out = write_back(source, {tool.index: (tool.name, NEW_SCHEMA)})
        expected = put(copy.deepcopy(source.document), path, NEW_SCHEMA)
        assert dumped(out) == dumped(expected), (case.file, tool.index)
        # And the result reads back with the new schema in the same place.
        again = load_source_text(json.dumps(out), source.label)
        assert again.shape == case.shape
        assert again.tools[tool.index].schema == NEW_SCHEMA
        assert [t.name for t in again.tools] == list(case.names)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_a_rename_changes_only_the_name_field(case: Case) -> None:
    source = load(case.file)
    tool = source.tools[-1]
    out = write_back(source, {tool.index: ("renamed_tool", tool.schema)})
    name_path = case.name_paths[-1]
    if name_path is None:  # a bare schema has no name field to write
        assert out == source.document
        return
    expected = put(copy.deepcopy(source.document), name_path, "renamed_tool")
    assert dumped(out) == dumped(expected)
    assert load_source_text(json.dumps(out), "x.json").tools[-1].name == "renamed_tool"


def test_raw_is_the_tool_object_and_never_a_copy() -> None:
    chat = load("openai-chat.json")
    assert chat.tools[0].raw is chat.document[0]
    gemini = load("gemini-tools.json")
    assert gemini.tools[2].raw is gemini.document["tools"][0]["functionDeclarations"][2]
    schema = load("bare_schema.json")
    assert schema.tools[0].schema is schema.document
    assert schema.tools[0].raw is schema.document


def test_loaded_source_is_frozen() -> None:
    source = load("tool.json")
    with pytest.raises(AttributeError):
        source.shape = "mcp"  # type: ignore[misc]


# --- details of individual shapes -----------------------------------------------------------


def test_provider_builtin_tools_are_not_function_tools() -> None:
    # Anthropic web_search, OpenAI web_search and Gemini googleSearch carry no schema.
    assert [t.raw.get("name") for t in load("anthropic-list.json").tools] == [
        "get_weather",
        "get_time",
    ]
    assert [t.index for t in load("openai-responses.json").tools] == [0, 1]
    assert len(load("gemini-list.json").tools) == 3


def test_gemini_declaration_without_parameters_is_a_tool_without_arguments() -> None:
    ping = load("gemini-declarations.json").tools[2]
    assert ping.name == "ping"
    assert ping.schema is None


def test_openai_function_without_parameters_has_no_schema() -> None:
    assert load("openai-chat.json").tools[1].schema is None


def test_an_empty_listing_is_a_server_without_tools() -> None:
    source = load("mcp-empty.json")
    assert (source.shape, source.tools) == ("mcp", ())
    empty = load_source_text("[]", "e.json")
    assert (empty.shape, empty.tools) == ("tool-list", ())


def test_malformed_entries_still_become_tools_for_the_rules_to_flag() -> None:
    source = load("malformed.json")
    assert source.shape == "mcp"
    assert [t.name for t in source.tools] == [
        "<tool 0>",
        "<tool 1>",
        "no_schema",
        "string_schema",
        "<tool 4>",
        "fine",
    ]
    assert [t.schema for t in source.tools] == [
        {"type": "object"},
        {"type": "object"},
        None,
        "object",
        None,
        {"type": "object", "properties": {}},
    ]
    assert [t.description for t in source.tools] == [
        "No name at all.",
        None,
        None,
        None,
        None,
        None,
    ]
    assert source.tools[1].raw["name"] == 42
    assert source.tools[4].raw == {}
    # Placeholder names and missing schemas are never written back by an identity pass.
    identity = {t.index: (t.name, t.schema) for t in source.tools}
    assert write_back(source, identity) == source.document


def test_writing_a_non_object_entry_builds_a_tool_object() -> None:
    source = load("malformed.json")
    out = write_back(source, {4: ("tool_4", NEW_SCHEMA)})
    assert out["tools"][4] == {"name": "tool_4", "inputSchema": NEW_SCHEMA}
    assert out["tools"][:4] == source.document["tools"][:4]


def test_bare_schema_from_stdin_is_named_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (SHAPES_DIR / "bare_schema.json").read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    sources, errors = load_sources(["-"])
    assert errors == []
    assert sources[0].label == "<stdin>"
    assert sources[0].shape == "schema"
    assert sources[0].tools[0].name == "schema"
    assert sources[0].tools[0].source == "<stdin>"


def test_bare_schema_name_is_the_file_stem_unsanitized() -> None:
    source = load_source_text('{"type": "object"}', "dir/my tool.v2.json")
    assert source.tools[0].name == "my tool.v2"


def test_bare_schema_with_gemini_uppercase_type() -> None:
    assert analyse({"type": "OBJECT"}).shape == "schema"
    assert analyse({"type": ["string", "null"]}).shape == "schema"


def test_an_object_whose_type_is_not_a_json_type_is_not_a_schema() -> None:
    # An Anthropic server tool on its own: not a schema, not a tool.
    with pytest.raises(SourceLoadError):
        analyse({"type": "bash_20250124", "name": "bash"})


# --- write_back options ---------------------------------------------------------------------


def test_gemini_field_moves_the_schema_in_place_and_drops_the_other() -> None:
    source = load("gemini-declarations.json")
    identity = {t.index: (t.name, t.schema) for t in source.tools}
    decls = source.document["functionDeclarations"]

    out = write_back(source, identity, gemini_field="parametersJsonSchema")["functionDeclarations"]
    assert list(out[0]) == ["name", "description", "parametersJsonSchema"]
    assert out[0]["parametersJsonSchema"] == decls[0]["parameters"]
    assert out[1] == decls[1]
    assert out[2] == decls[2]  # no schema: nothing to move

    out = write_back(source, identity, gemini_field="parameters")["functionDeclarations"]
    assert out[0] == decls[0]
    assert list(out[1]) == ["name", "description", "parameters"]
    assert out[1]["parameters"] == decls[1]["parametersJsonSchema"]


def test_gemini_field_move_keeps_the_key_where_it_was() -> None:
    text = json.dumps(
        {
            "functionDeclarations": [
                {"name": "f", "parameters": {"type": "OBJECT"}, "description": "d"}
            ]
        }
    )
    source = load_source_text(text, "order.json")
    tool = source.tools[0]
    out = write_back(source, {0: (tool.name, tool.schema)}, gemini_field="parametersJsonSchema")
    assert list(out["functionDeclarations"][0]) == ["name", "parametersJsonSchema", "description"]


def test_gemini_field_with_a_new_schema_and_for_a_declaration_without_one() -> None:
    source = load("gemini-declarations.json")
    out = write_back(
        source,
        {0: ("get_weather", NEW_SCHEMA), 2: ("ping", NEW_SCHEMA)},
        gemini_field="parametersJsonSchema",
    )["functionDeclarations"]
    assert out[0] == {
        "name": "get_weather",
        "description": WEATHER,
        "parametersJsonSchema": NEW_SCHEMA,
    }
    assert out[2]["parametersJsonSchema"] == NEW_SCHEMA
    assert "parameters" not in out[2]


def test_gemini_snake_case_documents_stay_snake_case() -> None:
    source = load("gemini-snake.json")
    out = write_back(source, {0: ("get_weather", NEW_SCHEMA)}, gemini_field="parametersJsonSchema")
    decl = out["tools"][0]["function_declarations"][0]
    assert list(decl) == ["name", "description", "parameters_json_schema"]
    assert decl["parameters_json_schema"] == NEW_SCHEMA
    out = write_back(source, {1: ("lookup", NEW_SCHEMA)}, gemini_field="parameters")
    decl = out["tools"][0]["function_declarations"][1]
    assert list(decl) == ["name", "description", "parameters"]


def test_gemini_declaration_with_both_fields_keeps_exactly_one() -> None:
    text = json.dumps(
        {
            "functionDeclarations": [
                {
                    "name": "f",
                    "parameters": {"type": "OBJECT"},
                    "parametersJsonSchema": {"type": "object"},
                }
            ]
        }
    )
    source = load_source_text(text, "both.json")
    assert source.tools[0].schema == {"type": "OBJECT"}  # `parameters` is what is read
    tool = source.tools[0]
    # Identity without a field choice: the document is left exactly as it was.
    assert write_back(source, {0: (tool.name, tool.schema)}) == source.document
    out = write_back(source, {0: (tool.name, tool.schema)}, gemini_field="parametersJsonSchema")
    assert out == {
        "functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "OBJECT"}}]
    }


@pytest.mark.parametrize(
    ("file", "index", "where", "expected"),
    [
        ("gemini-declarations.json", 0, ("functionDeclarations", 0), None),
        ("gemini-declarations.json", 1, ("functionDeclarations", 1), None),
        ("openai-chat.json", 0, (0, "function"), None),
        ("openai-responses.json", 0, (0,), None),
        ("mcp.json", 1, ("tools", 1), {"type": "object", "properties": {}}),
        ("jsonrpc.json", 0, ("result", "tools", 0), {"type": "object", "properties": {}}),
        ("tool.json", 0, (), {"type": "object", "properties": {}}),
        ("anthropic-list.json", 0, (0,), {"type": "object", "properties": {}}),
        ("bare_schema.json", 0, None, {"type": "object", "properties": {}}),
    ],
)
def test_a_none_schema_removes_the_field_or_writes_an_empty_object(
    file: str, index: int, where: tuple[Key, ...] | None, expected: Any
) -> None:
    source = load(file)
    tool = source.tools[index]
    out = write_back(source, {index: (tool.name, None)})
    if where is None:
        assert out == expected
        return
    fields = get(out, where)
    schema_keys = {"inputSchema", "input_schema", "parameters", "parametersJsonSchema"} & set(
        fields
    )
    if expected is None:
        assert schema_keys == set()
        assert fields["name"] == tool.name
    else:
        (key,) = schema_keys
        assert fields[key] == expected


def test_write_back_refuses_a_bad_field_or_index() -> None:
    source = load("gemini-declarations.json")
    with pytest.raises(ValueError, match="gemini_field"):
        write_back(source, {}, gemini_field="schema")
    with pytest.raises(IndexError, match="no tool number 3"):
        write_back(source, {3: ("x", {})})


def test_write_back_only_touches_the_tools_it_is_given() -> None:
    source = load("gemini-list.json")
    out = write_back(source, {2: ("pong", NEW_SCHEMA)})
    assert out[0] == source.document[0]
    assert out[1] == {"googleSearch": {}}
    assert out[2]["functionDeclarations"][0] == {
        "name": "pong",
        "description": "Check the service is up.",
        "parameters": NEW_SCHEMA,
    }


# --- the real corpus ----------------------------------------------------------------------


def test_the_corpus_copy_is_there() -> None:
    assert len(CORPUS_FILES) == 20
    assert (CORPUS / "servers" / "fs-mcp-repro-mcp-sdk.json").is_file()


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_the_corpus_copy_matches_the_shared_corpus() -> None:
    shared = sorted(SHARED_CORPUS.glob("*.json")) + sorted(
        (SHARED_CORPUS / "servers").glob("*.json")
    )
    assert [p.relative_to(SHARED_CORPUS) for p in shared] == [
        p.relative_to(CORPUS) for p in CORPUS_FILES
    ]
    for path in shared:
        assert filecmp.cmp(path, CORPUS / path.relative_to(SHARED_CORPUS), shallow=False), path


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_every_corpus_file_loads_every_tool(path: Path) -> None:
    sources, errors = load_sources([str(path)])
    assert errors == []
    (source,) = sources
    document = source.document
    assert source.shape == "mcp"
    assert len(source.tools) == document["tool_count"] == len(document["tools"])
    assert [t.name for t in source.tools] == [t["name"] for t in document["tools"]]
    for tool, raw in zip(source.tools, document["tools"], strict=True):
        assert tool.raw is raw
        assert tool.schema is raw["inputSchema"]
        assert tool.description == raw.get("description")
    assert write_back(source, {t.index: (t.name, t.schema) for t in source.tools}) == document


def test_the_corpus_directory_loads_recursively_in_sorted_order() -> None:
    sources, errors = load_sources([str(CORPUS)])
    assert errors == []
    assert [Path(s.label) for s in sources] == CORPUS_FILES
    assert sum(len(s.tools) for s in sources) == sum(
        json.loads(p.read_text(encoding="utf-8"))["tool_count"] for p in CORPUS_FILES
    )


# --- bad input ------------------------------------------------------------------------------


def test_a_json_array_of_numbers_is_not_a_tool_listing() -> None:
    error = load_error("numbers.json")
    assert error.message == UNMATCHED + "a JSON array of numbers"
    assert 'give a tools/list result such as {"tools"' in error.hint


def test_a_jsonrpc_error_response_names_the_servers_message() -> None:
    error = load_error("jsonrpc-error.json")
    assert error.message == (
        "the server answered with a JSON-RPC error: Method not found: tools/list (code -32601)"
    )
    assert "error response" in error.hint


def test_a_jsonrpc_request_is_not_a_response() -> None:
    error = load_error("jsonrpc-request.json")
    assert error.message == 'a JSON-RPC request (method "tools/list"), not a response'


def test_a_jsonrpc_result_without_tools() -> None:
    with pytest.raises(SourceLoadError) as info:
        load_source_text('{"jsonrpc": "2.0", "id": 1, "result": {"prompts": []}}', "r.json")
    assert info.value.error == SourceError(
        "r.json",
        "a JSON-RPC response whose result is not a tool listing; "
        'the result is a JSON object with keys "prompts"',
        "capture the response to a tools/list request",
    )


def test_mixed_tool_formats_in_one_list() -> None:
    error = load_error("mixed-formats.json")
    assert error.message == (
        "not a tool listing: the list mixes tool formats: "
        "MCP (inputSchema) at [0] and Anthropic (input_schema) at [1]"
    )


def test_bare_function_declarations_get_a_wrapping_hint() -> None:
    error = load_error("declarations-bare.json")
    assert error.message == UNMATCHED + 'a JSON array of objects with keys "name", "parameters"'
    assert "functionDeclarations" in error.hint


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"tools": "all"}', 'a JSON object whose "tools" is a JSON string'),
        ('{"tools": ["read", "write"]}', 'a JSON object whose "tools" is a JSON array of strings'),
        ("{}", "an empty JSON object"),
        ("null", "null"),
        ("true", "a JSON boolean"),
        ('[{"name": "a"}]', 'a JSON array of objects with keys "name"'),
        (
            '{"name": "a", "description": "no schema"}',
            'a JSON object with keys "name", "description"',
        ),
    ],
)
def test_unmatched_documents_say_what_was_found(text: str, found: str) -> None:
    with pytest.raises(SourceLoadError) as info:
        load_source_text(text, "u.json")
    assert info.value.error.source == "u.json"
    assert info.value.error.message == UNMATCHED + found
    assert info.value.error.hint


def test_function_declarations_must_be_a_list() -> None:
    with pytest.raises(SourceLoadError) as info:
        load_source_text('{"functionDeclarations": {"name": "f"}}', "g.json")
    assert info.value.error.message == (
        'not a tool listing: "functionDeclarations" must be a list of function declarations; '
        'found a JSON object with keys "name"'
    )


def test_a_declaration_outside_function_declarations_is_not_dropped_silently() -> None:
    document = [
        {"functionDeclarations": [{"name": "a"}]},
        {"name": "b", "parameters": {"type": "object"}},
    ]
    with pytest.raises(SourceLoadError, match=r"\[1\] is a function declaration outside"):
        analyse(document)


def test_an_unknown_shape_is_a_value_error_naming_what_was_expected() -> None:
    with pytest.raises(ValueError, match="expected an MCP tools/list result") as info:
        analyse([1, 2])
    assert isinstance(info.value, SourceLoadError)


def test_load_source_text_turns_json_errors_into_source_load_errors() -> None:
    with pytest.raises(SourceLoadError) as info:
        load_source_text('{"tools": [NaN]}', "t.json")
    assert info.value.error.source == "t.json"
    assert info.value.error.message.startswith("not valid JSON: NaN is not allowed")
    assert str(info.value).startswith("t.json: not valid JSON")


@pytest.mark.parametrize(
    ("file", "message"),
    [
        ("not-json.json", "not valid JSON: Expecting ',' delimiter at line 4, column 5"),
        (
            "nan.json",
            "not valid JSON: NaN is not allowed (JSON has no NaN or Infinity) at line 3, column 48",
        ),
        (
            "infinity.json",
            "not valid JSON: Infinity is not allowed (JSON has no NaN or Infinity)"
            " at line 1, column 60",
        ),
        ("empty.json", "file is empty"),
        ("invalid-utf8.json", "not valid UTF-8: byte 0xe9 at line 2, column 15 (byte offset 16)"),
    ],
)
def test_unreadable_files_are_errors_naming_the_file(file: str, message: str) -> None:
    error = load_error(file)
    assert error.message == message
    assert error.hint


def test_a_ten_thousand_deep_document_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"tools": ' + "[" * 10_000 + "]" * 10_000 + "}")
    sources, errors = load_sources([str(path)])
    assert sources == []
    assert [(e.source, e.message) for e in errors] == [
        (str(path), "JSON nested deeper than 256 levels")
    ]


def test_missing_path_is_an_error_and_the_rest_still_load(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    sources, errors = load_sources([missing, str(SHAPES_DIR / "tool.json")])
    assert [s.label for s in sources] == [str(SHAPES_DIR / "tool.json")]
    assert errors == [SourceError(missing, "no such file or directory", "check the path")]


def test_a_directory_loads_json_files_recursively_and_reports_the_bad_one() -> None:
    directory = SHAPES_DIR / "dir"
    sources, errors = load_sources([str(directory)])
    assert [s.label for s in sources] == [
        str(directory / "a_good.json"),
        str(directory / "nested" / "b_good.json"),
    ]
    assert [s.shape for s in sources] == ["mcp", "tool"]
    assert [t.name for s in sources for t in s.tools] == ["write_file", "read_file"]
    assert len(errors) == 1
    assert errors[0].source == str(directory / "nested" / "c_bad.json")
    assert errors[0].message == UNMATCHED + 'a JSON object with keys "unrelated"'


def test_a_directory_with_one_good_and_one_unparsable_file(tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(
        '{"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}'
    )
    (tmp_path / "bad.json").write_text("{'tools': []}")
    (tmp_path / "notes.txt").write_text("ignored")
    sources, errors = load_sources([str(tmp_path)])
    assert [(s.label, [t.name for t in s.tools]) for s in sources] == [
        (str(tmp_path / "good.json"), ["t"])
    ]
    assert errors == [
        SourceError(
            str(tmp_path / "bad.json"),
            "not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2",
            "check the file is JSON, not JSON5 or YAML: "
            "no comments, trailing commas or single quotes",
        )
    ]


def test_a_directory_without_json_files(tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("# nothing")
    assert load_sources([str(tmp_path)]) == (
        [],
        [
            SourceError(
                str(tmp_path),
                "the directory holds no .json files",
                "give a .json file or a folder of them",
            )
        ],
    )


def test_load_sources_keeps_the_order_given_and_never_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[1, 2"), encoding="utf-8"))
    paths = [
        str(SHAPES_DIR / "openai-chat.json"),
        "-",
        str(SHAPES_DIR / "numbers.json"),
        str(tmp_path),
        str(SHAPES_DIR / "gemini-tools.json"),
    ]
    sources, errors = load_sources(paths)
    assert [s.shape for s in sources] == ["openai", "gemini"]
    assert [e.source for e in errors] == ["<stdin>", paths[2], paths[3]]
    assert errors[0].message == "not valid JSON: Expecting ',' delimiter at line 1, column 6"


# --- writing back in pieces ---------------------------------------------------------------


def streamed(source: LoadedSource, replacements: dict[int, tuple[str, Any]],
             gemini_field: str | None = None) -> tuple[str, list[int]]:
    """iter_write_back's text, and the order in which it asked for the tools."""
    asked: list[int] = []

    def take(index: int) -> tuple[str, Any, None]:
        asked.append(index)
        return (*replacements[index], None)

    text = "".join(iter_write_back(source, list(replacements), take, gemini_field=gemini_field))
    return text, asked


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_writing_back_asks_for_each_tool_once_and_leaves_the_document(case: Case) -> None:
    source = load(case.file)
    before = dumped(source.document)
    for field in (None, "parameters", "parametersJsonSchema"):
        for replacements in (
            {t.index: (t.name, t.schema) for t in source.tools},
            {t.index: (f"new_{t.index}", NEW_SCHEMA) for t in source.tools},
            {t.index: (t.name, None) for t in source.tools},
            {source.tools[-1].index: ("only_the_last", NEW_SCHEMA)},
        ):
            text, asked = streamed(source, replacements, field)
            assert text == dump_json(json.loads(text))  # indented, key order as written
            assert sorted(asked) == sorted(replacements)
    assert dumped(source.document) == before  # the loaded document is never modified


def test_writing_back_asks_for_tools_in_document_order() -> None:
    """Two declaration lists spelled two ways: the tools are numbered camelCase list first,
    but the document (and so the writer) has the snake_case one first."""
    document = {
        "function_declarations": [{"name": "s0"}, {"name": "s1", "parameters": {}}],
        "functionDeclarations": [{"name": "c0", "parameters": {"type": "object"}}],
    }
    source = load_source_text(json.dumps(document), "two.json")
    assert [t.name for t in source.tools] == ["c0", "s0", "s1"]
    replacements = {t.index: (t.name.upper(), NEW_SCHEMA) for t in source.tools}
    text, asked = streamed(source, replacements, "parametersJsonSchema")
    assert asked == [1, 2, 0]
    assert json.loads(text) == {
        "function_declarations": [{"name": "S0", "parameters_json_schema": NEW_SCHEMA},
                                  {"name": "S1", "parameters_json_schema": NEW_SCHEMA}],
        "functionDeclarations": [{"name": "C0", "parametersJsonSchema": NEW_SCHEMA}],
    }


# --- any JSON value at all ------------------------------------------------------------------


def test_any_json_value_loads_or_is_a_source_error_and_round_trips() -> None:
    keys = st.sampled_from(
        [
            "tools",
            "name",
            "inputSchema",
            "input_schema",
            "type",
            "function",
            "parameters",
            "parametersJsonSchema",
            "functionDeclarations",
            "jsonrpc",
            "result",
            "error",
            "properties",
        ]
    )
    scalars = (
        st.none() | st.booleans() | st.integers() | st.sampled_from(["function", "object", "2.0"])
    )
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
        max_leaves=25,
    )

    @settings(max_examples=400, deadline=None)
    @given(values)
    def check(document: Any) -> None:
        try:
            source = load_source_text(json.dumps(document), "any.json")
        except SourceLoadError as exc:
            assert exc.error.source == "any.json"
            assert exc.error.message
            return
        assert source.shape in SHAPES
        identity = {t.index: (t.name, t.schema) for t in source.tools}
        assert write_back(source, identity) == document
        renamed = write_back(source, {t.index: (f"t{t.index}", NEW_SCHEMA) for t in source.tools})
        again = load_source_text(json.dumps(renamed), "any.json")
        assert again.shape == source.shape
        assert [t.schema for t in again.tools] == [NEW_SCHEMA] * len(source.tools)

    check()
