"""A finding's fix as the transform made it (or refused it), not as predicted.

The check finds; the transform changes. Each change and each refused fix is attributed to
the finding it answers (its rule at its path, at the definition a copy came from, or the
deepest finding above it), so a finding's fix, a tool's fix status (its worst change) and
the summary of a check can never disagree with what `transform` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import (
    Change,
    Finding,
    Path,
    safety_of,
)
from ..schema.refs import DEFS_KEYWORDS

_TOLD_RANK = {"kept": 0, "described": 1, "lost": 2}


def as_made(findings: list[Finding], changes: list[Change],
            left: set[tuple[str, Path]], refused: Sequence[Change] = ()) -> list[Finding]:
    """The findings with each fix's effect as the transform made it: the changes of the
    finding's rule at its path, and the changes no finding stands for (on a node a fix
    made: the union a split type list becomes) counted toward the deepest finding above
    them. So a tool's fix status (its worst change) is the worst of its findings'.

    A finding its rule changed nothing for at its place has the effect of the fix the
    transform refused for it (`refused`: with lossless-only, a fix that was not lossless,
    attributed as a change is, but only to findings of its own rule: where none is above
    it, the finding of its rule left in the result stands for it); else, where its rule
    changed something below it that no finding there holds, that change's (a `$ref`
    replaced by the copy of its target, in which the recursion was cut); else, gone from
    the result (not in `left`), it was settled by the change that removed or replaced its
    node, together with what its rule then did on the node that change made (branches
    merged into one node whose enum is then described, a definition's copies once the
    definitions are dropped). One still standing, with none of these, keeps the effect its
    rule declares. So a finding says the same of its fix with lossless-only as without,
    where the transform meets the same nodes: a fix refused is recorded as if made."""
    owners = _Owners(findings)
    if not owners.at:
        return findings
    made, spread = _answered(changes, owners, left)
    would, spread_refused = _answered(_last_refusals(refused), owners, foreign=False)
    by_path = {c.path: c for c in changes if c.scope == "schema"}
    out = list(findings)
    for indices in owners.at.values():
        for i in indices:
            f = findings[i]
            done = made.get(i)
            if i in would and not (done and any(c.code == f.code for c in done)):
                # as if made, beside the changes of other rules made there
                done = would[i] if done is None else list(dict.fromkeys(done + would[i]))
            elif done is None and f.scope == "schema" and (f.code, f.path) not in left:
                for cut in range(len(f.path), -1, -1):
                    settled = by_path.get(f.path[:cut])
                    if settled is not None:
                        # the change is at the node it replaced, or at one of its keywords
                        node = (f.code, f.path[:max(cut - 1, 0)])
                        then = spread.get(node) or spread_refused.get(node) or []
                        done = [settled, *then]
                        break
            if done:
                out[i] = _with_effect(f, done)
    return out


_Spread = dict[tuple[str, Path], list[Change]]


def _answered(changes: Sequence[Change], owners: _Owners,
              left: set[tuple[str, Path]] | None = None, foreign: bool = True,
              ) -> tuple[dict[int, list[Change]], _Spread]:
    """The changes each finding answers for (`_Owners.of`); and for a finding its rule
    changed nothing for at its place (not one still standing, `left`), its rule's changes
    below its node that no finding there holds. Also those changes, by their rule and each
    node above them. Without `foreign`, a change no finding of its rule answers is counted
    toward none (refusals: see `as_made`)."""
    made: dict[int, list[Change]] = {}
    spread: _Spread = {}
    for c in changes:
        found, held = owners.of(c, foreign)
        for i in found:
            made.setdefault(i, []).append(c)
        if not held and c.scope == "schema":
            for cut in range(len(c.path) + 1):
                spread.setdefault((c.code, c.path[:cut]), []).append(c)
    if not spread:
        return made, spread
    for indices in owners.at.values():
        for i in indices:
            f = owners.findings[i]
            if f.scope != "schema" or (left is not None and (f.code, f.path) in left):
                continue
            done = made.get(i, [])
            if any(c.code == f.code for c in done):
                continue
            below = spread.get((f.code, _node_of(f)))
            if below:
                made[i] = done + below
    return made, spread


class _Owners:
    """Which findings a change (made or refused) answers: those of its rule at its path
    (`at`); else those at the definition it copies (`in_defs`, by the path below the
    definition: the finding's own, or that of its node where it was found at one of its
    keywords, `_node_of`); else the deepest finding above it, of its rule if there
    is one there (`holders`, by the finding's path and its node's)."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        self.at: dict[tuple[str, str, Path], list[int]] = {}
        self.holders: dict[Path, list[int]] = {}
        for i, f in enumerate(findings):
            if f.fix_safety is not None:
                self.at.setdefault((f.scope, f.code, f.path), []).append(i)
                self.holders.setdefault(f.path, []).append(i)
                if f.path:
                    self.holders.setdefault(f.path[:-1], []).append(i)
        # A finding inside a definition is fixed where the definition was copied to.
        self.in_defs: dict[tuple[str, Path], list[int]] = {}
        for (scope, code, path), indices in self.at.items():
            if scope == "schema" and len(path) > 3 and path[0] in DEFS_KEYWORDS:
                self.in_defs.setdefault((code, path[2:]), []).extend(indices)
                for i in indices:
                    node = _node_of(findings[i])
                    if len(node) > 2 and node != path:
                        self.in_defs.setdefault((code, node[2:]), []).append(i)
        self.longest = max((len(rest) for _, rest in self.in_defs), default=0)

    def of(self, c: Change, foreign: bool = True) -> tuple[list[int], bool]:
        """The findings `c` answers, and whether one holds it as its own rule's change at
        its place (at its path, or as the deepest finding of its rule above it), rather
        than at a copy of its definition or for want of a finding of its rule (then the
        deepest finding above it, with `foreign`, else none)."""
        owners = self.at.get((c.scope, c.code, c.path))
        if owners is not None:
            return owners, True
        if self.in_defs and c.scope == "schema" and c.path[:1] not in (
                ("$defs",), ("definitions",)):
            for cut in range(min(self.longest, len(c.path)), 0, -1):
                owners = self.in_defs.get((c.code, c.path[-cut:]))
                if owners is not None:
                    return owners, False
        if c.scope == "schema":
            for cut in range(len(c.path), -1, -1):
                found = self.holders.get(c.path[:cut])
                if found:
                    same = [i for i in found if self.findings[i].code == c.code]
                    if same:
                        return same, True
                    return ([found[0]] if foreign else []), False
        return [], False


