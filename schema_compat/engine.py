"""The one engine: runs a profile's rules over tools to check them, and applies their
fixes to a fixpoint to transform them.

Check walks the schema top-down once and asks every node rule about every node.
Transform works on a copy: document rules (reference inlining) first, then a bottom-up
rewrite where each node is fixed rule by rule until none fires; passes repeat until one
changes nothing, so what a fix creates (a union from a type list) is fixed in turn. That
last pass has asked every rule about every node of the result, so its findings are the
check of the result: `run` does not walk the result again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from .model import (
    Accepts,
    Change,
    Finding,
    Path,
    Severity,
    ToolDef,
    ToolResult,
    safety_of,
)
from .profiles import Profile, get_profile
from .rules import refs as ref_rules
from .rules.base import Edit, Fixed, Hit, NodeContext, Rule, effect_of_hit
from .rules.registry import RULES, select_codes
from .rules.support import ToolInfo
from .schema.jsoncopy import json_copy, json_tree_copy
from .schema.refs import DEFS_KEYWORDS, Kids
from .schema.walker import children, iter_nodes_keyed, rewrite

MAX_PASSES = 8
MAX_FIXES_PER_NODE = 64


class NodeRules(NamedTuple):
    """The node rules for one set of keys: all of them, and those with and without a fix."""

    all: list[Rule]
    fixable: list[Rule]
    unfixable: list[Rule]


class _Unchecked(NamedTuple):
    """A subtree a node pass leaves alone: checked only if that pass turns out the last
    (usually the rule of the keyword holding it removes it in the same pass)."""

    node: Any
    path: Path
    keyword: str


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
        # Keys one of which some schema node must hold for a document rule to fire (None:
        # a document rule without `triggers` may fire on any document).
        self.document_triggers: frozenset[str] | None = frozenset().union(
            *(r.triggers for r in self.document if r.triggers is not None))
        if any(r.triggers is None for r in self.document):
            self.document_triggers = None
        self._for_keys: dict[frozenset[str] | None, NodeRules] = {}
        self._for_root_keys: dict[frozenset[str] | None, NodeRules] = {}
        # Node rules see only the node's subtree and its place (not the rest of the
        # document), so a subtree that has not changed since a pass found it clean is clean.
        self.subtree_local = not any(r.reads_root for r in self.node)

    def node_rules(self, node: Any, at_root: bool = False) -> list[Rule]:
        """The node rules that may fire on `node`, in profile order: a rule with `triggers`
        only where the node holds one of them, a rule with a `gate` only where it lets it,
        a `root_only` rule only at the root (`at_root`).
        Cached by the node's set of keys (None: not an object), which repeats a great deal
        across a listing, so most detectors are never called on most nodes."""
        return self.node_rule_sets(node, at_root).all

    def node_rule_sets(self, node: Any, at_root: bool = False) -> NodeRules:
        keys = frozenset(node) if isinstance(node, dict) else None
        cache = self._for_root_keys if at_root else self._for_keys
        found = cache.get(keys)
        if found is None:
            rules = [r for r in self.node
                     if (at_root or not r.root_only) and self._may_fire(r, keys)]
            found = cache[keys] = NodeRules(
                rules, [r for r in rules if r.fix is not None],
                [r for r in rules if r.fix is None])
        return found

    def _may_fire(self, rule: Rule, keys: frozenset[str] | None) -> bool:
        if rule.triggers is not None and (keys is None or rule.triggers.isdisjoint(keys)):
            return False
        return rule.gate is None or rule.gate(keys, self.profile)

    def ctx(self, root: Any, path: Path = (), keyword: str | None = None) -> NodeContext:
        # positional: quicker than by keyword in pure Python
        return NodeContext(path, self.profile, keyword, root, self.codes, self.lossless_only)

    def severity(self, rule: Rule) -> Severity:
        return self.profile.severity.get(rule.code, rule.severity)

    def finding(self, rule: Rule, path: Path, hit: Any, scope: str = "schema") -> Finding:
        if rule.fix:
            if hit.safety is not None:
                fix = effect_of_hit(hit.safety, hit.accepts, hit.told)
            else:
                fix = effect_of_hit(rule.safety, rule.accepts, rule.told)
            if fix is not None:
                return Finding(rule.code, rule.name, self.severity(rule), path, hit.message,
                               hit.keyword, rule.fix_title, fix[0], scope,  # type: ignore[arg-type]
                               fix[1], fix[2])
        return Finding(rule.code, rule.name, self.severity(rule), path, hit.message,
                       hit.keyword, None, None, scope)  # type: ignore[arg-type]

    def allows(self, fixed: Fixed) -> bool:
        """Whether the fix may be applied: with lossless-only, only lossless changes (the
        arguments accepted equal, nothing the model was told lost)."""
        return not (self.lossless_only and fixed.safety != "lossless")


def change_of(code: str, path: Path, edit: Edit, scope: str = "schema") -> Change:
    """The change an edit records, with its declared effect and the safety it defines."""
    accepts, told = edit.effect
    return Change(code, path, edit.class_, edit.description, scope,  # type: ignore[arg-type]
                  accepts, told)


def make_plan(profile: str | Profile, select: list[str] | None = None,
              ignore: list[str] | None = None, lossless_only: bool = False) -> Plan:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    if prof is None:
        raise ValueError(f"unknown profile {profile!r}")
    return Plan(prof, select_codes(prof, select, ignore), lossless_only)


def check_schema(schema: Any, plan: Plan) -> list[Finding]:
    ref_rules.clear_cache()
    return _document_findings(schema, plan) + _node_findings(schema, schema, plan)


class Checked(NamedTuple):
    """The nodes of a check where no rule with a fix fired, with their findings."""

    at: dict[Path, list[Finding]]  # path -> the findings there
    # id(node) -> (node, path, keyword holding it, the findings there)
    nodes: dict[int, tuple[Any, Path, str | None, list[Finding]]]


def _check_recording(schema: Any, plan: Plan,
                     ) -> tuple[list[Finding], Checked | None, bool]:
    """`check_schema`, and where the check found no rule with a fix firing, with that
    node's findings: the transform's first pass, rewriting a copy of the same document, is
    then spared asking those rules again at the same place, and so is a pass over the
    inlined document where a node copies one the check saw (`Fixed.origins`) (None: the
    plan has a rule that reads the whole document, whose answer at a node may depend on
    other nodes).

    Also whether the document is quiet: no node holds a key a document rule needs
    (`Plan.document_triggers`), so no document rule fires on it; they are then not asked,
    which spares their walk of the document (the reference analysis). When it is not, the
    walk has gathered what that analysis walks the document for, and offers it
    (`rules.refs.offer_walk`)."""
    if not plan.subtree_local:
        return check_schema(schema, plan), None, False
    ref_rules.clear_cache()
    findings: list[Finding] = []
    checked = Checked({}, {})
    at, nodes = checked
    quiet = plan.document_triggers is not None
    triggers = plan.document_triggers or frozenset()
    add, make_ctx, rules_for, finding = findings.append, plan.ctx, plan.node_rules, plan.finding
    # The walk of `iter_nodes_keyed`, written out to keep what the analysis needs. While
    # the document is quiet, no node so far holds a reference key when the triggers
    # include them (as the reference rules' do), so there is nothing to keep yet; the
    # children of the nodes met before are worked out again where they are needed.
    kids: Kids = {}
    refs: list[tuple[Path, dict[str, Any]]] = []
    defs: list[tuple[Path, str]] = []
    keep_all = not _REF_KEYS.issubset(triggers)
    stack: list[tuple[Path, Any, str | None]] = [((), schema, None)]
    while stack:
        path, node, key = stack.pop()
        if isinstance(node, dict):
            below = children(node)
            if quiet and not triggers.isdisjoint(node):
                quiet = False
            if not quiet or keep_all:
                kids[id(node)] = below
                if not _REF_KEYS.isdisjoint(node):
                    if "$ref" in node:
                        refs.append((path, node))
                    defs.extend((path, k) for k in DEFS_KEYWORDS if k in node)
            for rel, child in below[::-1]:  # (mypyc cannot compile reversed() here)
                stack.append((path + rel, child, str(rel[0])))
        ctx = make_ctx(schema, path, key)
        start = len(findings)
        clean = True
        for rule in rules_for(node, not path):
            for hit in rule.detect(node, ctx):
                add(finding(rule, path + hit.rel, hit))
                if rule.fix is not None:
                    clean = False
        if clean:
            at[path] = own = findings[start:]
            if not quiet:  # by node, for the copies an inlining makes (none without refs)
                nodes[id(node)] = (node, path, key, own)
    if quiet:
        return findings, checked, True
    ref_rules.offer_walk(schema, (kids, refs, defs))
    return _document_findings(schema, plan) + findings, checked, False


_REF_KEYS = frozenset(("$ref", *DEFS_KEYWORDS))


_CONTAINERS = (dict, list)
_NO_CLEAN: tuple[Any, ...] = (None,)


def _adds_triggers(new: Any, old: Any, triggers: frozenset[str],
                   looked_at: Clean | None = None) -> bool:
    """Whether `new`, a fix's result for `old`, holds one of the `triggers` keys: in any
    node but the subschemas of `old` it kept and the nodes of `looked_at` (a pass's clean
    nodes, as they are), which a node pass has looked at already, subtree and all (with
    `old` None: in any node of `new`)."""
    if isinstance(new, dict) and isinstance(old, dict):
        # The usual fix removes or sets a few keywords and keeps every other value as it
        # was: then only the new node's own keys are new.
        if not triggers.isdisjoint(new):
            return True
        get = old.get
        for k, v in new.items():
            if v is not get(k) and isinstance(v, _CONTAINERS):
                break
        else:
            return False
    kept = {id(child) for _, child in children(old)}
    seen = looked_at or {}
    stack = [new]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if not triggers.isdisjoint(node):
                return True
            stack.extend(child for _, child in children(node) if id(child) not in kept
                         and seen.get(id(child), _NO_CLEAN)[0] is not child)
    return False


def _document_findings(schema: Any, plan: Plan) -> list[Finding]:
    root_ctx = plan.ctx(schema)
    return [plan.finding(rule, hit.rel, hit) for rule in plan.document
            for hit in rule.detect(schema, root_ctx)]


def _node_findings(root: Any, schema: Any, plan: Plan, base: Path = (),
                   keyword: str | None = None) -> list[Finding]:
    """The node rules' findings on `schema`, a subschema of `root` at `base` (or `root`)."""
    findings: list[Finding] = []
    for path, node, key in iter_nodes_keyed(schema, base, keyword):
        ctx = plan.ctx(root, path, key)
        for rule in plan.node_rules(node, not path):
            for hit in rule.detect(node, ctx):
                findings.append(plan.finding(rule, path + hit.rel, hit))
    return findings


def check_tool_level(info: ToolInfo, plan: Plan) -> list[Finding]:
    ctx = plan.ctx(None)
    return [plan.finding(rule, (), hit, "tool") for rule in plan.tool
            for hit in rule.detect(info, ctx)]


def transform_schema(schema: Any, plan: Plan) -> tuple[Any, list[Change]]:
    work, changes, _ = _transform(schema, plan)
    return work, changes


def _transform(schema: Any, plan: Plan, checked: bool = False,
               check_clean: Checked | None = None, quiet: bool = False,
               ) -> tuple[Any, list[Change], list[Finding] | None]:
    """`transform_schema`, and what `check_schema` finds in the result: the last pass,
    which changes nothing, runs every detector on the final document anyway, so it
    collects their findings instead of a second walk doing it again (None when the
    passes ran out before one changed nothing).

    The first pass's document rules look at `schema` itself: their fixes build a new
    document, so the copy is made only when none applies; and with `checked` (the caller
    has just run `check_schema` on it, unchanged since) they reuse that check's
    reference analysis. `check_clean` is what that check recorded (`_check_recording`):
    the first node pass reuses it where the copy is still the document the check saw.
    With `quiet` (that check found `schema` quiet), no document rule is asked while the
    document stays so, which each node pass tells of the document it leaves.
    """
    work = schema
    changes: list[Change] = []
    clean: Clean = {}
    for _ in range(MAX_PASSES):
        changed = False
        if not checked:
            ref_rules.clear_cache()
        checked = False
        done: set[Any] = set()
        copies: Origins | None = None
        for rule in () if quiet else plan.document:
            if rule.fix is None or rule.fix in done:
                continue
            if not any(True for _ in rule.detect(work, plan.ctx(work))):
                continue
            done.add(rule.fix)
            fixed = rule.fix(work, plan.ctx(work))
            if fixed is not None and plan.allows(fixed):
                # what the result copies of `schema` itself is what the check saw
                copies = fixed.origins if work is schema else None
                work = fixed.node
                changed = True
                changes.extend(change_of(e.code or rule.code, e.rel, e)
                               for e in fixed.edits)
                ref_rules.clear_cache()
        from_check: Checked | None = None
        if work is schema:  # the node pass rewrites in place: each node at one place
            work = json_tree_copy(schema)
            from_check = check_clean  # same content at the same paths as the check saw
        elif copies and check_clean is not None:
            from_check = check_clean._replace(at={})  # only where `copies` says so
        check_clean = None
        work, rewritten, found, clean, quiet = _node_pass(work, plan, changes, clean,
                                                          from_check, copies)
        if not (changed or rewritten):
            # Nothing changed since this pass's document rules looked, so their reference
            # analysis of `work` is still current: no cache clearing here.
            left = [] if quiet else _document_findings(work, plan)
            for item in found:
                if isinstance(item, _Unchecked):
                    left += _node_findings(work, item.node, plan, item.path, item.keyword)
                else:
                    left.append(item)
            return work, changes, left
    return work, changes, None


_NONE_DECLINED: frozenset[str] = frozenset()  # a visit's rounds before any fix is refused

# id(node) -> (node, path, keyword, findings) for nodes a pass left with no fixable rule
# firing
Clean = dict[int, tuple[Any, Path, "str | None", list["Finding | _Unchecked"]]]
# id(node) -> (node, the node it copies, whether the copy is whole): `Fixed.origins`
Origins = dict[int, tuple[Any, Any, bool]]
_NO_COPY: tuple[Any, Any, bool] = (None, None, False)


def _moved(found: Sequence[Finding | _Unchecked], old: Path, new: Path,
           ) -> list[Finding | _Unchecked]:
    """Findings made at `old`, said of the same node standing at `new`."""
    cut = len(old)
    return [f._replace(path=new + f.path[cut:]) for f in found]


def _node_pass(root: Any, plan: Plan, changes: list[Change], was_clean: Clean,
               from_check: Checked | None = None, copies: Origins | None = None,
               ) -> tuple[Any, bool, list[Finding | _Unchecked], Clean, bool]:
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
    key a document rule needs, `_check_recording`): every node of it is one the pass
    visited, a part of a fix's result, or under a keyword the pass skips, and each is
    looked at for those keys.
    """
    rewriter = _NodePass(root, plan, changes, was_clean, from_check, copies)
    new, found, _ = rewrite(root, rewriter.visit, skip=plan.profile.opaque_keywords,
                            skipped=rewriter.skipped)
    return new, rewriter.changed, found, rewriter.clean, rewriter.triggers is not None


class _NodePass:
    """The state of one node pass (`_node_pass`), its visits as methods. Not closures: the
    compiled build keeps a function's closures in one shared environment that each of them
    refers to, a reference cycle that only the cyclic collector frees, and with it
    everything the pass held."""

    def __init__(self, root: Any, plan: Plan, changes: list[Change], was_clean: Clean,
                 from_check: Checked | None, copies: Origins | None) -> None:
        self.root = root
        self.plan = plan
        self.changes = changes
        self.was_clean = was_clean
        self.from_check = from_check
        self.copies = copies
        self.changed = False
        # None once a node holds one (or there are none)
        self.triggers: frozenset[str] | None = plan.document_triggers
        self.clean: Clean = {}
        self.reuse = plan.subtree_local and bool(was_clean)

    def visit(self, node: Any, path: Path, keyword: str | None, changed_below: bool,
              ) -> tuple[Any, list[Finding | _Unchecked]]:
        plan, clean = self.plan, self.clean
        triggers = self.triggers
        if triggers is not None and isinstance(node, dict) and not triggers.isdisjoint(node):
            self.triggers = triggers = None
        if self.reuse and not changed_below:
            seen = self.was_clean.get(id(node))
            if seen is not None and seen[0] is node:
                if seen[1] == path:
                    clean[id(node)] = seen
                    return node, list(seen[3])
                if path and seen[1] and seen[2] == keyword:  # moved by a fix: same place
                    moved = _moved(seen[3], seen[1], path)  # as far as node rules can tell
                    clean[id(node)] = (node, path, keyword, moved)
                    return node, list(moved)
        own: Sequence[Any] | None = None  # the check's findings on this node's own part
        from_check, copies = self.from_check, self.copies
        if from_check is not None:
            own = from_check.at.get(path)  # a copy of the checked document: same place
            whole = True
            if own is None and copies and path:
                original = copies.get(id(node), _NO_COPY)
                if original[0] is node:
                    seen_there = from_check.nodes.get(id(original[1]))
                    if seen_there is not None and seen_there[0] is original[1] \
                            and seen_there[2] == keyword and seen_there[1]:
                        own = _moved(seen_there[3], seen_there[1], path)
                        whole = original[2]
            if own is not None and whole and not changed_below:
                if plan.subtree_local:
                    clean[id(node)] = (node, path, keyword, list(own))
                return node, list(own)
        declined: set[str] = set()
        ctx = plan.ctx(self.root, path, keyword)
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
                fixed = rule.fix(node, ctx)
                if fixed is None or not plan.allows(fixed):
                    declined.add(rule.code)
                    hits[rule.code] = found
                    continue
                if triggers is not None and _adds_triggers(fixed.node, node, triggers, clean):
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
              own: Sequence[Any] | None) -> list[Finding | _Unchecked]:
        """The node's findings: this round's hits, and a fresh look by the rules this
        round did not ask (no fix, or declined in an earlier round); with `own`, what the
        check found on the node's own part stands for the rules that do not read below."""
        out: list[Finding | _Unchecked] = []
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

    def skipped(self, node: Any, path: Path, keyword: str) -> list[Finding | _Unchecked]:
        if self.triggers is not None and _adds_triggers(node, None, self.triggers):
            self.triggers = None
        return [_Unchecked(node, path, keyword)]


