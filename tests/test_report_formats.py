"""`check --format sarif|github|markdown`: the SARIF log validates against the official
SARIF 2.1.0 schema (vendored in tests/data/sarif), every finding is one result / one
annotation / one table row, and user data cannot break the format it is written into."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from schema_compat.engine import run
from schema_compat.model import Report, SourceError, ToolDef
from schema_compat.report.github import render_github
from schema_compat.report.markdown import render_markdown
from schema_compat.report.sarif import render_sarif
from schema_compat.rules.registry import RULES

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]
DATA = Path(__file__).resolve().parent / "data"
FS = "examples/fs_read_files.json"


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads((DATA / "sarif" / "sarif-2.1.0-rtm.5.json").read_text("utf-8"))
    return jsonschema.Draft4Validator(schema)


def _fs_findings(cli_here: RunCli, provider: str = "gemini") -> list[dict[str, Any]]:
    proc = cli_here("check", "--json", "-p", provider, FS)
    data = json.loads(proc.stdout)
    return [dict(i, tool=t["name"]) for t in data["tools"] for i in t["issues"]]


def test_sarif_validates_and_has_one_result_per_finding(
        cli_here: RunCli, sarif_validator: jsonschema.Draft4Validator) -> None:
    proc = cli_here("check", "--format", "sarif", FS)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    assert list(sarif_validator.iter_errors(log)) == []
    assert log["version"] == "2.1.0"
    [run_] = log["runs"]
    expected = _fs_findings(cli_here)
    results = run_["results"]
    assert len(results) == len(expected) == 10
    rules = run_["tool"]["driver"]["rules"]
    for result, finding in zip(results, expected, strict=True):
        assert result["ruleId"] == finding["code"]
        assert rules[result["ruleIndex"]]["id"] == finding["code"]
        assert result["level"] == "error"
        [loc] = result["locations"]
        [logical] = loc["logicalLocations"]
        # The JSONPath is the logical location, prefixed by the tool it is in.
        assert logical["name"] == finding["path"]
        assert logical["fullyQualifiedName"] == finding["tool"] + finding["path"][1:]
        assert loc["physicalLocation"]["artifactLocation"]["uri"] == FS
        line = loc["physicalLocation"]["region"]["startLine"]
        assert f'"{finding["tool"]}"' in (Path(__file__).parent.parent / FS).read_text(
            "utf-8").splitlines()[line - 1]
    # Each rule's docs travel with it as help text.
    ref001 = next(r for r in rules if r["id"] == "REF001")
    assert RULES["REF001"].docs.what in ref001["help"]["text"]
    assert RULES["REF001"].docs.fix in ref001["help"]["markdown"]
    assert ref001["defaultConfiguration"]["level"] == "error"
    # Fingerprints tell the findings apart (code scanning tracks alerts by them).
    prints = [r["partialFingerprints"]["schemaCompat/v1"] for r in results]
    assert len(set(prints)) == len(prints)


def test_sarif_for_several_providers_has_a_run_each(
        cli_here: RunCli, sarif_validator: jsonschema.Draft4Validator) -> None:
    proc = cli_here("check", "--format", "sarif", "-p", "gemini,openai-strict", FS)
    log = json.loads(proc.stdout)
    assert list(sarif_validator.iter_errors(log)) == []
    ids = [r["automationDetails"]["id"] for r in log["runs"]]
    assert ids == ["schema-compat/gemini/", "schema-compat/openai-strict/"]
    assert len(log["runs"][1]["results"]) == len(_fs_findings(cli_here, "openai-strict"))
    levels = {r["level"] for r in log["runs"][1]["results"]}
    assert "warning" in levels


def test_sarif_for_a_server_source_and_unreadable_input(
        sarif_validator: jsonschema.Draft4Validator) -> None:
    """A live server has no file: the result keeps its logical location only; an unreadable
    source becomes an error notification and an unsuccessful invocation."""
    tool = ToolDef("t", {"type": "object", "properties": {"a": {"const": 1}}},
                   source="server: python s.py")
    report = Report("gemini", tuple(run([tool], "gemini")),
                    (SourceError("missing.json", "no such file"),))
    log = json.loads(render_sarif(report))
    assert list(sarif_validator.iter_errors(log)) == []
    [run_] = log["runs"]
    assert run_["results"]
    assert all("physicalLocation" not in r["locations"][0] for r in run_["results"])
    invocation = run_["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "missing.json" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_github_annotations(cli_here: RunCli) -> None:
    proc = cli_here("check", "--format", "github", FS)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    expected = _fs_findings(cli_here)
    annotations = [ln for ln in lines if ln.startswith("::")]
    assert len(annotations) == len(expected)
    first = annotations[0]
    assert first.startswith(f"::error file={FS},line=")
    assert "title=REF001 ref-unsupported::read_files at $.properties.files.items['$ref']" \
        in first
    assert lines[-1] == "schema-compat gemini: 2 tools, 2 incompatible, 10 findings"


def test_github_summary_counts_in_words() -> None:
    """One tool with one finding (OBJ007): singular nouns, as with any count of one."""
    tool = ToolDef("t", {"type": "object", "properties": {}}, description="Ping.")
    out = render_github(Report("gemini", tuple(run([tool], "gemini"))))
    assert out.splitlines()[-1] == "schema-compat gemini: 1 tool, 0 incompatible, 1 finding"


def test_github_escapes_user_data() -> None:
    """A newline in a tool name must not end the command (it is shown as `\\n`, as in every
    report for people), nor a comma or colon in the title start a new property."""
    tool = ToolDef("evil\nname%,x", {"type": "object", "properties": {"a": {"const": 1}}})
    report = Report("gemini", tuple(run([tool], "gemini")))
    out = render_github([report, Report("vertex", tuple(run([tool], "vertex")))])
    annotations = [ln for ln in out.splitlines() if ln.startswith("::")]
    assert annotations and all("evil\\nname%25,x" in a for a in annotations)
    assert all("(gemini)" in a or "(vertex)" in a for a in annotations)
    info = [a for a in annotations if a.startswith("::notice ")]
    assert info  # NAM003 (no description) is an info finding: a notice


def test_markdown_single_provider(cli_here: RunCli) -> None:
    proc = cli_here("check", "--format", "markdown", FS)
    text = proc.stdout
    assert text.startswith("## schema-compat\n")
    assert "| `gemini` | 2 | 0 | 2 | 0 | 10 | 0 | 0 |" in text
    assert "Compatibility by provider" not in text
    assert text.count("<details>") == 2
    assert "| error | `REF001` ref-unsupported | `$.properties.files.items['$ref']` |" in text


def test_markdown_lists_the_sources_it_could_not_read() -> None:
    """An unreadable source is listed once, in its own section, escaped as a table cell."""
    tool = ToolDef("t", {"type": "object", "properties": {"a": {"const": 1}}})
    error = SourceError("a|b.json", "no such file", "check the path")
    text = render_markdown([Report(p, tuple(run([tool], p)), (error,))
                            for p in ("gemini", "vertex")])
    section = text.split("### Sources that could not be read\n\n", 1)[1]
    assert section.startswith("- a\\|b.json: no such file (check the path)\n\n<sub>")


def test_markdown_matrix_for_several_providers(cli_here: RunCli) -> None:
    proc = cli_here("check", "--format", "markdown", "-p", "all", FS)
    text = proc.stdout
    assert "### Compatibility by provider" in text
    matrix = json.loads(cli_here("check", "--json", "-p", "all", FS).stdout)["matrix"]
    header = next(ln for ln in text.splitlines() if ln.startswith("| tool |"))
    assert header.count("`") == 2 * len(matrix["providers"])
    row = next(ln for ln in text.splitlines() if ln.startswith("| `read_files` |"))
    cells = [c.strip() for c in row.strip("|").split("|")][1:]
    words = {"✅ compatible": "compatible", "🔧 fixable": "fixable",
             "⚠️ lossy fix": "fixable-lossy", "❌ incompatible": "incompatible"}
    assert [words[c] for c in cells] == [matrix["rows"][0]["cells"][p]
                                         for p in matrix["providers"]]


def test_markdown_escapes_tables_and_html() -> None:
    tool = ToolDef("a|b<script>", {"type": "object", "properties": {"x|y": {"const": 1}}})
    text = render_markdown(Report("gemini", tuple(run([tool], "gemini"))))
    assert "<script>" not in text
    assert all("a|b" not in ln for ln in text.splitlines() if ln.startswith("|"))
    for line in text.splitlines():
        if line.startswith("| error |"):
            assert len(line.replace("\\|", "").split("|")) == 7  # five cells


def test_clean_input_says_so(cli_here: RunCli, tmp_path: Path) -> None:
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"tools": [{"name": "ok", "description": "Fine.",
                                            "inputSchema": {"type": "object", "properties": {
                                                "a": {"type": "string"}}}}]}))
    proc = cli_here("check", "--format", "markdown", str(clean))
    assert proc.returncode == 0
    assert "✅ every tool is accepted as published" in proc.stdout
    proc = cli_here("check", "--format", "github", str(clean))
    assert proc.returncode == 0
    assert not [ln for ln in proc.stdout.splitlines() if ln.startswith("::")]


_PROBE = """
import contextlib, io, runpy, sys
sys.argv = ["schema-compat", "check", "--format", sys.argv[1], "examples/fs_read_files.json"]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        runpy.run_module("schema_compat", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        assert exc.code == 1, exc.code
print(sorted({m.split(".")[0] for m in sys.modules} & {"rich", "mcp", "deepdiff", "google"}))
"""


@pytest.mark.parametrize("fmt", ["sarif", "github", "markdown"])
def test_machine_formats_do_not_import_rich(fmt: str) -> None:
    """CI formats run on every push: they stay as light as the JSON report."""
    import sys

    proc = subprocess.run([sys.executable, "-c", _PROBE, fmt], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parent.parent, check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_markdown_stays_within_a_comment_size() -> None:
    """A large server's comment is cut at whole tools, with the rest counted."""
    schema = {"type": "object", "properties": {f"p{i}": {"const": i} for i in range(40)}}
    tools = [ToolDef(f"tool_{n}", schema, "d") for n in range(120)]
    text = render_markdown(Report("gemini", tuple(run(tools, "gemini"))))
    assert len(text) < 65_536
    shown = text.count("<details>")
    assert 0 < shown < 120
    assert f"…and {120 - shown} more flagged tools" in text
    assert text.endswith("</sub>\n")


def test_json_flag_and_another_format_is_a_usage_error(cli_here: RunCli) -> None:
    proc = cli_here("check", "--json", "--format", "sarif", FS)
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert "--json and --format sarif ask for two formats" in line
    assert proc.stdout == ""
