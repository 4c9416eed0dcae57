"""The terminal check report and transform summary: content, width, and no-colour output."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inprocess import cli_in_process
from rich.cells import cell_len

from schema_compat.console import make_console
from schema_compat.model import Change, Finding, Report, SourceError, ToolDef, ToolResult
from schema_compat.paths import jsonpath
from schema_compat.report.text import (
    Rerun,
    render_check,
    render_transform_summary,
)

ANSI = re.compile(r"\x1b\[")

REF = Finding(
    "REF001",
    "ref-unsupported",
    "error",
    ("properties", "files", "items", "$ref"),
    "$ref is not supported by Gemini function declarations",
    keyword="$ref",
    fix_title="inline the reference",
    fix_safety="lossless",
)
FMT = Finding(
    "FMT001",
    "format-unsupported",
    "warning",
    ("properties", "url", "format"),
    "format uri is ignored",
    keyword="format",
    fix_title="move format into the description",
    fix_safety="hinted",
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
NOFIX = Finding("REC001", "recursive-ref", "error", ("properties", "tree"), "recursive schema")
SCHEMA: dict[str, Any] = {"type": "object"}


def _result(
    name: str,
    findings: tuple[Finding, ...] = (),
    changes: tuple[Change, ...] = (),
    remaining: tuple[Finding, ...] = (),
    transformed_name: str | None = None,
) -> ToolResult:
    return ToolResult(
        ToolDef(name, SCHEMA, None, "servers/fs.json", 0),
        "gemini",
        findings,
        changes,
        transformed_name or name,
        SCHEMA,
        remaining,
    )


def _report() -> Report:
    fixed = _result(
        "read_files",
        (REF, FMT),
        (
            Change("REF001", ("properties", "files", "items"), "lossless", "inlined File"),
            Change("FMT001", ("properties", "url"), "hinted", "format uri moved to description"),
        ),
    )
    lossy = _result(
        "search",
        (UNION,),
        (Change("UNI002", ("properties", "q"), "lossy", "kept only the string branch"),),
    )
    stuck = _result("tree", (NOFIX,), (), (NOFIX,))
    clean = tuple(_result(f"ok_{i}") for i in range(3))
    errors = (SourceError("broken.json", "invalid JSON at line 3", "fix the syntax"),)
    return Report("gemini", (fixed, lossy, stuck, *clean), errors)


def _render(report: Report, width: int = 80, **kw: Any) -> str:
    buf = io.StringIO()
    render_check(report, make_console(file=buf, width=width, color=False), **kw)
    return buf.getvalue()


def _joined(text: str) -> str:
    """The output with wrapped lines glued back, to find text that was folded."""
    return "".join(line.strip() for line in text.splitlines())


def test_every_finding_listed_with_code_path_and_safety() -> None:
    out = _render(_report(), width=200)
    # the class, then the effect that defines it (the class's usual one: these findings
    # give only the safety)
    for finding, safety in ((REF, "[lossless: equal, kept]"), (FMT, "[hinted: wider, described]"),
                            (UNION, "[lossy: changed, lost]")):
        line = next(ln for ln in out.splitlines() if finding.code in ln)
        assert finding.severity in line
        assert jsonpath(finding.path) in line
        assert finding.message in line
        assert line.rstrip().endswith(safety)
    assert "[no fix]" in next(ln for ln in out.splitlines() if "REC001" in ln)


def test_tool_headers_say_status_and_what_transform_can_do() -> None:
    lines = _render(_report(), width=200).splitlines()
    header = {ln.split()[0]: ln for ln in lines if ln and not ln.startswith(" ")}
    assert "INCOMPATIBLE" in header["read_files"] and "fixable (lossless)" not in header["search"]
    assert "fixable (hinted)" in header["read_files"]  # worst change of the tool is hinted
    assert "fixable (lossy)" in header["search"]
    assert "not fixable" in header["tree"]
    assert "servers/fs.json" in header["tree"]


def test_compatible_tools_summarized_and_listed_only_when_verbose() -> None:
    out = _render(_report())
    # three tools are listed above with their findings: these are three more
    assert "\n3 more tools compatible, no findings\n" in out
    assert "ok_0" not in out
    verbose = _render(_report(), verbose=True)
    assert "3 more tools compatible, no findings: ok_0, ok_1, ok_2" in verbose
    one = _render(Report("gemini", (_report().results[0], _result("ok"))))
    assert "\n1 more tool compatible, no findings\n" in one
    assert "fix: inline the reference" in verbose  # verbose also shows the fix title


def test_summary_line_counts_and_hint() -> None:
    out = _joined(_render(_report(), width=200))
    assert "6 tools: 3 compatible, 3 incompatible with gemini" in out
    assert "4 findings (3 errors, 1 warning)" in out
    assert ("4 findings (3 errors, 1 warning): 3 fixable (1 lossless, 1 hinted, 1 lossy), "
            "1 without a fix") in out
    # without the command line (a library caller) the hint says what to fill in
    assert ("run `schema-compat transform SOURCE...` (with SOURCE... the sources checked) "
            "to fix 3 findings with 3 changes") in out
    assert "`schema-compat diff read_files SOURCE...` to see one" in out
    assert "1 tool stays incompatible after transform: tree" in out
    assert "1 source unreadable" in out


def test_source_errors_after_tools_before_summary() -> None:
    out = _render(_report(), width=200)
    err = out.index("broken.json: invalid JSON at line 3 (fix the syntax)")
    assert out.index("REC001") < err < out.index("6 tools:")


def test_non_default_provider_in_hint() -> None:
    changed = _result("a", (REF,), (Change("REF001", (), "lossless", "x"),))
    out = _joined(_render(Report("openai-strict", (changed,)), width=200))
    assert "schema-compat transform SOURCE... -p openai-strict" in out
    assert "schema-compat diff a SOURCE... -p openai-strict" in out


def test_hint_quotes_the_command_it_is_given() -> None:
    changed = _result("it's", (REF,), (Change("REF001", (), "lossless", "x"),))
    rerun = Rerun(["my tools.json", "-p", "openai"], ["my tools.json"])
    out = _joined(_render(Report("openai", (changed,)), width=200, rerun=rerun))
    assert "run `schema-compat transform 'my tools.json' -p openai` to fix 1 finding with 1 " \
        "change" in out
    assert """`schema-compat diff 'it'"'"'s' 'my tools.json'` to see one""" in out


@pytest.mark.parametrize("width", [40, 60, 80, 200])
def test_fits_width_and_wraps_long_paths_without_cutting(width: int) -> None:
    deep = ("properties", "a" * 90, "items", "properties", "ünïcödé 名前", "anyOf")
    long = Finding("UNI001", "union", "error", deep, "word " * 40, "anyOf", "collapse", "lossy")
    out = _render(Report("gemini", (_result("deep", (long,), (), (long,)),)), width=width)
    lines = out.splitlines()
    assert all(cell_len(line) <= width for line in lines)
    assert not any(line != line.rstrip() for line in lines), "trailing padding"
    assert jsonpath(deep).replace(" ", "") in re.sub(r"\s", "", out)
    assert "…" not in out  # folded, never ellipsized
    first = next(i for i, ln in enumerate(lines) if "UNI001" in ln)
    if width - len("  error UNI001 ") < 30:  # too narrow beside the cells: the body goes below
        assert lines[first] == "  error UNI001" and lines[first + 1].startswith("    $")
        first += 1
    indent = lines[first].index("$")
    # Continuation lines hang under the body, not under the severity.
    assert lines[first + 1].startswith(" " * indent) and lines[first + 1][indent] != " "


def test_no_color_env_gives_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    buf = io.StringIO()
    console = make_console(file=buf, width=80)
    assert console.color_system is None
    render_check(_report(), console)
    render_transform_summary(_report(), console)
    assert not ANSI.search(buf.getvalue())


def test_color_output_carries_the_same_words() -> None:
    buf = io.StringIO()
    render_check(_report(), make_console(file=buf, width=80, color=True))
    colored = buf.getvalue()
    assert ANSI.search(colored)  # the no-colour assertions above could fail
    plain = re.sub(r"\x1b\[[0-9;]*m", "", colored)
    assert plain == _render(_report())


def test_markup_in_user_data_is_printed_literally() -> None:
    odd = Finding(
        "REF001", "r", "error", ("properties", "[bold]x[/bold]"), "[red]boom[/red] :smile:"
    )
    out = _render(Report("gemini", (_result("[i]tool[/i]", (odd,)),)), width=120)
    assert "[i]tool[/i]" in out
    assert "$.properties['[bold]x[/bold]']" in out
    assert "[red]boom[/red] :smile:" in out


def test_empty_report() -> None:
    assert _render(Report("gemini", ())).strip() == "no tools found"
    errs = _render(Report("gemini", (), (SourceError("x.json", "missing"),)))
    assert "x.json: missing" in errs and "no tools found (see the errors above)" in errs


def test_all_compatible() -> None:
    out = _render(Report("gemini", (_result("a"), _result("b"))))
    assert out.startswith("2 tools compatible, no findings\n")  # no tool listed: not "more"
    assert "2 tools: 2 compatible, 0 incompatible with gemini" in out
    assert "schema-compat transform" not in out


def _summary(report: Report, width: int = 80) -> str:
    buf = io.StringIO()
    render_transform_summary(report, make_console(file=buf, width=width, color=False))
    return buf.getvalue()


def test_transform_summary_lists_every_lossy_change() -> None:
    many = _result(
        "multi",
        (UNION,),
        (
            Change("UNI002", ("properties", "q"), "lossy", "kept only the string branch"),
            Change("ENU001", ("properties", "n", "enum"), "lossy", "stringified numeric enum"),
            Change("REF001", ("properties", "r"), "lossless", "inlined R"),
        ),
    )
    report = Report("gemini", (*_report().results, many), _report().errors)
    out = _summary(report, width=200)
    lines = out.splitlines()
    assert lines[0] == (
        "transform (gemini): 3 of 7 tools changed, 6 changes (2 lossless, 1 hinted, 3 lossy)"
    )
    # each tool's lossy changes under its name
    start = lines.index("lossy changes (the arguments accepted narrower or changed, or what "
                        "the model is told lost):")
    assert lines[start + 1:start + 6] == [
        "  search",
        "    lossy (changed, text lost) UNI002 $.properties.q  kept only the string branch",
        "  multi",
        "    lossy (changed, text lost) UNI002 $.properties.q  kept only the string branch",
        "    lossy (changed, text lost) ENU001 $.properties.n.enum  stringified numeric enum",
    ]
    assert "inlined R" not in out  # lossless changes are counted, not listed
    assert "1 tool still incompatible after transform:" in out
    assert "  tree\n    REC001 $.properties.tree  recursive schema" in out
    assert "broken.json" not in out  # the CLI prints unreadable sources, once, itself


def test_transform_summary_mentions_renames_and_fits() -> None:
    renamed = _result(
        "read.files",
        (),
        (Change("NAM001", (), "lossless", "renamed", "tool"),),
        transformed_name="read_files",
    )
    out = _summary(Report("gemini", (renamed,)), width=40)
    assert "renamed 1 tool: read.files -> read_files" in out
    assert all(cell_len(line) <= 40 for line in out.splitlines())
    assert "lossy" not in out


def test_long_unfixable_list_is_capped_unless_verbose() -> None:
    stuck = tuple(_result(f"t{i}", (NOFIX,), (), (NOFIX,)) for i in range(20))
    out = _joined(_render(Report("gemini", stuck), width=200))
    assert "20 tools stay incompatible after transform: t0, t1" in out
    assert "t7, and 12 more" in out and "t8," not in out
    verbose = _joined(_render(Report("gemini", stuck), width=200, verbose=True))
    assert "t18, t19" in verbose


def test_explicit_color_beats_no_color_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    buf = io.StringIO()
    render_check(_report(), make_console(file=buf, width=80, color=True))
    assert "\x1b[31m" in buf.getvalue() or "\x1b[1;31m" in buf.getvalue()  # red survives


@pytest.mark.parametrize("width", [80, 120])
def test_transform_summary_of_long_tool_names_stays_readable(corpus_dir: Path,
                                                             width: int) -> None:
    """The corpus as one request for anthropic: 100 lossy changes, tool names up to 43
    characters, renamed to up to 80. Each change's words and JSONPath are printed whole
    (none is wider than the room a line leaves), each tool heads its own changes, and no
    line is wider than the terminal."""
    files = sorted(p.name for p in corpus_dir.glob("*.json"))
    args = ["-p", "anthropic-strict", "--request", "all", *files]
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": str(width)}
    env.pop("FORCE_COLOR", None)

    def cli(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "schema_compat", "transform", *more],
                              capture_output=True, text=True, cwd=corpus_dir, env=env,
                              check=False)

    report = json.loads(cli("--json", *args).stdout)
    lossy = {t["name"]: [c for c in t["transforms_applied"] if c["safety"] == "lossy"]
             for t in report["tools"]}
    lossy = {name: changes for name, changes in lossy.items() if changes}
    assert sum(map(len, lossy.values())) >= 50
    proc = cli(*args, "--to", "anthropic", "-o", os.devnull)
    lines = proc.stderr.splitlines()
    assert all(cell_len(line) <= width for line in lines)
    section = lines[next(k for k, ln in enumerate(lines) if ln.startswith("lossy changes")):]
    assert {f"  {name}" for name in lossy} <= set(section)  # each name heads its changes
    tokens = {word for line in section for word in line.split()}
    room = width - 30
    for changes in lossy.values():
        for change in changes:
            where = "(tool)" if change["scope"] == "tool" else change["path"]
            words = [where, *change["description"].split()]
            assert [w for w in words if cell_len(w) <= room and w not in tokens] == []


_TAG = re.compile(r"\[(?:lossless|hinted|lossy|no fix|not applied)[^\]\n]*\]")
_TAG_START = re.compile(r"\[(?:lossless|hinted|lossy|no|not applied)\b")


def _mixed_report() -> Report:
    """The example's report, its source named as the CLI names it from the repository."""
    import contextlib

    from schema_compat.api import check, load_tools

    with contextlib.chdir(Path(__file__).parent.parent):
        tools, errors = load_tools("examples/mixed.json")
    assert not errors
    return check(tools)


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("color", [False, True])
def test_a_safety_tag_never_splits_across_lines(width: int, color: bool) -> None:
    """Issue 28 #20: at 80 and 120 columns `[lossless:` ended one line and `equal, kept]`
    began the next (9 times in the example). Every tag opened on a line closes on it, on
    a rich console (with and without colour) and through the plain writer alike."""
    buf = io.StringIO()
    render_check(_mixed_report(), make_console(file=buf, width=width, color=color),
                 rerun=Rerun(["examples/mixed.json"], ["examples/mixed.json"]))
    rich_out = ANSI.sub("", re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue()))
    plain_out = cli_in_process("check", "examples/mixed.json", columns=width).stdout
    for out in (rich_out, plain_out):
        lines = out.splitlines()
        opened = sum(len(_TAG_START.findall(line)) for line in lines)
        whole = sum(len(_TAG.findall(line)) for line in lines)
        assert opened == whole == 49, out  # one tag per finding, each on one line
        assert max(cell_len(line) for line in lines) <= width
        assert "\u00a0" not in out  # the glue is printed as a space
    assert rich_out == plain_out


def test_a_long_source_never_parts_a_tool_from_its_status() -> None:
    """Issue 28 #20: a long source pushed the status to a line of its own. The status and
    what transform can do come right after the name, together; the source after them."""
    long = "servers/" + "/".join(["a-rather-long-directory-name"] * 4) + "/tools.json"
    result = _result("read_files", (REF,),
                     (Change("REF001", ("properties",), "lossless", "inlined"),))
    result = result._replace(tool=ToolDef("read_files", SCHEMA, None, long, 0))
    for width in (60, 80, 120):
        first = _render(Report("gemini", (result,)), width=width).splitlines()[0]
        assert first.startswith("read_files  INCOMPATIBLE  fixable (lossless)"), first
