"""The transform: a profile's fixes applied to a copy of a schema until none applies.

Document rules (reference inlining) first, then a bottom-up rewrite where each node is
fixed rule by rule until none fires; passes repeat until one changes nothing, so what a fix
creates (a union from a type list) is fixed in turn. That last pass has asked every rule
about every node of the result, so its findings are the check of the result. Every fix
goes through `Plan.fix`: what it applies is recorded as changes, what it refuses (with
`lossless_only`) as the fixes not made, at the same paths, which is how a finding comes to
say what the transform did with it.

Fixes build new nodes and never change the one they are given; a fix's result may not put
one object at two places (`Fixed`), since the passes rewrite the document in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..model import (
    Change,
    Finding,
    Path,
)
from ..rules.base import Hit, NodeContext, Rule, RunState
from ..rules.support import ToolInfo
from ..schema.jsoncopy import json_tree_copy
from ..schema.walker import children, iter_nodes_keyed, rewrite, set_child
from .check import check_node, document_findings, node_findings
from .plan import Plan, change_of
from .reuse import NO_COPY, Checked, Clean, Origins, Unchecked, adds_triggers, moved

MAX_PASSES = 8


MAX_FIXES_PER_NODE = 64


def transform_schema(schema: Any, plan: Plan) -> tuple[Any, list[Change]]:
    work, changes, _ = transform_passes(schema, plan, plan.run_state(), [])
    return work, changes


class FirstPass(NamedTuple):
    """A first pass made with the check riding on it (`check_and_transform`), as
    `transform_passes` goes on from it: the document, whether the pass changed it, the
    changes it made, its findings, its clean nodes, whether the document it leaves is
    quiet."""

    work: Any
    rewritten: bool
    changes: list[Change]
    found: list[Finding | Unchecked]
    clean: Clean
    quiet: bool


class _NotQuiet(Exception):
    """A node holds a key a document rule needs: the check cannot ride on the first node
    pass, since document fixes (reference inlining) come before it."""


def check_and_transform(schema: Any, plan: Plan, run: RunState,
                        ) -> tuple[list[Finding], FirstPass, list[Change]] | None:
    """The check and the transform's first pass in one walk, where the document is quiet
    (no node holds a key a document rule needs, so no document rule fires and the first
    pass is a node pass over a copy of `schema`): each node is checked before its
    children are rewritten, on the copy that is still the document as given, and where no
    rule with a fix fired there, the pass takes those findings as its own instead of
    asking the rules again. Returns the check's findings (those of `check_recording`, in
    its order), the pass for `transform_passes` to go on from, and the fixes refused.

    None where this cannot be done: the plan has a rule that reads the whole document, or
    a document rule without triggers, or a node holds a trigger (the walk stops there and
    what it did is dropped; the caller checks and transforms the usual way)."""
    triggers = plan.document_triggers
    if not plan.subtree_local or triggers is None \
            or (isinstance(schema, dict) and not triggers.isdisjoint(schema)):
        return None
    run.forget()
    changes: list[Change] = []
    refused: list[Change] = []
    rewriter = _NodePass(json_tree_copy(schema), plan, run, changes, refused, {},
                         Checked({}, {}), None, [])
    try:
        new, found, _ = rewriter.check_and_rewrite(rewriter.root, (), None)
    except _NotQuiet:
        return None
    assert rewriter.check is not None
    return rewriter.check, FirstPass(new, rewriter.changed, changes, found, rewriter.clean,
                                     rewriter.triggers is not None), refused


def transform_passes(schema: Any, plan: Plan, run: RunState, refused: list[Change],
               checked: bool = False, check_clean: Checked | None = None,
               quiet: bool = False, first: FirstPass | None = None,
               ) -> tuple[Any, list[Change], list[Finding] | None]:
    """`transform_schema`, and what `check_schema` finds in the result: the last pass,
    which changes nothing, runs every detector on the final document anyway, so it
    collects their findings instead of a second walk doing it again (None when the
    passes ran out before one changed nothing).

    The first pass's document rules look at `schema` itself: their fixes build a new
    document, so the copy is made only when none applies; and with `checked` (the caller
    has just run `check_schema` on it, unchanged since) they reuse that check's
    reference analysis. `check_clean` is what that check recorded (`check_recording`):
    the first node pass reuses it where the copy is still the document the check saw.
    With `quiet` (that check found `schema` quiet), no document rule is asked while the
    document stays so, which each node pass tells of the document it leaves.
    `first` is a first pass already made, the check riding on it (`check_and_transform`);
    `schema` is then still the document as given, which the passes never rewrite.
    """
    work = schema
    changes: list[Change] = [] if first is None else first.changes
    clean: Clean = {}
    for _ in range(MAX_PASSES):
        if first is not None:
            work, rewritten, found, clean, quiet = first.work, first.rewritten, \
                first.found, first.clean, first.quiet
            first = None
            changed = False
        else:
            work, changed, rewritten, found, clean, quiet = _one_pass(
                schema, work, plan, run, changes, refused, clean, checked, check_clean,
                quiet)
            checked = False
            check_clean = None
        if not (changed or rewritten):
            # Nothing changed since this pass's document rules looked, so their reference
            # analysis of `work` is still current: no cache clearing here.
            left = [] if quiet else document_findings(work, plan, run)
            for item in found:
                if isinstance(item, Unchecked):
                    left += node_findings(work, item.node, plan, run, item.path, item.keyword)
                else:
                    left.append(item)
            return work, changes, left
    return work, changes, None


def _one_pass(schema: Any, work: Any, plan: Plan, run: RunState, changes: list[Change],
              refused: list[Change], clean: Clean, checked: bool,
              check_clean: Checked | None, quiet: bool,
              ) -> tuple[Any, bool, bool, list[Finding | Unchecked], Clean, bool]:
    """One pass of `transform_passes`: the document rules, then a node pass. Returns the
    document, whether a document rule and whether the node pass changed it, the node
    pass's findings, its clean nodes and whether the document it leaves is quiet."""
    changed = False
    if not checked:
        run.forget()
    done: set[Any] = set()
    copies: Origins | None = None
    for rule in () if quiet else plan.document:
        if rule.fix is None or rule.fix in done:
            continue
        if not any(True for _ in rule.detect(work, plan.ctx(work, run))):
            continue
        done.add(rule.fix)
        fixed, no = plan.fix(rule, work, plan.ctx(work, run))
        if no is not None:
            refused.extend(change_of(e.code or rule.code, e.rel, e) for e in no.edits)
        if fixed is not None:
            # what the result copies of `schema` itself is what the check saw
            copies = fixed.origins if work is schema else None
            work = fixed.node
            changed = True
            changes.extend(change_of(e.code or rule.code, e.rel, e)
                           for e in fixed.edits)
            run.forget()
    from_check: Checked | None = None
    if work is schema:  # the node pass rewrites in place: each node at one place
        work = json_tree_copy(schema)
        from_check = check_clean  # same content at the same paths as the check saw
    elif copies and check_clean is not None:
        from_check = check_clean._replace(at={})  # only where `copies` says so
    work, rewritten, found, clean, quiet = node_pass(work, plan, run, changes, refused,
                                                      clean, from_check, copies)
    return work, changed, rewritten, found, clean, quiet


