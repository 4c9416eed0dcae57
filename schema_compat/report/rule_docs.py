"""A rule's documentation as Markdown and plain text, built from the registry.

One source for three readers: the pages under `docs/rules/` (`make docs`), the help text
SARIF carries for each rule (GitHub code scanning shows it beside the alert), and the
Markdown PR comment. Stdlib only, so the SARIF and Markdown writers stay light.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..model import safety_of
from ..profiles.base import Profile
from ..rules.base import Rule

_LONG_LIST, _LONG_TEXT = 8, 160


def shorten(value: Any) -> tuple[Any, bool]:
    """Long lists, wide objects and long strings cut for reading; and whether any was.

    Limits are only crossed by big inputs (1,001 enum values, 21 tools): the page shows
    their shape, the tests run them whole.
    """
    cut = False

    def walk(v: Any) -> Any:
        nonlocal cut
        if isinstance(v, list):
            if len(v) > _LONG_LIST:
                cut = True
                return [*(walk(x) for x in v[:3]), f"… {len(v) - 4} more …", walk(v[-1])]
            return [walk(x) for x in v]
        if isinstance(v, dict):
            if len(v) > _LONG_LIST:
                cut = True
                keys = list(v)
                out = {k: walk(v[k]) for k in keys[:3]}
                out["…"] = f"{len(keys) - 4} more like these"
                out[keys[-1]] = walk(v[keys[-1]])
                return out
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, str) and len(v) > _LONG_TEXT:
            cut = True
            return f"{v[:80]}… ({len(v)} characters)"
        return v

    return walk(value), cut


def _json_block(value: Any) -> str:
    short, cut = shorten(value)
    block = "```json\n" + json.dumps(short, indent=2, ensure_ascii=False) + "\n```"
    return block + ("\n\n(Shortened here: `…` stands for the repeated part.)" if cut else "")


def prose(text: str) -> str:
    """Docs text as Markdown: code spans kept, and outside them `<name>` placeholders from
    providers' messages escaped, which GitHub would otherwise drop as unknown HTML tags."""
    parts = text.split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "`".join(parts)


def failing_case(rule: Rule) -> Any:
    """The documented input the rule flags: a schema, or for tool rules an MCP tool list."""
    return rule.docs.before


def passing_case(rule: Rule) -> Any:
    """The documented input the rule accepts: the fixed form, or a separate passing example."""
    return rule.docs.after if rule.docs.after is not None else rule.docs.passing


def effect_lines(rule: Rule) -> list[str]:
    """The fix's effect in words: its usual case, then each case that differs. S is what
    the original schema accepts, S' what the transformed one does (README, "Fix safety")."""
    effect = rule.effect
    if effect is None or rule.safety is None:
        return []
    lines = [f"{rule.safety}: accepts {effect[0]}, told {effect[1]}"]
    lines += [f"{when}: {safety_of(a, t)} (accepts {a}, told {t})"
              for when, a, t in rule.cases]
    return lines


class Location(NamedTuple):
    """Where a rule lives, as repository paths: what a newcomer holding only its code opens.
    The module is the family's (the code's letters, `rules.registry.FAMILIES`), its
    functions are named after the rule (tests/test_rule_files.py), its cases are data."""

    module: str  # schema_compat/rules/unions.py
    detector: str  # detect_one_of_in_strict
    fix: str | None  # fix_one_of_in_strict; None for a rule without a fix
    cases: str  # tests/rules/UNI008.yaml


def location(rule: Rule) -> Location:
    snake = rule.name.replace("-", "_")
    module = rule.detect.__module__.replace(".", "/") + ".py"
    return Location(module, f"detect_{snake}",
                    f"fix_{snake}" if rule.fix is not None else None,
                    f"tests/rules/{rule.code}.yaml")


def _repo_link(path: str) -> str:
    """A link from a page of `docs/rules/` to a file of the repository."""
    return f"[`{path}`](../../{path})"


