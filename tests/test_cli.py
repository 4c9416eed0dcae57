"""The CLI contract of DESIGN.md: exit codes, one-line errors, JSON report, transform shape.

The commands run in-process (conftest's `cli_here`), which spares each the interpreter's start-up;
what only a process of its own shows (its output stream's encoding, a narrow terminal's
width from the environment) is run in one (`run_cli_process`, `_run_narrow`).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli_process

from schema_compat.profiles import PROFILES

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]

REPO_ROOT = Path(__file__).resolve().parent.parent
FS = "examples/fs_read_files.json"
MIXED = "examples/mixed.json"
FS_PATH = REPO_ROOT / FS
MIXED_PATH = REPO_ROOT / MIXED

# A Gemini tool declaration list: one tool with a `$ref` item and a nullable union, one
# tool without arguments (a declaration without `parameters`, which Gemini accepts).
GEMINI_DOC = {
    "functionDeclarations": [
        {
            "name": "read_rows",
            "description": "Read rows.",
            "parameters": {
                "type": "object",
                "properties": {
                    "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                    "ids": {"type": "array", "items": {"$ref": "#/$defs/Id"}},
                },
                "$defs": {"Id": {"type": "string"}},
            },
        },
        {"name": "ping", "description": "Ping."},
    ]
}

# One tool without parameters: gemini flags it with the OBJ007 warning only (plus NAM003 info).
WARNING_ONLY_TOOL = {"name": "t", "inputSchema": {"type": "object", "properties": {}}}


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def _stderr_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return proc.stderr.splitlines()


def _assert_usage_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Exit 2, exactly one line on stderr holding every needle, no traceback anywhere."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = _stderr_lines(proc)
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("schema-compat: error: "), line
    for needle in needles:
        assert needle in line, (needle, line)
    assert "Traceback" not in proc.stdout + proc.stderr
    return line


def _json(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def _codes(report: dict[str, Any]) -> list[str]:
    return [i["code"] for t in report["tools"] for i in t["issues"]]


# --- check -----------------------------------------------------------------------------------

def test_check_text_names_codes_and_paths(cli_here: RunCli) -> None:
    proc = cli_here("check", FS)
    assert proc.returncode == 1
    assert proc.stderr == ""
    assert "REF001" in proc.stdout
    assert "UNI001" in proc.stdout
    assert "$.properties.files.items['$ref']" in proc.stdout
    assert "read_files" in proc.stdout and "propose_and_review" in proc.stdout
    assert "\x1b" not in proc.stdout


def test_check_json_report(cli_here: RunCli) -> None:
    proc = cli_here("check", "--json", FS)
    assert proc.returncode == 1
    report = _json(proc)
    assert report["version"] == 1
    assert report["provider"] == "gemini"
    assert report["summary"]["total_tools"] == 2
    assert report["summary"]["incompatible"] == 2
    assert report["errors"] == []
    assert [t["name"] for t in report["tools"]] == ["read_files", "propose_and_review"]
    assert all(t["source"] == FS for t in report["tools"])
    issues = [i for t in report["tools"] for i in t["issues"]]
    assert len(issues) == report["summary"]["findings"] == 10
    for issue in issues:
        assert isinstance(issue["path"], str) and issue["path"].startswith("$")
        assert isinstance(issue["pointer"], str)
        assert issue["pointer"] == "" or issue["pointer"].startswith("/")
        assert issue["severity"] in {"error", "warning", "info"}
    ref = next(i for i in report["tools"][0]["issues"] if i["code"] == "REF001")
    assert ref["path"] == "$.properties.files.items['$ref']"
    assert ref["pointer"] == "/properties/files/items/$ref"
    assert ref["fix"]["safety"] == "lossless"


def test_check_format_json_equals_json_flag(cli_here: RunCli) -> None:
    a, b = _json(cli_here("check", "--json", FS)), _json(cli_here("check", "--format", "json", FS))
    a.pop("generated_at"), b.pop("generated_at")
    assert a == b


def test_check_select_prefix(cli_here: RunCli) -> None:
    proc = cli_here("check", "--json", "--select", "UNI", FS)
    assert proc.returncode == 1
    codes = _codes(_json(proc))
    assert codes and all(c.startswith("UNI") for c in codes)
    assert codes.count("UNI001") == 6


def test_check_select_text_has_only_selected_codes(cli_here: RunCli) -> None:
    proc = cli_here("check", "--select", "UNI", FS)
    assert proc.returncode == 1
    assert "UNI001" in proc.stdout
    assert "REF001" not in proc.stdout and "REF002" not in proc.stdout


@pytest.mark.parametrize("args", [("--ignore", "REF,UNI"), ("--ignore", "REF", "--ignore", "UNI")])
def test_check_ignore_clears_findings(cli_here: RunCli, args: tuple[str, ...]) -> None:
    proc = cli_here("check", *args, FS)
    assert proc.returncode == 0, proc.stdout
    assert "REF001" not in proc.stdout and "UNI001" not in proc.stdout


def test_check_unknown_rule_in_select(cli_here: RunCli) -> None:
    _assert_usage_error(cli_here("check", "--select", "FOO", FS), "FOO")


def test_fail_on_warning(cli_here: RunCli, tmp_path: Path) -> None:
    src = str(_write(tmp_path / "warn.json", WARNING_ONLY_TOOL))
    default = cli_here("check", src)
    assert default.returncode == 0, default.stdout
    assert "OBJ007" in default.stdout
    strict = cli_here("check", "--fail-on", "warning", src)
    assert strict.returncode == 1
    report = _json(cli_here("check", "--json", src))
    severities = {i["code"]: i["severity"] for t in report["tools"] for i in t["issues"]}
    assert severities.get("OBJ007") == "warning"
    assert "error" not in severities.values()


def test_tool_filter_glob(cli_here: RunCli) -> None:
    proc = cli_here("check", "--json", "--tool", "read_*", FS)
    assert proc.returncode == 1
    report = _json(proc)
    assert [t["name"] for t in report["tools"]] == ["read_files"]
    assert report["summary"]["total_tools"] == 1


def test_tool_filter_no_match(cli_here: RunCli) -> None:
    proc = cli_here("check", "--tool", "nomatch", FS)
    _assert_usage_error(proc, "nomatch", "read_files", "propose_and_review")
    assert proc.stdout == ""


# --- transform -------------------------------------------------------------------------------

def test_transform_writes_same_shape_that_checks_clean(cli_here: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    proc = cli_here("transform", FS, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    original = json.loads(FS_PATH.read_text(encoding="utf-8"))
    written = json.loads(out.read_text(encoding="utf-8"))
    assert list(written) == list(original)
    # each tool's fields as they were, and `_meta` saying its schema is gemini's OpenAPI
    # subset, so that it is read back as written (issue 28 point 11)
    assert [list(t) for t in written["tools"]] == [[*t, "_meta"] for t in original["tools"]]
    assert [t["_meta"] for t in written["tools"]] == [{"schema-compat/dialect": "openapi-3.0"}] * 2
    assert [t["name"] for t in written["tools"]] == ["read_files", "propose_and_review"]
    # outputSchema is not an input: it is kept as it was
    assert [t["outputSchema"] for t in written["tools"]] == \
        [t["outputSchema"] for t in original["tools"]]
    text = out.read_text(encoding="utf-8")
    assert "$ref" not in text and "$defs" not in text and "anyOf" not in text
    recheck = cli_here("check", "--json", str(out))
    assert recheck.returncode == 0, recheck.stdout
    assert _json(recheck)["summary"]["findings"] == 0


def test_transform_is_idempotent(cli_here: RunCli, tmp_path: Path) -> None:
    once, twice = tmp_path / "once.json", tmp_path / "twice.json"
    assert cli_here("transform", MIXED, "-o", str(once)).returncode == 0
    assert cli_here("transform", str(once), "-o", str(twice)).returncode == 0
    assert once.read_bytes() == twice.read_bytes()
    report = _json(cli_here("transform", "--json", str(once)))
    assert [c for t in report["tools"] for c in t["transforms_applied"]] == []


@pytest.mark.parametrize("provider", ["gemini", "vertex", "portable"])
def test_a_json_schema_nullable_is_dropped_and_the_output_reads_back_as_written(
        cli_here: RunCli, tmp_path: Path, provider: str) -> None:
    """Issue 28 point 11 from the command line: `nullable` in an MCP tool is JSON Schema's
    nothing (the server refuses null), so it goes; the output, whose own `nullable` (from
    the null branch) is the provider's, checks clean and transforms to itself."""
    source = tmp_path / "tools.json"
    source.write_text(json.dumps({"tools": [{"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["age"], "properties": {
            "age": {"type": "integer", "nullable": True},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}}]}))
    found = _json(cli_here("check", "-p", provider, "--json", str(source)))
    assert [(f["code"], f["path"]) for t in found["tools"] for f in t["issues"]
            if f["code"] == "ROOT003"] == [("ROOT003", "$.properties.age.nullable")]
    once, twice = tmp_path / "once.json", tmp_path / "twice.json"
    assert cli_here("transform", "-p", provider, "--lossless-only", str(source), "-o",
                    str(once)).returncode == 0
    [tool] = json.loads(once.read_text())["tools"]
    assert tool["_meta"] == {"schema-compat/dialect": "openapi-3.0"}
    assert tool["inputSchema"]["properties"] == {"age": {"type": "integer"},
                                                 "note": {"type": "string", "nullable": True}}
    recheck = cli_here("check", "-p", provider, "--json", str(once))
    assert _json(recheck)["summary"]["findings"] == 0, recheck.stdout
    assert cli_here("transform", "-p", provider, str(once), "-o", str(twice)).returncode == 0
    assert once.read_bytes() == twice.read_bytes()