_NONE_DECLINED: frozenset[str] = frozenset()  # a visit's rounds before any fix is refused


def node_pass(root: Any, plan: Plan, run: RunState, changes: list[Change],
               refused: list[Change], was_clean: Clean,
               from_check: Checked | None = None, copies: Origins | None = None,
               ) -> tuple[Any, bool, list[Finding | Unchecked], Clean, bool]:
    """One bottom-up rewrite: each node is fixed rule by rule until no rule fires. Also
    returns the findings of the nodes as they are left, in the order of a check walk:
    when the pass changed nothing, they are the node findings of a check of the result.

    A node the pass before left clean (no rule with a fix firing), met again as the same
    object at the same place with nothing below it replaced since, is clean again with the
    same findings: its rules are not asked twice (fixes build new nodes; they never change
    the one they are given). Likewise, with `from_check` (`root` is a copy of the checked
    document), a node with nothing below it replaced is the node the check saw at that path;
    and with `copies` (`root` came out of a document fix, `Fixed.origins`), a node that
    copies one the check saw is that node, wherever it now stands: node rules read of their
    place only whether it is the root and the keyword holding the node (`NodeContext`).
    Where only the node's own part is what the check saw (something below it changed), the
    rules that do not read below (`Rule.reads_below`) are not asked: what they found there
    stands, and the rules with a fix among them found nothing.

    The last result says whether the document the pass leaves is quiet (no node holds a
    key a document rule needs, `check_recording`): every node of it is one the pass
    visited, a part of a fix's result, or under a keyword the pass skips, and each is
    looked at for those keys.
    """
    rewriter = _NodePass(root, plan, run, changes, refused, was_clean, from_check, copies)
    new, found, _ = rewrite(root, rewriter.visit, skip=plan.profile.opaque_keywords,
                            skipped=rewriter.skipped)
    return new, rewriter.changed, found, rewriter.clean, rewriter.triggers is not None