def fix_tool_name(info: ToolInfo, plan: Plan) -> tuple[str, list[Change]]:
    changes: list[Change] = []
    ctx = plan.ctx(None)
    for rule in plan.tool:
        if rule.fix is None or not any(True for _ in rule.detect(info, ctx)):
            continue
        fixed = rule.fix(info, ctx)
        if fixed is None or not plan.allows(fixed):
            continue
        info = info._replace(name=fixed.node)
        changes.extend(change_of(rule.code, (), e, "tool") for e in fixed.edits)
    return info.name, changes


_NO_TALLIES: Mapping[str, int] = MappingProxyType({})
_TOLD_RANK = {"kept": 0, "described": 1, "lost": 2}


def as_made(findings: list[Finding], changes: list[Change],
            left: set[tuple[str, Path]]) -> list[Finding]:
    """The findings with each fix's effect as the transform made it, not as predicted: the
    changes of the finding's rule at its path, and the changes no finding predicted (on a
    node a fix made: the union a split type list becomes) counted toward the deepest finding
    above them. So a tool's fix status (its worst change) is the worst of its findings'.
    A finding whose fix was not made, and that the result no longer has, was settled by the
    change above it; one still standing (`left`) keeps the predicted effect."""
    made: dict[int, list[Change]] = {}
    at: dict[tuple[str, str, Path], list[int]] = {}
    holders: dict[Path, list[int]] = {}
    for i, f in enumerate(findings):
        if f.fix_safety is not None:
            at.setdefault((f.scope, f.code, f.path), []).append(i)
            holders.setdefault(f.path, []).append(i)
            if f.path:
                holders.setdefault(f.path[:-1], []).append(i)
    if not at:
        return findings
    # A finding inside a definition is fixed where the definition was copied to: the
    # changes of its rule whose path ends with its path below the definition.
    in_defs: dict[tuple[str, Path], list[int]] = {}
    for (scope, code, path), indices in at.items():
        if scope == "schema" and len(path) > 3 and path[0] in DEFS_KEYWORDS:
            in_defs.setdefault((code, path[2:]), []).extend(indices)
    longest = max((len(rest) for _, rest in in_defs), default=0)
    for c in changes:
        owners = at.get((c.scope, c.code, c.path))
        if owners is None and in_defs and c.scope == "schema" and c.path[:1] not in (
                ("$defs",), ("definitions",)):
            for cut in range(min(longest, len(c.path)), 0, -1):
                owners = in_defs.get((c.code, c.path[-cut:]))
                if owners is not None:
                    break
        if owners is None and c.scope == "schema":
            for cut in range(len(c.path), -1, -1):
                found = holders.get(c.path[:cut])
                if found:
                    same = [i for i in found if findings[i].code == c.code]
                    owners = same or [found[0]]
                    break
        for i in owners or ():
            made.setdefault(i, []).append(c)
    # A finding whose node a change removed or replaced whole (an `additionalProperties`
    # schema dropped with what was wrong inside it) was settled by that change.
    by_path = {c.path: c for c in changes if c.scope == "schema"}
    for indices in at.values():
        for i in indices:
            f = findings[i]
            if i in made or f.scope != "schema" or (f.code, f.path) in left:
                continue
            for cut in range(len(f.path), -1, -1):
                settled = by_path.get(f.path[:cut])
                if settled is not None:
                    made[i] = [settled]
                    break
    if not made:
        return findings
    out = list(findings)
    for i, done in made.items():
        effects = [c.effect for c in done]
        narrows = any(a in ("narrower", "changed") for a, _ in effects)
        widens = any(a in ("wider", "changed") for a, _ in effects)
        accepts: Accepts = ("changed" if widens else "narrower") if narrows else \
            ("wider" if widens else "equal")
        told = max((t for _, t in effects), key=_TOLD_RANK.__getitem__)
        out[i] = out[i]._replace(fix_safety=safety_of(accepts, told), fix_accepts=accepts,
                                 fix_told=told)
    return out


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
    listing = _Listing(tools, plan, plan_for, keep_schemas)
    for tool in tools:
        yield listing.run(tool)


