"""What `check` says of strict tools: the same decisions `transform`'s planner takes.

Under a profile with a `strict` flag a tool is sent strict or not, and only strict tools
meet the strict rules and share the strict budgets. So a check reads what the listing says
of each tool (`extract.shapes.sent_strict`: `transform`'s output says it of every tool it
sent without `strict`) and, under a strict budget, plans the rest as `transform` does:

- a tool its entry sends without `strict` is checked for the profile's non-strict
  counterpart (`Profile.non_strict`), and counts in no strict budget;
- under a strict budget, the other tools are checked strict without the per-request rules
  (LIM001, LIM004), then `rules.limits.choose_strict` decides, from the same figures the
  planner reads, which of them are sent strict. Each one it sends without `strict` is
  checked as such,
  with one finding for the decision (its code the planner's; an error when sending it
  strict is refused, the strict budget or the tool's own errors, info when strict decoding
  would only gain nothing) whose fix is the one `transform` makes: send it without
  `strict` (hinted: wider, kept).

The request limits are then those of the request as planned, each tool counted as it is
sent (`sent`), so they agree with `transform`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..model import Change, Decision, Finding, RequestInfo, ToolDef, ToolResult
from ..rules.limits import BUDGET_CODES, sent_plain
from .names import held_twice, prefixed, server_name, settle
from .request import (
    PLANNER_CODES,
    budget_choices,
    declared,
    label,
    request_limits,
    tool_plans,
)

if TYPE_CHECKING:
    from ..engine import RuleSet

Key = tuple[str, int]

__all__ = ["AsSent", "check_as_sent", "request_infos"]


def _without(base: RuleSet, codes: Sequence[str]) -> RuleSet:
    from ..engine import RuleSet

    return RuleSet(base.profile, [c for c in base.profile.rules
                                   if c in base.codes and c not in codes], base.lossless_only)


def _non_strict_plan(base: RuleSet) -> RuleSet:
    """The non-strict counterpart's plan, leaving out the rules the base plan leaves out
    (as `transform`'s planner does). Unlike the planner's, it keeps the name rules: a check
    names what `transform` renames."""
    from ..engine import make_ruleset
    from ..profiles.clients import client_profile

    left_out = [c for c in base.profile.rules if c not in base.codes]
    return make_ruleset(client_profile(base.profile.non_strict, base.profile.client)
                     or base.profile.non_strict, None, left_out, base.lossless_only)


class AsSent(NamedTuple):
    """A check's results with each tool checked as it is sent; `sent` gives, for each tool
    of a profile with a strict flag, (sent strict, the schema sent) by (source, index)."""

    results: list[ToolResult]
    sent: Mapping[Key, tuple[bool, Any]]


def _picker(base: RuleSet, plain: RuleSet | None, off: set[Key],
            per_tool: Mapping[str, Sequence[str]] | None
            ) -> Callable[[ToolDef], RuleSet] | None:
    own = tool_plans(base, per_tool)
    if plain is None or not off:
        return own
    theirs = tool_plans(plain, per_tool)

    def plan_for(tool: ToolDef) -> RuleSet:
        if (tool.source, tool.index) in off:
            return theirs(tool) if theirs else plain
        return own(tool) if own else base

    return plan_for


def check_as_sent(tools: Sequence[ToolDef], groups: Sequence[Sequence[ToolDef]], base: RuleSet,
                  per_tool: Mapping[str, Sequence[str]] | None = None,
                  strict_first: Sequence[str] = (), *, keep_schemas: bool = True,
                  keep_changes: bool = True) -> AsSent:
    """Check `tools` (in the request `groups` the check found) under `base`, each tool as
    it is sent: see the module's docstring. `keep_schemas` and `keep_changes` are the
    engine's (a strict budget reads the schemas sent strict, so it keeps them)."""
    from ..engine import iter_ruleset
    from ..output.results import gathered

    def run(plan: RuleSet, plan_for: Callable[[ToolDef], RuleSet] | None,
            known: Mapping[int, ToolResult] | None = None) -> list[ToolResult]:
        # a strict budget reads the schemas sent strict: kept until `sent` holds them
        keep = keep_schemas or plan.profile.strict_budget is not None
        return gathered(iter_ruleset(tools, plan, plan_for, keep_schemas=keep, known=known),
                        keep_changes)

    profile = base.profile
    if not profile.non_strict:
        return AsSent(run(base, tool_plans(base, per_tool)), {})
    flags = declared(tools)
    off = {(t.source, t.index) for t, f in zip(tools, flags, strict=True) if f is False}
    plain = _non_strict_plan(base)
    budget = profile.strict_budget
    if budget is None:
        results = run(base, _picker(base, plain, off, per_tool))
        return AsSent(results, {(r.tool.source, r.tool.index):
                                 ((r.tool.source, r.tool.index) not in off,
                                  r.transformed_schema) for r in results})
    strict_plan = _without(base, BUDGET_CODES)
    results = run(strict_plan, _picker(strict_plan, plain, off, per_tool))
    at = {(t.source, t.index): i for i, t in enumerate(tools)}
    flag_of = {(t.source, t.index): f for t, f in zip(tools, flags, strict=True)}
    decided: dict[Key, tuple[Finding, Change]] = {}
    for group in groups:
        keys = [(t.source, t.index) for t in group]
        open_keys = [k for k in keys if k not in off]
        # the planner's results carry no finding of its own rules (names, budgets)
        strict_results = [_without_findings(results[at[k]], PLANNER_CODES)
                          for k in open_keys]
        choices = budget_choices([tools[at[k]] for k in open_keys], strict_results, budget,
                                 strict_first, [flag_of[k] for k in open_keys])
        for k, r, (strict, reason, code) in zip(open_keys, strict_results, choices,
                                                strict=True):
            if not strict:
                decided[k] = sent_plain(code, reason, budget.fallback, r.remaining)
    if decided:
        # the tools sent without `strict` again, each as it is sent, among the others'
        # results as earlier tools of its source (a tool is sent under the same name either
        # way: strict and plain profiles share one name rule)
        known = {i: r for i, r in enumerate(results)
                 if (r.tool.source, r.tool.index) not in decided}
        again = iter(run(strict_plan, _picker(strict_plan, plain, off | set(decided),
                                              per_tool), known))
        for i, t in enumerate(tools):
            if i not in known:
                finding, change = decided[(t.source, t.index)]
                r = next(again)
                results[i] = r._replace(findings=(finding, *r.findings),
                                        changes=(change, *r.changes))
    sent = {(r.tool.source, r.tool.index): (
        (r.tool.source, r.tool.index) not in off and (r.tool.source, r.tool.index)
        not in decided, r.transformed_schema) for r in results}
    if not keep_schemas:
        results = [r._replace(transformed_schema=None) for r in results]
    return AsSent(results, sent)


def _without_findings(result: ToolResult, codes: Sequence[str]) -> ToolResult:
    return result._replace(remaining=tuple(f for f in result.remaining
                                           if f.code not in codes))


def _flagged_per_tool(group: Sequence[ToolDef], wanted: list[tuple[str, str]], i: int,
                      profile: Any) -> bool:
    """Whether the tool's own findings already say why its name must change: its name is
    invalid without any prefix (NAM001), or an earlier tool of its own source wants the
    same name (NAM002). Only what crosses sources or comes of the prefix is the request's."""
    tool = group[i]
    if not profile.name_regex.fullmatch(tool.name):
        return True
    return any(group[j].source == tool.source and wanted[j][1] == wanted[i][1]
               for j in range(i))


def request_infos(groups: Sequence[Sequence[ToolDef]], plan: RuleSet, name_prefix: str = "none",
                   sent: Mapping[tuple[str, int], tuple[bool, Any]] | None = None
                   ) -> tuple[RequestInfo, ...]:
    """Each request's limits with their use as the tools are sent (`sent`: whether each
    tool by (source, index) is sent strict and its schema then, `check_as_sent`; without
    it, as published, every tool strict under a strict budget), and the names transform
    would have to change (after the client's `name_prefix`), as `renamed` decisions. A
    request is shown when it spans several sources, has a strict budget, or a limit is
    exceeded or a name must change."""
    profile = plan.profile
    budget = profile.strict_budget is not None
    out = []
    for group in groups:
        limits = request_limits(profile, [
            (label(t), *(sent.get((t.source, t.index), (budget, t.schema)) if sent
                         else (budget, t.schema))) for t in group])
        sources = tuple(dict.fromkeys(t.source for t in group))
        clashes = held_twice(t.name for t in group) if len(sources) > 1 else ()
        wanted = [(server_name(t.source), prefixed(server_name(t.source), t.name,
                                                   name_prefix))  # type: ignore[arg-type]
                  for t in group]
        renamed = tuple(Decision(t.source, t.name, "renamed", f"{named.reason} by transform")
                        for i, (t, named) in enumerate(zip(group, settle(wanted, profile),
                                                           strict=True))
                        if named.code and not _flagged_per_tool(group, wanted, i, profile))
        if len(sources) > 1 or budget or renamed or any(lim.over for lim in limits):
            out.append(RequestInfo(sources, tuple(limits), clashes, renamed, name_prefix))
    return tuple(out)