class _NodePass:
    """The state of one node pass (`node_pass`), its visits as methods. Not closures: the
    compiled build keeps a function's closures in one shared environment that each of them
    refers to, a reference cycle that only the cyclic collector frees, and with it
    everything the pass held."""

    def __init__(self, root: Any, plan: Plan, run: RunState, changes: list[Change],
                 refused: list[Change], was_clean: Clean, from_check: Checked | None,
                 copies: Origins | None, check: list[Finding] | None = None) -> None:
        self.root = root
        self.plan = plan
        self.run = run
        self.changes = changes
        self.refused = refused
        self.was_clean = was_clean
        self.from_check = from_check
        self.copies = copies
        self.changed = False
        # None once a node holds one (or there are none)
        self.triggers: frozenset[str] | None = plan.document_triggers
        self.clean: Clean = {}
        self.reuse = plan.subtree_local and bool(was_clean)
        # the findings of the check riding on the pass (`check_node`), in walk order
        self.check = check

    def visit(self, node: Any, path: Path, keyword: str | None, changed_below: bool,
              ) -> tuple[Any, list[Finding | Unchecked]]:
        """`_visit`, and whether the node it leaves holds a trigger: judged on the node as
        left, so that a key a fix removed (ANN001's `$schema`, ROOT003's trigger) does
        not keep the document rules asked in the next pass."""
        new, found = self._visit(node, path, keyword, changed_below)
        triggers = self.triggers
        if triggers is not None and isinstance(new, dict) and not triggers.isdisjoint(new):
            self.triggers = None
        return new, found

    def _visit(self, node: Any, path: Path, keyword: str | None, changed_below: bool,
               ) -> tuple[Any, list[Finding | Unchecked]]:
        plan, clean = self.plan, self.clean
        triggers = self.triggers
        if self.reuse and not changed_below:
            seen = self.was_clean.get(id(node))
            if seen is not None and seen[0] is node:
                if seen[1] == path:
                    clean[id(node)] = seen
                    return node, list(seen[3])
                if path and seen[1] and seen[2] == keyword:  # moved by a fix: same place
                    there = moved(seen[3], seen[1], path)  # as far as node rules can tell
                    clean[id(node)] = (node, path, keyword, there)
                    return node, list(there)
        own: Sequence[Any] | None = None  # the check's findings on this node's own part
        from_check, copies = self.from_check, self.copies
        if from_check is not None:
            own = from_check.at.get(path)  # a copy of the checked document: same place
            whole = True
            if own is None and copies and path:
                original = copies.get(id(node), NO_COPY)
                if original[0] is node:
                    seen_there = from_check.nodes.get(id(original[1]))
                    if seen_there is not None and seen_there[0] is original[1] \
                            and seen_there[2] == keyword and seen_there[1]:
                        own = moved(seen_there[3], seen_there[1], path)
                        whole = original[2]
            if own is not None and whole and not changed_below:
                if plan.subtree_local:
                    clean[id(node)] = (node, path, keyword, list(own))
                return node, list(own)
        declined: set[str] = set()
        ctx = plan.ctx(self.root, self.run, path, keyword)
        at_root = not path
        for _ in range(MAX_FIXES_PER_NODE):
            rules = plan.node_rule_sets(node, at_root)
            # rules this round does not ask again
            declined_before = frozenset(declined) if declined else _NONE_DECLINED
            hits: dict[str, list[Hit]] = {}
            for rule in rules.fixable:
                if rule.code in declined or (own is not None and not rule.reads_below):
                    continue
                assert rule.fix is not None
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
                if triggers is not None and adds_triggers(fixed.node, node, triggers, clean):
                    self.triggers = triggers = None
                node = fixed.node
                own = None
                self.changed = True
                self.changes.extend(change_of(e.code or rule.code, path + e.rel, e)
                                    for e in fixed.edits)
                break
            else:
                if not hits and not declined_before:  # the usual case: no fix was refused
                    left = self._left(node, ctx, rules.unfixable, declined_before, hits, own)
                    if plan.subtree_local:
                        clean[id(node)] = (node, path, keyword, left)
                    return node, list(left)
                return node, self._left(node, ctx, rules.all, declined_before, hits, own)
        return node, []

    def _left(self, node: Any, ctx: NodeContext, rules: list[Rule],
              declined_before: frozenset[str], hits: dict[str, list[Hit]],
              own: Sequence[Any] | None) -> list[Finding | Unchecked]:
        """The node's findings: this round's hits, and a fresh look by the rules this
        round did not ask (no fix, or declined in an earlier round); with `own`, what the
        check found on the node's own part stands for the rules that do not read below."""
        out: list[Finding | Unchecked] = []
        finding = self.plan.finding
        for rule in rules:
            if own is not None and not rule.reads_below:
                out.extend(f for f in own if f.code == rule.code)
                continue
            if rule.fix is None or rule.code in declined_before:
                found: Any = rule.detect(node, ctx)
            else:
                found = hits.get(rule.code, ())
            for hit in found:
                out.append(finding(rule, ctx.path + hit.rel, hit))
        return out

    def skipped(self, node: Any, path: Path, keyword: str) -> list[Finding | Unchecked]:
        if self.check is not None:  # the check walks what the pass leaves alone
            for below, sub, key in iter_nodes_keyed(node, path, keyword):
                self.check_node(sub, below, key)
        if self.triggers is not None and adds_triggers(node, None, self.triggers):
            self.triggers = None
        return [Unchecked(node, path, keyword)]

    def check_node(self, node: Any, path: Path, keyword: str | None) -> list[Finding] | None:
        """`check.check_node` of the document as given (the node's children not yet
        rewritten), recording what it found where no rule with a fix fired for the visit
        of the node to reuse (`from_check`); stops the pass where the document is not
        quiet."""
        plan, check = self.plan, self.check
        assert check is not None and self.from_check is not None
        triggers = plan.document_triggers
        if triggers is not None and isinstance(node, dict) and not triggers.isdisjoint(node):
            raise _NotQuiet()
        own = check_node(plan, self.run, self.root, node, path, keyword, check)
        if own is not None:
            self.from_check.at[path] = own
        return own

    def check_and_rewrite(self, node: Any, path: Path, keyword: str | None,
                          ) -> tuple[Any, list[Finding | Unchecked], bool]:
        """`rewrite` with `visit`, each node checked first (`check_node`): the first pass
        with the check riding on it (`check_and_transform`). A node the check found clean
        with nothing below it replaced is left as it is without a visit, as `visit` would
        leave it."""
        own = self.check_node(node, path, keyword)
        below: list[Finding | Unchecked] = []
        changed = False
        if isinstance(node, dict):
            skip = self.plan.profile.opaque_keywords
            for rel, child in children(node):
                if rel[0] in skip:
                    below += self.skipped(child, path + rel, str(rel[0]))
                    continue
                new, found, changed_below = self.check_and_rewrite(child, path + rel,
                                                                   str(rel[0]))
                below += found
                if new is not child:
                    set_child(node, rel, new)
                    changed = True
                elif changed_below:
                    changed = True
        if own is not None and not changed:
            kept: Any = own  # the same findings, read as copies where reused
            self.clean[id(node)] = (node, path, keyword, kept)
            return node, own + below, False
        new_node, left = self.visit(node, path, keyword, changed)
        if below:
            left = left + below
        return new_node, left, changed or new_node is not node


def fix_tool_name(info: ToolInfo, plan: Plan, refused: list[Change] | None = None,
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