class _Listing:
    """What the tools of one run share as they are checked in turn. Names and counts are
    per source: one source is one server's listing, sent together; two snapshot files
    checked in one run are not one request."""

    def __init__(self, tools: Sequence[ToolDef], plan: Plan,
                 plan_for: Callable[[ToolDef], Plan] | None, keep_schemas: bool) -> None:
        self.base = plan
        self.plan_for = plan_for
        self.keep_schemas = keep_schemas
        self.original_names: dict[str, set[str]] = {}
        self.new_names: dict[str, set[str]] = {}
        self.seen: dict[str, int] = {}  # tools of each source met so far
        self.totals: dict[str, int] = {}
        self.tally_rules = [r for r in plan.tool if r.tally is not None]
        # (source, transformed) -> sums
        self.tallies: dict[tuple[str, bool], Counter[str]] = {}
        for tool in tools:
            self.totals[tool.source] = self.totals.get(tool.source, 0) + 1

    def run(self, tool: ToolDef) -> ToolResult:
        base = self.base
        plan = self.plan_for(tool) if self.plan_for else base
        before = self.original_names.setdefault(tool.source, set())
        renamed = self.new_names.setdefault(tool.source, set())
        tallies_before: Mapping[str, int] = _NO_TALLIES  # no rule counts anything per
        tallies_after: Mapping[str, int] = _NO_TALLIES  # request (most profiles)
        if self.tally_rules:
            sums_before = self.tallies.setdefault((tool.source, False), Counter())
            sums_after = self.tallies.setdefault((tool.source, True), Counter())
            tallies_before, tallies_after = dict(sums_before), dict(sums_after)
        position, total = self.seen.get(tool.source, 0), self.totals[tool.source]
        self.seen[tool.source] = position + 1
        info = ToolInfo(tool.name, tool.description, position, before, total,
                        tool.schema, tallies_before)
        no_params = tool.schema is None and tool.schema_optional
        findings = check_tool_level(info, plan)
        new_schema: Any = None
        changes: list[Change] = []
        schema_left: list[Finding] = []
        if not no_params:
            schema_findings, check_clean, quiet = _check_recording(tool.schema, plan)
            findings += schema_findings
            if any(RULES[f.code].fix is not None for f in schema_findings):
                new_schema, changes, left = _transform(tool.schema, plan, checked=True,
                                                       check_clean=check_clean, quiet=quiet)
                schema_left = check_schema(new_schema, plan) if left is None else left
            else:
                # No rule with a fix fired, so a transform would find the same nodes and
                # change nothing: skip its passes and the second check walk.
                new_schema, schema_left = json_copy(tool.schema), schema_findings
        new_name, name_changes = fix_tool_name(
            ToolInfo(tool.name, tool.description, position, renamed, total, tool.schema,
                     tallies_before), plan)
        after = ToolInfo(new_name, tool.description, position, renamed, total,
                         new_schema, tallies_after)
        remaining = check_tool_level(after, plan) + schema_left
        before.add(tool.name)
        renamed.add(new_name)
        for rule in self.tally_rules:
            assert rule.tally is not None
            sums_before.update(rule.tally(tool.schema))
            sums_after.update(rule.tally(new_schema))
        if changes or name_changes:
            findings = as_made(findings, name_changes + changes,
                               {(f.code, f.path) for f in remaining})
        return ToolResult(
            tool=tool, profile=base.profile.name, findings=tuple(findings),
            changes=tuple(name_changes + changes), transformed_name=new_name,
            transformed_schema=new_schema if self.keep_schemas else None,
            remaining=tuple(remaining),
        )
