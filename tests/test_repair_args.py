"""Argument repair: every coercion, the cases it must leave alone, and the round trip through
the engine's transforms (what the model sends for the transformed schema is repaired back to
what the original server accepts).

The expected values are written out by hand; the tests never derive them from the code.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from schema_compat import repair as lazy_repair
from schema_compat import transform
from schema_compat.repair_args import Coercion, RepairResult, repair

CORPUS = Path(__file__).resolve().parent / "data" / "corpus" / "servers"
FS_TOOLS = json.loads((CORPUS / "fs-mcp-repro-mcp-sdk.json").read_text())["tools"]
READ_FILES = FS_TOOLS[0]["inputSchema"]
PROPOSE = FS_TOOLS[1]["inputSchema"]


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def kinds(result: RepairResult) -> list[tuple[str, str]]:
    return [(c.jsonpath, c.kind) for c in result.coercions]


# --- each coercion ----------------------------------------------------------------------


def test_stringified_array_for_optional_list() -> None:
    """Python `list[str] | None`: anyOf [array of string, null]."""
    schema = obj(tags={"anyOf": [{"type": "array", "items": {"type": "string"}},
                                 {"type": "null"}], "default": None})
    result = repair(schema, {"tags": '["a", "b"]'})
    assert result.arguments == {"tags": ["a", "b"]}
    assert kinds(result) == [("$.tags", "json-array")]
    assert result.valid and result.errors == ()


def test_stringified_object() -> None:
    schema = obj(opts={"type": "object", "properties": {"depth": {"type": "integer"}}})
    result = repair(schema, {"opts": '{"depth": 2}'})
    assert result.arguments == {"opts": {"depth": 2}}
    assert kinds(result) == [("$.opts", "json-object")]


@pytest.mark.parametrize(("text", "value"), [("true", True), ("false", False),
                                             ("True", True), (" FALSE ", False)])
def test_boolean_strings(text: str, value: bool) -> None:
    result = repair(obj(flag={"type": "boolean"}), {"flag": text})
    assert result.arguments == {"flag": value}
    assert result.coercions == (Coercion(("flag",), "boolean", text, value),)


@pytest.mark.parametrize(("kind", "text", "value"), [
    ("integer", "3", 3), ("integer", "-12", -12), ("integer", "3.0", 3),
    ("integer", "12345678901234567890", 12345678901234567890),
    ("number", "2.5", 2.5), ("number", "3", 3), ("number", "1e2", 100.0),
    ("number", "-0.5", -0.5),
])
def test_numeric_strings(kind: str, text: str, value: float) -> None:
    result = repair(obj(n={"type": kind}), {"n": text})
    assert result.arguments == {"n": value}
    assert type(result.arguments["n"]) is type(value)
    assert kinds(result) == [("$.n", kind)]
    assert result.valid


@pytest.mark.parametrize(("kind", "text"), [
    ("integer", "3.5"), ("integer", "abc"), ("number", "NaN"), ("number", "Infinity"),
    ("number", "0x10"), ("number", "1_000"), ("integer", ""), ("boolean", "yes"),
    ("array", "[1, 2"), ("array", '{"a": 1}'), ("object", "[1]"), ("null", "None"),
])
def test_strings_that_are_not_the_type_stay_and_are_reported(kind: str, text: str) -> None:
    result = repair(obj(v={"type": kind}), {"v": text})
    assert result.arguments == {"v": text}
    assert result.coercions == ()
    assert not result.valid
    assert result.errors[0].startswith("$.v: ")


def test_null_string_where_null_is_accepted() -> None:
    schema = obj(limit={"type": ["integer", "null"]})
    assert repair(schema, {"limit": "null"}).arguments == {"limit": None}
    assert repair(schema, {"limit": "7"}).arguments == {"limit": 7}


# --- never where the value is valid or a string is accepted ------------------------------


@pytest.mark.parametrize(("schema", "value"), [
    ({"type": "string"}, '["a"]'),
    ({"type": "string"}, "true"),
    ({"type": "string"}, "3"),
    ({"anyOf": [{"type": "string"}, {"type": "array"}]}, '["a"]'),
    ({"type": ["string", "integer"]}, "3"),
    ({"type": ["integer", "string"]}, "null"),
    ({}, '{"a": 1}'),
    ({"enum": ["1", 1]}, "1"),
    ({"type": "integer"}, 3),
    ({"type": "array", "items": {"type": "string"}}, ["1", "2"]),
])
def test_valid_values_are_left_alone(schema: dict[str, Any], value: Any) -> None:
    result = repair(obj(v=schema), {"v": value})
    assert result.arguments == {"v": value}
    assert type(result.arguments["v"]) is type(value)
    assert result.coercions == ()
    assert result.valid


def test_a_constrained_string_is_not_parsed() -> None:
    """The node takes strings: an invalid string is the server's to reject, not ours."""
    schema = obj(v={"type": ["string", "array"], "maxLength": 2})
    result = repair(schema, {"v": '["a"]'})
    assert result.arguments == {"v": '["a"]'}
    assert result.coercions == ()
    assert result.errors == ("$.v: '[\"a\"]' is too long",)


