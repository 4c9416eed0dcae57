"""The reference analysis does only the work a document needs: `$id`s and `$anchor`s are
indexed when a reference names one, and a document without references is measured only
when its size is asked for. What it answers must not depend on that order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import schema_compat.schema.ref_analysis as ref_analysis_module
from schema_compat.engine import check_recording, make_plan, run_plan
from schema_compat.model import ToolDef
from schema_compat.schema.ref_analysis import Walk, analyse, walk_for_analysis
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
    assert (analysis.expanded_nodes, analysis.expanded_depth) == (3, 2)
    assert analysis.size == (3, 2)


def test_a_document_with_references_is_measured_at_once() -> None:
    analysis = analyse(ANCHORED)
    assert analysis.size is not None
    assert analysis.expanded_nodes == analysis.size[0] > 4


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
    from schema_compat.model import ToolDef

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


def _documents() -> list[Any]:
    from benchmarks.generate import pydantic_style_schema
    from schema_compat.api import load_tools

    root = Path(__file__).resolve().parent / "data"
    docs: list[Any] = [ANCHORED, {"$defs": {"A": {"type": "string"}}, "type": "object"}]
    for source in (root / "corpus", root):
        tools, _ = load_tools(str(source))
        docs += [t.schema for t in tools if t.schema is not None]
    return docs + [pydantic_style_schema(seed) for seed in range(40)]


def test_the_check_walk_gathers_what_the_analysis_walks_for() -> None:
    """The engine's check walk offers the reference analysis what it would walk the document
    for (`RunState.walked`): the same references and `$defs` blocks in the same order, and each
    object's children from the first object with a reference key on (before it there is
    nothing to inline or measure below). Read from where the offer is kept, so that the
    compiled build, whose calls a test cannot intercept, is held to it too."""
    plan = make_plan("gemini")
    with_refs = 0
    for doc in _documents():
        run = plan.run_state()
        _, _, quiet = check_recording(doc, plan, run)
        kids, refs, defs = walk_for_analysis(doc)
        offered = run.walked
        if quiet:
            assert offered is None and refs == [] and defs == []
            continue
        if not refs and not defs:  # not quiet for ROOT003's `$schema`: nothing to inline
            continue
        with_refs += 1
        assert offered is not None
        root, (got_kids, got_refs, got_defs) = offered
        assert root is doc
        assert got_refs == refs and got_defs == defs
        assert all(kids[k] == v for k, v in got_kids.items())
        first = min(([p for p, _ in refs] + [p for p, _ in defs]), key=len)
        assert id(_at(doc, first)) in got_kids
    assert with_refs > 40


def test_an_analysis_from_an_offered_walk_is_the_analysis_of_the_document() -> None:
    for doc in _documents():
        fresh = analyse(doc)
        offered = analyse(doc, walk=walk_for_analysis(doc))
        assert (offered.kinds, offered.recursive, offered.defs) == \
            (fresh.kinds, fresh.recursive, fresh.defs)
        assert (offered.expanded_nodes, offered.expanded_depth) == \
            (fresh.expanded_nodes, fresh.expanded_depth)


def test_the_engine_does_not_walk_a_checked_document_again_to_analyse_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of the analysis walk is recorded (and answered, so that nothing the engine
    might catch could hide one): a run of each document with references makes none."""
    plan = make_plan("gemini")
    docs = [d for d in _documents() if check_recording(d, plan, plan.run_state())[2] is False]
    assert len(docs) > 40
    walked: list[Any] = []

    def recorded(schema: Any) -> Walk:
        walked.append(schema)
        return walk_for_analysis(schema)

    monkeypatch.setattr(ref_analysis_module, "walk_for_analysis", recorded)
    for doc in docs:
        [result] = run_plan([ToolDef(name="t", schema=doc)], plan)
        assert result.findings
    assert walked == []


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc
