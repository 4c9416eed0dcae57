"""A run's rule set: the rules of a profile split by scope, which of them may fire on a node
with a given set of keys, the profile's severities, and the one place `lossless_only`
decides whether a fix is applied (`RuleSet.fix`).

A rule set is made once and used for many tools (the CLI validates options into one; the proxy
keeps one): it holds no state of any run (that is `RunState`, one per document).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..model import (
    JSON_SCHEMA,
    Change,
    Finding,
    Path,
    Severity,
    written_dialect,
)
from ..profiles import Profile, get_profile
from ..rules.base import Edit, Fixed, NodeContext, Rule, RunState, effect_of_hit
from ..rules.registry import RULES, claimed_keywords, select_codes


class NodeRules(NamedTuple):
    """The node rules for one set of keys: all of them, and those with and without a fix."""

    all: list[Rule]
    fixable: list[Rule]
    unfixable: list[Rule]


class RuleSet:
    """The rules of one run, split by scope, with the profile's severities applied."""

    def __init__(self, profile: Profile, codes: Sequence[str], lossless_only: bool) -> None:
        self.profile = profile
        self.codes = frozenset(codes)
        self.lossless_only = lossless_only
        self.claimed = claimed_keywords(profile)
        rules = [RULES[c] for c in codes]
        # The coordination the rules declare (`Rule.defers_to`, `Rule.acts_for`): which of
        # the rules they name are in force this run, for them to read.
        self.in_force = self.codes.intersection(
            c for r in rules for c in (*r.defers_to, *r.acts_for))
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

    def node_rules(self, node: Any) -> NodeRules:
        """The node rules that may fire on `node`, in profile order: a rule with `triggers`
        only where the node holds one of them, a rule with a `gate` only where it lets it.
        Cached by the node's set of keys (None: not an object), which repeats a great deal
        across a listing, so most detectors are never called on most nodes."""
        keys = frozenset(node) if isinstance(node, dict) else None
        found = self._for_keys.get(keys)
        if found is None:
            rules = [r for r in self.node if self._may_fire(r, keys)]
            found = self._for_keys[keys] = NodeRules(
                rules, [r for r in rules if r.fix is not None],
                [r for r in rules if r.fix is None])
        return found

    def _may_fire(self, rule: Rule, keys: frozenset[str] | None) -> bool:
        if rule.triggers is not None and (keys is None or rule.triggers.isdisjoint(keys)):
            return False
        return rule.gate is None or rule.gate(keys, self.profile)

    def ctx(self, root: Any, run: RunState, path: Path = (), keyword: str | None = None,
            ) -> NodeContext:
        # positional: quicker than by keyword in pure Python
        return NodeContext(path, self.profile, keyword, root, self.in_force, run)

    def run_state(self, dialect: str = JSON_SCHEMA) -> RunState:
        """A fresh memory for the rules, for one document of a run, read in `dialect`."""
        return RunState(self.claimed, dialect)

    @property
    def dialect(self) -> str:
        """The dialect the profile's output is written in (`model.written_dialect`)."""
        return written_dialect(self.profile.nullable_keyword)

    def severity(self, rule: Rule) -> Severity:
        return self.profile.severity.get(rule.code, rule.severity)

    def finding(self, rule: Rule, path: Path, hit: Any, scope: str = "schema") -> Finding:
        if rule.fix and hit.fixable:
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

    def fix(self, rule: Rule, node: Any, ctx: NodeContext) -> tuple[Fixed | None, Fixed | None]:
        """The rule's fix of `node` as this run may apply it, and the fix it refused (if
        any): the one place `lossless_only` is applied. With it, only lossless changes are
        made (the arguments accepted equal, nothing the model was told lost): a fix making
        others gives way to the lossless part of it (`Rule.lossless_fix`), or is refused,
        and then what it would have done is the finding's record of the fix not made."""
        assert rule.fix is not None
        fixed = rule.fix(node, ctx)
        if fixed is None or not self.lossless_only or fixed.safety == "lossless":
            return fixed, None
        if rule.lossless_fix is not None:
            part = rule.lossless_fix(node, ctx)
            if part is not None and part.safety == "lossless":
                return part, None
        return None, fixed


def change_of(code: str, path: Path, edit: Edit, scope: str = "schema") -> Change:
    """The change an edit records, with its declared effect and the safety it defines."""
    accepts, told = edit.effect
    return Change(code, path, edit.class_, edit.description, scope,  # type: ignore[arg-type]
                  accepts, told)


def make_ruleset(profile: str | Profile, select: list[str] | None = None,
              ignore: list[str] | None = None, lossless_only: bool = False) -> RuleSet:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    if prof is None:
        raise ValueError(f"unknown profile {profile!r}")
    return RuleSet(prof, select_codes(prof, select, ignore), lossless_only)
