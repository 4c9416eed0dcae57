"""Which tools are sent with `strict: true` when strict tools share per-request budgets.

The policy (deterministic: it reads only the tools, their order and the user's globs):

1. A tool can be strict only when its strict schema has no error left and, alone, fits
   every budget.
2. Candidates are taken in this order: the tools matching a `strict_first` glob (in the
   order of the globs, then of the request); then by what strict decoding gains on them,
   most first (`gain`); then by what they cost of the budgets, least first; then in
   request order.
3. Each candidate in turn is made strict if it still fits the strict-tool, optional-
   parameter and union budgets; otherwise it is sent non-strict, and the next one is
   tried (a smaller one may still fit).
4. A tool on which strict decoding gains nothing (no parameter it would enforce) is sent
   non-strict unless a `strict_first` glob names it or its entry says `strict: true`: it
   would only use up a strict slot.
5. A tool whose entry sends it without `strict` (`extract.shapes.sent_strict`: so
   `transform`'s own output reads back as it was planned) stays non-strict.

Strict decoding guarantees arguments that match the schema; it gains most where a model
gets a schema wrong without it: nested objects, enums, required fields. So `gain` counts
2 for each nested object with properties, 2 for each `enum` or `const`, and 1 for each
required property, anywhere in the schema as the client lists it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..extract.shapes import sent_strict
from ..model import ToolDef
from ..profiles import StrictBudget
from ..schema.walker import iter_nodes


def gain(schema: Any) -> int:
    """What strict decoding gains on a schema: see the module's docstring."""
    score = 0
    for path, node in iter_nodes(schema):
        if not isinstance(node, dict):
            continue
        if path and isinstance(node.get("properties"), dict) and node["properties"]:
            score += 2
        if "enum" in node or "const" in node:
            score += 2
        req = node.get("required")
        if isinstance(req, list) and isinstance(node.get("properties"), dict):
            score += sum(1 for r in req if isinstance(r, str) and r in node["properties"])
    return score


def declared(tools: Sequence[ToolDef]) -> list[bool | None]:
    """Whether each tool's own entry sends it strict, read per source (one listing each)
    as `extract.shapes.sent_strict` reads a listing; None where its listing says nothing."""
    by_source: dict[str, list[int]] = {}
    for i, t in enumerate(tools):
        by_source.setdefault(t.source, []).append(i)
    out: list[bool | None] = [None] * len(tools)
    for positions in by_source.values():
        for i, flag in zip(positions, sent_strict([tools[i].raw for i in positions]),
                           strict=True):
            out[i] = flag
    return out


class Candidate(NamedTuple):
    position: int  # in the request
    label: str  # "server/tool", for globs and messages
    name: str  # the tool's own name
    gain: int
    optional: int
    unions: int
    blocked: str  # why it cannot be strict at all ("" when it can)
    # what its entry says (extract.shapes.sent_strict): True counts as a strict_first
    # match, False keeps it non-strict, None leaves it to the policy
    declared: bool | None = None


SENT_PLAIN = "its entry sends it without `strict`"


class Choice(NamedTuple):
    strict: bool
    reason: str


def first_match(candidate: Candidate, globs: Sequence[str]) -> int | None:
    for i, pattern in enumerate(globs):
        if fnmatch.fnmatchcase(candidate.name, pattern) or fnmatch.fnmatchcase(
                candidate.label, pattern):
            return i
    return None


def choose(candidates: Sequence[Candidate], budget: StrictBudget,
           strict_first: Sequence[str] = ()) -> list[Choice]:
    """One choice per candidate, in the candidates' order."""
    def order(c: Candidate) -> tuple[int, int, int, int, int]:
        glob = first_match(c, strict_first)
        first = glob is not None or c.declared is True
        return (0 if first else 1, glob or 0, -c.gain, c.optional + c.unions, c.position)

    out: list[Choice | None] = [None] * len(candidates)
    count = optional = unions = 0
    for c in sorted(candidates, key=order):
        glob = first_match(c, strict_first)
        wanted = glob is not None or c.declared is True
        if c.declared is False:
            out[c.position] = Choice(False, SENT_PLAIN)
            continue
        if c.blocked:
            out[c.position] = Choice(False, c.blocked)
            continue
        if c.optional > budget.optional or c.unions > budget.unions:
            what = (f"{c.optional} optional parameters" if c.optional > budget.optional
                    else f"{c.unions} parameters with `anyOf` or a type list")
            limit = budget.optional if c.optional > budget.optional else budget.unions
            out[c.position] = Choice(False, f"it alone has {what}; strict tool use allows "
                                            f"{limit} per request")
            continue
        if c.gain == 0 and not wanted:
            out[c.position] = Choice(False, "strict decoding would enforce nothing here (no "
                                            "nested object, enum or required parameter)")
            continue
        full = []
        if count + 1 > budget.strict_tools:
            full.append(f"{budget.strict_tools} strict tools")
        if optional + c.optional > budget.optional:
            full.append(f"{optional} of {budget.optional} optional parameters, this tool "
                        f"adding {c.optional}")
        if unions + c.unions > budget.unions:
            full.append(f"{unions} of {budget.unions} union parameters, this tool adding "
                        f"{c.unions}")
        if full:
            out[c.position] = Choice(False, "the strict budget is spent (" + "; ".join(full)
                                     + f"; {budget.source})")
            continue
        count += 1
        optional += c.optional
        unions += c.unions
        why = (f"matches --strict-first {strict_first[glob]!r}" if glob is not None
               else "its entry says `strict: true`" if c.declared
               else f"gain {c.gain} from strict decoding")
        out[c.position] = Choice(True, f"{why}; costs {c.optional} optional and {c.unions} "
                                       "union parameters of the budget")
    return [c if c is not None else Choice(False, "") for c in out]
