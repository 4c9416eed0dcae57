"""The check: every rule that may fire on a node asked about it, top-down, once.

Document rules (references) fire only where some node holds a key one of them needs
(`RuleSet.document_triggers`); a document where none does is quiet, and they are not asked,
which spares their walk of the document (the reference analysis).
"""

from __future__ import annotations

from typing import Any

from ..model import (
    Finding,
    Path,
)
from ..rules.base import RunState
from ..rules.support import ToolInfo
from ..schema.walker import children, iter_nodes_keyed
from .ruleset import RuleSet


def held_below(nodes: list[Any], triggers: frozenset[str]) -> set[str]:
    """Which of `triggers` the nodes of these subschemas hold."""
    held: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if not triggers.isdisjoint(node):
                held.update(triggers.intersection(node))
            stack.extend(child for _, child in children(node))
    return held


def document_findings(schema: Any, plan: RuleSet, run: RunState,
                      present: frozenset[str] | None = None) -> list[Finding]:
    """The document rules' findings on `schema`; where the caller knows which of their
    triggers the document's nodes hold (`present`), a rule none of whose triggers is there
    is not asked (it cannot fire: the reference rules' analysis of a document that holds
    only `$schema` is spared)."""
    root_ctx = plan.ctx(schema, run)
    return [plan.finding(rule, hit.rel, hit) for rule in plan.document
            if present is None or rule.triggers is None or not rule.triggers.isdisjoint(present)
            for hit in rule.detect(schema, root_ctx)]


def node_findings(root: Any, schema: Any, plan: RuleSet, run: RunState, base: Path = (),
                  keyword: str | None = None, present: set[str] | None = None,
                  ) -> list[Finding]:
    """The node rules' findings on `schema`, a subschema of `root` at `base` (or `root`);
    the document rules' triggers its nodes hold are added to `present` where it is given,
    told by the same walk."""
    triggers = plan.document_triggers or frozenset()
    findings: list[Finding] = []
    for path, node, key in iter_nodes_keyed(schema, base, keyword):
        if present is not None and isinstance(node, dict) and not triggers.isdisjoint(node):
            present.update(triggers.intersection(node))
        ctx = plan.ctx(root, run, path, key)
        for rule in plan.node_rules(node).all:
            for hit in rule.detect(node, ctx):
                findings.append(plan.finding(rule, path + hit.rel, hit))
    return findings


def detected(schema: Any, plan: RuleSet) -> list[Finding]:
    """What every rule's detector finds on `schema`, a document the transform wrote (so
    in the profile's dialect), as a check walk reports it."""
    return check_walk(schema, plan, plan.run_state(plan.dialect))[0]


def check_walk(schema: Any, plan: RuleSet, run: RunState) -> tuple[list[Finding], bool]:
    """What every rule's detector finds on `schema`: the document rules' findings first
    (where the document is not quiet), then the node rules', top-down; and whether the
    document is quiet (no node holds a document rule's trigger), told by the same walk."""
    run.forget()
    present: set[str] = set()  # the triggers the document's nodes hold
    findings = node_findings(schema, schema, plan, run, present=present)
    if plan.document_triggers is None:
        return document_findings(schema, plan, run) + findings, False
    if not present:
        return findings, True
    return document_findings(schema, plan, run, frozenset(present)) + findings, False


def check_tool_level(info: ToolInfo, plan: RuleSet) -> list[Finding]:
    ctx = plan.ctx(None, RunState())
    return [plan.finding(rule, (), hit, "tool") for rule in plan.tool
            for hit in rule.detect(info, ctx)]