def _last_refusals(refused: Sequence[Change]) -> list[Change]:
    """Each refusal as last met: a refused fix is met again on every pass, on the node as
    the passes leave it (a placeholder's effect changes once a fix types its node), so of
    the refusals of one rule at one place the last stands for them, which is what a check
    of the result finds there."""
    last: dict[tuple[str, str, Path], Change] = {}
    for c in refused:
        last.pop((c.scope, c.code, c.path), None)  # keep the order in which they were last met
        last[(c.scope, c.code, c.path)] = c
    return list(last.values())


def _node_of(finding: Finding) -> Path:
    """The path of the node a finding is about: a finding made at one of a node's keywords
    (a `$ref`) is about that node, where the changes its fix makes stand."""
    path = finding.path
    return path[:-1] if path and path[-1] == finding.keyword else path


def _with_effect(finding: Finding, done: Sequence[Change]) -> Finding:
    """The finding with the effect of these changes, together, as its fix's (itself where
    it has that effect: most, one change as its rule declared it)."""
    accepts, told = done[0].effect
    for c in done[1:]:
        more, more_told = c.effect
        if more != accepts and more != "equal":
            accepts = more if accepts == "equal" else "changed"
        told = max(told, more_told, key=_TOLD_RANK.__getitem__)
    safety = safety_of(accepts, told)
    if (safety, accepts, told) == (finding.fix_safety, finding.fix_accepts, finding.fix_told):
        return finding
    return finding._replace(fix_safety=safety, fix_accepts=accepts, fix_told=told)


def as_left(remaining: list[Finding], refused: Sequence[Change]) -> list[Finding]:
    """The findings left after the transform, each with the effect of the fix the
    transform refused for it (with lossless-only), attributed as `as_made` attributes it:
    what a check of the result says of them."""
    if not refused:
        return remaining
    would, _ = _answered(_last_refusals(refused), _Owners(remaining), foreign=False)
    out = list(remaining)
    for i, done in would.items():
        out[i] = _with_effect(out[i], done)
    return out
