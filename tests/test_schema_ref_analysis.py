"""The reference analysis does only the work a document needs: `$id`s and `$anchor`s are
indexed when a reference names one, and a document without references is measured only
when its size is asked for. What it answers must not depend on that order."""

from __future__ import annotations

from typing import Any

from schema_compat.model import ToolDef
from schema_compat.schema.ref_analysis import analyse
from schema_compat.schema.refs import RefResolver

ANCHORED: dict[str, Any] = {
    "$id": "https://example.com/root.json",
    "properties": {
        "a": {"$ref": "#/$defs/A"},
        "b": {"$ref": "#named"},
        "c": {"$ref": "https://example.com/other.json#/x"},
    },
    "$defs": {
        "A": {"type": "string"},
        "N": {"$anchor": "named", "type": "integer"},
        "O": {"$id": "https://example.com/other.json", "x": {"type": "boolean"}},
    },
}


def test_anchors_and_ids_resolve_after_a_pointer_was_resolved_first() -> None:
    resolver = RefResolver(ANCHORED)
    assert resolver.resolve("#/$defs/A").node == {"type": "string"}
    assert resolver.resolve("#named").node is ANCHORED["$defs"]["N"]
    assert resolver.resolve("https://example.com/other.json#/x").node == {"type": "boolean"}
    assert resolver.resolve("#missing").kind == "unresolvable"
    assert resolver.resolve("https://example.com/elsewhere.json").kind == "remote"


def test_a_document_without_references_is_measured_when_asked() -> None:
    doc = {"type": "object", "properties": {"a": {"type": "array", "items": {}}},
           "$defs": {"Unused": {"type": "object", "properties": {"x": {}}}}}
    analysis = analyse(doc)
    assert analysis.kinds == {} and analysis.size is None
    # The root, `a` and its `items`; `$defs` are a store, not part of the sent schema.
    assert analysis.expanded() == (3, 2)
    assert analysis.size == (3, 2)


def test_a_document_with_references_is_measured_at_once() -> None:
    analysis = analyse(ANCHORED)
    assert analysis.size is not None
    assert analysis.expanded()[0] == analysis.size[0] > 4


def test_the_walk_for_references_also_finds_every_defs_block() -> None:
    doc = {"definitions": {"A": {"$defs": {"B": {}}}}, "properties": {"p": {"$defs": {}}},
           "$defs": {}}
    assert analyse(doc).defs == [((), "$defs"), ((), "definitions"),
                                 (("definitions", "A"), "$defs"),
                                 (("properties", "p"), "$defs")]


def _containers(value: Any) -> list[Any]:
    found = []
    stack = [value]
    while stack:
        cur = stack.pop()
        if isinstance(cur, (dict, list)):
            found.append(cur)
            stack.extend(cur.values() if isinstance(cur, dict) else cur)
    return found


def test_a_transformed_schema_shares_nothing_with_the_input() -> None:
    """Transform inlines straight from the input, not from a copy of it: the result must
    still be the caller's to change without touching the input."""
    import copy

    from schema_compat.engine import run

    schema = {"type": "object", "required": ["a"],
              "properties": {"a": {"$ref": "#/$defs/A"}, "odd": [1, [2]]},
              "$defs": {"A": {"type": "object", "properties": {
                  "x": {"type": "string", "enum": ["p", "q"], "examples": [["e"]]}}}}}
    before = copy.deepcopy(schema)
    [result] = run([ToolDef(name="t", schema=schema)], "gemini", ignore=["TYP008"])
    assert result.changes and result.transformed_schema["properties"]["odd"] == [1, [2]]
    for container in _containers(result.transformed_schema):
        container.clear()
    assert schema == before
