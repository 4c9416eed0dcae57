"""The result records keep what they promised as frozen dataclasses: compared by value,
immutable, copyable. They are named tuples now, and ToolDef (whose `raw` defaults to a new
dict) a small class, because `dataclasses` costs milliseconds of every start-up."""

from __future__ import annotations

import copy
import pickle

import pytest

from schema_compat.model import Change, Finding, Report, SourceError, ToolDef, ToolResult


def _tool(**changes: object) -> ToolDef:
    fields: dict[str, object] = {"name": "t", "schema": {"type": "object"},
                                 "description": "d", "source": "a.json", "index": 2,
                                 "raw": {"name": "t"}}
    fields.update(changes)
    return ToolDef(**fields)  # type: ignore[arg-type]


def test_tooldef_is_compared_and_hashed_by_value() -> None:
    assert _tool() == _tool()
    assert _tool() != _tool(index=3)
    assert _tool() != ("t", {"type": "object"}, "d", "a.json", 2, {"name": "t"}, False)
    hashable = ToolDef("t", None, raw={})
    with pytest.raises(TypeError):  # as a frozen dataclass: the hash of its values
        hash(hashable)
    assert hash(ToolDef("t", "s", raw=())) == hash(ToolDef("t", "s", raw=()))  # type: ignore[arg-type]


def test_tooldef_is_frozen() -> None:
    tool = _tool()
    with pytest.raises(AttributeError, match="cannot assign to field 'name'"):
        tool.name = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del tool.schema
    with pytest.raises(AttributeError):
        tool.extra = 1  # type: ignore[attr-defined]


def test_tooldef_defaults_and_positional_order() -> None:
    tool = ToolDef("t", {"type": "object"}, "d", "a.json", 4)
    assert (tool.description, tool.source, tool.index, tool.schema_optional) == \
        ("d", "a.json", 4, False)
    first, second = ToolDef("a", None), ToolDef("b", None)
    assert first.raw == {} and first.raw is not second.raw  # a new dict each, never shared
    assert repr(ToolDef("a", None)) == ("ToolDef(name='a', schema=None, description=None, "
                                        "source='', index=0, raw={}, schema_optional=False, "
                                        "dialect='json-schema')")


def test_records_copy_and_pickle() -> None:
    tool = _tool()
    finding = Finding("REF001", "ref", "error", ("properties", "p"), "m")
    change = Change("REF001", ("properties", "p"), "lossless", "inlined")
    result = ToolResult(tool, "gemini", (finding,), (change,), "t", {}, ())
    report = Report("gemini", (result,), (SourceError("x.json", "bad", "fix it"),))
    for value in (tool, finding, change, result, report):
        assert copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(tool).raw is not tool.raw


def test_results_are_immutable_and_replaced_field_by_field() -> None:
    result = ToolResult(_tool(), "gemini", (), (), "t", {"type": "object"}, ())
    with pytest.raises(AttributeError):
        result.profile = "openai"  # type: ignore[misc]
    lean = result._replace(transformed_schema=None)
    assert lean.transformed_schema is None and lean.tool is result.tool
    assert result.transformed_schema == {"type": "object"}
