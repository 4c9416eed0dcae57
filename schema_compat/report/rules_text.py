"""`schema-compat rules`, `rule CODE` and `profiles` in the terminal."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..profiles.base import Profile
from ..rules.base import Rule
from .rule_docs import effect_lines, location

_SEV = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def render_rules_table(rules: Iterable[Rule], console: Console,
                       profile: Profile | None = None) -> None:
    table = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    table.add_column("code", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("fix", no_wrap=True)
    table.add_column("what it flags", overflow="fold")
    for rule in rules:
        sev = profile.severity.get(rule.code, rule.severity) if profile else rule.severity
        fix = rule.safety or "none"
        table.add_row(rule.code, rule.name, Text(sev, style=_SEV[sev]), fix, rule.message)
    console.print(table)


def _example(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def render_rule(rule: Rule, console: Console, profiles: Iterable[Profile]) -> None:
    used = [p.name for p in profiles if rule.code in p.rules]
    console.print(Text(f"{rule.code} {rule.name}", style="bold"))
    console.print(f"Severity: {rule.severity}    Fix: {rule.safety or 'none'}"
                  + (f" ({rule.fix_title})" if rule.fix_title else ""))
    effects = effect_lines(rule)
    if effects:
        console.print(Text(f"Effect: {effects[0]}"))
        for case in effects[1:]:
            console.print(Text(f"  {case}"))
        console.print(Text("  (accepts: equal / narrower / wider / changed, of the arguments "
                           "the schema accepts; told: kept / described / lost, of what the "
                           "model is told)", style="dim"))
    console.print(f"Profiles: {', '.join(used) or 'none'}")
    where = location(rule)
    console.print(Text(f"Code: {where.module}    Cases: {where.cases}"), soft_wrap=True)
    console.print()
    console.print(Text("What it flags", style="bold"))
    console.print(rule.docs.what)
    console.print()
    console.print(Text("What the provider says", style="bold"))
    console.print(Text(rule.docs.error))
    console.print()
    console.print(Text("The fix", style="bold"))
    console.print(rule.docs.fix)
    if rule.docs.before is not None:
        console.print()
        console.print(Text("Example", style="bold"))
        console.print(Text(_example(rule.docs.before)))
        if rule.docs.after is not None:
            console.print(Text("becomes", style="italic"))
            console.print(Text(_example(rule.docs.after)))
    if rule.docs.sources:
        console.print()
        console.print(Text("Sources: " + "; ".join(_plain_link(s) for s in rule.docs.sources),
                           style="dim"))


def _plain_link(source: str) -> str:
    """A rule page's Markdown link to the provider facts (`[GEM-13](../providers.md#gem-13)`)
    as a terminal shows it: `GEM-13 (docs/providers.md#gem-13)`."""
    import re

    return re.sub(r"\[([^\]]+)\]\(\.\./([^)]+)\)", r"\1 (docs/\2)", source)


def render_profiles(profiles: Iterable[Profile], console: Console) -> None:
    for p in profiles:
        console.print(Text(f"{p.name}", style="bold") + Text(f"  {p.title}"))
        console.print(f"  target: {p.target}")
        console.print(f"  tool names: {p.name_rule}")
        if p.max_tools:
            console.print(f"  at most {p.max_tools} tools per request")
        if p.max_description:
            console.print(f"  descriptions of at most {p.max_description} characters")
        console.print(f"  rules ({len(p.rules)}): {' '.join(p.rules)}")
        lowered = [c for c, sev in p.severity.items() if sev == "warning" and c in p.rules]
        if lowered:
            console.print(f"  warnings here (undocumented or unverified): {' '.join(lowered)}")
        if p.notes:
            console.print(f"  {p.notes}")
        console.print(Text(f"  sources: {'; '.join(p.sources)}", style="dim"))
        console.print()
