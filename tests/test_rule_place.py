"""What the engine reuses of a check, and what rules promise so that it may.

Node rules read of a node's place only whether it is the root and the keyword holding it
(`NodeContext.path`): the engine reuses what they found on a node for the same node moved by a
fix or copied by the inliner (`Fixed.origins`). Rules with `reads_below=False` read nothing
inside the node's subschemas: the engine reuses what they found on a node whose own part is
unchanged while something below it changed. These tests hold the rules, the inliner and the
engine to that."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_fuzz import SCHEMAS
from test_rule_gates import _corpus_schemas
from test_transform_properties import schemas as ref_schemas

import schema_compat.rules.refs as ref_rules
from schema_compat.engine import make_plan, run_plan
from schema_compat.model import ToolDef
from schema_compat.profiles import PROFILES
from schema_compat.rules.base import Fixed, NodeContext
from schema_compat.rules.registry import RULES
from schema_compat.schema.inliner import inline
from schema_compat.schema.walker import children, iter_nodes_keyed, set_child

PLANS = [make_plan(name) for name in sorted(PROFILES)]
ELSEWHERE: list[tuple[Any, ...]] = [("properties", "x"), ("items", "anyOf", 2, "properties", "y"),
                                    ("$defs", "Other")]


def _hits_elsewhere(schema: Any) -> list[tuple[str, str, Any]]:
    """(profile, rule, path) where a rule finds something else at another path."""
    differ = []
    for plan in PLANS:
        if not plan.subtree_local:  # a rule reading the whole document: no reuse anyway
            continue
        for path, node, keyword in iter_nodes_keyed(schema):
            if not path:
                continue
            here = plan.ctx(schema, plan.run_state(), path, keyword)
            for rule in plan.node_rules(node):
                hits = list(rule.detect(node, here))
                for other in ELSEWHERE:
                    there = NodeContext(other, here.profile, keyword, schema, here.in_force,
                                        here.run)
                    if list(rule.detect(node, there)) != hits:
                        differ.append((plan.profile.name, rule.code, path))
    return differ


def test_node_rules_find_the_same_wherever_the_node_stands_on_the_corpus() -> None:
    for schema in _corpus_schemas():
        assert _hits_elsewhere(schema) == []


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS)
def test_node_rules_find_the_same_wherever_the_node_stands(schema: Any) -> None:
    assert _hits_elsewhere(schema) == []


def _nodes(schema: Any) -> dict[int, Any]:
    return {id(n): n for _, n, _ in iter_nodes_keyed(schema) if isinstance(n, dict)}


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(ref_schemas(), st.booleans())
def test_the_inliner_names_only_copies(schema: dict[str, Any], partial: bool) -> None:
    """Each node `origins` names is in the result and has the own keywords and values of
    the input node it names; a whole copy is equal to it, subtree and all."""
    before = json.dumps(schema)
    origins: dict[int, tuple[Any, Any, bool]] = {}
    only = {p for p, n, _ in iter_nodes_keyed(schema) if isinstance(n, dict) and "$ref" in n
            and len(p) % 2} if partial else None
    new, _ = inline(schema, origins=origins, only=only)
    assert json.dumps(schema) == before  # the input is left alone
    result, source = _nodes(new), _nodes(schema)
    for key, (copy, original, whole) in origins.items():
        assert key == id(copy) and result.get(key) is copy
        assert source.get(id(original)) is original and copy is not original
        if whole:
            assert copy == original
        else:
            assert _own_part(copy) == _own_part(original)


def _own_part(node: dict[str, Any]) -> dict[str, Any]:
    """The node with each subschema replaced by a marker of its kind."""
    out = json.loads(json.dumps(node))
    for rel, sub in children(node):
        set_child(out, rel, "object" if isinstance(sub, dict) else sub)
    return out


def test_the_inliner_names_the_copies_of_a_definition() -> None:
    leaf = {"type": "string", "description": "a name"}
    holder = {"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}}
    schema = {"type": "object",
              "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"type": "integer"}, "c": holder},
              "$defs": {"P": {"type": "object", "properties": {"name": leaf}}}}
    origins: dict[int, tuple[Any, Any, bool]] = {}
    new, _ = inline(schema, origins=origins)
    named = {id(c): (o, whole) for c, o, whole in origins.values()}
    assert named[id(new["properties"]["a"]["properties"]["name"])] == (leaf, True)
    assert named[id(new["properties"]["b"])] == (schema["properties"]["b"], True)
    # its own part copied, a reference expanded below it
    assert named[id(new["properties"]["c"])] == (holder, False)
    # changed nodes are not named: the reference, the root that lost `$defs`
    assert id(new["properties"]["a"]) not in named and id(new) not in named


# --- Rule.reads_below --------------------------------------------------------------------

OTHER_SUBSCHEMAS: list[Any] = [
    {"type": "null"}, {"type": "string"}, {}, True, False, {"type": ["string", "null"]},
    {"nullable": True, "type": "string"}, {"anyOf": [{"type": "string"}, {"type": "null"}]},
    {"type": "object", "properties": {"a": {"type": "string"}}}, {"const": 1},
    {"enum": [None]}, {"type": "array"}, {"type": "object"}, {"$ref": "#/$defs/A"},
    {"type": "integer", "minimum": 0}, {"items": False}, {"oneOf": [{"const": "a"}]},
]


def _own_rules_reading_below(schema: Any, seed: int) -> list[tuple[str, str, Any]]:
    """(profile, rule, path) where a rule saying `reads_below=False` finds something else
    once the node's subschemas are replaced by others."""
    pick = random.Random(seed)
    differ = []
    for path, node, keyword in iter_nodes_keyed(schema):
        kids = children(node)
        if not kids:
            continue
        others = []
        for _ in range(3):
            other = json.loads(json.dumps(node))
            for rel, _ in kids:
                set_child(other, rel, json.loads(json.dumps(pick.choice(OTHER_SUBSCHEMAS))))
            others.append(other)
        for plan in PLANS:
            ctx = plan.ctx(schema, plan.run_state(), path, keyword)
            for rule in plan.node_rules(node, not path):
                if rule.reads_below:
                    continue
                hits = list(rule.detect(node, ctx))
                if any(list(rule.detect(other, ctx)) != hits for other in others):
                    differ.append((plan.profile.name, rule.code, path))
    return differ


