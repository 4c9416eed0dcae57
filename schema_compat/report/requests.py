"""The requests of a report: each request-level limit with its use against its limit, the
tools that push it over, names held by several tools, and the planner's decisions.

Stdlib only: the JSON report imports this, and it must not import rich.
"""

from __future__ import annotations

from typing import Any

from ..model import RequestInfo
from .styled import Styled, plural, printable

_SHOWN = 5  # tools named per limit over, in the text report


def requests_to_dict(requests: tuple[RequestInfo, ...]) -> list[dict[str, Any]]:
    return [{
        "sources": list(r.sources),
        "limits": [{"key": lim.key, "label": lim.label, "used": lim.used, "limit": lim.limit,
                    "over": lim.over, "source": lim.source, "over_by": list(lim.over_by)}
                   for lim in r.limits],
        "clashes": list(r.clashes),
        "name_prefix": r.name_prefix,
        "decisions": [{"source": d.source, "tool": d.tool, "kind": d.kind,
                       "reason": d.reason} for d in r.decisions],
    } for r in requests]


def request_lines(requests: tuple[RequestInfo, ...]) -> list[tuple[str, Styled]]:
    """`request (3 sources): tools 137/128 (over by 9: a/x, ...), strict tools 20/20`, and
    the lines under it; each line as the indent its wrapped lines keep, and its text."""
    lines: list[tuple[str, Styled]] = []
    for r in requests:
        if not r.limits and not r.clashes and not r.decisions:
            continue
        line = Styled(f"request ({plural(len(r.sources), 'source')}): ", "bold")
        for i, lim in enumerate(r.limits):
            if i:
                line.append(", ")
            line.append(lim.text(), "bold red" if lim.over else "green")
        if r.clashes:
            line.append(f"; {plural(len(r.clashes), 'name')} held "
                        f"by more than one tool: {', '.join(map(printable, r.clashes[:_SHOWN]))}"
                        + (", …" if len(r.clashes) > _SHOWN else ""))
        lines.append(("", line))
        for lim in r.limits:
            if lim.over and lim.over_by:
                shown = ", ".join(map(printable, lim.over_by[:_SHOWN]))
                more = len(lim.over_by) - _SHOWN
                lines.append(("  ", Styled(
                    f"{lim.label} over the limit ({printable(lim.source)}) from: {shown}"
                    + (f" and {more} more" if more > 0 else ""), "red")))
        # each name once: two tools of one name both renamed are one name the provider refuses
        renamed = list(dict.fromkeys(d.tool for d in r.decisions if d.kind == "renamed"))
        if renamed:
            lines.append(("  ", Styled(
                f"{plural(len(renamed), 'name')} the provider refuses "
                "or shares: " + ", ".join(printable(n) for n in renamed[:_SHOWN])
                + (f" and {len(renamed) - _SHOWN} more" if len(renamed) > _SHOWN else ""),
                "yellow")))
        non_strict = sum(1 for d in r.decisions if d.kind == "non-strict")
        strict = [d.tool for d in r.decisions if d.kind == "strict"]
        if strict or non_strict:
            lines.append(("  ", Styled(f"{len(strict)} sent strict, {non_strict} without "
                                       "`strict` (--json gives each decision with its reason)",
                                       "dim")))
        if strict:
            lines.append(("  ", Styled(f"strict: {', '.join(map(printable, strict))}", "dim")))
    return lines
