"""The one engine: runs a profile's rules over tools to check them, and applies their
fixes to a fixpoint to transform them.

Check walks the schema top-down once and asks every node rule about every node.
Transform works on a copy: document rules (reference inlining) first, then a bottom-up
rewrite where each node is fixed rule by rule until none fires; passes repeat until one
changes nothing, so what a fix creates (a union from a type list) is fixed in turn.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from .model import Change, Finding, Path, Severity, ToolDef, ToolResult
from .profiles import Profile, get_profile
from .rules import refs as ref_rules
from .rules.base import Fixed, NodeContext, Rule
from .rules.naming import ToolInfo
from .rules.registry import RULES, select_codes
from .schema.walker import iter_nodes_keyed, rewrite

MAX_PASSES = 8
MAX_FIXES_PER_NODE = 64


class Plan:
    """The rules of one run, split by scope, with the profile's severities applied."""

    def __init__(self, profile: Profile, codes: Sequence[str], lossless_only: bool) -> None:
        self.profile = profile
        self.codes = frozenset(codes)
        self.lossless_only = lossless_only
        rules = [RULES[c] for c in codes]
        self.document = [r for r in rules if r.scope == "document"]
        self.node = [r for r in rules if r.scope == "node"]
        self.tool = [r for r in rules if r.scope == "tool"]
        self._for_keys: dict[frozenset[str], list[Rule]] = {}

    def node_rules(self, node: Any) -> list[Rule]:
        """The node rules that may fire on `node`, in profile order: a rule with `triggers`
        only where the node holds one of them. Cached by the node's set of keys, which
        repeats a great deal across a listing."""
        keys = frozenset(node) if isinstance(node, dict) else frozenset()
        found = self._for_keys.get(keys)
        if found is None:
            found = self._for_keys[keys] = [
                r for r in self.node if r.triggers is None or not r.triggers.isdisjoint(keys)]
        return found

    def ctx(self, root: Any, path: Path = (), keyword: str | None = None) -> NodeContext:
        return NodeContext(path=path, profile=self.profile, parent=keyword, root=root,
                           active=self.codes, lossless_only=self.lossless_only)

    def severity(self, rule: Rule) -> Severity:
        return self.profile.severity.get(rule.code, rule.severity)

    def finding(self, rule: Rule, path: Path, hit: Any, scope: str = "schema") -> Finding:
        return Finding(
            code=rule.code, rule=rule.name, severity=self.severity(rule), path=path,
            message=hit.message, keyword=hit.keyword,
            fix_title=rule.fix_title if rule.fix else None,
            fix_safety=(hit.safety or rule.safety) if rule.fix else None,
            scope=scope,  # type: ignore[arg-type]
        )

    def allows(self, fixed: Fixed) -> bool:
        return not (self.lossless_only and fixed.safety == "lossy")


def make_plan(profile: str | Profile, select: list[str] | None = None,
              ignore: list[str] | None = None, lossless_only: bool = False) -> Plan:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    if prof is None:
        raise ValueError(f"unknown profile {profile!r}")
    return Plan(prof, select_codes(prof, select, ignore), lossless_only)


def check_schema(schema: Any, plan: Plan) -> list[Finding]:
    findings: list[Finding] = []
    ref_rules.clear_cache()
    root_ctx = plan.ctx(schema)
    for rule in plan.document:
        for hit in rule.detect(schema, root_ctx):
            findings.append(plan.finding(rule, hit.rel, hit))
    for path, node, keyword in iter_nodes_keyed(schema):
        ctx = plan.ctx(schema, path, keyword)
        for rule in plan.node_rules(node):
            for hit in rule.detect(node, ctx):
                findings.append(plan.finding(rule, path + hit.rel, hit))
    return findings


def check_tool_level(info: ToolInfo, plan: Plan) -> list[Finding]:
    ctx = plan.ctx(None)
    return [plan.finding(rule, (), hit, "tool") for rule in plan.tool
            for hit in rule.detect(info, ctx)]


def transform_schema(schema: Any, plan: Plan) -> tuple[Any, list[Change]]:
    work = copy.deepcopy(schema)
    changes: list[Change] = []
    for _ in range(MAX_PASSES):
        changed = False
        ref_rules.clear_cache()
        done: set[Any] = set()
        for rule in plan.document:
            if rule.fix is None or rule.fix in done:
                continue
            if not any(True for _ in rule.detect(work, plan.ctx(work))):
                continue
            done.add(rule.fix)
            fixed = rule.fix(work, plan.ctx(work))
            if fixed is not None and plan.allows(fixed):
                work = fixed.node
                changed = True
                changes.extend(Change(e.code or rule.code, e.rel, e.safety, e.description)
                               for e in fixed.edits)
                ref_rules.clear_cache()
        work, rewritten = _node_pass(work, plan, changes)
        changed = changed or rewritten
        if not changed:
            break
    return work, changes


