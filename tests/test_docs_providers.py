"""docs/providers.md is written from the profiles and facts.tsv, and current; every fact a
profile or rule page cites is on it."""

from __future__ import annotations

import re
from pathlib import Path

from schema_compat.profiles import PROFILES
from schema_compat.report.provider_docs import GROUPS, facts, generate

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_docs_providers_is_generated_and_current() -> None:
    assert (REPO_ROOT / "docs" / "providers.md").read_text("utf-8") == generate(), \
        "docs/providers.md is stale: make docs"


def test_each_fact_is_one_row_of_a_known_group_with_a_status() -> None:
    rows = facts()
    ids = [row[0] for row in rows]
    assert len(ids) == len(set(ids))
    for row in rows:
        assert len(row) == 4 and all(row), row
        assert row[0].rsplit("-", 1)[0] in GROUPS, row[0]
        assert row[1][0] in "DOU", row


def test_each_profile_section_says_its_rules_limits_and_facts() -> None:
    page = generate()
    for p in PROFILES.values():
        section = page.split(f"\n## {p.name}\n", 1)[1].split("\n## ", 1)[0]
        assert sorted(re.findall(r"\(rules/(\w+)\.md\)", section)) == sorted(p.rules), p.name
        assert p.name_pattern in section
        if p.max_tools:
            assert f"At most {p.max_tools} tools" in section, p.name
        assert p.facts and set(p.facts) <= set(GROUPS), p.name
        for group in p.facts:
            assert f"(#facts-{group.lower()})" in section


def test_every_fact_id_cited_in_the_code_is_on_the_page() -> None:
    """Profiles and rules name facts by ID (GEM-18, XAI-01) in sources and messages."""
    on_page = {row[0] for row in facts()}
    cited: set[str] = set()
    for path in (REPO_ROOT / "schema_compat").rglob("*.py"):
        cited |= set(re.findall(rf"\b(?:{'|'.join(GROUPS)})-\d\d\b", path.read_text("utf-8")))
    assert cited and cited <= on_page, sorted(cited - on_page)
