"""Every rule is documented with a failing and a passing case, both run for real, and
`docs/rules/` holds exactly what `make docs` generates from the registry."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from schema_compat.docs import write_pages
from schema_compat.engine import run
from schema_compat.mcp_tool import tooldefs
from schema_compat.model import ToolDef, ToolResult
from schema_compat.profiles import PROFILES
from schema_compat.report.rule_docs import (
    failing_case,
    generate,
    location,
    passing_case,
)
from schema_compat.report.rules_text import render_rule
from schema_compat.rules.base import Rule
from schema_compat.rules.registry import ALL_RULES, FAMILIES, RULES

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs" / "rules"


def _profile(rule: Rule) -> str:
    return rule.docs.profile or next(p.name for p in PROFILES.values() if rule.code in p.rules)


def _run(rule: Rule, case: Any) -> list[ToolResult]:
    tools = tooldefs(case["tools"]) if rule.scope == "tool" else [ToolDef("example", case)]
    return run(tools, _profile(rule))


def _codes(results: list[ToolResult]) -> set[str]:
    return {f.code for r in results for f in r.findings}


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_has_docs_and_both_cases(rule: Rule) -> None:
    assert rule.docs.what.strip() and rule.docs.error.strip() and rule.docs.fix.strip()
    assert failing_case(rule) is not None, f"{rule.code} has no failing case (docs.before)"
    assert passing_case(rule) is not None, f"{rule.code} has no passing case (after/passing)"
    if rule.scope == "tool":
        assert isinstance(failing_case(rule), dict) and "tools" in failing_case(rule)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_failing_case_is_flagged_and_passing_case_is_not(rule: Rule) -> None:
    assert rule.code in _codes(_run(rule, failing_case(rule)))
    assert rule.code not in _codes(_run(rule, passing_case(rule)))


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.scope == "tool" and r.docs.after],
                         ids=lambda r: r.code)
def test_tool_rule_fix_gives_the_documented_names(rule: Rule) -> None:
    results = _run(rule, rule.docs.before)
    assert [r.transformed_name for r in results] == [t["name"] for t in rule.docs.after["tools"]]


def test_docs_rules_is_generated_and_current() -> None:
    pages = generate(PROFILES.values(), ALL_RULES)
    on_disk = {p.name for p in DOCS.glob("*.md")}
    assert on_disk == set(pages), "run `make docs`"
    for name, text in pages.items():
        assert (DOCS / name).read_text("utf-8") == text, f"docs/rules/{name} is stale: make docs"
    assert len(pages) == len(ALL_RULES) + 1


def test_writing_the_pages_removes_stale_ones(tmp_path: Path) -> None:
    (tmp_path / "OLD001.md").write_text("gone")
    (tmp_path / "notes.txt").write_text("kept")
    pages = generate(PROFILES.values(), ALL_RULES)
    write_pages(str(tmp_path), pages)
    assert not (tmp_path / "OLD001.md").exists()
    assert (tmp_path / "notes.txt").exists()
    assert sorted(p.name for p in tmp_path.glob("*.md")) == sorted(pages)


def test_page_content() -> None:
    page = (DOCS / "LIM001.md").read_text("utf-8")
    assert page.startswith("# LIM001 `too-many-tools`\n")
    assert "The examples are for the `anthropic-strict` profile." in page
    assert "… 17 more …" in page  # 21 tools, shortened
    ref = (DOCS / "REF001.md").read_text("utf-8")
    assert "`schema-compat transform` turns it into:" in ref
    assert "[REF001](REF001.md)" in (DOCS / "README.md").read_text("utf-8")


def test_pages_say_which_gemini_generation_a_finding_holds_for() -> None:
    """docs/providers.md GEN: Vertex's lone-`anyOf` rule is Gemini 3's (GEN-02), an empty
    `enum` is refused by Gemini 3 only (GEN-01); a rule of the Gemini profiles otherwise
    holds for every generation the profile describes, and pages of rules no Gemini profile
    uses say nothing of generations."""
    uni007 = (DOCS / "UNI007.md").read_text("utf-8")
    assert "- Generations: `vertex`: Gemini 3 (GEN-02); not reported on 2.x\n" in uni007
    val002 = (DOCS / "VAL002.md").read_text("utf-8")
    assert "`gemini`: an empty `enum` (`format: enum`) is refused by Gemini 3" in val002
    ref007 = (DOCS / "REF007.md").read_text("utf-8")
    assert "`gemini-json`: Gemini API; every model since 2025-11" in ref007
    assert "Generations" not in (DOCS / "OBJ009.md").read_text("utf-8")  # strict modes only
    for profile in PROFILES.values():
        for code in profile.generations:
            assert code in profile.rules, (profile.name, code)


def test_placeholders_survive_markdown() -> None:
    """`<name>` in a provider's message would vanish on GitHub as an unknown HTML tag."""
    page = (DOCS / "NAM002.md").read_text("utf-8")
    assert "Duplicate function declaration found: &lt;name&gt;" in page
    assert "`a/b`" in page  # code spans untouched


_WHERE = re.compile(r"^- Code: \[`([^`]+)`\]\(\.\./\.\./\1\): (.+)\n- Cases: \[`([^`]+)`\]"
                    r"\(\.\./\.\./\3\)$", re.M)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_page_names_where_the_rule_lives(rule: Rule) -> None:
    """From a rule's page to its family's module, the functions there named after it, and
    its cases file: each named on the page exists (the links resolve: test_docs_links)."""
    page = (DOCS / f"{rule.code}.md").read_text("utf-8")
    [(module_path, functions, cases)] = _WHERE.findall(page)
    module = FAMILIES[rule.family]
    assert module_path == module.__name__.replace(".", "/") + ".py"
    assert (REPO / module_path).is_file() and (REPO / cases).is_file()
    assert cases == f"tests/rules/{rule.code}.yaml"
    names = re.findall(r"`(\w+)`", functions)
    assert names[0] == rule.detect.__name__ and getattr(module, names[0]) is rule.detect
    if rule.fix is None:
        assert names == [names[0]]
    else:
        [fix] = names[1:]
        assert getattr(module, fix) is rule.fix


def test_rule_command_names_the_module_and_cases_in_one_line() -> None:
    console = Console(record=True, width=80, color_system=None)
    render_rule(RULES["UNI008"], console, PROFILES.values())
    lines = console.export_text().splitlines()
    assert "Code: schema_compat/rules/unions.py    Cases: tests/rules/UNI008.yaml" in lines
    longest = max((r for r in ALL_RULES), key=lambda r: len(location(r).module))
    console = Console(record=True, width=80, color_system=None)
    render_rule(longest, console, PROFILES.values())
    [line] = [x for x in console.export_text().splitlines() if x.startswith("Code: ")]
    assert len(line) <= 80 and line.endswith(f"tests/rules/{longest.code}.yaml")
