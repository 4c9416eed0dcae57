"""The `breaking` report: text for people, JSON for agents, SARIF, GitHub annotations and
markdown for CI and pull requests.

Breaking tools come first (removed ones among them), then the compatible ones that drifted,
then a line for the added tools and a count of the unchanged. Every text a server gave
(names, descriptions, examples) is escaped for the terminal, markdown and annotations as
the check report's is; JSON and SARIF keep it as it is.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..paths import jsonpath, pointer
from .styled import Styled, printable

if TYPE_CHECKING:
    from ..evolution.tools import ToolChange, VersionFinding
    from .text import Output

REPORT_VERSION = 1
_ORDER = {"removed": 0, "breaking": 1, "compatible": 2, "added": 3, "unchanged": 4}
_STATUS_STYLE = {"removed": "bold red", "breaking": "bold red", "compatible": "yellow",
                 "added": "green", "unchanged": "dim"}
_LEVEL_STYLE = {"breaking": "bold red", "possibly": "red", "warning": "yellow",
                "info": "cyan"}


def level(finding: VersionFinding) -> str:
    """breaking, possibly (breaking), warning or info."""
    if finding.breaking:
        return "breaking" if finding.certain else "possibly"
    return finding.check.level


def summary(changes: Sequence[ToolChange]) -> dict[str, Any]:
    statuses: Counter[str] = Counter(c.status for c in changes)
    levels = Counter(level(f) for c in changes for f in c.findings)
    return {"tools_old": sum(c.old is not None for c in changes),
            "tools_new": sum(c.new is not None for c in changes),
            **{s: statuses.get(s, 0) for s in _ORDER},
            "findings": {k: levels.get(k, 0) for k in ("breaking", "possibly", "warning",
                                                       "info")}}


def _sorted(changes: Sequence[ToolChange]) -> list[ToolChange]:
    return sorted(changes, key=lambda c: _ORDER[c.status])


def _path(finding: VersionFinding) -> tuple[str | int, ...]:
    """The node a reader looks at: in the old schema for input, the new one's for output;
    the other schema's where this one has no such node (a property only the new version
    lists stands at its object in the old)."""
    first, second = (finding.old_path, finding.new_path) if finding.direction != "output" \
        else (finding.new_path, finding.old_path)
    if first is None or (second is not None and second[:len(first)] == first
                         and len(second) > len(first) and "properties" in second[len(first):]):
        return second or ()
    return first


def _where(finding: VersionFinding) -> str:
    """The JSONPath shown beside a finding; none for the tool's own fields."""
    path = _path(finding)
    return jsonpath(path) if path and finding.direction != "tool" else ""


# --- JSON ----------------------------------------------------------------------------------

def finding_to_dict(finding: VersionFinding) -> dict[str, Any]:
    from ..evolution.document import NOTHING

    path = _path(finding)
    out: dict[str, Any] = {
        "code": finding.check.code, "name": finding.check.name,
        "level": finding.check.level, "direction": finding.direction,
        "breaking": finding.breaking, "certain": finding.certain,
        "path": jsonpath(path), "pointer": pointer(path),
        "old_path": None if finding.old_path is None else jsonpath(finding.old_path),
        "new_path": None if finding.new_path is None else jsonpath(finding.new_path),
        "message": finding.message}
    if finding.example is not NOTHING:
        out["example"] = finding.example
    if finding.reason:
        out["reason"] = finding.reason
    if finding.old is not NOTHING or finding.new is not NOTHING:
        out["old"] = None if finding.old is NOTHING else finding.old
        out["new"] = None if finding.new is NOTHING else finding.new
    return out


def to_dict(changes: Sequence[ToolChange], old_label: str, new_label: str) -> dict[str, Any]:
    return {"version": REPORT_VERSION, "old": old_label, "new": new_label,
            "summary": summary(changes),
            "tools": [{"name": c.name, "status": c.status,
                       "findings": [finding_to_dict(f) for f in c.findings]}
                      for c in _sorted(changes)]}


# --- text ------------------------------------------------------------------------------------

def render_text(changes: Sequence[ToolChange], old_label: str, new_label: str,
                console: Output) -> None:
    from .text import print_hanging, print_line

    for change in _sorted(changes):
        if change.status in ("added", "unchanged") or not change.findings:
            continue
        head = Styled(printable(change.name), "bold")
        head.append("  ").append(change.status.upper() if change.status != "compatible"
                                 else "compatible", _STATUS_STYLE[change.status])
        print_line(console, head)
        for finding in sorted(change.findings, key=lambda f: (not f.breaking, f.certain is False,
                                                               f.check.code)):
            tag = level(finding)
            lead = Styled("  ")
            lead.append(finding.check.code, "bold").append(" ")
            lead.append("possibly breaking" if tag == "possibly" else tag, _LEVEL_STYLE[tag])
            lead.append(" ")
            body = Styled()
            where = _where(finding)
            if where:
                body.append(printable(where), "dim").append("  ")
            body.append(printable(finding.message))
            print_hanging(console, lead, body)
            for line in _details(finding):
                print_hanging(console, Styled("      "), line)
    print_line(console, _summary_line(changes, old_label, new_label))


