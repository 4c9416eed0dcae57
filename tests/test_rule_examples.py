"""Every rule's documented example, run for real: the failing case is flagged by that rule,
and transform turns it into exactly the documented output, which has no findings left."""

from __future__ import annotations

import pytest

from schema_compat.engine import make_ruleset, run
from schema_compat.model import ToolDef, written_dialect
from schema_compat.profiles import PROFILES
from schema_compat.rules.registry import ALL_RULES

SCHEMA_RULES = [r for r in ALL_RULES if r.scope != "tool"]


def _profile_for(code: str) -> str:
    return next(p.name for p in PROFILES.values() if code in p.rules)


def test_every_rule_is_in_a_profile_and_documented() -> None:
    for rule in ALL_RULES:
        assert any(rule.code in p.rules for p in PROFILES.values()), rule.code
        assert rule.docs.what and rule.docs.error and rule.docs.fix, rule.code
        assert rule.docs.sources, rule.code


@pytest.mark.parametrize("rule", [r for r in SCHEMA_RULES if r.docs.before is not None or
                                  r.code == "TYP009"], ids=lambda r: r.code)
def test_example_is_flagged_by_its_rule(rule) -> None:  # type: ignore[no-untyped-def]
    result = run([ToolDef("example", rule.docs.before)], _profile_for(rule.code))[0]
    assert rule.code in {f.code for f in result.findings}


@pytest.mark.parametrize("rule", [r for r in SCHEMA_RULES if r.docs.after is not None],
                         ids=lambda r: r.code)
def test_example_transforms_to_documented_output(rule) -> None:  # type: ignore[no-untyped-def]
    profile = _profile_for(rule.code)
    result = run([ToolDef("example", rule.docs.before)], profile)[0]
    assert result.transformed_schema == rule.docs.after
    assert [f for f in result.remaining if f.severity == "error"] == []
    assert any(c.code == rule.code for c in result.changes)


@pytest.mark.parametrize("rule", [r for r in SCHEMA_RULES if r.docs.after is not None],
                         ids=lambda r: r.code)
def test_documented_output_passes_the_rule(rule) -> None:  # type: ignore[no-untyped-def]
    plan_profile = _profile_for(rule.code)
    # the output is the provider's, read in its dialect (gemini's `nullable` is OpenAPI's)
    dialect = written_dialect(PROFILES[plan_profile].nullable_keyword)
    result = run([ToolDef("example", rule.docs.after, dialect=dialect)], plan_profile)[0]
    assert rule.code not in {f.code for f in result.findings}
    assert result.changes == ()


def test_select_prefix_and_name() -> None:
    plan = make_ruleset("gemini", ["REF", "nullable-union"], ["REF006"])
    assert plan.codes == frozenset({"REF001", "REF002", "REF003", "REF004", "REF005",
                                    "UNI001"})
