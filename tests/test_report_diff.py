"""Side-by-side diff: alignment, change marks, width, and plain-text meaning."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from schema_compat.console import make_console
from schema_compat.model import Change, Finding, ToolDef, ToolResult
from schema_compat.report.diff import aligned, render_diff

BAR = " │ "


def diff_text(result: ToolResult, width: int, color: bool = False, *, full: bool = False
              ) -> str:
    """The diff of `result` as text `width` cells wide, in colour (whatever the terminal)
    or without."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False, emoji=False)
    render_diff(result, console, full=full)
    return buf.getvalue()
ANSI = re.compile(r"\x1b\[")

ORIGINAL: dict[str, Any] = {
    "type": "object",
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "properties": {
        "files": {
            "type": "array",
            "description": "Files to read; each entry names a path and, optionally, an encoding.",
            "items": {"$ref": "#/$defs/FileReadRequest"},
        },
        "mode": {"const": "fast"},
    },
    "required": ["files"],
    "$defs": {
        "FileReadRequest": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "format": "uri"},
                "encoding": {"type": "string"},
            },
            "required": ["path"],
        }
    },
}
TRANSFORMED: dict[str, Any] = {
    "type": "object",
    "properties": {
        "files": {
            "type": "array",
            "description": "Files to read; each entry names a path and, optionally, an encoding.",
            "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "format: uri"},
                    "encoding": {"type": "string"},
                },
                "required": ["path"],
            },
        },
        "mode": {"enum": ["fast"]},
    },
    "required": ["files"],
}
CHANGES = (
    Change("REF001", ("properties", "files", "items"), "lossless", "inlined FileReadRequest"),
    Change("SCH001", ("$schema",), "lossless", "dropped $schema"),
    Change(
        "FMT001",
        ("properties", "files", "items", "properties", "path", "format"),
        "hinted",
        "moved format: uri into the description",
    ),
    Change("VAL001", ("properties", "mode", "enum"), "lossless", "const to enum"),
    Change("DEF001", ("$defs",), "lossless", "removed unused $defs"),
    Change("NAM001", (), "lossless", "renamed read.files to read_files", "tool"),
)


def _result(
    original: Any = ORIGINAL,
    transformed: Any = TRANSFORMED,
    changes: tuple[Change, ...] = CHANGES,
    remaining: tuple[Finding, ...] = (),
) -> ToolResult:
    return ToolResult(
        ToolDef("read.files", original, None, "servers/fs.json", 0),
        "gemini",
        (),
        changes,
        "read_files" if any(c.scope == "tool" for c in changes) else "read.files",
        transformed,
        remaining,
    )


def _rows(text: str) -> list[tuple[str, str]]:
    """Split every column row into (left, right) cells."""
    rows = []
    for line in text.splitlines():
        if BAR.rstrip() in line:
            left, _, right = line.partition(BAR.rstrip())
            rows.append((left, right[1:] if right.startswith(" ") else right))
    return rows


def _lines(value: Any) -> list[tuple[str, tuple[str | int, ...]]]:
    """The lines the diff prints of `value` (its left side against itself), with paths."""
    rows, _ = aligned(value, value, ())
    return [(left.text, left.path) for left, _, _ in rows if left is not None]


@pytest.mark.parametrize(
    "value",
    [
        ORIGINAL,
        TRANSFORMED,
        {},
        [],
        None,
        "x",
        {"a": [], "b": {}, "c": [1, 2.5, True, None, {"d": 'ünï "q" 名前'}], "e": 10**30},
        [[[]], [{}], {"x": [{"y": 1}]}],
    ],
)
def test_pretty_lines_match_json_dumps(value: Any) -> None:
    lines = [text for text, _ in _lines(value)]
    assert lines == json.dumps(value, indent=2, ensure_ascii=False).splitlines()


def test_pretty_lines_carry_paths() -> None:
    paths = dict(_lines({"a": {"$ref": "#/x"}, "b": [1, {"c": 2}]}))
    assert paths['    "$ref": "#/x"'] == ("a", "$ref")
    assert paths['  "b": ['] == ("b",)
    assert paths["    1,"] == ("b", 0)
    assert paths['      "c": 2'] == ("b", 1, "c")


