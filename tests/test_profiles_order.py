"""The order fixes apply in: one canonical order (profiles/order.py), and each profile's
departures from it written down with a reason. A profile lists the rules it enables; the
order is not its own to choose."""

from __future__ import annotations

from collections import Counter

import pytest

from schema_compat.profiles import DEFAULT_PROFILE, PROFILES
from schema_compat.profiles.order import CANONICAL_ORDER, OVERRIDES, PHASES, fix_order
from schema_compat.rules.registry import RULES


def test_every_rule_has_one_place_in_the_canonical_order() -> None:
    assert Counter(CANONICAL_ORDER) == Counter(list(RULES))


def test_each_phase_says_why_it_comes_where_it_does() -> None:
    assert all(phase.rules and len(phase.why) > 40 for phase in PHASES)


def test_document_rules_come_first_and_tool_rules_last() -> None:
    """The engine runs document rules before node rules and tool rules after: the
    canonical order says the same, so it reads as the order things happen in."""
    scopes = [RULES[code].scope for code in CANONICAL_ORDER]
    assert scopes == sorted(scopes, key=["document", "node", "tool"].index)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_a_profiles_order_is_the_canonical_one_but_for_its_written_overrides(name: str
                                                                           ) -> None:
    profile = PROFILES[name]
    overrides = OVERRIDES.get(name, ())
    assert profile.rules == fix_order(profile.rules, overrides)
    canonical = fix_order(profile.rules)
    assert set(canonical) == set(profile.rules)
    if not overrides:
        assert profile.rules == canonical


@pytest.mark.parametrize(("name", "index"), [(name, i) for name, found in OVERRIDES.items()
                                            for i in range(len(found))])
def test_every_override_moves_something_and_says_why(name: str, index: int) -> None:
    profile = PROFILES[name]
    overrides = OVERRIDES[name]
    override = overrides[index]
    assert bool(override.before) != bool(override.after)
    assert len(override.reason) > 40
    assert set(override.rules) & set(profile.rules), "moves no rule this profile enables"
    assert (override.before or override.after) in profile.rules
    without = overrides[:index] + overrides[index + 1:]
    assert fix_order(profile.rules, without) != profile.rules, "changes nothing"


def test_the_default_profile_follows_the_canonical_order() -> None:
    assert DEFAULT_PROFILE not in OVERRIDES
    assert set(OVERRIDES) <= set(PROFILES)


def test_a_rule_without_a_place_is_refused() -> None:
    with pytest.raises(ValueError, match="XYZ999"):
        fix_order(["TYP001", "XYZ999"])