def _node_pass(root: Any, plan: Plan, changes: list[Change]) -> tuple[Any, bool]:
    """One bottom-up rewrite: each node is fixed rule by rule until no rule fires."""
    changed = False

    def visit(node: Any, path: Path, keyword: str | None) -> Any:
        nonlocal changed
        declined: set[str] = set()
        for _ in range(MAX_FIXES_PER_NODE):
            ctx = plan.ctx(root, path, keyword)
            for rule in plan.node_rules(node):
                if rule.fix is None or rule.code in declined:
                    continue
                if not any(True for _ in rule.detect(node, ctx)):
                    continue
                fixed = rule.fix(node, ctx)
                if fixed is None or not plan.allows(fixed):
                    declined.add(rule.code)
                    continue
                node = fixed.node
                changed = True
                changes.extend(Change(e.code or rule.code, path + e.rel, e.safety,
                                      e.description) for e in fixed.edits)
                break
            else:
                return node
        return node

    return rewrite(root, visit, skip=plan.profile.opaque_keywords), changed


def fix_tool_name(info: ToolInfo, plan: Plan) -> tuple[str, list[Change]]:
    changes: list[Change] = []
    ctx = plan.ctx(None)
    for rule in plan.tool:
        if rule.fix is None or not any(True for _ in rule.detect(info, ctx)):
            continue
        fixed = rule.fix(info, ctx)
        if fixed is None or not plan.allows(fixed):
            continue
        info = replace(info, name=fixed.node)
        changes.extend(Change(rule.code, (), e.safety, e.description, "tool")
                       for e in fixed.edits)
    return info.name, changes


def run(tools: Sequence[ToolDef], profile: str | Profile = "gemini", *,
        select: list[str] | None = None, ignore: list[str] | None = None,
        lossless_only: bool = False) -> list[ToolResult]:
    """Check and transform every tool; the heart of the library API and the CLI."""
    return run_plan(tools, make_plan(profile, select, ignore, lossless_only))


def run_plan(tools: Sequence[ToolDef], plan: Plan,
             plan_for: Callable[[ToolDef], Plan] | None = None, *,
             keep_schemas: bool = True) -> list[ToolResult]:
    """`run` with the rules already chosen (the CLI validates options into a Plan first)."""
    return list(iter_plan(tools, plan, plan_for, keep_schemas=keep_schemas))


def iter_plan(tools: Sequence[ToolDef], plan: Plan,
              plan_for: Callable[[ToolDef], Plan] | None = None, *,
              keep_schemas: bool = True) -> Iterator[ToolResult]:
    """`run_plan` one tool at a time, in the order of `tools`: `transform` writes each
    tool as soon as it is done and keeps only what its summary needs, instead of holding
    every transformed schema until the whole listing can be written.

    `plan_for` picks a tool's own plan (per-tool ignores); per-request sums still run over
    every tool of a source, with the base plan's counting rules.
    With `keep_schemas=False` each result's `transformed_schema` is None: a caller that only
    reports findings and changes (the text report of `check`) then holds one transformed
    schema at a time instead of all of them, which on a 10,000-tool file is ~1/4 of the peak.
    """
    # Names and counts are per source: one source is one server's listing, sent together;
    # two snapshot files checked in one run are not one request.
    original_names: dict[str, list[str]] = {}
    new_names: dict[str, list[str]] = {}
    totals: dict[str, int] = {}
    tally_rules = [r for r in plan.tool if r.tally is not None]
    tallies: dict[tuple[str, bool], Counter[str]] = {}  # (source, transformed) -> sums
    for tool in tools:
        totals[tool.source] = totals.get(tool.source, 0) + 1
    base = plan
    for tool in tools:
        plan = plan_for(tool) if plan_for else base
        before = original_names.setdefault(tool.source, [])
        renamed = new_names.setdefault(tool.source, [])
        sums_before = tallies.setdefault((tool.source, False), Counter())
        sums_after = tallies.setdefault((tool.source, True), Counter())
        position, total = len(before), totals[tool.source]
        info = ToolInfo(tool.name, tool.description, position, tuple(before), total,
                        tool.schema, dict(sums_before))
        no_params = tool.schema is None and tool.schema_optional
        findings = check_tool_level(info, plan)
        new_schema: Any = None
        changes: list[Change] = []
        schema_left: list[Finding] = []
        if not no_params:
            schema_findings = check_schema(tool.schema, plan)
            findings += schema_findings
            if any(RULES[f.code].fix is not None for f in schema_findings):
                new_schema, changes = transform_schema(tool.schema, plan)
                schema_left = check_schema(new_schema, plan)
            else:
                # No rule with a fix fired, so a transform would find the same nodes and
                # change nothing: skip its passes and the second check walk.
                new_schema, schema_left = copy.deepcopy(tool.schema), schema_findings
        new_name, name_changes = fix_tool_name(replace(info, names_before=tuple(renamed)),
                                               plan)
        after = ToolInfo(new_name, tool.description, position, tuple(renamed), total,
                         new_schema, dict(sums_after))
        remaining = check_tool_level(after, plan) + schema_left
        before.append(tool.name)
        renamed.append(new_name)
        for rule in tally_rules:
            assert rule.tally is not None
            sums_before.update(rule.tally(tool.schema))
            sums_after.update(rule.tally(new_schema))
        yield ToolResult(
            tool=tool, profile=base.profile.name, findings=tuple(findings),
            changes=tuple(name_changes + changes), transformed_name=new_name,
            transformed_schema=new_schema if keep_schemas else None,
            remaining=tuple(remaining),
        )
