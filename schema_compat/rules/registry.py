"""Every rule by code. Profiles name codes; the engine looks them up here."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from . import annotations as annotation_rules
from . import (
    clients,
    constraints,
    limits,
    naming,
    objects,
    refs,
    root,
    types,
    unions,
    values,
)
from .base import Rule

if TYPE_CHECKING:
    from ..profiles.base import Profile

# A rule's code tells its file: each family (the code's letters) has one module, holding
# its rules' detectors and fixes, named after the rules (tests/test_rule_files.py).
FAMILIES: dict[str, ModuleType] = {
    "ANN": annotation_rules, "CNV": clients, "CON": constraints, "LIM": limits,
    "NAM": naming, "OBJ": objects, "REF": refs, "ROOT": root, "TYP": types, "UNI": unions,
    "VAL": values,
}
ALL_RULES: tuple[Rule, ...] = tuple(
    rule for module in FAMILIES.values() for rule in module.RULES)
RULES: dict[str, Rule] = {r.code: r for r in ALL_RULES}
assert len(RULES) == len(ALL_RULES), "duplicate rule code"


def get(code: str) -> Rule | None:
    return RULES.get(code.upper())


def by_name_or_code(text: str) -> Rule | None:
    rule = get(text)
    if rule:
        return rule
    return next((r for r in ALL_RULES if r.name == text.lower()), None)


@cache
def _claims(codes: tuple[str, ...]) -> frozenset[str]:
    out: set[str] = set()
    for code in codes:
        out |= RULES[code].claims
    return frozenset(out)


def claimed_keywords(profile: Profile) -> frozenset[str]:
    """Keywords some other rule of this profile handles (even if deselected this run)."""
    return _claims(profile.rules)


def _matches(code: str, patterns: list[str]) -> bool:
    """Whether a ruff-style prefix (`REF`, `UNI00`, `CON001`) or a rule name picks `code`."""
    return any(code.startswith(p.upper()) or RULES[code].name == p.lower() for p in patterns)


def select_codes(profile: Profile, select: list[str] | None, ignore: list[str] | None
                 ) -> tuple[str, ...]:
    """Profile rules filtered by `--select` and `--ignore` patterns (`_matches`)."""
    codes = profile.rules
    if select:
        codes = tuple(c for c in codes if _matches(c, select))
    if ignore:
        codes = tuple(c for c in codes if not _matches(c, ignore))
    return codes


def unknown_patterns(patterns: list[str]) -> list[str]:
    return [p for p in patterns if not any(_matches(c, [p]) for c in RULES)]