def test_rules_that_do_not_read_below_find_the_same_whatever_is_below_on_the_corpus() -> None:
    for i, schema in enumerate(_corpus_schemas()):
        assert _own_rules_reading_below(schema, i) == []


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS, st.integers(0, 1000))
def test_rules_that_do_not_read_below_find_the_same_whatever_is_below(
        schema: Any, seed: int) -> None:
    assert _own_rules_reading_below(schema, seed) == []


def test_some_rules_do_not_read_below() -> None:
    own = {code for code, rule in RULES.items() if not rule.reads_below}
    assert {"VAL005", "TYP008", "TYP001", "TYP003"} <= own
    assert "UNI001" not in own  # a nullable union reads its branches


def _without_reuse(mp: pytest.MonkeyPatch) -> None:
    """Every rule asked everywhere: the reference rules' fix as it is but telling the engine
    of no copies, and every rule reading below."""
    real, real_part = ref_rules.inline_fix, ref_rules.inline_lossless_fix

    def plain(root: Any, ctx: NodeContext) -> Fixed | None:
        fixed = real(root, ctx)
        return None if fixed is None else Fixed(fixed.node, fixed.edits)

    def plain_part(root: Any, ctx: NodeContext) -> Fixed | None:
        fixed = real_part(root, ctx)
        return None if fixed is None else Fixed(fixed.node, fixed.edits)

    for code, rule in list(RULES.items()):
        if rule.fix is real:
            rule = rule._replace(fix=plain, lossless_fix=plain_part)
        mp.setitem(RULES, code, rule._replace(reads_below=True))


def _results(schemas: list[Any], profile: str, lossless_only: bool) -> list[Any]:
    plan = make_plan(profile, lossless_only=lossless_only)
    tools = [ToolDef(f"t{i}", json.loads(json.dumps(s))) for i, s in enumerate(schemas)]
    return [(r.findings, r.changes, r.transformed_schema, r.remaining)
            for r in run_plan(tools, plan)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(st.lists(st.one_of(ref_schemas(), SCHEMAS), min_size=1, max_size=4),
       st.sampled_from(sorted(PROFILES)), st.booleans())
def test_reusing_the_check_changes_nothing(
        schemas: list[Any], profile: str, lossless_only: bool) -> None:
    """The same findings, changes, paths and output as asking every rule again."""
    reused = _results(schemas, profile, lossless_only)
    with pytest.MonkeyPatch.context() as mp:
        _without_reuse(mp)
        asked = _results(schemas, profile, lossless_only)
    assert reused == asked


def _asked(schema: Any) -> list[tuple[str, Any]]:
    """(rule, path) of every detector call of a gemini run of `schema`."""
    asked: list[tuple[str, Any]] = []
    plan = make_plan("gemini")
    for i, rule in enumerate(plan.node):
        def spy(node: Any, ctx: NodeContext, rule: Any = rule) -> Any:
            asked.append((rule.code, ctx.path))
            return rule.detect(node, ctx)
        plan.node[i] = rule._replace(detect=spy)
    run_plan([ToolDef("t", schema)], plan)
    return asked


def test_the_engine_does_reuse_the_check() -> None:
    """Without this, the test above would pass with the reuse switched off."""
    schema = {"type": "object",
              "properties": {"a": {"$ref": "#/$defs/P"},
                             "c": {"type": "object", "description": "holds a reference",
                                   "properties": {"p": {"$ref": "#/$defs/P"}}}},
              "$defs": {"P": {"type": "object",
                              "properties": {"name": {"type": "string"}}}}}
    asked = _asked(schema)
    # the definition's leaf: asked by the check, not again on either inlined copy
    assert {p for code, p in asked if p[-1:] == ("name",)} == {("$defs", "P", "properties", "name")}
    # "c" keeps its own part, a reference expanded below it: VAL005 (not reading below) is
    # asked by the check alone, TYP004 (reading below) by the pass over the inlined copy too
    assert asked.count(("VAL005", ("properties", "c"))) == 1
    assert asked.count(("TYP004", ("properties", "c"))) == 2


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["gemini", "openai-strict", "anthropic"])
@pytest.mark.parametrize("lossless_only", [False, True])
def test_reusing_the_check_changes_nothing_on_the_corpus_and_generated_models(
        profile: str, lossless_only: bool) -> None:
    from benchmarks.generate import pydantic_schemas

    schemas = _corpus_schemas() + pydantic_schemas(60)
    reused = _results(schemas, profile, lossless_only)
    with pytest.MonkeyPatch.context() as mp:
        _without_reuse(mp)
        asked = _results(schemas, profile, lossless_only)
    assert reused == asked
