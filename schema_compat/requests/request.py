"""`plan`: the tools of one request, made into a request the provider accepts.

Per tool, the engine fixes the schema for the profile (as `transform` does); per request,
the planner settles what the engine cannot see from one tool: which tools are sent strict
within the budgets (LIM001's and LIM004's fix, `rules.limits.choose_strict`), the names
(names.py), and the tool count, which it never meets by dropping tools: past the provider's
limit it stops with a `PlanError` that lists the servers with their tool counts, and
`include`/`exclude` globs choose.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..extract.shapes import sent_strict
from ..mcp_tool import tooldefs
from ..model import Change, ToolDef, ToolResult
from ..profiles import Profile, StrictBudget
from ..profiles.clients import CLIENT_NAMES, client_profile, get_client
from ..rules.limits import Candidate, choose_strict, gain, sent_plain, tally_complexity
from .model import Decision, PlanError, PlannedTool, RequestLimit, RequestPlan
from .names import PREFIXES, NamePrefix, prefixed, server_name, settle

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..mcp_tool import ToolLike

# Rules whose work is per request: the planner does it over the whole request instead.
PLANNER_CODES = ("NAM001", "NAM002", "LIM001", "LIM004")


def label(tool: ToolDef) -> str:
    """`server/tool`: how globs and messages name a tool of a request."""
    return f"{server_name(tool.source)}/{tool.name}" if tool.source else tool.name


def matches(tool: ToolDef, pattern: str) -> bool:
    """A glob matches a tool's own name or its `server/tool` label."""
    return fnmatch.fnmatchcase(tool.name, pattern) or fnmatch.fnmatchcase(label(tool),
                                                                            pattern)


def astooldefs(tools: Sequence[ToolLike] | Mapping[str, Sequence[ToolLike]]
                ) -> list[ToolDef]:
    """ToolDefs of a request: a mapping gives each server's tools (its key their source)."""
    if isinstance(tools, Mapping):
        out: list[ToolDef] = []
        for server, listed in tools.items():
            out += [ToolDef(t.name, t.schema, t.description, str(server), t.index, t.raw,
                            t.schema_optional, t.dialect) for t in tooldefs(listed)]
        return out
    return tooldefs(tools)


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


def select(tools: Sequence[ToolDef], include: Sequence[str] = (),
           exclude: Sequence[str] = ()) -> tuple[list[ToolDef], list[ToolDef]]:
    """(kept, excluded) by the globs; a glob that matches no tool is a PlanError."""
    for pattern in (*include, *exclude):
        if not any(matches(t, pattern) for t in tools):
            raise PlanError(f"no tool matches {pattern!r}")
    kept: list[ToolDef] = []
    dropped: list[ToolDef] = []
    for t in tools:
        chosen = (not include or any(matches(t, p) for p in include)) and not any(
            matches(t, p) for p in exclude)
        (kept if chosen else dropped).append(t)
    return kept, dropped


def count_error(tools: Sequence[ToolDef], profile: Profile, limit: int) -> str:
    """The message for a request with more tools than the provider takes."""
    per = Counter(server_name(t.source) if t.source else "(tools)" for t in tools)
    servers = ", ".join(f"{s}: {n}" for s, n in sorted(per.items(), key=lambda i: -i[1]))
    who = f"{profile.name} with {profile.client}" if profile.client else profile.name
    return (f"{len(tools)} tools in one request; {who} accepts at most {limit} "
            f"({profile.max_tools_source or 'docs/providers.md'}): drop "
            f"{len(tools) - limit} or more. By server: {servers}. Choose with --tool / "
            "--exclude-tool GLOB (a tool's name or server/tool), or `tools` / "
            "`exclude-tools` in the settings file")


def max_tools(profile: Profile) -> int | None:
    """The number of tools one request may declare. A profile with a strict budget counts
    its strict tools there (its `max_tools` is that budget), not all tools: only a client's
    count (`client_max_tools`) limits all of them."""
    return profile.client_max_tools if profile.strict_budget is not None else profile.max_tools


def costs(schema: Any) -> tuple[int, int]:
    """(optional parameters, parameters with `anyOf` or a type list) of one schema, counted
    as rule LIM004 counts them, so the planner and the check agree."""
    found = tally_complexity(schema)
    return found["optional"], found["unions"]


