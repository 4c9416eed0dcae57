"""The transform: a profile's fixes applied to a copy of a schema until none applies.

Each pass asks the document rules (reference inlining) first, where some node holds a key
one of them needs, then rewrites the document bottom-up (`walker.rewrite`), each node fixed
rule by rule until none fires. Passes repeat until one changes nothing, so what a fix
creates (a union from a type list) is fixed in turn. That last pass has asked every rule
about every node of the result, so its findings are the check of the result; a pass that met
every node of what it leaves as it leaves it (settled: `node_pass`) is that last pass
already. Every fix goes through `RuleSet.fix`: what it applies is recorded as changes, what
it refuses (with `lossless_only`) as the fixes not made, at the same paths, which is how a
finding comes to say what the transform did with it.

Fixes build new nodes and never change the one they are given; a fix's result may not put
one object at two places (`Fixed`), since the passes rewrite the document in place.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..model import (
    JSON_SCHEMA,
    Change,
    Finding,
    Path,
)
from ..rules.base import Hit, NodeContext, Rule, RunState
from ..rules.registry import RULES
from ..rules.support import ToolInfo
from ..schema.jsoncopy import json_tree_copy
from ..schema.walker import children, kept_places, rewrite
from .check import document_findings, held_below, node_findings
from .ruleset import RuleSet, change_of

MAX_PASSES = 8


MAX_FIXES_PER_NODE = 64


class Visited(NamedTuple):
    """What the rules found on one node of a node pass, as the pass left it."""

    path: Path
    findings: list[Finding]


class Unchecked(NamedTuple):
    """A subtree a node pass leaves alone (under a keyword the profile's rules remove
    whole): checked only if that pass turns out the last."""

    node: Any
    path: Path
    keyword: str


def transform_schema(schema: Any, plan: RuleSet, dialect: str = JSON_SCHEMA,
                     ) -> tuple[Any, list[Change]]:
    triggers = plan.document_triggers
    quiet = triggers is not None and not held_below([schema], triggers)
    work, changes, _ = transform_passes(schema, plan, plan.run_state(dialect), [], quiet)
    return work, changes


def transform_passes(schema: Any, plan: RuleSet, run: RunState, refused: list[Change],
                     quiet: bool, checked: list[Finding] | None = None,
                     ) -> tuple[Any, list[Change], list[Finding] | None]:
    """`transform_schema`, the fixes refused (added to `refused`), and what a check of the
    result finds: the last pass, which changes nothing, asks every rule about the final
    document anyway, so its findings are that check (None when the passes ran out before
    one changed nothing). `schema` itself is never changed: the first pass works on a copy
    (or on the new document a document fix built). `quiet`: no node of `schema` holds a
    document rule's trigger; each node pass tells it of the document it leaves. `checked`, the
    check's findings on `schema` where the caller has them, are what the first pass's
    document rules, meeting the same document, would find: they are not asked again."""
    work = schema
    changes: list[Change] = []
    fired = None if checked is None else {f.code for f in checked}
    for _ in range(MAX_PASSES):
        changed = False
        refused_before = len(refused)
        done: set[Any] = set()
        for rule in () if quiet else plan.document:
            if rule.fix is None or rule.fix in done:
                continue
            if rule.code not in fired if fired is not None and work is schema else \
                    not any(True for _ in rule.detect(work, plan.ctx(work, run))):
                continue
            done.add(rule.fix)
            fixed, no = plan.fix(rule, work, plan.ctx(work, run))
            if no is not None:
                refused.extend(change_of(e.code or rule.code, e.rel, e) for e in no.edits)
            if fixed is not None:
                work = fixed.node
                changed = True
                changes.extend(change_of(e.code or rule.code, e.rel, e) for e in fixed.edits)
        # The document rules (ROOT003 first) have read the input in its own dialect and
        # rewritten it into the provider's: from here on it is read as the provider's, so
        # that the `nullable` a fix writes for gemini is not taken for the input's.
        run.dialect = plan.dialect
        if work is schema:  # the node pass rewrites in place: each node at one place
            work = json_tree_copy(schema)
        work, found, rewritten, held, settled = node_pass(work, plan, run, changes, refused)
        quiet = held is not None and not held
        if rewritten:  # changed in place: what the rules learnt of it no longer holds
            run.forget()
        # A settled pass that refused no fix, and leaves nothing for a document fix, is the
        # last: the next would meet every node as this one left it (a refusal is recorded
        # as last met, so that pass is made).
        if not (changed or rewritten) or (settled and len(refused) == refused_before):
            # Nothing changed since this pass's document rules looked, so their reference
            # analysis of `work` is still current; or the pass is settled, and then no node
            # of `work` holds `$ref`.
            left = [] if quiet else document_findings(
                work, plan, run, None if held is None else frozenset(held))
            if (changed or rewritten) and any(RULES[f.code].fix is not None for f in left):
                continue  # (a `nullable` a fix wrote does not make ROOT003 fire)
            for item in found:
                if isinstance(item, Unchecked):
                    left += node_findings(work, item.node, plan, run, item.path, item.keyword)
                else:
                    left += item.findings
            return work, changes, left
    return work, changes, None


def node_pass(root: Any, plan: RuleSet, run: RunState, changes: list[Change],
              refused: list[Change],
              ) -> tuple[Any, list[Visited | Unchecked], bool, set[str] | None, bool]:
    """One bottom-up rewrite of `root` (in place), each node fixed rule by rule until no
    rule fires: the document, the findings of the nodes as left (in the order of a check
    walk: when the pass changed nothing, they are the node findings of a check of it),
    whether it changed anything, which document rules' triggers the document it leaves may
    hold (None: any, where a document rule has none), and whether the pass is settled: a
    pass over what it leaves would change nothing in its nodes and find what it found.

    Settled: every fix kept the subschemas it kept at their places, in their order, and
    made none (`kept_places`), so every node of the result was visited as it is left, at
    its place, and fixed until no rule fired (what was found in the subschemas a fix
    dropped goes with them); and no node of the result holds `$ref` (a document trigger),
    so no node rule read outside its node (only a reference reaches outside). Not where a
    node ran out of fixes."""
    rewriter = _NodePass(root, plan, run, changes, refused)
    new, found, rewritten = rewrite(root, rewriter.visit, skip=plan.profile.opaque_keywords,
                                    skipped=rewriter.skipped)
    held = rewriter.held
    settled = rewriter.settled and held is not None and "$ref" in rewriter.triggers and \
        "$ref" not in held
    if settled and rewriter.dropped:
        found = [item for item in found
                 if not any(item.path[:len(p)] == p for p in rewriter.dropped)]
    return new, found, rewritten, held, settled


_NONE_DECLINED: frozenset[str] = frozenset()  # a visit's rounds before any fix is refused


class _NodePass:
    """The state of one node pass, its visits as methods. Not closures: the compiled build
    keeps a function's closures in one shared environment that each of them refers to, a
    reference cycle that only the cyclic collector frees, and with it everything the pass
    held."""

    def __init__(self, root: Any, plan: RuleSet, run: RunState, changes: list[Change],
                 refused: list[Change]) -> None:
        self.root = root
        self.plan = plan
        self.run = run
        self.changes = changes
        self.refused = refused
        # The document rules' triggers the nodes of what the pass leaves may hold (None:
        # any): each node visited, part of a fix's result or skipped (or dropped since).
        self.held: set[str] | None = None if plan.document_triggers is None else set()
        self.triggers = plan.document_triggers or frozenset()
        # Whether every fix so far kept the subschemas it kept at their places and made
        # none (`node_pass`), and the places of those it dropped.
        self.settled = True
        self.dropped: list[Path] = []

    def visit(self, node: Any, path: Path, keyword: str | None, changed_below: bool,
              ) -> tuple[Any, list[Visited | Unchecked]]:
        """Fix `node` (its children already rewritten) rule by rule until no rule fires,
        and say what the rules find on the node it leaves."""
        new, found = self._fixed(node, path, keyword)
        held, triggers = self.held, self.triggers
        if held is not None and isinstance(new, dict) and not triggers.isdisjoint(new):
            held.update(triggers.intersection(new))
        if new is not node and (self.settled or held is not None):  # a fix's result
            before, after = children(node), children(new)
            if self.settled:
                dropped = kept_places(before, after)
                if dropped is None:
                    self.settled = False
                else:
                    self.dropped.extend(path + rel for rel in dropped)
            if held is not None:
                kept = {id(child) for _, child in before}
                held.update(held_below([c for _, c in after if id(c) not in kept], triggers))
        return new, [Visited(path, found)] if found else []

    def _fixed(self, node: Any, path: Path, keyword: str | None,
               ) -> tuple[Any, list[Finding]]:
        plan = self.plan
        declined: set[str] = set()
        ctx = plan.ctx(self.root, self.run, path, keyword)
        for _ in range(MAX_FIXES_PER_NODE):
            rules = plan.node_rules(node)
            # rules this round does not ask again
            declined_before = frozenset(declined) if declined else _NONE_DECLINED
            hits: dict[str, list[Hit]] = {}
            for rule in rules.fixable:
                if rule.code in declined:
                    continue
                found = list(rule.detect(node, ctx))
                if not found:
                    continue
                fixed, no = plan.fix(rule, node, ctx)
                if fixed is None:
                    declined.add(rule.code)
                    hits[rule.code] = found
                    if no is not None:
                        self.refused.extend(change_of(e.code or rule.code, path + e.rel, e)
                                            for e in no.edits)
                    continue
                node = fixed.node
                self.changes.extend(change_of(e.code or rule.code, path + e.rel, e)
                                    for e in fixed.edits)
                break
            else:
                if not hits and not declined_before:  # the usual case: no fix was refused
                    return node, self._left(node, ctx, rules.unfixable, declined_before, hits)
                return node, self._left(node, ctx, rules.all, declined_before, hits)
        self.settled = False  # out of fixes: a next pass goes on fixing
        return node, []

    def _left(self, node: Any, ctx: NodeContext, rules: list[Rule],
              declined_before: frozenset[str], hits: dict[str, list[Hit]],
              ) -> list[Finding]:
        """The node's findings: this round's hits, and a fresh look by the rules this
        round did not ask (no fix, or declined in an earlier round)."""
        out: list[Finding] = []
        finding = self.plan.finding
        for rule in rules:
            if rule.fix is None or rule.code in declined_before:
                found: Any = rule.detect(node, ctx)
            else:
                found = hits.get(rule.code, ())
            for hit in found:
                out.append(finding(rule, ctx.path + hit.rel, hit))
        return out

    def skipped(self, node: Any, path: Path, keyword: str) -> list[Visited | Unchecked]:
        if self.held is not None:
            self.held.update(held_below([node], self.triggers))
        return [Unchecked(node, path, keyword)]


def fix_tool_name(info: ToolInfo, plan: RuleSet, refused: list[Change] | None = None,
                  ) -> tuple[str, list[Change]]:
    changes: list[Change] = []
    ctx = plan.ctx(None, RunState())
    for rule in plan.tool:
        if rule.fix is None or not any(True for _ in rule.detect(info, ctx)):
            continue
        fixed, no = plan.fix(rule, info, ctx)
        if no is not None and refused is not None:
            refused.extend(change_of(rule.code, (), e, "tool") for e in no.edits)
        if fixed is None:
            continue
        info = info._replace(name=fixed.node)
        changes.extend(change_of(rule.code, (), e, "tool") for e in fixed.edits)
    return info.name, changes