@pytest.mark.parametrize("width", [80, 200])
def test_ref_inlined_side_by_side(width: int) -> None:
    text = diff_text(_result(), width)
    lines = text.splitlines()
    assert all(cell_len(line) <= width for line in lines), max(lines, key=cell_len)
    rows = _rows(text)
    # Aligned: the unchanged `"items": {` sits on one row, marked on the right with its change.
    items = [(lhs, rhs) for lhs, rhs in rows if '"items": {' in lhs]
    assert len(items) == 1 and '"items": {' in items[0][1]
    assert "REF001 lossless" in items[0][1]
    # `$ref` only on the left; the inlined property names only on the right.
    left = re.sub(r"\s", "", "".join(lhs[1:] for lhs, _ in rows))
    assert '"$ref":"#/$defs/FileReadRequest"' in left
    assert not any("$ref" in rhs for _, rhs in rows)
    for name in ('"encoding": {', '"required": ['):
        assert any(name in rhs and rhs.startswith("+") for _, rhs in rows), name
    # The column split is the same on every row that has a right-hand side.
    assert {cell_len(lhs) for lhs, rhs in rows if rhs} == {(width - 3) // 2}


def test_markers_for_removed_added_and_modified() -> None:
    rows = _rows(diff_text(_result(), width=200, color=False))
    defs = next((lhs, rhs) for lhs, rhs in rows if '"$defs": {' in lhs)
    assert defs[0].startswith("-") and defs[1].strip() == ""
    schema = next((lhs, rhs) for lhs, rhs in rows if '"$schema"' in lhs)
    assert schema[0].startswith("-") and schema[1].strip() == ""
    const = next((lhs, rhs) for lhs, rhs in rows if '"const": "fast"' in lhs)
    assert const[0].startswith("~") and const[1].startswith("~") and '"enum": [' in const[1]
    assert "VAL001 lossless" in const[1]
    unchanged = next((lhs, rhs) for lhs, rhs in rows if '"type": "array"' in lhs)
    assert unchanged[0].startswith(" ") and unchanged[1].startswith(" ")


def test_changes_at_vanished_nodes_mark_nearest_surviving_ancestor() -> None:
    rows = _rows(diff_text(_result(), width=200, color=False))
    # format was removed: the mark goes on the "path" object that held it.
    path_row = next(rhs for _, rhs in rows if '"path": {' in rhs)
    assert "FMT001 hinted" in path_row
    # $schema and $defs left the root: both marks land on the root line.
    root = rows[1][1]  # rows[0] is the column titles
    assert root.lstrip(" ").startswith("{") and "SCH001 lossless" in root and "DEF001" in root


def test_tool_changes_above_columns_and_legend_below() -> None:
    text = diff_text(_result(), width=80, color=False)
    lines = text.splitlines()
    title_row = next(i for i, ln in enumerate(lines) if "original" in ln and BAR.strip() in ln)
    rename = next(i for i, ln in enumerate(lines) if "NAM001" in ln)
    assert rename < title_row
    assert "renamed read.files to read_files" in lines[rename]
    assert "(read_files)" in lines[title_row]
    legend = text[text.index("changes:") :]
    for change, path in (
        (CHANGES[0], "$.properties.files.items"),
        (CHANGES[1], "$['$schema']"),
        (CHANGES[3], "$.properties.mode.enum"),
    ):
        line = next(ln for ln in legend.splitlines() if change.code in ln)
        assert change.safety in line and path in line and change.description in line
    assert "6 changes (5 lossless, 1 hinted)" in lines[0]


def test_no_color_means_no_escapes_and_color_means_some(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = diff_text(_result(), width=80, color=False)
    assert not ANSI.search(plain)
    colored = diff_text(_result(), width=80, color=True)
    assert ANSI.search(colored)
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored) == plain
    monkeypatch.setenv("NO_COLOR", "1")
    buf = io.StringIO()
    render_diff(_result(), make_console(file=buf, width=80))
    assert buf.getvalue() == plain


@pytest.mark.parametrize("width", [40, 57, 80, 121])
def test_long_lines_fold_inside_their_column(width: int) -> None:
    word = "x" * 150
    original = {"description": f"{word} 名前の説明 " * 3, "k": {"deep": {"deeper": word}}}
    transformed = {"description": f"{word} 名前の説明 " * 3, "k": {"deep": {"deeper": "y"}}}
    change = Change("LEN001", ("k", "deep", "deeper"), "lossy", "truncated " + "z" * 100)
    text = diff_text(_result(original, transformed, (change,)), width=width, color=False)
    lines = text.splitlines()
    assert all(cell_len(line) <= width for line in lines), max(lines, key=cell_len)
    # Nothing was cut: the folded pieces of each column add back up to the full text.
    left = re.sub(r"\s", "", "".join(lhs[1:] for lhs, _ in _rows(text)))
    assert left.count("x") == 150 * 4
    assert "LEN001" in "".join(rhs for _, rhs in _rows(text))


def test_identical_schemas_and_odd_values() -> None:
    text = diff_text(_result({"type": "object"}, {"type": "object"}, ()), 80, False)
    assert "no changes" in text.splitlines()[0]
    assert not any(lhs.startswith(("-", "+", "~")) for lhs, _ in _rows(text))
    odd = diff_text(_result(None, {"type": "object"}, ()), 80, False)
    assert any(lhs.startswith("~") and "null" in lhs for lhs, _ in _rows(odd))


def test_remaining_errors_listed() -> None:
    stuck = Finding("REC001", "recursive-ref", "error", ("properties", "tree"), "recursion")
    text = diff_text(_result(remaining=(stuck,)), 80, False)
    tail = text[text.index("still rejected after transform:") :]
    assert "REC001 $.properties.tree  recursion" in tail


def test_diff_module_does_not_import_deepdiff() -> None:
    code = "import sys\nimport schema_compat.report.diff\nassert 'deepdiff' not in sys.modules\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_changed_values_pair_by_key_not_by_position() -> None:
    original = {"q": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "d"}}
    transformed = {"q": {"type": "string", "description": "d; integers are accepted too"}}
    change = Change("UNI003", ("q", "anyOf"), "lossy", "kept the string branch")
    rows = _rows(diff_text(_result(original, transformed, (change,)), 120, False))
    desc = next((lhs, rhs) for lhs, rhs in rows if '"description"' in lhs)
    assert desc[0].startswith("~") and '"description": "d; integers' in desc[1]
    # The end of anyOf is a removal, not an edit of the description.
    assert any(lhs.startswith("-") and lhs[1:].strip() == "]," for lhs, _ in rows)
    assert "UNI003 lossy" in next(rhs for _, rhs in rows if '"q": {' in rhs)


