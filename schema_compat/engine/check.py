"""The check walk: every rule that may fire on a node asked about it, top-down, once.

While it walks, it records what the transform can reuse (`reuse.Checked`) and gathers what
the reference analysis would walk the document for, which it hands to the run's state
(`RunState.walked`); a document no document rule can fire on (no node holds a key one of
them needs) is quiet, and those rules are not asked.
"""

from __future__ import annotations

from typing import Any

from ..model import (
    Finding,
    Path,
)
from ..rules.base import RunState
from ..rules.support import ToolInfo
from ..schema.ref_analysis import Kids
from ..schema.refs import DEFS_KEYWORDS
from ..schema.walker import children, iter_nodes_keyed
from .plan import Plan
from .reuse import Checked


def check_recording(schema: Any, plan: Plan, run: RunState,
                     ) -> tuple[list[Finding], Checked | None, bool]:
    """What every rule finds on `schema` (as `detected`), and where no rule with a fix
    fired, that node's findings: the transform's first pass, rewriting a copy of the same
    document, is then spared asking those rules again at the same place, and so is a pass
    over the inlined document where a node copies one the check saw (`Fixed.origins`)
    (None: the plan has a rule that reads the whole document, whose answer at a node may
    depend on other nodes).

    Also whether the document is quiet: no node holds a key a document rule needs
    (`Plan.document_triggers`), so no document rule fires on it; they are then not asked,
    which spares their walk of the document (the reference analysis). When it is not, the
    walk has gathered what that analysis walks the document for, and offers it
    (`RunState.walked`)."""
    run.forget()
    if not plan.subtree_local:
        return (document_findings(schema, plan, run) + node_findings(schema, schema, plan, run),
                None, False)
    findings: list[Finding] = []
    checked = Checked({}, {})
    at, nodes = checked
    quiet = plan.document_triggers is not None
    triggers = plan.document_triggers or frozenset()
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
        own = check_node(plan, run, schema, node, path, key, findings)
        if own is not None:
            at[path] = own
            if not quiet:  # by node, for the copies an inlining makes (none without refs)
                nodes[id(node)] = (node, path, key, own)
    if quiet:
        return findings, checked, True
    run.walked = (schema, (kids, refs, defs))
    return document_findings(schema, plan, run) + findings, checked, False


_REF_KEYS = frozenset(("$ref", *DEFS_KEYWORDS))


def check_node(plan: Plan, run: RunState, root: Any, node: Any, path: Path,
               keyword: str | None, out: list[Finding]) -> list[Finding] | None:
    """Every rule that may fire on `node` (of `root`, at `path`) asked about it, once, its
    findings added to `out`. Returns those findings where no rule with a fix fired: what a
    transform pass meeting the same node again may take instead of asking (None where one
    fired, since the pass will fix the node)."""
    ctx = plan.ctx(root, run, path, keyword)
    start = len(out)
    fixable = False
    for rule in plan.node_rules(node, not path):
        for hit in rule.detect(node, ctx):
            out.append(plan.finding(rule, path + hit.rel, hit))
            if rule.fix is not None:
                fixable = True
    return None if fixable else out[start:]


def document_findings(schema: Any, plan: Plan, run: RunState) -> list[Finding]:
    root_ctx = plan.ctx(schema, run)
    return [plan.finding(rule, hit.rel, hit) for rule in plan.document
            for hit in rule.detect(schema, root_ctx)]


def node_findings(root: Any, schema: Any, plan: Plan, run: RunState, base: Path = (),
                   keyword: str | None = None) -> list[Finding]:
    """The node rules' findings on `schema`, a subschema of `root` at `base` (or `root`)."""
    findings: list[Finding] = []
    for path, node, key in iter_nodes_keyed(schema, base, keyword):
        ctx = plan.ctx(root, run, path, key)
        for rule in plan.node_rules(node, not path):
            for hit in rule.detect(node, ctx):
                findings.append(plan.finding(rule, path + hit.rel, hit))
    return findings


def detected(schema: Any, plan: Plan) -> list[Finding]:
    """What every rule's detector finds on `schema`, as a check walk reports it."""
    run = plan.run_state()
    return document_findings(schema, plan, run) + node_findings(schema, schema, plan, run)


def check_tool_level(info: ToolInfo, plan: Plan) -> list[Finding]:
    ctx = plan.ctx(None, RunState())
    return [plan.finding(rule, (), hit, "tool") for rule in plan.tool
            for hit in rule.detect(info, ctx)]
