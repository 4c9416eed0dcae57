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
  checked again as such, with the finding of `rules.limits.sent_plain`.

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


def _picker(base: RuleSet, plain: RuleSet, off: set[Key],
            per_tool: Mapping[str, Sequence[str]] | None
            ) -> Callable[[ToolDef], RuleSet] | None:
    own = tool_plans(base, per_tool)
    if not off:
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
    strict_plan = base if budget is None else _without(base, BUDGET_CODES)
    results = run(strict_plan, _picker(strict_plan, plain, off, per_tool))
    at = {(t.source, t.index): i for i, t in enumerate(tools)}
    decided: dict[int, tuple[Finding, Change]] = {}  # by place in `tools`
    if budget is not None:
        for group in groups:
            opened = [at[t.source, t.index] for t in group if (t.source, t.index) not in off]
            # the planner's results carry no finding of its own rules (names, budgets)
            strict_results = [results[i]._replace(remaining=tuple(
                f for f in results[i].remaining if f.code not in PLANNER_CODES))
                for i in opened]
            choices = budget_choices([tools[i] for i in opened], strict_results, budget,
                                     strict_first, [flags[i] for i in opened])
            for i, r, (strict, reason, code) in zip(opened, strict_results, choices,
                                                    strict=True):
                if not strict:
                    decided[i] = sent_plain(code, reason, budget.fallback, r.remaining)
    if decided:
        # the tools sent without `strict` again, each as it is sent, among the others'
        # results as earlier tools of its source (a tool is sent under the same name either
        # way: strict and plain profiles share one name rule)
        plain_too = off | {(tools[i].source, tools[i].index) for i in decided}
        again = run(strict_plan, _picker(strict_plan, plain, plain_too, per_tool),
                    {i: r for i, r in enumerate(results) if i not in decided})
        for i, r in zip(sorted(decided), again, strict=True):
            finding, change = decided[i]
            results[i] = r._replace(findings=(finding, *r.findings),
                                    changes=(change, *r.changes))
    sent = {(r.tool.source, r.tool.index): ((r.tool.source, r.tool.index) not in off
                                             and i not in decided, r.transformed_schema)
            for i, r in enumerate(results)}
    if not keep_schemas:
        results = [r._replace(transformed_schema=None) for r in results]
    return AsSent(results, sent)


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
