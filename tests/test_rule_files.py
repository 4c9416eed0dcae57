"""A rule's code tells its file, and its name tells its functions.

Every rule of family XYZ (the letters of its code) lives in the one module the registry
names for XYZ, and its detector and fix there are `detect_<name>` and `fix_<name>` (the
rule's name with `_` for `-`): a newcomer holding `UNI008 one-of-in-strict` opens
`rules/unions.py` and searches for `detect_one_of_in_strict`. A fix shared by several rules
(the reference rules' one inlining) is bound under each rule's name.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

import schema_compat.rules as rules_package
from schema_compat.rules.base import Rule
from schema_compat.rules.registry import ALL_RULES, FAMILIES, RULES

PACKAGE = "schema_compat.rules"
SHARED_FIXES = Counter(r.fix for r in ALL_RULES if r.fix is not None)


def _snake(rule: Rule) -> str:
    return rule.name.replace("-", "_")


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_a_rule_lives_in_its_familys_module(rule: Rule) -> None:
    module = FAMILIES[rule.family]
    assert any(r is rule for r in module.RULES), f"{rule.code} is not in {module.__name__}"
    assert rule.detect.__module__ == module.__name__
    if rule.fix is not None:
        assert rule.fix.__module__ == module.__name__


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_a_rules_functions_are_named_after_it(rule: Rule) -> None:
    module = FAMILIES[rule.family]
    detect = f"detect_{_snake(rule)}"
    assert rule.detect.__name__ == detect
    assert getattr(module, detect, None) is rule.detect
    fixer = rule.fix
    if fixer is not None:
        fix = f"fix_{_snake(rule)}"
        bound = getattr(module, fix, None) is fixer
        assert bound, f"{module.__name__} has no {fix}"
        if SHARED_FIXES[fixer] == 1:
            assert getattr(fixer, "__name__", None) == fix
    else:
        assert not hasattr(module, f"fix_{_snake(rule)}")


def test_families_are_the_codes_in_use_and_each_module_holds_only_its_own() -> None:
    assert set(FAMILIES) == {r.family for r in ALL_RULES}
    for family, module in FAMILIES.items():
        assert module.__name__.startswith(f"{PACKAGE}.")
        assert module.RULES, f"{module.__name__} holds no rules"
        assert {r.family for r in module.RULES} == {family}
    assert len(set(map(id, FAMILIES.values()))) == len(FAMILIES), "two families, one module"


def test_no_module_outside_the_families_holds_rules() -> None:
    families = {m.__name__ for m in FAMILIES.values()}
    for info in pkgutil.iter_modules(rules_package.__path__):
        name = f"{PACKAGE}.{info.name}"
        if name in families or name == f"{PACKAGE}.registry":
            continue
        module = importlib.import_module(name)
        assert not hasattr(module, "RULES"), f"{name} holds rules but is no family's module"
        stray = [n for n, v in vars(module).items()
                 if n.startswith(("detect_", "fix_")) and getattr(v, "__module__", None) == name]
        assert not stray, f"{name} defines rule functions {stray}"


_ROOT = Path(__file__).resolve().parent.parent


def test_rule_coordination_is_declared() -> None:
    """`ctx.in_force` holds only the codes rules name in `defers_to` and `acts_for`: a code a
    family's module asked about without naming it would read as never in force."""
    for module in FAMILIES.values():
        named = {c for r in module.RULES for c in (*r.defers_to, *r.acts_for)}
        # the source file, not inspect.getsource: the compiled build's modules have none
        source = (_ROOT / (module.__name__.replace(".", "/") + ".py")).read_text("utf-8")
        asked = set(re.findall(r'"([A-Z]+[0-9]{3})"\s+(?:not\s+)?in\s+ctx\.in_force', source))
        assert asked <= named, f"{module.__name__} asks of {asked - named} undeclared"
    for rule in ALL_RULES:
        assert set(rule.defers_to) | set(rule.acts_for) <= set(RULES), rule.code
        assert rule.code not in rule.defers_to, rule.code


def _file(module: ModuleType) -> str:
    return module.__name__.rpartition(".")[2]


@pytest.mark.parametrize("module", [m for _, m in sorted(FAMILIES.items())], ids=_file)
def test_a_family_module_names_no_function_for_a_rule_it_lacks(module: ModuleType) -> None:
    """`detect_x` in a family's file is the detector of rule `x` of that family: a leftover
    from a renamed or moved rule would send a reader to the wrong place. (A fix several
    rules share is also bound under its own name.)"""
    own: list[Rule] = module.RULES
    names = {f"{kind}_{_snake(r)}" for r in own for kind in ("detect", "fix")}
    shared = {r.fix for r in own if r.fix is not None and SHARED_FIXES[r.fix] > 1}
    functions = [n for n, v in vars(module).items()
                 if n.startswith(("detect_", "fix_")) and callable(v)
                 and getattr(v, "__module__", None) == module.__name__
                 and not any(v is f for f in shared)]
    assert sorted(set(functions) - names) == []
