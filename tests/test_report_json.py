"""The JSON report is a contract with agents: exact values, and the shipped schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from jsonpath_ng import parse as parse_jsonpath

from schema_compat.model import Change, Finding, Report, SourceError, ToolDef, ToolResult
from schema_compat.paths import resolve
from schema_compat.report.json import render_json, report_json_schema, report_to_dict

STAMP = "2026-11-23T10:00:00Z"
REPO_ROOT = Path(__file__).resolve().parent.parent

ORIGINAL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "files": {"type": "array", "items": {"$ref": "#/$defs/File"}},
        "mode": {"const": "fast"},
        "q": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    },
    "required": ["files"],
    "$defs": {"File": {"type": "object", "properties": {"path": {"type": "string"}}}},
}
TRANSFORMED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "files": {
            "type": "array",
            "items": {"type": "object", "properties": {"path": {"type": "string"}}},
        },
        "mode": {"enum": ["fast"]},
        "q": {"type": "string"},
    },
    "required": ["files"],
}

REF = Finding(
    "REF001",
    "ref-unsupported",
    "error",
    ("properties", "files", "items", "$ref"),
    "$ref is not supported",
    keyword="$ref",
    fix_title="inline the reference",
    fix_safety="lossless",
)
CONST = Finding(
    "VAL001",
    "const-unsupported",
    "warning",
    ("properties", "mode", "const"),
    "const is ignored",
    keyword="const",
    fix_title="const to enum",
    fix_safety="lossless",
)
UNION = Finding(
    "UNI002",
    "anyof-unsupported",
    "error",
    ("properties", "q", "anyOf"),
    "anyOf is not supported",
    keyword="anyOf",
    fix_title="collapse the union",
    fix_safety="lossy",
)
NAME = Finding(
    "NAM001",
    "tool-name-invalid",
    "error",
    (),
    "name contains a dot",
    fix_title="rename",
    fix_safety="lossless",
    scope="tool",
)
NOFIX = Finding("REC001", "recursive-ref", "error", ("properties", "tree"), "recursion")
INFO = Finding("DOC001", "no-description", "info", (), "tool has no description", scope="tool")


def _main_result() -> ToolResult:
    return ToolResult(
        tool=ToolDef("read.files", ORIGINAL, "Read files", "servers/fs.json", 0),
        profile="gemini",
        findings=(REF, CONST, UNION, NAME),
        changes=(
            Change("REF001", ("properties", "files", "items"), "lossless", "inlined File"),
            Change("VAL001", ("properties", "mode", "enum"), "lossless", "const to enum"),
            Change("UNI002", ("properties", "q"), "lossy", "kept the string branch"),
            Change("NAM001", (), "lossless", "renamed to read_files", "tool"),
        ),
        transformed_name="read_files",
        transformed_schema=TRANSFORMED,
        remaining=(),
    )


def _clean_result(name: str = "ping", index: int = 1) -> ToolResult:
    schema = {"type": "object", "properties": {}}
    return ToolResult(
        ToolDef(name, schema, None, "servers/fs.json", index), "gemini", (), (), name, schema, ()
    )


def _stuck_result() -> ToolResult:
    schema = {"type": "object", "properties": {"tree": {"$ref": "#"}}}
    return ToolResult(
        ToolDef("tree", schema, None, "servers/tree.json", 0),
        "gemini",
        (NOFIX, INFO),
        (),
        "tree",
        schema,
        (NOFIX, INFO),
    )


def _full_report() -> Report:
    return Report(
        "gemini",
        (_main_result(), _clean_result(), _stuck_result()),
        (SourceError("broken.json", "invalid JSON at line 3", "fix the syntax"),),
    )


def _validate(data: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(
        report_json_schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    ).validate(data)


def test_shipped_schema_is_a_valid_2020_12_schema() -> None:
    schema = report_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    # Every documented field carries a description, so the schema doubles as the docs.
    tool = schema["$defs"]["tool"]["properties"]
    assert all("description" in tool[key] for key in tool)


def test_full_report_validates_and_has_exact_summary() -> None:
    data = report_to_dict(_full_report(), generated_at=STAMP)
    _validate(data)
    assert data["version"] == 1
    assert data["provider"] == "gemini"
    assert data["generated_at"] == STAMP
    assert data["summary"] == {
        "total_tools": 3,
        "compatible": 1,
        "incompatible": 2,
        "findings": 6,
        "by_severity": {"error": 4, "warning": 1, "info": 1},
        "fixable": {"lossless": 3, "hinted": 0, "lossy": 1, "unfixable": 2},
        "fix_status": {"compatible": 1, "lossless": 0, "hinted": 0, "lossy": 1, "unfixable": 1},
        "refused": 0,  # the run was not --lossless-only: every fix was made
        "errors": 1,
    }
    assert data["errors"] == [
        {"source": "broken.json", "message": "invalid JSON at line 3", "hint": "fix the syntax"}
    ]
    assert data["name_map"] == {"read_files": "read.files"}
    assert [t["name"] for t in data["tools"]] == ["read.files", "ping", "tree"]


def test_tool_entry_fields() -> None:
    tool = report_to_dict(_full_report(), generated_at=STAMP)["tools"][0]
    assert tool["transformed_name"] == "read_files"
    assert tool["source"] == "servers/fs.json"
    assert tool["index"] == 0
    assert tool["status"] == "INCOMPATIBLE"
    assert tool["fix_status"] == "lossy"
    assert tool["issues"][0] == {
        "code": "REF001",
        "rule": "ref-unsupported",
        "severity": "error",
        "scope": "schema",
        "path": "$.properties.files.items['$ref']",
        "pointer": "/properties/files/items/$ref",
        "pattern": "$ref",
        "message": "$ref is not supported",
        "fix": {"title": "inline the reference", "safety": "lossless",
                "effect": {"accepts": "equal", "told": "kept"}, "applied": True},
    }
    name_issue = tool["issues"][3]
    assert (name_issue["scope"], name_issue["path"], name_issue["pointer"]) == ("tool", "$", "")
    assert name_issue["pattern"] is None
    assert tool["transforms_applied"][2] == {
        "code": "UNI002",
        "path": "$.properties.q",
        "pointer": "/properties/q",
        "safety": "lossy",
        # made by hand with its safety only: that class's usual effect
        "effect": {"accepts": "changed", "told": "lost"},
        "description": "kept the string branch",
        "scope": "schema",
    }
    assert tool["remaining_issues"] == []
    assert tool["original_schema"] == ORIGINAL
    assert tool["transformed_schema"] == TRANSFORMED


def test_finding_without_fix_has_null_fix_and_stays_remaining() -> None:
    tool = report_to_dict(_full_report(), generated_at=STAMP)["tools"][2]
    assert tool["fix_status"] == "unfixable"
    assert tool["issues"][0]["fix"] is None
    assert tool["issues"][0]["pattern"] is None
    assert [i["code"] for i in tool["remaining_issues"]] == ["REC001", "DOC001"]


def test_empty_report_validates() -> None:
    data = report_to_dict(Report("openai-strict", ()), generated_at=STAMP)
    _validate(data)
    assert data["tools"] == [] and data["errors"] == [] and data["name_map"] == {}
    assert data["summary"]["total_tools"] == 0
    assert data["summary"]["fixable"] == {"lossless": 0, "hinted": 0, "lossy": 0, "unfixable": 0}


def test_errors_only_report_validates() -> None:
    report = Report("gemini", (), (SourceError("--server 'npx foo'", "could not start", ""),))
    data = report_to_dict(report, generated_at=STAMP)
    _validate(data)
    assert data["summary"]["errors"] == 1
    assert data["errors"][0]["hint"] == ""


def test_unicode_and_quote_keys_round_trip_through_jsonpath() -> None:
    keys = ("größe", "it's", "a.b", "$defs", "with space", "back\\slash", "where")
    schema = {"type": "object", "properties": {k: {"type": "string", "format": "x"} for k in keys}}
    findings = tuple(
        Finding("FMT001", "format", "warning", ("properties", k, "format"), "f", "format")
        for k in keys
    )
    result = ToolResult(ToolDef("t", schema), "gemini", findings, (), "t", schema, ())
    data = report_to_dict(Report("gemini", (result,)), generated_at=STAMP)
    _validate(data)
    for issue in data["tools"][0]["issues"]:
        matches = parse_jsonpath(issue["path"]).find(schema)
        assert [m.value for m in matches] == ["x"], issue["path"]
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in issue["pointer"][1:].split("/")]
        assert resolve(schema, tuple(tokens)) == "x"
    text = render_json(Report("gemini", (result,)), generated_at=STAMP)
    assert "größe" in text  # ensure_ascii=False: readable, not \u escapes


def test_render_json_is_the_dict_with_trailing_newline() -> None:
    report = _full_report()
    text = render_json(report, generated_at=STAMP)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.startswith('{\n  "version": 1,')
    assert json.loads(text) == report_to_dict(report, generated_at=STAMP)


def test_render_json_text_is_json_dumps_indented_exactly() -> None:
    """The report is encoded in batches to save memory; the bytes must be json.dumps'."""
    report = _full_report()
    data = report_to_dict(report, generated_at=STAMP)
    expected = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    assert render_json(report, generated_at=STAMP) == expected


