"""One vocabulary for a change's effect, everywhere it is shown: the safety class is defined
by the effect (`safety_of`), in every rule's declaration, the JSON report (each change and
each finding, against the report's JSON Schema), `rule CODE` and the generated docs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import jsonschema
import pytest

from schema_compat.engine import run
from schema_compat.model import (
    USUAL_EFFECT,
    Accepts,
    Report,
    Told,
    ToolDef,
    effect_of,
    safety_of,
)
from schema_compat.profiles import PROFILES
from schema_compat.report.json import report_json_schema, report_to_dict
from schema_compat.rules.base import NodeContext
from schema_compat.rules.registry import ALL_RULES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_the_classes_are_defined_by_the_effect() -> None:
    assert safety_of("equal", "kept") == safety_of("equal", "described") == "lossless"
    assert safety_of("wider", "described") == safety_of("wider", "kept") == "hinted"
    assert safety_of("wider", "lost") == safety_of("equal", "lost") == "lossy"
    assert safety_of("narrower", "kept") == safety_of("changed", "described") == "lossy"
    for safety, (accepts, told) in USUAL_EFFECT.items():
        assert safety_of(accepts, told) == safety


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.fix is not None],
                         ids=lambda r: r.code)
def test_every_fix_declares_an_effect_its_class_agrees_with(rule: Any) -> None:
    assert rule.safety is not None and rule.effect is not None
    assert safety_of(*rule.effect) == rule.safety
    for when, accepts, told in rule.cases:
        assert when and accepts in get_args(Accepts) and told in get_args(Told)
        assert (accepts, told) != rule.effect, f"{rule.code}: a case that does not differ"
    page = (DOCS / f"{rule.code}.md").read_text()
    assert f"- Effect: {rule.safety}: accepts {rule.effect[0]}, told {rule.effect[1]}" in page


def test_json_report_gives_each_change_and_finding_its_effect() -> None:
    schema = {"type": "object", "properties": {
        "q": {"type": "string", "maxLength": 5}, "n": {"type": "integer"}},
        "required": ["q"]}
    effects: dict[str, Any] = {}
    for profile in ("openai-strict", "anthropic-strict"):
        results = tuple(run([ToolDef("t", schema, "A tool.")], profile))
        report = report_to_dict(Report(profile, results), generated_at="2026-01-01T00:00:00Z")
        jsonschema.validate(report, report_json_schema())
        assert json.loads(json.dumps(report)) == report  # plain JSON
        tool = report["tools"][0]
        effects.update({c["code"]: c["effect"] for c in tool["transforms_applied"]})
        fixes = {i["code"]: i["fix"] for i in tool["issues"] if i["fix"]}
        assert fixes["OBJ008"] == {"title": fixes["OBJ008"]["title"], "safety": "lossy",
                                   "effect": {"accepts": "narrower", "told": "kept"},
                                   "applied": True}
    assert effects["OBJ008"] == {"accepts": "narrower", "told": "kept"}
    assert effects["OBJ009"] == {"accepts": "changed", "told": "described"}
    assert effects["CON007"] == {"accepts": "wider", "told": "described"}


def test_rule_command_prints_the_effect_and_its_cases(run_cli: Any) -> None:
    out = run_cli("rule", "OBJ009").stdout
    assert "Effect: lossy: accepts changed, told described" in out
    assert "accepts narrower, told kept" in " ".join(out.split())  # a case, wrapped maybe


_NOTHING = re.compile(r"^a value that constrains nothing \((.+)\)$")


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if any(_NOTHING.match(c[0])
                                                              for c in r.cases)],
                         ids=lambda r: r.code)
def test_a_value_that_constrains_nothing_is_removed_as_the_docs_say(rule: Any) -> None:
    """Each `keyword: value` a rule's docs name as constraining nothing, removed by the
    rule's own fix on a node holding it alone, has the effect the docs give it."""
    profile = PROFILES[next(p for p in PROFILES if rule.code in PROFILES[p].rules)]
    for when, accepts, told in rule.cases:
        found = _NOTHING.match(when)
        if found is None:
            continue
        for item in found.group(1).split(", "):
            keyword, _, value = item.strip("`").partition(": ")
            fixed = rule.fix({keyword: json.loads(value)}, NodeContext((), profile))
            assert fixed is not None and keyword not in fixed.node, item
            assert [effect_of(e.safety, e.accepts, e.told) for e in fixed.edits] == [
                (accepts, told)], item


def test_unique_items_true_is_not_called_a_value_that_constrains_nothing() -> None:
    """`uniqueItems: true` refuses repeated items: removing it is hinted (wider), and only
    `false` is the value CON003's docs call constraining nothing."""
    [rule] = [r for r in ALL_RULES if r.code == "CON003"]
    assert rule.cases == (
        ("a value that constrains nothing (`uniqueItems: false`)", "equal", "kept"),)
    fixed = rule.fix({"type": "array", "uniqueItems": True},
                     NodeContext((), PROFILES["gemini"]))
    assert fixed is not None
    assert [effect_of(e.safety, e.accepts, e.told) for e in fixed.edits] == [
        ("wider", "described")]
    assert fixed.node == {"type": "array", "description": "Items must be unique."}