def _fs_result() -> ToolResult:
    """The README's example tool, transformed for gemini: two properties, the definition
    they use under `$defs` inlined and removed."""
    from pathlib import Path

    from schema_compat.api import load_tools, transform

    tools, errors = load_tools(str(Path(__file__).parent.parent / "examples" /
                                   "fs_read_files.json"))
    assert not errors
    return transform(tools, "gemini")[0]


def _json_lines(value: Any) -> int:
    return len(json.dumps(value, indent=2, ensure_ascii=False).splitlines())


def test_removed_and_unchanged_blocks_are_folded_to_a_count() -> None:
    """Issue 28 #20: `diff read_files` printed 213 lines at 80 columns for a tool with two
    properties, 70 of them the removed `$defs` block. By default a removed block shows its
    first line and how many more it had; an unchanged one its brackets and a count."""
    result = _fs_result()
    schema = result.tool.schema
    text = diff_text(result, width=80, color=False)
    full = diff_text(result, width=80, color=False, full=True)
    rows = _rows(text)
    # the removed block: its first line, then the count of the rest (json.dumps' own lines)
    start = next(k for k, (left, _) in enumerate(rows) if '"$defs": {' in left)
    removed = _json_lines(schema["$defs"]) - 1
    assert f"… {removed} more lines removed (REF002)" in rows[start + 1][0]
    assert rows[start + 1][1].strip() == ""
    assert "FileReadRequest" not in "".join(left for left, _ in rows[start:])
    # an unchanged property: both sides folded inside its brackets
    unchanged = _json_lines(schema["properties"]["large_file_passthrough"]) - 2
    assert any(left.strip() == right.strip() == f"… {unchanged} unchanged lines"
               for left, right in rows)
    assert f"… folded: {unchanged} unchanged and {removed} removed lines" in " ".join(
        text.split())
    # every change tag still shown, and the whole diff much shorter than in full
    assert text.count("UNI001 lossless") == full.count("UNI001 lossless") == 10
    assert len(text.splitlines()) < len(full.splitlines()) - removed


def test_full_shows_every_line_of_both_schemas() -> None:
    result = _fs_result()
    text = diff_text(result, width=400, color=False, full=True)
    left = [cell.rstrip()[2:] for cell, _ in _rows(text)]
    right = [cell.rstrip()[2:] for _, cell in _rows(text)]
    for schema, side in ((result.tool.schema, left), (result.transformed_schema, right)):
        for line in json.dumps(schema, indent=2, ensure_ascii=False).splitlines():
            assert any(cell.startswith(line.rstrip(",")) for cell in side), line
    assert "folded" not in text and "…" not in text