def request_limits(profile: Profile, entries: Sequence[tuple[str, bool, Any]]
                   ) -> list[RequestLimit]:
    """Each request-level limit of the profile with its use, for tools given in request
    order as (label, sent strict, schema sent).

    A client sends the tools of all its servers in one request, so these limits are per
    request, not per tool (docs/providers.md §7 "Request-level limits side by side"). Their
    figures are the profiles' (`Profile.max_tools`, `Profile.strict_budget`, with the ids of
    their sources): a tool count (OpenAI 128, Vertex AI 128, Gemini API 512; none documented
    for Anthropic), and for Anthropic strict tool use the budgets its strict tools share."""
    out: list[RequestLimit] = []
    limit = max_tools(profile)
    if limit is not None:
        over = tuple(lab for i, (lab, _, _) in enumerate(entries) if i >= limit)
        out.append(RequestLimit("tools", "tools", len(entries), limit,
                                profile.max_tools_source, over))
    budget = profile.strict_budget
    if budget is not None:
        count = optional = unions = 0
        over_count: list[str] = []
        over_optional: list[str] = []
        over_unions: list[str] = []
        for lab, strict, schema in entries:
            if not strict:
                continue
            count += 1
            own_optional, own_unions = costs(schema)
            optional += own_optional
            unions += own_unions
            if count > budget.strict_tools:
                over_count.append(lab)
            if optional > budget.optional and own_optional:
                over_optional.append(lab)
            if unions > budget.unions and own_unions:
                over_unions.append(lab)
        out += [
            RequestLimit("strict-tools", "strict tools", count, budget.strict_tools,
                         budget.source, tuple(over_count)),
            RequestLimit("strict-optional", "strict optional parameters", optional,
                         budget.optional, budget.source, tuple(over_optional)),
            RequestLimit("strict-unions", "strict union parameters", unions, budget.unions,
                         budget.source, tuple(over_unions)),
        ]
    return out


def tool_plans(base: RuleSet, per_tool: Mapping[str, Sequence[str]] | None
                ) -> Callable[[ToolDef], RuleSet] | None:
    """Each tool's rules: the base plan's less the codes its per-tool ignores name (a
    tool-name glob -> rule codes, as the settings file's `per-tool-ignores`)."""
    if not per_tool:
        return None
    from ..engine import RuleSet
    from ..rules.registry import select_codes

    cache: dict[frozenset[str], RuleSet] = {}

    def plan_for(tool: ToolDef) -> RuleSet:
        drop = frozenset(c for pattern, codes in per_tool.items()
                         if fnmatch.fnmatchcase(tool.name, pattern) for c in codes)
        if not drop:
            return base
        if drop not in cache:
            codes = [c for c in select_codes(base.profile, None, sorted(drop))
                     if c in base.codes]
            cache[drop] = RuleSet(base.profile, codes, base.lossless_only)
        return cache[drop]

    return plan_for