def test_inputs_are_not_modified() -> None:
    args = {"files": '[{"path": "a", "head": "2"}]', "large_file_passthrough": "false"}
    before = copy.deepcopy(args)
    schema_before = copy.deepcopy(READ_FILES)
    repair(READ_FILES, args)
    assert args == before
    assert schema_before == READ_FILES


def test_unchanged_containers_are_the_same_objects() -> None:
    args = {"files": [{"path": "a"}], "large_file_passthrough": "true"}
    result = repair(READ_FILES, args)
    assert result.arguments["files"] is args["files"]


# --- recursion ---------------------------------------------------------------------------


def test_refs_arrays_and_nested_objects_of_a_pydantic_server() -> None:
    result = repair(READ_FILES, {"files": '[{"path": "a.txt", "head": "3"}, '
                                          '{"path": "b", "start_line": "2", "end_line": null}]',
                                 "large_file_passthrough": "True"})
    assert result.arguments == {
        "files": [{"path": "a.txt", "head": 3},
                  {"path": "b", "start_line": 2, "end_line": None}],
        "large_file_passthrough": True,
    }
    assert kinds(result) == [("$.files", "json-array"), ("$.files[0].head", "integer"),
                             ("$.files[1].start_line", "integer"),
                             ("$.large_file_passthrough", "boolean")]
    assert result.valid


def test_nested_objects_three_levels_down() -> None:
    """A gap reviewers found in Qwen Code's fix: only top-level parameters were repaired."""
    schema = obj(outer=obj(inner=obj(n={"type": "integer"}, on={"type": "boolean"})))
    result = repair(schema, {"outer": {"inner": {"n": "5", "on": "false"}}})
    assert result.arguments == {"outer": {"inner": {"n": 5, "on": False}}}
    assert kinds(result) == [("$.outer.inner.n", "integer"), ("$.outer.inner.on", "boolean")]


def test_array_form_type_inside_a_variant() -> None:
    """A gap reviewers found in Qwen Code's fix: `type: [array, null]` inside `anyOf`."""
    schema = obj(ids={"anyOf": [{"type": ["array", "null"], "items": {"type": "integer"}},
                                {"type": "boolean"}]})
    result = repair(schema, {"ids": '["1", 2]'})
    assert result.arguments == {"ids": [1, 2]}
    assert kinds(result) == [("$.ids", "json-array"), ("$.ids[0]", "integer")]
    assert repair(schema, {"ids": "false"}).arguments == {"ids": False}
    assert repair(schema, {"ids": "null"}).arguments == {"ids": None}


def test_all_of() -> None:
    """A gap reviewers found in Qwen Code's fix: `allOf` members were not looked into."""
    schema = {"$defs": {"Base": obj(count={"type": "integer"})},
              "allOf": [{"$ref": "#/$defs/Base"}, obj(flags={"type": "array",
                                                              "items": {"type": "boolean"}})]}
    result = repair(schema, {"count": "4", "flags": '["true", false]'})
    assert result.arguments == {"count": 4, "flags": [True, False]}
    assert kinds(result) == [("$.count", "integer"), ("$.flags", "json-array"),
                             ("$.flags[0]", "boolean")]
    assert result.valid