def test_a_change_tag_never_splits_across_lines() -> None:
    """The `← UNI001 lossless` tag moves to the next line whole, never parted."""
    text = diff_text(_fs_result(), width=80, color=False)
    assert "UNI001 lossless" in text
    assert not re.search(r"(←|UNI001|REF00\d)\s*\n", text)


def test_diff_full_on_the_command_line() -> None:
    """`--full` is an option of `diff`, read alike with and without typer."""
    from inprocess import cli_in_process

    folded = cli_in_process("diff", "read_files", "examples/fs_read_files.json", columns=80)
    assert folded.returncode == 0, folded.stderr
    full = cli_in_process("diff", "read_files", "examples/fs_read_files.json", "--full",
                          columns=80)
    assert full.returncode == 0, full.stderr
    assert "more lines removed" in folded.stdout and "more lines removed" not in full.stdout
    assert len(full.stdout.splitlines()) > len(folded.stdout.splitlines()) + 70


def test_diff_path_focuses_on_one_node() -> None:
    """`diff --path JSONPATH` (jsonpath-ng reads it, filters included): the node it matches in
    the original beside the same path in the transformed schema, with only the changes made
    at or below it."""
    from inprocess import cli_in_process

    fs = "examples/fs_read_files.json"
    whole = json.loads(cli_in_process("diff", "read_files", fs, "--json").stdout)["tools"][0]
    proc = cli_in_process("diff", "read_files", fs, "--json", "--path", "$.properties.files")
    assert proc.returncode == 0, proc.stderr
    tool = json.loads(proc.stdout)["tools"][0]
    assert tool["original_schema"] == whole["original_schema"]["properties"]["files"]
    assert tool["transformed_schema"] == whole["transformed_schema"]["properties"]["files"]
    assert 0 < len(tool["transforms_applied"]) < len(whole["transforms_applied"])
    by_filter = cli_in_process("diff", "read_files", fs, "--json", "--path",
                               "$.properties[?(@.type == 'boolean')]")
    flag = json.loads(by_filter.stdout)["tools"][0]
    assert flag["original_schema"]["title"] == "Large File Passthrough"
    assert flag["transforms_applied"] == [] and flag["structural_diff"] == []
    text = cli_in_process("diff", "read_files", fs, "--path", "$.properties.files")
    assert "REF001" in text.stdout and '"large_file_passthrough"' not in text.stdout


def test_diff_path_is_followed_to_keys_and_indexes() -> None:
    """`paths.find`, which reads `--path`: the whole document, an index, a filter's match."""
    from schema_compat.paths import find

    doc = {"anyOf": [{"type": "null"}, {"type": "string"}]}
    assert find("$", doc) == [()]
    assert find("$.anyOf[1].type", doc) == [("anyOf", 1, "type")]
    assert find("$.anyOf[?(@.type == 'string')]", doc) == [("anyOf", 1)]
    assert find("$.anyOf[-1].type", doc) == [("anyOf", 1, "type")]


def test_diff_path_with_an_index_from_the_end_keeps_its_changes(tmp_path: Path) -> None:
    """A node reached from the end of a list (`anyOf[-1]`) shows the changes made there, as
    the same node reached from the start does."""
    from inprocess import cli_in_process

    branch = {"type": "object", "additionalProperties": False,
              "properties": {"a": {"type": "string"}}}
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "x": {"anyOf": [{"type": "string"}, branch]}}}}
    source = tmp_path / "tools.json"
    source.write_text(json.dumps({"tools": [tool]}))

    def at(path: str) -> Any:
        proc = cli_in_process("diff", "t", str(source), "--json", "--path", path)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["tools"][0]

    from_end, from_start = at("$.properties.x.anyOf[-1]"), at("$.properties.x.anyOf[1]")
    assert from_end["original_schema"] == branch
    assert from_end["transforms_applied"] and from_end == from_start


@pytest.mark.parametrize(("path", "says"), [
    ("$.properties.nope", "matches nothing"), ("$.properties.*", "matches 2 nodes"),
    ("$[[[", "is not a JSONPath"), ("$.properties.`len`", "cannot follow `len`")])
def test_diff_path_that_names_no_single_node_is_one_line(path: str, says: str) -> None:
    from inprocess import cli_in_process

    proc = cli_in_process("diff", "read_files", "examples/fs_read_files.json", "--path", path)
    assert proc.returncode == 2
    assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