def plan(tools: Sequence[ToolLike] | Mapping[str, Sequence[ToolLike]],
         provider: str = "anthropic-strict", *, strict_first: Sequence[str] = (),
         name_prefix: NamePrefix = "none", include: Sequence[str] = (),
         exclude: Sequence[str] = (), select_rules: list[str] | None = None,
         ignore_rules: list[str] | None = None, lossless_only: bool = False,
         per_tool_ignores: Mapping[str, Sequence[str]] | None = None,
         client: str | None = None) -> RequestPlan:
    """Plan one request: the given tools (a list, each tool's `source` its server, or a
    mapping of server name to its tools), sent together to `provider`.

    Every tool comes back transformed for the profile it is sent under (less the rules its
    `per_tool_ignores` glob names), with its sent name and strict flag; each decision
    (strict or not, renamed, excluded) is in `decisions` with its reason, and as a change
    of the tool's result. `client` (profiles/clients.py) adds that MCP client's limits to
    the provider's. Raises PlanError when more tools remain than the provider (or client)
    takes, or a glob matches no tool.
    """
    from ..engine import make_ruleset, run_ruleset

    if client and get_client(client) is None:
        raise PlanError(f"unknown client {client!r} (one of {', '.join(CLIENT_NAMES)})")
    profile = client_profile(provider, client)
    if profile is None:
        raise PlanError(f"unknown provider {provider!r}")
    if name_prefix not in PREFIXES:
        raise PlanError(f"unknown name prefix {name_prefix!r} (one of {', '.join(PREFIXES)})")
    every = astooldefs(tools)
    chosen, dropped = select(every, include, exclude)
    decisions = [Decision(t.source, t.name, "excluded", "excluded by the tool globs")
                 for t in dropped]
    limit = max_tools(profile)
    if limit is not None and len(chosen) > limit:
        raise PlanError(count_error(chosen, profile, limit))
    ignore = [*(ignore_rules or []), *PLANNER_CODES]
    base = make_ruleset(profile, select_rules, ignore, lossless_only)
    results = run_ruleset(chosen, base, tool_plans(base, per_tool_ignores))
    budget = profile.strict_budget
    strict: list[bool | None]
    reasons: list[str] = [""] * len(chosen)
    codes: list[str] = [""] * len(chosen)
    scores = [gain(t.schema) for t in chosen]
    if budget is None:
        strict = [profile.strict_flag] * len(chosen)
    else:
        choices = budget_choices(chosen, results, budget, strict_first, declared(chosen))
        strict = [c[0] for c in choices]
        reasons = [c[1] for c in choices]
        codes = [c[2] for c in choices]
        fallback = [i for i, s in enumerate(strict) if not s]
        if fallback:
            fallback_plan = make_ruleset(client_profile(budget.fallback, client) or budget.fallback,
                                      select_rules, ignore, lossless_only)
            plain = run_ruleset([chosen[i] for i in fallback], fallback_plan,
                             tool_plans(fallback_plan, per_tool_ignores))
            for i, r in zip(fallback, plain, strict=True):
                results[i] = r
    prefix: NamePrefix = name_prefix
    wanted = [(server_name(t.source), prefixed(server_name(t.source), t.name, prefix))
              for t in chosen]
    names = settle(wanted, profile)
    planned: list[PlannedTool] = []
    for i, (tool, result) in enumerate(zip(chosen, results, strict=True)):
        extra: list[Change] = []
        named = names[i]
        if named.code:
            extra.append(Change(named.code, (), "lossy", f"renamed {wanted[i][1]!r} → "
                                f"{named.name!r}: {named.reason}", "tool", "equal", "lost"))
            decisions.append(Decision(tool.source, tool.name, "renamed", named.reason))
        if budget is not None:
            if strict[i]:
                decisions.append(Decision(tool.source, tool.name, "strict", reasons[i]))
            elif not codes[i]:  # its entry said so: nothing changes
                decisions.append(Decision(tool.source, tool.name, "non-strict", reasons[i]))
            else:
                extra.append(sent_plain(codes[i], reasons[i], budget.fallback)[1])
                decisions.append(Decision(tool.source, tool.name, "non-strict", reasons[i]))
        result = result._replace(transformed_name=named.name,
                                 changes=tuple(extra) + result.changes)
        planned.append(PlannedTool(result, server_name(tool.source), named.name, strict[i],
                                   scores[i]))
    entries = [(label(p.result.tool), bool(p.strict), p.result.transformed_schema)
               for p in planned]
    return RequestPlan(profile.name, tuple(planned), tuple(request_limits(profile, entries)),
                       tuple(decisions), name_prefix, tuple(dropped))


def budget_choices(tools: Sequence[ToolDef], results: Sequence[ToolResult],
                   budget: StrictBudget, strict_first: Sequence[str],
                   flags: Sequence[bool | None]) -> list[tuple[bool, str, str]]:
    """(sent strict, the reason, the rule code of a non-strict decision) for each tool of
    one request, from its strict result; `flags` is what each tool's entry says
    (`declared`). `check` asks the same, so both send the same tools strict."""
    candidates = []
    for i, (tool, result, flag) in enumerate(zip(tools, results, flags, strict=True)):
        errors = sorted({f.code for f in result.remaining if f.severity == "error"})
        blocked = (f"its strict schema still has errors ({', '.join(errors)})"
                   if errors else "")
        optional, unions = costs(result.transformed_schema)
        candidates.append(Candidate(i, label(tool), tool.name, gain(tool.schema), optional,
                                    unions, blocked, flag))
    choices = choose_strict(candidates, budget, strict_first)
    out = []
    for c, choice in zip(candidates, choices, strict=True):
        if choice.strict or c.declared is False:
            code = ""
        elif c.blocked:
            code = next(f.code for f in results[c.position].remaining
                        if f.severity == "error")
        elif "strict tools" in choice.reason or "enforce nothing" in choice.reason:
            code = "LIM001"
        else:
            code = "LIM004"
        out.append((choice.strict, choice.reason, code))
    return out