def test_one_of_takes_the_branch_that_makes_the_value_valid() -> None:
    schema = obj(v={"oneOf": [{"type": "integer"}, {"type": "boolean"}]})
    assert repair(schema, {"v": "true"}).arguments == {"v": True}
    assert repair(schema, {"v": "12"}).arguments == {"v": 12}


def test_coercions_of_a_branch_not_taken_are_discarded() -> None:
    schema = obj(v={"anyOf": [{"type": "array", "items": {"type": "integer"}, "maxItems": 1},
                              {"type": "array", "items": {"type": "string"}}]})
    result = repair(schema, {"v": '["1", "2"]'})
    assert result.arguments == {"v": ["1", "2"]}
    assert kinds(result) == [("$.v", "json-array")]
    assert result.valid


def test_pattern_and_additional_properties() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}},
              "patternProperties": {"^n_": {"type": "integer"}},
              "additionalProperties": {"type": "boolean"}}
    result = repair(schema, {"name": "7", "n_a": "7", "other": "true"})
    assert result.arguments == {"name": "7", "n_a": 7, "other": True}


def test_tuple_items() -> None:
    schema = obj(pair={"type": "array", "prefixItems": [{"type": "integer"},
                                                        {"type": "boolean"}],
                       "items": {"type": "number"}})
    result = repair(schema, {"pair": '["1", "true", "2.5"]'})
    assert result.arguments == {"pair": [1, True, 2.5]}


def test_stringified_arguments_object_at_the_root() -> None:
    result = repair(obj(n={"type": "integer"}), '{"n": "2"}')
    assert result.arguments == {"n": 2}
    assert kinds(result) == [("$", "json-object"), ("$.n", "integer")]


def test_paths_quote_keys_that_jsonpath_would_misread() -> None:
    result = repair(obj(**{"max-count": {"type": "integer"}}), {"max-count": "2"})
    assert result.coercions[0].jsonpath == "$['max-count']"
    assert result.coercions[0].to_dict() == {"path": "$['max-count']",
                                             "pointer": "/max-count", "kind": "integer",
                                             "from": "2", "to": 2}


# --- values the transform changed, mapped back ------------------------------------------

MIXED = {"name": "t", "inputSchema": {
    "type": "object",
    "properties": {
        "mode": {"enum": [1, "fast", 2.5, True]},
        "shape": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": 1}, "r": {"type": "number"}},
             "required": ["kind", "r"]},
            {"type": "object", "properties": {"kind": {"const": 2}, "w": {"type": "integer"}},
             "required": ["kind", "w"]}]},
        "limit": {"type": "integer"},
    },
    "required": ["shape"]}}


def test_a_stringified_enum_maps_back_to_the_original_members() -> None:
    result = transform([MIXED], "gemini")[0]
    sent = result.transformed_schema["properties"]["mode"]
    assert sent["type"] == "string"
    assert sent["enum"] == ["1", "fast", "2.5", "true"]  # what the model may now send
    original = MIXED["inputSchema"]
    back = [repair(original, {"mode": v, "shape": {"kind": 1, "r": 1}}).arguments["mode"]
            for v in sent["enum"]]
    assert back == [1, "fast", 2.5, True]
    assert [type(v) for v in back] == [int, str, float, bool]


def test_an_integer_enum_sent_as_strings() -> None:
    schema = obj(level={"type": "integer", "enum": [1, 2, 3]},
                 ratio={"enum": [0.5, 1.5]}, on={"const": True})
    result = repair(schema, {"level": "2", "ratio": "1.5", "on": "true"})
    assert result.arguments == {"level": 2, "ratio": 1.5, "on": True}
    assert kinds(result) == [("$.level", "enum"), ("$.ratio", "enum"), ("$.on", "enum")]
    unmatched = repair(schema, {"level": "4"})
    assert unmatched.arguments == {"level": 4}  # an integer still, outside the enum
    assert unmatched.errors == ("$.level: 4 is not one of [1, 2, 3]",)