def rule_help_text(rule: Rule) -> str:
    """Plain text for SARIF `help.text`: what it flags, the provider's words, the fix."""
    parts = [rule.docs.what, f"Provider: {rule.docs.error}", f"Fix: {rule.docs.fix}"]
    if rule.safety:
        parts.append("Fix effect: " + "; ".join(effect_lines(rule)) + ".")
    return "\n\n".join(parts)


def rule_markdown(rule: Rule, profiles: Iterable[Profile]) -> str:
    """The full page: header, severities per profile, docs, failing and passing examples."""
    used = [p for p in profiles if rule.code in p.rules]
    lines = [f"# {rule.code} `{rule.name}`", "", f"> {prose(rule.message)}", ""]
    lines.append(f"- Default severity: **{rule.severity}**")
    applies = "tools (name, description, count)" if rule.scope == "tool" else "schemas"
    lines.append(f"- Applies to: {applies}")
    if used:
        sev = ", ".join(f"`{p.name}` ({p.severity.get(rule.code, rule.severity)})" for p in used)
        lines.append(f"- Profiles: {sev}")
        # which model generation and endpoint a finding holds for (docs/providers.md GEN)
        dated = [f"`{p.name}`: {p.generations.get(rule.code, p.generation)}" for p in used
                 if p.generation]
        if dated:
            lines.append(f"- Generations: {'; '.join(dated)}")
    fix = f"{rule.fix_title} ({rule.safety})" if rule.fix_title and rule.safety else "none"
    lines.append(f"- Fix: {fix}")
    effects = effect_lines(rule)
    if effects:
        lines.append(f"- Effect: {effects[0]}")
        lines += [f"  - {e}" for e in effects[1:]]
    where = location(rule)
    functions = ", ".join(f"`{f}`" for f in (where.detector, where.fix) if f)
    lines += [f"- Code: {_repo_link(where.module)}: {functions}",
              f"- Cases: {_repo_link(where.cases)}"]
    lines += ["", "## What it flags", "", prose(rule.docs.what), "",
              "## What the provider does", "", prose(rule.docs.error), "",
              "## The fix", "", prose(rule.docs.fix), ""]
    failing, passing = failing_case(rule), passing_case(rule)
    what = "tools/list result" if rule.scope == "tool" else "schema"
    if rule.docs.profile:
        lines += [f"The examples are for the `{rule.docs.profile}` profile.", ""]
    if failing is not None:
        lines += ["## Flagged", "", f"This {what} is flagged:", "", _json_block(failing), ""]
    if passing is not None:
        intro = ("`schema-compat transform` turns it into:" if rule.docs.after is not None
                 else f"This {what} passes:")
        lines += ["## Accepted", "", intro, "", _json_block(passing), ""]
    if rule.docs.sources:
        lines += ["## Sources", ""] + [f"- {s}" for s in rule.docs.sources] + [""]
    lines.append("<!-- generated by `make docs` from schema_compat/rules; do not edit -->")
    return "\n".join(lines) + "\n"


def index_markdown(rules: Iterable[Rule]) -> str:
    lines = ["# Rules", "", "Every rule schema-compat applies, one page each. Generated by "
             "`make docs` from the rule registry.", "", "| code | name | severity | fix | "
             "what it flags |", "|---|---|---|---|---|"]
    for r in rules:
        message = prose(r.message).replace("|", "\\|")
        lines.append(f"| [{r.code}]({r.code}.md) | `{r.name}` | {r.severity} | "
                     f"{r.safety or 'none'} | {message} |")
    return "\n".join(lines) + "\n"


def generate(profiles: Iterable[Profile], rules: Iterable[Rule]) -> dict[str, str]:
    """File name -> content for every page of `docs/rules/`, the index included."""
    profiles, rules = list(profiles), sorted(rules, key=lambda r: r.code)
    pages = {f"{r.code}.md": rule_markdown(r, profiles) for r in rules}
    pages["README.md"] = index_markdown(rules)
    return pages
