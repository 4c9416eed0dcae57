"""A pull-request comment (`check --format markdown`).

A summary table first (what a reviewer reads), then the compatibility matrix when several
providers were checked, then each incompatible or flagged tool's findings folded in a
`<details>` block so a large server's comment stays short. GitHub-flavoured Markdown;
stdlib only. User data (tool names, messages, paths) is escaped so it cannot break a table
or inject markup.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..model import SEVERITIES, Report, ToolResult
from ..paths import jsonpath
from .matrix import CELLS, matrix_to_dict, short_sources
from .styled import plural, printable

_CELL = {"compatible": "✅ compatible", "fixable": "🔧 fixable",
         "fixable-lossy": "⚠️ lossy fix", "incompatible": "❌ incompatible"}
_MAX_FINDINGS = 50  # per tool: a comment has a size limit; the rest is counted
# GitHub refuses comments over 65,536 characters: tool sections stop short of that.
MAX_CHARS = 60_000


def _cell(text: str) -> str:
    """Table-cell safe: no pipes, no control characters (shown as escapes), no HTML."""
    return html.escape(printable(text), quote=False).replace("|", "\\|")


def _code(text: str) -> str:
    ticks = "``" if "`" in text else "`"
    pad = " " if ticks == "``" else ""
    return f"{ticks}{pad}{_cell(text)}{pad}{ticks}"


def _summary_rows(report: Report) -> list[str]:
    results = report.results
    findings = [f for r in results for f in r.findings]
    counts = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES}
    bad = sum(1 for r in results if r.status == "INCOMPATIBLE")
    unfixable = sum(1 for r in results if r.fix_status == "unfixable")
    return [f"| `{report.provider}` | {len(results)} | {len(results) - bad} | {bad} | "
            f"{unfixable} | {counts['error']} | {counts['warning']} | {counts['info']} |"]


def _tool_section(provider: str, result: ToolResult, several: bool,
                  sources: dict[str, str] | None = None) -> list[str]:
    label = f"{result.status.lower()}, fix: {result.fix_status}"
    head = f"<b>{_cell(result.tool.name)}</b>"
    if sources:
        head += f" ({_cell(sources[result.tool.source])})"
    if several:
        head += f" · {_cell(provider)}"
    lines = ["<details>", f"<summary>{head} — {label}, "
             f"{plural(len(result.findings), 'finding')}</summary>", "",
             "| severity | rule | where | message | fix |", "|---|---|---|---|---|"]
    for f in result.findings[:_MAX_FINDINGS]:
        where = _code(jsonpath(f.path)) if f.scope == "schema" else "tool"
        lines.append(f"| {f.severity} | `{f.code}` {_cell(f.rule)} | {where} | "
                     f"{_cell(f.message)} | {f.fix_safety or 'none'} |")
    more = len(result.findings) - _MAX_FINDINGS
    if more > 0:
        lines.append(f"\n…and {more} more (run `schema-compat check` locally for all).")
    if result.tool.source:
        lines += ["", f"Source: {_code(result.tool.source)}"]
    lines += ["", "</details>", ""]
    return lines


def _matrix(reports: Sequence[Report], sources: dict[str, str] | None) -> list[str]:
    """The provider matrix; with `sources` (tools from several sources), a source column
    so that one tool name from two servers gives two rows told apart."""
    data = matrix_to_dict({r.provider: list(r.results) for r in reports})
    providers = data["providers"]
    lead = "| tool | source | " if sources else "| tool | "
    lines = ["### Compatibility by provider", "",
             lead + " | ".join(f"`{p}`" for p in providers) + " |",
             "|---|" + ("---|" if sources else "") + "---|" * len(providers)]
    for row in data["rows"]:
        where = f"{_code(sources[row['source']])} | " if sources else ""
        lines.append(f"| {_code(row['tool'])} | {where}"
                     + " | ".join(_CELL[row["cells"][p]] for p in providers) + " |")
    for c in CELLS:
        lines.append(f"| **total {_CELL[c]}** | " + (" | " if sources else "")
                     + " | ".join(str(data["totals"][p][c]) for p in providers) + " |")
    return [*lines, ""]


def render_markdown(reports: Report | Sequence[Report]) -> str:
    many = [reports] if isinstance(reports, Report) else list(reports)
    several = len(many) > 1
    findings = sum(len(r.findings) for rep in many for r in rep.results)
    bad = sum(1 for rep in many for r in rep.results if r.status == "INCOMPATIBLE")
    verdict = ("✅ every tool is accepted as published" if not findings else
               f"❌ {plural(bad, 'incompatible tool-provider pair')}" if bad
               else "⚠️ accepted, with warnings")
    lines = ["## schema-compat", "", verdict, "",
             "| provider | tools | compatible | incompatible | not fixable | errors | "
             "warnings | info |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for report in many:
        lines += _summary_rows(report)
    lines.append("")
    short = short_sources([r.tool.source for rep in many for r in rep.results])
    sources = short if len(set(short.values())) > 1 else None
    if several:
        lines += _matrix(many, sources)
    flagged = [(rep.provider, r) for rep in many for r in rep.results if r.findings]
    if flagged:
        lines += ["### Findings", ""]
        size = sum(len(ln) + 1 for ln in lines)
        for shown, (provider, result) in enumerate(flagged):
            section = _tool_section(provider, result, several, sources)
            cost = sum(len(ln) + 1 for ln in section)
            if size + cost > MAX_CHARS:
                left = len(flagged) - shown
                lines += [f"…and {plural(left, 'more flagged tool')}, left out "
                          "to keep this comment within GitHub's size limit (run "
                          "`schema-compat check` for all).", ""]
                break
            lines += section
            size += cost
    errors = sorted({e.one_line() for rep in many for e in rep.errors})
    if errors:
        lines += ["### Sources that could not be read", ""]
        lines += [f"- {_cell(e)}" for e in errors] + [""]
    lines.append("<sub>`schema-compat transform` applies every fix; "
                 "`schema-compat rule CODE` explains a rule.</sub>")
    return "\n".join(lines) + "\n"