def test_a_flattened_discriminated_union_maps_back() -> None:
    """Gemini merges the oneOf into one object; the model's call against it (the tag and the
    numbers as text, as some models send) is repaired to the branch it names."""
    result = transform([MIXED], "gemini")[0]
    merged = result.transformed_schema["properties"]["shape"]
    assert "oneOf" not in merged and set(merged["properties"]) == {"kind", "r", "w"}
    original = MIXED["inputSchema"]
    fixed = repair(original, {"shape": {"kind": "2", "w": "3"}})
    assert fixed.arguments == {"shape": {"kind": 2, "w": 3}}
    assert kinds(fixed) == [("$.shape.kind", "enum"), ("$.shape.w", "integer")]
    assert fixed.valid


def test_nulls_for_optional_properties_made_required_by_strict_mode_are_dropped() -> None:
    result = transform([MIXED], "openai-strict")[0]
    strict = result.transformed_schema
    assert set(strict["required"]) == {"mode", "shape", "limit"}
    assert "null" in strict["properties"]["limit"]["type"]
    sent = {"mode": None, "shape": {"kind": 1, "r": 0.5}, "limit": None}
    fixed = repair(MIXED["inputSchema"], sent)
    assert fixed.arguments == {"shape": {"kind": 1, "r": 0.5}}
    assert kinds(fixed) == [("$.mode", "drop-null"), ("$.limit", "drop-null")]
    assert fixed.coercions[0].to_dict() == {"path": "$.mode", "pointer": "/mode",
                                            "kind": "drop-null", "from": None}


def test_null_is_kept_where_the_original_takes_it_or_the_property_is_required() -> None:
    schema = {"type": "object", "required": ["a"],
              "properties": {"a": {"type": "integer"}, "b": {"type": ["integer", "null"]}}}
    result = repair(schema, {"a": None, "b": None})
    assert result.arguments == {"a": None, "b": None}
    assert result.coercions == ()
    assert result.errors == ("$.a: None is not of type 'integer'",)


def test_gemini_transform_of_the_corpus_round_trips() -> None:
    """Every argument the model sends for a Gemini-transformed fs tool, stringified the way
    some models do, is repaired into what the original schema accepts."""
    sent = {"files": json.dumps([{"path": "x", "tail": "4"}]),
            "large_file_passthrough": "false"}
    fixed = repair(READ_FILES, sent)
    assert fixed.arguments == {"files": [{"path": "x", "tail": 4}],
                               "large_file_passthrough": False}
    jsonschema.validate(fixed.arguments, READ_FILES)


# --- references are never fetched --------------------------------------------------------