def test_without_schemas_the_keys_are_absent_and_still_valid() -> None:
    data = report_to_dict(_full_report(), generated_at=STAMP, include_schemas=False)
    _validate(data)
    for tool in data["tools"]:
        assert "original_schema" not in tool and "transformed_schema" not in tool


def test_default_timestamp_matches_schema() -> None:
    data = report_to_dict(Report("gemini", ()))
    _validate(data)
    assert data["generated_at"].endswith("Z")


def test_output_does_not_alias_the_model() -> None:
    result = _main_result()
    data = report_to_dict(Report("gemini", (result,)), generated_at=STAMP)
    data["tools"][0]["original_schema"]["properties"].clear()
    assert result.tool.schema["properties"]


def test_malformed_schema_values_are_reported_as_is() -> None:
    bad = Finding("SHP001", "schema-not-object", "error", (), "schema is not an object")
    result = ToolResult(ToolDef("odd", [1, "two"]), "gemini", (bad,), (), "odd", [1, "two"], (bad,))
    data = report_to_dict(Report("gemini", (result,)), generated_at=STAMP)
    _validate(data)
    assert data["tools"][0]["original_schema"] == [1, "two"]


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["tools"][0]["issues"][0].update(severity="fatal"), "severity enum"),
        (lambda d: d["tools"][0]["transforms_applied"][0].update(safety="safe"), "safety enum"),
        (lambda d: d["tools"][0].update(status="BROKEN"), "status enum"),
        (lambda d: d["tools"][0].update(fix_status="maybe"), "fix_status enum"),
        (lambda d: d["tools"][0]["issues"][0].update(scope="server"), "scope enum"),
        (lambda d: d["tools"][0]["issues"][0].update(extra=1), "closed issue"),
        (lambda d: d["summary"].pop("fixable"), "required summary field"),
        (lambda d: d.update(version=2), "version const"),
        (lambda d: d["tools"][0]["issues"][0].update(path="properties.x"), "jsonpath form"),
    ],
)
def test_schema_rejects_wrong_reports(mutate: Any, where: str) -> None:
    data = report_to_dict(_full_report(), generated_at=STAMP)
    mutate(data)
    with pytest.raises(jsonschema.ValidationError):
        _validate(data)


