"""A rule's `triggers` and `gate` let the engine skip its detector on most
nodes; they must never skip a node the detector would flag, or findings would silently go
missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from test_engine_fuzz import SCHEMAS

from schema_compat.engine import make_ruleset
from schema_compat.profiles import PROFILES
from schema_compat.schema.walker import iter_nodes_keyed

CORPUS = Path(__file__).parent / "data" / "corpus"
PLANS = [make_ruleset(name) for name in sorted(PROFILES)]


def _skipped_hits(schema: Any) -> list[tuple[str, str, Any]]:
    """(profile, rule, path) for every hit of a rule the engine would not have asked."""
    missed = []
    for plan in PLANS:
        for path, node, keyword in iter_nodes_keyed(schema):
            ctx = plan.ctx(schema, plan.run_state(), path, keyword)
            asked = plan.node_rules(node).all
            for rule in plan.node:
                if rule not in asked and any(True for _ in rule.detect(node, ctx)):
                    missed.append((plan.profile.name, rule.code, path))
    return missed


def _skipped_document_hits(schema: Any) -> list[tuple[str, str]]:
    """(profile, rule) for every hit of a document rule whose `triggers` no node holds."""
    keys: set[str] = set()
    for _, node, _ in iter_nodes_keyed(schema):
        if isinstance(node, dict):
            keys.update(k for k in node if isinstance(k, str))
    missed = []
    for plan in PLANS:
        ctx = plan.ctx(schema, plan.run_state())
        for rule in plan.document:
            if rule.triggers is not None and rule.triggers.isdisjoint(keys) \
                    and any(True for _ in rule.detect(schema, ctx)):
                missed.append((plan.profile.name, rule.code))
    return missed


def _corpus_schemas() -> list[Any]:
    schemas = []
    for file in sorted(CORPUS.rglob("*.json")):
        data = json.loads(file.read_text("utf-8"))
        tools = data.get("tools", data) if isinstance(data, dict) else data
        for tool in tools if isinstance(tools, list) else []:
            if isinstance(tool, dict) and "inputSchema" in tool:
                schemas.append(tool["inputSchema"])
    return schemas


def test_the_corpus_has_schemas_to_check() -> None:
    assert len(_corpus_schemas()) > 500


def test_no_rule_is_skipped_where_it_would_fire_on_the_corpus() -> None:
    for schema in _corpus_schemas():
        assert _skipped_hits(schema) == []


def test_no_document_rule_is_skipped_where_it_would_fire_on_the_corpus() -> None:
    for schema in _corpus_schemas():
        assert _skipped_document_hits(schema) == []


def test_document_triggers_are_those_of_the_reference_and_draft_rules() -> None:
    # ROOT003: the draft, and (gemini reads it) JSON Schema's meaningless `nullable`
    assert make_ruleset("gemini").document_triggers == {"$ref", "$defs", "definitions",
                                                     "$schema", "nullable"}
    # a document rule without triggers (a size limit) may fire on any document
    assert make_ruleset("openai-strict").document_triggers is None


def test_a_gate_does_skip_rules() -> None:
    plan = make_ruleset("gemini")
    asked = {r.code for r in plan.node_rules({"type": "string", "description": "d"}).all}
    assert "ANN004" not in asked and "TYP002" not in asked and "TYP005" not in asked
    assert "ANN004" in {r.code for r in plan.node_rules({"type": "string", "readOnly": True}).all}
    assert "TYP005" in {r.code for r in plan.node_rules(True).all}


# 150 random schemas, beside the whole corpus in the tests above: about half a second each.
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS)
def test_no_rule_is_skipped_where_it_would_fire_on_random_schemas(schema: Any) -> None:
    assert _skipped_hits(schema) == []


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS)
def test_no_document_rule_is_skipped_where_it_would_fire_on_random_schemas(
        schema: Any) -> None:
    assert _skipped_document_hits(schema) == []