class _Counter(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        body = json.dumps({"type": "integer"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def schema_host() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Counter.hits = 0
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/int.json"
    finally:
        server.shutdown()
        server.server_close()


def test_remote_refs_are_never_fetched(schema_host: str, tmp_path: Path) -> None:
    local = tmp_path / "int.json"
    local.write_text('{"type": "integer"}')
    for ref in (schema_host, local.as_uri()):
        result = repair(obj(n={"$ref": ref}), {"n": "3"})
        assert result.arguments == {"n": "3"}
        assert result.errors == (f"$: the schema cannot be used: cannot resolve $ref {ref!r} "
                                 "(only references inside the schema are followed; nothing "
                                 "is fetched)",)
    assert _Counter.hits == 0


# --- edges and the API -------------------------------------------------------------------


def test_no_schema_means_no_repair() -> None:
    assert repair(None, {"a": "1"}) == RepairResult({"a": "1"}, ())
    assert repair(True, {"a": "1"}).valid
    assert repair(False, {}).errors == ("$: the schema accepts no value",)
    assert repair([1], {}).errors == ("$: the input schema is not a JSON Schema object (list)",)


def test_self_referencing_schemas_end() -> None:
    loop = ('$: the schema cannot be used: its references loop without end '
            '(e.g. {"$ref": "#"})',)
    for schema in ({"$ref": "#"}, {"allOf": [{"$ref": "#"}]}):
        assert repair(schema, "7") == RepairResult("7", (), loop)
    branch = repair({"anyOf": [{"$ref": "#"}, {"type": "integer"}]}, "7")
    assert (branch.arguments, kinds(branch), branch.errors) == (7, [("$", "integer")], loop)


def test_recursive_schema_repairs_at_every_depth() -> None:
    tree = {"$defs": {"Node": {"type": "object", "properties": {
        "size": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
        "$ref": "#/$defs/Node"}
    result = repair(tree, {"size": "1", "children": '[{"size": "2", "children": '
                                                    '[{"size": "3"}]}]'})
    assert result.arguments == {"size": 1, "children": [{"size": 2, "children": [
        {"size": 3}]}]}
    assert result.valid


def test_a_malformed_schema_is_an_error_not_a_crash() -> None:
    result = repair(obj(n={"type": "intger"}), {"n": "1"})
    assert result.arguments == {"n": "1"}
    assert result.errors and result.errors[0].startswith("$: the schema cannot be used: ")


def test_unpacking_and_the_lazy_export() -> None:
    arguments, coercions = lazy_repair(obj(n={"type": "integer"}), {"n": "1"})
    assert arguments == {"n": 1}
    assert [c.describe() for c in coercions] == ['$.n: "1" → 1 (integer)']
    assert repair(obj(n={"type": "integer"}), {"n": "1"}).to_dict() == {
        "arguments": {"n": 1}, "valid": True, "errors": [],
        "coercions": [{"path": "$.n", "pointer": "/n", "kind": "integer", "from": "1",
                       "to": 1}]}



def test_a_reference_to_a_root_naming_its_draft_is_followed() -> None:
    """jsonschema validates the target of `$ref: "#"` with a class of its own when the root
    names its draft (`$schema`); the repair still follows it, down every level."""
    tree = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "properties": {"n": {"type": "integer"}, "kids": {"type": "array",
                                                              "items": {"$ref": "#"}}}}
    result = repair(tree, {"n": "1", "kids": [{"n": "2", "kids": [{"n": "3"}]}]})
    assert result.arguments == {"n": 1, "kids": [{"n": 2, "kids": [{"n": 3}]}]}
    assert [c.to_dict()["path"] for c in result.coercions] == \
        ["$.n", "$.kids[0].n", "$.kids[0].kids[0].n"]


def test_a_reference_resolves_in_the_id_scope_it_is_written_in() -> None:
    """`$ref: "item"` inside https://e.x/sub/inner is https://e.x/sub/item, as jsonschema
    reads it, not https://e.x/item."""
    schema = {"$id": "https://e.x/root",
              "properties": {"inner": {"$id": "https://e.x/sub/inner", "$ref": "item"}},
              "$defs": {"a": {"$id": "https://e.x/sub/item", "type": "integer"},
                        "b": {"$id": "https://e.x/item", "type": "boolean"}}}
    assert jsonschema.validators.validator_for(schema)(schema).is_valid({"inner": 3})
    result = repair(schema, {"inner": "3"})
    assert (result.arguments, result.errors) == ({"inner": 3}, ())


@pytest.mark.parametrize(("text", "repaired"), [
    ("[1, 2.0]", [1, 2]),  # 2.0 is the enum's 2
    ('{"k": [true]}', {"k": [True]}),
    ('{"k": [1]}', None),  # 1 is not true
    ("[1, 2, 3]", None),
])
def test_an_enum_member_sent_as_json_text_is_that_member(text: str, repaired: Any) -> None:
    """An array or object member of `enum`, sent as its JSON text, becomes the member (JSON
    equality, element by element); text that is no member stays as it was, an error."""
    schema = {"type": "object", "properties": {"a": {"enum": [[1, 2], {"k": [True]}, "x"]}}}
    result = repair(schema, {"a": text})
    if repaired is None:
        assert result.arguments == {"a": text} and result.errors
    else:
        assert result.arguments == {"a": repaired} and not result.errors
        assert [c.kind for c in result.coercions] == ["enum"]
