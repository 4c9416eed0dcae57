"""A finding's fix as the transform made it (or refused it), not as predicted.

The check finds; the transform changes. Each change and each refused fix is attributed to
the finding it answers (its rule at its path, at the definition a copy came from, or the
deepest finding above it), so a finding's fix, a tool's fix status (its worst change) and
the summary of a check can never disagree with what `transform` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import (
    Accepts,
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
    A finding whose fix was not made, and that the result no longer has, was settled by the
    change above it; one still standing (`left`) has the effect of the fix the transform
    refused there (`refused`: with lossless-only, a fix that was not lossless), or, where
    no fix was tried, the one its rule declares."""
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
        owners = _same_rule(c, at, in_defs, longest)
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
    if refused:
        would: dict[int, list[Change]] = {}
        for c in refused:
            for i in _same_rule(c, at, in_defs, longest) or ():
                if i not in made:
                    would.setdefault(i, []).append(c)
        for i, done in would.items():  # each refusal is met again on every pass
            made[i] = list(dict.fromkeys(done))
    if not made:
        return findings
    out = list(findings)
    for i, done in made.items():
        out[i] = _with_effect(out[i], done)
    return out


def _same_rule(c: Change, at: dict[tuple[str, str, Path], list[int]],
               in_defs: dict[tuple[str, Path], list[int]], longest: int) -> list[int] | None:
    """The findings of the change's rule at its path (`at`), or at the definition it
    copies (`in_defs`, by the path below the definition, at most `longest` long)."""
    owners = at.get((c.scope, c.code, c.path))
    if owners is None and in_defs and c.scope == "schema" and c.path[:1] not in (
            ("$defs",), ("definitions",)):
        for cut in range(min(longest, len(c.path)), 0, -1):
            owners = in_defs.get((c.code, c.path[-cut:]))
            if owners is not None:
                break
    return owners


def _with_effect(finding: Finding, done: Sequence[Change]) -> Finding:
    """The finding with the effect of these changes, together, as its fix's."""
    effects = [c.effect for c in done]
    narrows = any(a in ("narrower", "changed") for a, _ in effects)
    widens = any(a in ("wider", "changed") for a, _ in effects)
    accepts: Accepts = ("changed" if widens else "narrower") if narrows else \
        ("wider" if widens else "equal")
    told = max((t for _, t in effects), key=_TOLD_RANK.__getitem__)
    return finding._replace(fix_safety=safety_of(accepts, told), fix_accepts=accepts,
                            fix_told=told)


def as_left(remaining: list[Finding], refused: Sequence[Change]) -> list[Finding]:
    """The findings left after the transform, each standing one with the effect of the fix
    the transform refused at its place (with lossless-only), as `as_made` gives them."""
    if not refused:
        return remaining
    at: dict[tuple[str, str, Path], list[Change]] = {}
    for c in refused:
        found = at.setdefault((c.scope, c.code, c.path), [])
        if c not in found:
            found.append(c)
    return [_with_effect(f, at[(f.scope, f.code, f.path)])
            if f.fix_safety is not None and (f.scope, f.code, f.path) in at else f
            for f in remaining]
