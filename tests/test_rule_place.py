"""Node rules read of a node's place only whether it is the root and the keyword holding it
(`NodeContext.path`): the engine reuses what they found on a node for the same node moved by a
fix or copied by the inliner (`Fixed.origins`). These tests hold the rules, the inliner and
the engine to that."""

from __future__ import annotations

import json
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
from schema_compat.schema.refs import inline
from schema_compat.schema.walker import iter_nodes_keyed

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
            here = plan.ctx(schema, path, keyword)
            for rule in plan.node_rules(node):
                hits = list(rule.detect(node, here))
                for other in ELSEWHERE:
                    there = NodeContext(other, here.profile, keyword, schema, here.active,
                                        here.lossless_only)
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


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(ref_schemas(), st.booleans())
def test_the_inliner_names_only_unchanged_copies(schema: dict[str, Any], partial: bool) -> None:
    """Each node `origins` names is in the result and equal to the input node it names,
    subtree and all; and every copied node of the result without a reference in it is named."""
    before = json.dumps(schema)
    origins: dict[int, tuple[Any, Any]] = {}
    only = {p for p, n, _ in iter_nodes_keyed(schema) if isinstance(n, dict) and "$ref" in n
            and len(p) % 2} if partial else None
    new, _ = inline(schema, origins=origins, only=only)
    assert json.dumps(schema) == before  # the input is left alone
    result, source = _nodes(new), _nodes(schema)
    for key, (copy, original) in origins.items():
        assert key == id(copy) and result.get(key) is copy
        assert source.get(id(original)) is original
        assert copy == original and copy is not original


def test_the_inliner_names_the_copies_of_a_definition() -> None:
    leaf = {"type": "string", "description": "a name"}
    schema = {"type": "object",
              "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"type": "integer"}},
              "$defs": {"P": {"type": "object", "properties": {"name": leaf}}}}
    origins: dict[int, tuple[Any, Any]] = {}
    new, _ = inline(schema, origins=origins)
    named = {id(c): o for c, o in origins.values()}
    assert named[id(new["properties"]["a"]["properties"]["name"])] is leaf
    assert named[id(new["properties"]["b"])] is schema["properties"]["b"]
    # changed nodes are not named: the reference, the root that lost `$defs`
    assert id(new["properties"]["a"]) not in named and id(new) not in named


def _without_origins(mp: pytest.MonkeyPatch) -> None:
    """The reference rules' fix as it is, but telling the engine of no copies."""
    real = ref_rules.inline_fix

    def plain(root: Any, ctx: NodeContext) -> Fixed | None:
        fixed = real(root, ctx)
        return None if fixed is None else Fixed(fixed.node, fixed.edits)

    for code, rule in list(RULES.items()):
        if rule.fix is real:
            mp.setitem(RULES, code, rule._replace(fix=plain))


def _results(schemas: list[Any], profile: str, lossless_only: bool) -> list[Any]:
    plan = make_plan(profile, lossless_only=lossless_only)
    tools = [ToolDef(f"t{i}", json.loads(json.dumps(s))) for i, s in enumerate(schemas)]
    return [(r.findings, r.changes, r.transformed_schema, r.remaining)
            for r in run_plan(tools, plan)]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
@given(st.lists(ref_schemas(), min_size=1, max_size=4), st.sampled_from(sorted(PROFILES)),
       st.booleans())
def test_reusing_the_check_on_inlined_copies_changes_nothing(
        schemas: list[Any], profile: str, lossless_only: bool) -> None:
    """The same findings, changes, paths and output as asking every rule again."""
    reused = _results(schemas, profile, lossless_only)
    with pytest.MonkeyPatch.context() as mp:
        _without_origins(mp)
        asked = _results(schemas, profile, lossless_only)
    assert reused == asked


def test_the_engine_does_reuse_the_check_on_inlined_copies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without this, the test above would pass with the reuse switched off."""
    leaf = {"type": "string", "description": "a name"}
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/P"}},
              "$defs": {"P": {"type": "object", "properties": {"name": leaf}}}}
    asked: list[Any] = []
    plan = make_plan("gemini")
    for rule in plan.node:
        def spy(node: Any, ctx: NodeContext, detect: Any = rule.detect) -> Any:
            if node == leaf:
                asked.append(ctx.path)
            return detect(node, ctx)
        plan.node[plan.node.index(rule)] = rule._replace(detect=spy)
    plan._for_keys.clear()
    plan._for_root_keys.clear()
    run_plan([ToolDef("t", schema)], plan)
    # the check asks about the definition's leaf; the passes over the inlined copy do not
    assert set(asked) == {("$defs", "P", "properties", "name")}