def test_json_writer_never_imports_rich() -> None:
    code = (
        "import sys\n"
        "import schema_compat.report.json\n"
        "assert not any(m == 'rich' or m.startswith('rich.') for m in sys.modules), 'rich'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_write_json_streams_exactly_what_render_json_returns() -> None:
    import io

    from schema_compat.report.json import write_json

    report = _full_report()
    out = io.StringIO()
    write_json(report, out, generated_at=STAMP)
    assert out.getvalue() == render_json(report, generated_at=STAMP)


def _check_json(*args: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "schema_compat", "check", "--json", *args,
                           "examples/mixed.json"], capture_output=True, text=True,
                          cwd=REPO_ROOT, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    _validate(data)
    return data


def _findings(tools: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return [(t["name"], i["code"], i["path"], i["severity"]) for t in tools for i in t["issues"]]


def test_several_providers_report_each_ones_findings() -> None:
    """`check --json -p a,b` holds, under `providers`, what `check --json -p a` and `-p b`
    report: the same summary, findings, changes and transformed schemas, tool by tool; the
    top level is the first one's, in the single-provider shape."""
    providers = ["gemini", "openai-strict", "anthropic"]
    data = _check_json("-p", ",".join(providers))
    assert data["provider"] == ",".join(providers)
    assert list(data["providers"]) == providers
    singles = {p: _check_json("-p", p) for p in providers}
    assert all("providers" not in s and "matrix" not in s for s in singles.values())
    for p in providers:
        section, single = data["providers"][p], singles[p]
        assert section["summary"] == single["summary"]
        assert _findings(section["tools"]) == _findings(single["tools"])
        assert section["name_map"] == single["name_map"]
        for got, want in zip(section["tools"], single["tools"], strict=True):
            assert "original_schema" not in got  # once, at the top level
            assert got["status"] == want["status"]
            assert got["transforms_applied"] == want["transforms_applied"]
            assert got["transformed_schema"] == want["transformed_schema"]
    # the providers differ here, so a report of the first one's alone would show
    assert len({json.dumps(_findings(data["providers"][p]["tools"])) for p in providers}) == 3
    first = {k: v for k, v in singles["gemini"].items() if k not in ("generated_at", "provider")}
    assert {k: data[k] for k in first} == first