def test_transform_stdout_is_the_document(cli_here: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    proc = cli_here("transform", FS)
    assert proc.returncode == 0
    document = _json(proc)
    assert list(document) == ["tools"]
    assert cli_here("transform", FS, "-o", str(out)).returncode == 0
    assert document == json.loads(out.read_text(encoding="utf-8"))


def test_transform_refuses_to_overwrite_its_input(cli_here: RunCli, tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    shutil.copyfile(FS_PATH, src)
    before = src.read_bytes()
    (tmp_path / "sub").mkdir()
    # the same file spelled another way is still the input
    for target in (str(src), str(tmp_path / "sub" / ".." / "in.json")):
        proc = cli_here("transform", str(src), "-o", target)
        _assert_usage_error(proc, "--force")
        assert src.read_bytes() == before
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in {"in.json", "sub"}]
    assert leftovers == []


def test_transform_force_overwrites_input(cli_here: RunCli, tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    shutil.copyfile(FS_PATH, src)
    expected = cli_here("transform", FS).stdout
    proc = cli_here("transform", str(src), "-o", str(src), "--force")
    assert proc.returncode == 0, proc.stderr
    assert src.read_text(encoding="utf-8") == expected


def test_transform_refuses_to_overwrite_a_file_read_from_a_directory(
        cli_here: RunCli, tmp_path: Path) -> None:
    """`transform DIR -o DIR/tools.json` would overwrite one of its inputs: needs --force."""
    directory = tmp_path / "snap"
    directory.mkdir()
    src = directory / "tools.json"
    shutil.copyfile(FS_PATH, src)
    before = src.read_bytes()
    proc = cli_here("transform", str(directory), "-o", str(src))
    assert src.read_bytes() == before
    _assert_usage_error(proc, "--force")


def test_transform_keeps_gemini_shape(cli_here: RunCli, tmp_path: Path) -> None:
    src = str(_write(tmp_path / "gemini.json", GEMINI_DOC))
    proc = cli_here("transform", src)
    assert proc.returncode == 0, proc.stderr
    document = _json(proc)
    assert list(document) == ["functionDeclarations"]
    read_rows, ping = document["functionDeclarations"]
    assert read_rows["name"] == "read_rows"
    assert "parametersJsonSchema" not in read_rows
    assert read_rows["parameters"]["properties"] == {
        "limit": {"type": "integer", "nullable": True},
        "ids": {"type": "array", "items": {"type": "string"}},
    }
    assert "$defs" not in read_rows["parameters"]
    assert ping == {"name": "ping", "description": "Ping."}


def test_transform_gemini_json_writes_parameters_json_schema(
        cli_here: RunCli, tmp_path: Path) -> None:
    src = str(_write(tmp_path / "gemini.json", GEMINI_DOC))
    proc = cli_here("transform", "--provider", "gemini-json", src)
    assert proc.returncode == 0, proc.stderr
    document = _json(proc)
    assert list(document) == ["functionDeclarations"]
    read_rows = document["functionDeclarations"][0]
    assert "parameters" not in read_rows
    schema = read_rows["parametersJsonSchema"]
    assert schema["type"] == "object"
    assert set(schema["properties"]) == {"limit", "ids"}


def test_transformed_gemini_declarations_check_clean(cli_here: RunCli, tmp_path: Path) -> None:
    """DESIGN: the transformed schema has no findings left for its profile.

    transform writes `ping` back without `parameters` (valid for Gemini, and what OBJ007
    recommends), so checking the output must not flag it.
    """
    src = str(_write(tmp_path / "gemini.json", GEMINI_DOC))
    out = tmp_path / "out.json"
    assert cli_here("transform", src, "-o", str(out)).returncode == 0
    proc = cli_here("check", "--json", str(out))
    assert _codes(_json(proc)) == []
    assert proc.returncode == 0


def test_transform_tool_filter_keeps_gemini_shape(cli_here: RunCli, tmp_path: Path) -> None:
    """--tool transforms the matching tools; the others are written back as they were."""
    src = str(_write(tmp_path / "gemini.json", GEMINI_DOC))
    proc = cli_here("transform", "--tool", "read_rows", src)
    assert proc.returncode == 0, proc.stderr
    document = _json(proc)
    assert list(document) == ["functionDeclarations"]
    assert [d["name"] for d in document["functionDeclarations"]] == ["read_rows", "ping"]
    assert "parameters" in document["functionDeclarations"][0]
    assert document["functionDeclarations"][1] == GEMINI_DOC["functionDeclarations"][1]


def test_transform_tool_filter_keeps_tool_fields(cli_here: RunCli) -> None:
    proc = cli_here("transform", "--tool", "read_files", FS)
    assert proc.returncode == 0, proc.stderr
    document = _json(proc)
    original = json.loads(FS_PATH.read_text(encoding="utf-8"))["tools"][0]
    tool, untouched = document["tools"]
    assert untouched == json.loads(FS_PATH.read_text(encoding="utf-8"))["tools"][1]
    # name, description, inputSchema, outputSchema; and the dialect it is now written in
    assert set(tool) == {*original, "_meta"}
    assert tool["outputSchema"] == original["outputSchema"]


def test_transform_several_sources_keep_tool_fields(cli_here: RunCli) -> None:
    proc = cli_here("transform", FS, MIXED)
    assert proc.returncode == 0, proc.stderr
    tools = {t["name"]: t for t in _json(proc)["tools"]}
    assert len(tools) == 12
    assert tools["read_files"]["outputSchema"]["required"] == ["result"]
    assert tools["delete_branch"]["annotations"] == {"destructiveHint": True}


def test_transform_lists_lossy_changes(cli_here: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    proc = cli_here("transform", MIXED, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    # each tool's lossy changes are listed under its name
    lines = _stderr_lines(proc)
    under = lines[lines.index("  update_ticket") + 1:]
    group = under[:next((k for k, ln in enumerate(under) if not ln.startswith("    ")),
                        len(under))]
    assert any("lossy" in ln and "UNI003" in ln for ln in group), proc.stderr
    assert any("lossy" in ln and "NAM001" in ln for ln in lines), proc.stderr
    written = json.loads(out.read_text(encoding="utf-8"))
    names = [t["name"] for t in written["tools"]]
    assert "github_search_issues" in names and "github/search issues" not in names
    # properties *named* like keywords are data and come through untouched
    field = next(t for t in written["tools"] if t["name"] == "add_schema_field")
    assert {"format", "$ref", "anyOf", "additionalProperties"} <= set(
        field["inputSchema"]["properties"])
    assert field["inputSchema"]["properties"]["template"]["default"] == {
        "$ref": "#/components/schemas/Address"}
    assert cli_here("check", str(out)).returncode == 0


def test_transform_lossless_only(cli_here: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    proc = cli_here("transform", "--lossless-only", MIXED, "-o", str(out))
    assert proc.returncode == 1
    assert "lossy" not in proc.stderr.lower()
    report = _json(cli_here("transform", "--lossless-only", "--json", MIXED))
    safeties = {c["safety"] for t in report["tools"] for c in t["transforms_applied"]}
    assert safeties <= {"lossless", "hinted"} and "lossless" in safeties
    remaining = {t["name"]: [i["code"] for i in t["remaining_issues"]] for t in report["tools"]}
    assert "UNI003" in remaining["update_ticket"]
    assert "NAM001" in remaining["github/search issues"]
    written = json.loads(out.read_text(encoding="utf-8"))
    assert "github/search issues" in [t["name"] for t in written["tools"]]
    assert cli_here("check", str(out)).returncode == 1


def test_transform_unreadable_input_leaves_output_alone(cli_here: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not json {\n", encoding="utf-8")
    out = tmp_path / "out.json"
    out.write_text('{"keep": 1}\n', encoding="utf-8")
    proc = cli_here("transform", str(bad), "-o", str(out))
    assert out.read_text(encoding="utf-8") == '{"keep": 1}\n'
    _assert_usage_error(proc, str(bad))


# transform writes the document one tool at a time, as each is transformed; what it writes is
# still exactly json.dumps of the whole document (indent, separators, key order, escapes).


def _dumped(text: str, ensure_ascii: bool = False) -> str:
    return json.dumps(json.loads(text), indent=2, ensure_ascii=ensure_ascii) + "\n"


@pytest.mark.parametrize("shape", ["mcp", "jsonrpc", "gemini", "several sources"])
def test_transform_writes_a_multi_tool_document_as_json_dumps_would(
        cli_here: RunCli, tmp_path: Path, shape: str) -> None:
    listing = json.loads(MIXED_PATH.read_text(encoding="utf-8"))
    inputs = {
        "mcp": [_write(tmp_path / "mcp.json", listing)],
        "jsonrpc": [_write(tmp_path / "rpc.json", {"jsonrpc": "2.0", "id": 3, "result": {
            "tools": listing["tools"], "nextCursor": "é"}})],
        # the snake_case list comes first in the file, but its tools are numbered last
        "gemini": [_write(tmp_path / "gemini.json", {"function_declarations": [
            {"name": "zeta tool", "parameters": {"type": ["string", "null"]}}], **GEMINI_DOC})],
        "several sources": [MIXED_PATH, FS_PATH],
    }[shape]
    out = tmp_path / "out.json"
    proc = cli_here("transform", *map(str, inputs), "-o", str(out))
    assert proc.returncode in (0, 1), proc.stderr
    written = out.read_text(encoding="utf-8")
    assert written == _dumped(written)
    assert written.count('"name": ') > 2
    stdout = cli_here("transform", *map(str, inputs)).stdout
    assert stdout == written
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_transform_escapes_a_document_that_keeps_a_lone_surrogate(
        tmp_path: Path) -> None:
    """UTF-8 cannot hold a lone surrogate: such a document is written with \\u escapes."""
    src = tmp_path / "in.json"
    src.write_text('{"tools": [{"name": "a", "description": "\\ud800 x", "inputSchema": '
                   '{"type": "object", "properties": {"p": {"type": ["string", "null"]}}}}, '
                   '{"name": "b", "inputSchema": {"type": "object"}}]}', encoding="utf-8")
    proc = run_cli_process("transform", str(src))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.isascii() and "\\ud800 x" in proc.stdout
    assert proc.stdout == _dumped(proc.stdout, ensure_ascii=True)
    assert json.loads(proc.stdout)["tools"][0]["inputSchema"]["properties"]["p"]["nullable"]


def test_transform_escapes_every_document_made_from_a_lone_surrogate(
        cli_here: RunCli, tmp_path: Path) -> None:
    """The document is written while the tools are transformed, so whether to escape is
    chosen from the input: one holding a lone surrogate gives an ASCII document even where
    the surrogate does not reach it (here a wrapper field that an MCP listing of two sources
    leaves out), and one without gives its text as it is."""
    a, b, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "out.json"
    a.write_text('{"tools": [{"name": "a", "description": "caf\\u00e9", "inputSchema": '
                 '{"type": "object"}}], "nextCursor": "\\udc00"}', encoding="utf-8")
    b.write_text('{"tools": [{"name": "b", "inputSchema": {"type": "object"}}]}',
                 encoding="utf-8")
    proc = cli_here("transform", str(a), str(b), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    written = out.read_bytes().decode("utf-8")
    assert written == _dumped(written, ensure_ascii=True) and "caf\\u00e9" in written
    assert "udc00" not in written and json.loads(written)["tools"][0]["description"] == "café"
    a.write_text(a.read_text(encoding="utf-8").replace("\\udc00", "x"), encoding="utf-8")
    assert cli_here("transform", str(a), str(b), "-o", str(out), "--force").returncode == 0
    assert "café" in out.read_text(encoding="utf-8")


def test_reports_carry_a_lone_surrogate_as_an_escape(tmp_path: Path) -> None:
    """JSON reports and text output of a schema holding a lone surrogate are written (as the
    JSON escape, the same string), not stopped by the UTF-8 stream."""
    src = tmp_path / "in.json"
    src.write_text('{"tools": [{"name": "a", "description": "x", "inputSchema": '
                   '{"type": "object", "properties": {"p": {"type": ["string", "null"], '
                   '"description": "\\udc00 y"}}}}]}', encoding="utf-8")
    for args in (("check", "--json"), ("diff", "--json", "a"), ("transform", "--json")):
        proc = run_cli_process(*args, str(src), "-o", str(tmp_path / "out.json")) \
            if args[0] == "transform" else run_cli_process(*args, str(src))
        assert proc.returncode in (0, 1), (args, proc.stderr)
        assert "internal error" not in proc.stderr
        assert "\\udc00 y" in proc.stdout
        report = json.loads(proc.stdout)
        assert "\udc00 y" in json.dumps(report, ensure_ascii=False)
    text = run_cli_process("diff", "a", str(src))
    assert text.returncode == 0, text.stderr
    assert "\\udc00 y" in text.stdout


def test_transform_summary_counts_every_change(cli_here: RunCli) -> None:
    """The summary keeps only the lossy changes in full: the counts must still be all."""
    report = _json(cli_here("transform", "--json", MIXED))
    changes = [c["safety"] for t in report["tools"] for c in t["transforms_applied"]]
    changed = sum(1 for t in report["tools"] if t["transforms_applied"])
    summary = _stderr_lines(cli_here("transform", MIXED))[0]
    parts = ", ".join(f"{changes.count(s)} {s}" for s in ("lossless", "hinted", "lossy")
                      if changes.count(s))
    assert summary == (f"transform (gemini): {changed} of {len(report['tools'])} tools "
                       f"changed, {len(changes)} changes ({parts})")


def test_check_text_report_counts_every_change(cli_here: RunCli) -> None:
    """check's text report keeps only lossy changes in full: its counts must still be all.
    Its summary counts findings, its hint changes (issue 28 #19: "46 fixable" then "49
    changes (6 lossy)" read as two counts of one thing): the hint names both, the
    findings as the summary counts them and the changes as transform makes them."""
    report = _json(cli_here("transform", "--json", MIXED))
    changes = [c for t in report["tools"] for c in t["transforms_applied"]]
    fixable = [i for t in report["tools"] for i in t["issues"] if i.get("fix")]
    assert len(changes) != len(fixable)  # the case the issue met: the counts differ
    text = " ".join(cli_here("check", MIXED).stdout.split())
    assert f": {len(fixable)} fixable (" in text
    assert f"to fix {len(fixable)} findings with {len(changes)} changes," in text
    assert "lossy)" not in text.split(" to fix ")[1]  # one safety tally: the findings'
    markdown = cli_here("check", "--format", "markdown", MIXED).stdout
    for tool in report["tools"]:
        assert f"fix: {tool['fix_status']}" in markdown


def test_transform_output_keeps_usual_permissions(cli_here: RunCli, tmp_path: Path) -> None:
    """-o writes through a temporary file; the result has the mode a plain write gives (the
    umask's), and a file that existed keeps its own mode."""
    fresh = tmp_path / "fresh.json"
    umask = os.umask(0o022)
    try:
        assert cli_here("transform", FS, "-o", str(fresh)).returncode == 0
    finally:
        os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o644
    kept = tmp_path / "kept.json"
    kept.write_text("old\n", encoding="utf-8")
    kept.chmod(0o640)
    assert cli_here("transform", FS, "-o", str(kept)).returncode == 0
    assert kept.stat().st_mode & 0o777 == 0o640
    assert json.loads(kept.read_text(encoding="utf-8"))["tools"]


def test_an_output_written_in_pieces_is_whole_or_not_there(tmp_path: Path) -> None:
    """If writing fails part way, the file given to -o is left as it was, and no temporary
    file stays behind."""
    from schema_compat.commands.output_file import write_file

    out = tmp_path / "out.json"
    out.write_text("before\n", encoding="utf-8")

    def pieces() -> Any:
        yield "{\n"
        raise ValueError("stopped half way")

    with pytest.raises(ValueError, match="half way"):
        write_file(str(out), pieces())
    assert out.read_text(encoding="utf-8") == "before\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    write_file(str(out), iter(["{", "}\n"]))
    assert out.read_text(encoding="utf-8") == "{}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


# --- diff ------------------------------------------------------------------------------------

def _run_narrow(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", "schema_compat", *args], capture_output=True,
                          text=True, cwd=REPO_ROOT, env=env, check=False, encoding="utf-8")


def test_diff_fits_80_columns() -> None:
    proc = _run_narrow("diff", "read_files", FS)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) > 20
    assert max(len(line) for line in lines) <= 80
    assert "REF001" in proc.stdout
    assert "lossless" in proc.stdout
    assert "\x1b" not in proc.stdout + proc.stderr


def test_diff_unknown_tool(cli_here: RunCli) -> None:
    proc = cli_here("diff", "nope", FS)
    _assert_usage_error(proc, "'nope'", "read_files", "propose_and_review")
    assert proc.stdout == ""


def test_diff_json_structural_diff(cli_here: RunCli) -> None:
    proc = cli_here("diff", "--json", "read_files", FS)
    assert proc.returncode == 0, proc.stderr
    data = _json(proc)
    assert data["version"] == 1
    assert [t["name"] for t in data["tools"]] == ["read_files"]
    entries = data["tools"][0]["structural_diff"]
    assert entries
    for entry in entries:
        assert entry["op"] in {"added", "removed", "changed"}
        assert entry["path"].startswith("$")
        assert entry["pointer"] == "" or entry["pointer"].startswith("/")
    by_pointer = {(e["op"], e["pointer"]): e for e in entries}
    assert ("removed", "/$defs") in by_pointer
    ref = by_pointer[("removed", "/properties/files/items/$ref")]
    assert ref["path"] == "$.properties.files.items['$ref']"
    assert ref["before"] == "#/$defs/FileReadRequest"


# --- rules, rule, profiles -------------------------------------------------------------------

def test_rules_lists_codes(cli_here: RunCli) -> None:
    proc = cli_here("rules")
    assert proc.returncode == 0
    rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.strip()}
    assert rows["REF001"][1] == "ref-unsupported"
    assert rows["REF001"][2] == "error"
    assert "UNI001" in rows


@pytest.mark.parametrize("name", ["REF001", "ref-unsupported"])
def test_rule_explains_one(cli_here: RunCli, name: str) -> None:
    proc = cli_here("rule", name)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "REF001 ref-unsupported"
    assert "lossless" in proc.stdout
    assert "$ref" in proc.stdout


def test_rule_unknown_code(cli_here: RunCli) -> None:
    proc = cli_here("rule", "NOPE999")
    _assert_usage_error(proc, "NOPE999")
    assert proc.stdout == ""


def test_rules_unknown_provider_says_which_exist(cli_here: RunCli) -> None:
    _assert_usage_error(cli_here("rules", "--provider", "nope"), "'nope'", "gemini")


def test_profiles(cli_here: RunCli) -> None:
    proc = cli_here("profiles")
    assert proc.returncode == 0
    names = [line.split()[0] for line in proc.stdout.splitlines()
             if line and not line[0].isspace()]
    assert "gemini" in names and "gemini-json" in names
    # the profiles (xai, deepseek, deepseek-strict and groq among them), then the clients
    split = names.index("MCP")
    assert names[:split] == list(PROFILES)
    assert names[split + 1:] == ["cursor", "windsurf", "vscode", "claude-code", "copilot-cli",
                                 "gemini-cli", "cline", "continue", "zed"]
    # the Gemini generation each profile describes, and where a rule holds for fewer
    out = " ".join(proc.stdout.split())
    assert "models: Vertex AI; Gemini 2.x and 3" in out
    assert "UNI007 applies to: Gemini 3 (GEN-02)" in out


# --- bad input -------------------------------------------------------------------------------

def _bad_files(tmp_path: Path) -> dict[str, Path]:
    files = {
        "not-json": "not json {\n",
        "nan": ('{"name": "x", "inputSchema": {"type": "object", "properties": '
                '{"a": {"type": "number", "default": NaN}}}}\n'),
        "deep": "[" * 10_000 + "]" * 10_000 + "\n",
        "number": "42\n",
    }
    out = {}
    for name, text in files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        out[name] = path
    return out


@pytest.mark.parametrize(("kind", "needle"), [
    ("not-json", "not valid JSON"),
    ("nan", "NaN"),
    ("deep", "nested"),
    ("number", "number"),
])
def test_bad_file(cli_here: RunCli, tmp_path: Path, kind: str, needle: str) -> None:
    path = _bad_files(tmp_path)[kind]
    _assert_usage_error(cli_here("check", str(path)), str(path), needle)


def test_bad_file_json_mode_reports_error(cli_here: RunCli, tmp_path: Path) -> None:
    path = _bad_files(tmp_path)["nan"]
    proc = cli_here("check", "--json", str(path))
    _assert_usage_error(proc, str(path))
    report = _json(proc)
    assert report["tools"] == []
    assert [e["source"] for e in report["errors"]] == [str(path)]
    assert report["errors"][0]["hint"]


def test_missing_path(cli_here: RunCli, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    _assert_usage_error(cli_here("check", missing), missing)


def test_directory_with_good_and_bad_file(cli_here: RunCli, tmp_path: Path) -> None:
    shutil.copyfile(FS_PATH, tmp_path / "good.json")
    (tmp_path / "bad.json").write_text("not json {\n", encoding="utf-8")
    proc = cli_here("check", str(tmp_path))
    _assert_usage_error(proc, "bad.json")
    assert "good.json" not in proc.stderr
    assert "read_files" in proc.stdout and "REF001" in proc.stdout
    report = _json(cli_here("check", "--json", str(tmp_path)))
    assert [t["name"] for t in report["tools"]] == ["read_files", "propose_and_review"]
    assert [Path(e["source"]).name for e in report["errors"]] == ["bad.json"]


def test_stdin_garbage(cli_here: RunCli) -> None:
    _assert_usage_error(cli_here("check", "-", input="garbage\n"), "<stdin>")


def test_unknown_provider(cli_here: RunCli) -> None:
    proc = cli_here("check", "--provider", "nope", FS)
    _assert_usage_error(proc, "'nope'", "gemini", "gemini-json")
    assert proc.stdout == ""


def test_no_source(cli_here: RunCli) -> None:
    proc = cli_here("check")
    _assert_usage_error(proc, "SOURCE")
    assert proc.stdout == ""


# --- stdin, version --------------------------------------------------------------------------

def test_check_json_from_stdin(cli_here: RunCli) -> None:
    tools = json.loads(FS_PATH.read_text(encoding="utf-8"))["tools"]
    proc = cli_here("check", "--json", "-", input=json.dumps(tools))
    assert proc.returncode == 1, proc.stderr
    report = _json(proc)
    assert report["summary"]["total_tools"] == 2
    assert [t["source"] for t in report["tools"]] == ["<stdin>", "<stdin>"]
    assert "REF001" in _codes(report)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(cli_here: RunCli, flag: str) -> None:
    proc = cli_here(flag)
    assert proc.returncode == 0
    assert proc.stdout == "schema-compat 0.1.0\n"
    assert proc.stderr == ""


def test_loaded_documents_are_left_out_of_the_collectors_scans() -> None:
    """A command's input lives until it ends: the collector is told to skip it (gc.freeze),
    or every full collection walks all of it again (the 10,000-tool scale benchmark)."""
    from schema_compat.commands.inputs import load_inputs

    try:
        loaded, errors = load_inputs([str(REPO_ROOT / "examples" / "fs_read_files.json")])
        assert not errors
        schema = loaded[0].tools[0].schema
        assert isinstance(schema, dict) and schema
        assert not any(obj is schema for obj in gc.get_objects())
    finally:
        gc.unfreeze()