def _details(finding: VersionFinding) -> list[Styled]:
    from ..evolution.document import NOTHING

    out: list[Styled] = []
    if finding.example is not NOTHING:
        what = "accepted before, refused now" if finding.direction == "input" else \
            "allowed now, not before"
        out.append(Styled(f"e.g. {_json(finding.example)}  ({what})", "dim"))
    if finding.reason and not finding.certain:
        out.append(Styled(f"why not certain: {printable(finding.reason)}", "dim"))
    if finding.check.code in ("EVO301", "EVO303"):
        for sign, text, style in (("-", finding.old, "red"), ("+", finding.new, "green")):
            if isinstance(text, str):
                out.append(Styled(f"{sign} {printable(_cut(text))}", style))
    return out


def _summary_line(changes: Sequence[ToolChange], old_label: str, new_label: str) -> Styled:
    s = summary(changes)
    broken = s["breaking"] + s["removed"]
    line = Styled(f"breaking: {printable(old_label)} -> {printable(new_label)}: ")
    if broken:
        line.append(f"{broken} of {s['tools_old']} tools break callers", "bold red")
        if s["removed"]:
            line.append(f" ({s['removed']} removed)")
    else:
        line.append(f"no tool of {s['tools_old']} breaks callers", "green")
    line.append(f"; {s['compatible']} compatible, {s['unchanged']} unchanged, "
                f"{s['added']} added")
    found = s["findings"]
    if found["possibly"]:
        line.append(f"; {found['possibly']} possibly breaking (not decided, see why)", "red")
    added = [c.name for c in changes if c.status == "added"]
    if added:
        shown = ", ".join(printable(n) for n in added[:8])
        line.append(f"\nadded: {shown}" + (f" and {len(added) - 8} more" if len(added) > 8
                                           else ""), "green")
    return line


def _json(value: Any, most: int = 200) -> str:
    return printable(_cut(json.dumps(value, ensure_ascii=False, sort_keys=True), most))


def _cut(text: str, most: int = 300) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


# --- markdown --------------------------------------------------------------------------------

def render_markdown(changes: Sequence[ToolChange], old_label: str, new_label: str) -> str:
    s = summary(changes)
    lines = [f"## Tool changes: {_md(old_label)} → {_md(new_label)}", "",
             "| breaking | removed | compatible | unchanged | added | possibly breaking |",
             "|---:|---:|---:|---:|---:|---:|",
             f"| {s['breaking']} | {s['removed']} | {s['compatible']} | {s['unchanged']} | "
             f"{s['added']} | {s['findings']['possibly']} |", ""]
    for change in _sorted(changes):
        if change.status in ("unchanged",) or not change.findings:
            continue
        lines.append(f"### `{_md(change.name)}`: {change.status}")
        lines.append("")
        for f in change.findings:
            where = _where(f)
            text = f"- **{f.check.code}** {level(f)}: {_md(f.message)}"
            if where:
                text += f" (`{_md(where)}`)"
            lines.append(text)
            from ..evolution.document import NOTHING

            if f.example is not NOTHING:
                lines.append(f"  - example: `{_md(_json(f.example))}`")
            if f.reason and not f.certain:
                lines.append(f"  - not decided: {_md(f.reason)}")
            if f.check.code in ("EVO301", "EVO303") and isinstance(f.old, str) \
                    and isinstance(f.new, str):
                lines.append(f"  - was: {_md(_cut(f.old))}")
                lines.append(f"  - now: {_md(_cut(f.new))}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return printable(text).replace("|", "\\|").replace("`", "'").replace("<", "&lt;")


# --- GitHub annotations and SARIF ----------------------------------------------------------------

_GITHUB = {"breaking": "error", "possibly": "error", "warning": "warning", "info": "notice"}
_SARIF = {"breaking": "error", "possibly": "error", "warning": "warning", "info": "note"}


def render_github(changes: Sequence[ToolChange], new_label: str) -> str:
    from .github import annotation

    read: dict[str, tuple[str, ...]] = {}
    lines = []
    for change in _sorted(changes):
        for f in change.findings:
            where = _where(f)
            message = f"{change.name}{' at ' + where if where else ''}: {f.message}"
            lines.append(annotation(_GITHUB[level(f)], new_label, change.name,
                                    f"{f.check.code} {f.check.name}", message, read))
    s = summary(changes)
    lines.append(f"schema-compat breaking: {s['breaking'] + s['removed']} tools break callers, "
                 f"{s['findings']['possibly']} possibly breaking findings")
    return "\n".join(lines) + "\n"


def render_sarif(changes: Sequence[ToolChange], new_label: str) -> str:
    from ..evolution.checks import CHECKS
    from .sarif import location, sarif_run, sarif_text

    read: dict[str, tuple[str, ...]] = {}
    rules = [{"id": c.code, "name": c.name, "shortDescription": {"text": c.summary},
              "fullDescription": {"text": c.why},
              "defaultConfiguration": {"level": _SARIF[c.level]}} for c in CHECKS]
    index = {c.code: i for i, c in enumerate(CHECKS)}
    results = []
    for change in _sorted(changes):
        for f in change.findings:
            where = _where(f)
            logical = {"name": change.name, "fullyQualifiedName": f"{change.name}{where[1:]}"
                       if where else change.name, "kind": "function"}
            results.append({"ruleId": f.check.code, "ruleIndex": index[f.check.code],
                            "level": _SARIF[level(f)],
                            "message": {"text": f"{change.name}: {f.message}"},
                            "locations": [location(logical, new_label, change.name, read)],
                            "properties": finding_to_dict(f)})
    return sarif_text([sarif_run("breaking", rules, results)])
