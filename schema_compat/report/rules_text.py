"""`schema-compat rules`, `rule CODE` and `profiles` in the terminal."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..profiles.base import Profile
from ..profiles.clients import Client
from ..rules.base import Rule
from .rule_docs import effect_lines, location
from .styled import Styled
from .text import SEVERITY_STYLE, print_hanging, print_line


def render_rules_table(rules: Iterable[Rule], console: Console,
                       profile: Profile | None = None) -> None:
    table = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    table.add_column("code", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("fix", no_wrap=True)
    table.add_column("what it flags", overflow="fold")
    for rule in sorted(rules, key=lambda r: r.code):
        sev = profile.severity.get(rule.code, rule.severity) if profile else rule.severity
        fix = rule.safety or "none"
        table.add_row(rule.code, rule.name, Text(sev, style=SEVERITY_STYLE[sev]), fix, rule.message)
    console.print(table)


def render_rule(rule: Rule, console: Console, profiles: Iterable[Profile]) -> None:
    used = [p.name for p in profiles if rule.code in p.rules]
    print_line(console, Styled(f"{rule.code} {rule.name}", "bold"))
    _field(console, f"Severity: {rule.severity}    Fix:", f"{rule.safety or 'none'}"
           + (f" ({rule.fix_title})" if rule.fix_title else ""), indent=0)
    effects = effect_lines(rule)
    if effects:
        _field(console, "Effect:", effects[0], indent=0)
        for case in effects[1:]:
            print_hanging(console, Styled("  - "), Styled(case))
        print_hanging(console, Styled("    "), Styled(
            "(accepts: equal / narrower / wider / changed, of the arguments the schema "
            "accepts; told: kept / described / lost, of what the model is told)", "dim"))
    _field(console, "Profiles:", ", ".join(used) or "none", indent=0)
    where = location(rule)
    _field(console, "Code:", f"{where.module}    Cases: {where.cases}", indent=0)
    for title, text in (("What it flags", rule.docs.what),
                        ("What the provider says", rule.docs.error),
                        ("The fix", rule.docs.fix)):
        console.print()
        print_line(console, Styled(title, "bold"))
        print_line(console, Styled(text.strip()))
    if rule.docs.before is not None:
        console.print()
        print_line(console, Styled("Example", "bold"))
        _json_lines(console, rule.docs.before)
        if rule.docs.after is not None:
            print_line(console, Styled("becomes", "italic"))
            _json_lines(console, rule.docs.after)
    if rule.docs.sources:
        console.print()
        _field(console, "Sources:", "; ".join(_plain_link(s) for s in rule.docs.sources),
               indent=0, style="dim")


def _json_lines(console: Console, value: Any) -> None:
    """A JSON example, each line wrapped under its own indentation."""
    for line in json.dumps(value, indent=2, ensure_ascii=False).splitlines():
        body = line.lstrip(" ")
        print_hanging(console, Styled(" " * (len(line) - len(body))), Styled(body))


# Narrower than this beside its label, a field's text goes on the lines under the label.
_MIN_TEXT = 30


def _field(console: Console, label: str, text: str, *, indent: int = 2,
           style: str = "") -> None:
    """`label text`, the text wrapped under itself (never back at column 0), or under the
    label, indented, when the label leaves it too little room."""
    lead = " " * indent + label + " "
    if console.size.width - len(lead) >= _MIN_TEXT:
        print_hanging(console, Styled(lead, style), Styled(text, style))
    else:
        print_hanging(console, Styled(" " * indent), Styled(label, style))
        print_hanging(console, Styled(" " * (indent + 2)), Styled(text, style))


def _plain_link(source: str) -> str:
    """A rule page's Markdown link to the provider facts (`[GEM-13](../providers.md#gem-13)`)
    as a terminal shows it: `GEM-13 (docs/providers.md#gem-13)`."""
    import re

    return re.sub(r"\[([^\]]+)\]\(\.\./([^)]+)\)", r"\1 (docs/\2)", source)


def render_profiles(profiles: Iterable[Profile], console: Console) -> None:
    for p in profiles:
        print_hanging(console, Styled(f"{p.name}  ", "bold"), Styled(p.title))
        _field(console, "target:", p.target)
        _field(console, "tool names:", p.name_rule)
        if p.max_tools:
            _field(console, "at most", f"{p.max_tools} tools per request")
        if p.max_description:
            _field(console, "descriptions of at most", f"{p.max_description} characters")
        _field(console, f"rules ({len(p.rules)}):", " ".join(sorted(p.rules)))
        lowered = sorted(c for c, sev in p.severity.items() if sev == "warning" and c in p.rules)
        if lowered:
            _field(console, "warnings here (undocumented or unverified):", " ".join(lowered))
        if p.notes:
            print_hanging(console, Styled("  "), Styled(p.notes))
        if p.generation:  # docs/providers.md GEN
            _field(console, "models:", p.generation)
        for code, when in sorted(p.generations.items()):
            _field(console, f"{code} applies to:", when)
        _field(console, "sources:", "; ".join(p.sources), style="dim")
        console.print()


def render_clients(clients: Iterable[Client], console: Console) -> None:
    """The MCP clients `--client` names, each limit with its source; a client with none
    documented says so."""
    print_line(console, Styled("MCP clients (--client): their own limits, added to the "
                               "provider's", "bold"))
    console.print()
    for c in clients:
        print_hanging(console, Styled(f"{c.name}  ", "bold"), Styled(c.title))
        limits = []
        if c.max_tools is not None:
            limits.append((f"at most {c.max_tools} tools", c.max_tools_source))
        if c.name_prefix != "none":
            limits.append(("names tools mcp__server__tool" if c.name_prefix == "mcp"
                           else "names tools server_tool", c.name_source))
        if c.max_name is not None:
            limits.append((f"names of at most {c.max_name} characters (with the prefix)",
                           c.name_source))
        if c.forbidden:
            limits.append(("no " + " or ".join(f"`{ch}`" for ch in c.forbidden)
                           + " in a name", c.name_source))
        if c.max_description is not None:
            limits.append((f"cuts descriptions past {c.max_description} characters",
                           c.description_source))
        for text, source in limits:
            _field(console, "-", f"{text} ({source})")
        if not limits:
            _field(console, "-", "no limit of its own documented: only the provider's apply")
        if c.notes:
            print_hanging(console, Styled("  "), Styled(c.notes))
        console.print()
