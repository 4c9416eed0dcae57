"""What one request is on the command line, and the request planner for `check` and
`transform`.

A client sends the tools of all its servers in one request. So by default (`--request
auto`) all servers of a client config (`--config`, or the configs found here) are one
request, each config its own (two clients never send one request together), and every
other source (a file, `--server`, `--url`) is a request of its own;
`--request all` makes everything given one request, `--request per-source` each source its
own (the behaviour before requests were planned).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..profiles.clients import get_client
from .exits import fail
from .inputs import LiveOpts

if TYPE_CHECKING:
    from ..engine import RuleSet
    from ..extract.files import LoadedSource
    from ..model import ToolDef, ToolResult
    from ..requests import RequestPlan
    from ..settings import Settings


class RequestSettings(NamedTuple):
    """The request options in force: flags, else the settings file, else the defaults."""

    mode: str
    strict_first: list[str]
    name_prefix: str
    tools: list[str] | None
    exclude: list[str]
    client: str | None = None  # the MCP client whose limits join the provider's

    def planned(self) -> bool:
        """Whether a transform must plan its requests even for one source."""
        return bool(self.strict_first or self.exclude or self.client) or \
            self.name_prefix != "none"


def request_settings(settings: Settings, client: str | None) -> RequestSettings:
    """The request options in force, from the settings the command resolved (flags, then
    the settings file, then the defaults), for the MCP `client` given (or inferred by
    check), else the settings file's."""
    chosen = get_client(client or settings["client"])
    prefix = settings["name-prefix"]
    if chosen is not None and settings.values["name-prefix"].origin == "default":
        prefix = chosen.name_prefix  # how the client names tools, unless told otherwise
    return RequestSettings(settings["request"], list(settings["strict-first"]), prefix,
                           list(settings["tools"]) or None, list(settings["exclude-tools"]),
                           chosen.name if chosen else None)


def exclude_tools(tools: list[ToolDef], patterns: list[str]) -> list[ToolDef]:
    """--exclude-tool: a glob on a tool's name or `server/tool`; one that matches nothing
    exits 2."""
    if not patterns:
        return tools
    from ..requests.request import matches

    for pattern in patterns:
        if not any(matches(t, pattern) for t in tools):
            fail(f"no tool matches --exclude-tool {pattern!r}")
    return [t for t in tools if not any(matches(t, p) for p in patterns)]


def request_groups(loaded: list[LoadedSource], tools: list[ToolDef], mode: str,
                   live: LiveOpts) -> list[list[ToolDef]]:
    """The tools of each request, in the order given."""
    if mode == "all":
        return [tools] if tools else []
    configs = {s.label: s.config for s in loaded if s.config} if mode == "auto" else {}
    groups: dict[str, list[ToolDef]] = {}
    for t in tools:
        # a config's servers are keyed by the config (no source is named "\0...")
        key = f"\0{configs[t.source]}" if t.source in configs else t.source
        groups.setdefault(key, []).append(t)
    return list(groups.values())


def needs_planner(groups: list[list[ToolDef]], plan: RuleSet, settings: RequestSettings,
                  to: str | None) -> bool:
    """Whether a transform plans its requests: a strict budget, several sources in one
    request, a tool count past the limit, or an option only the planner reads."""
    from ..requests import max_tools

    if to or settings.planned() or plan.profile.strict_budget is not None:
        return True
    limit = max_tools(plan.profile)
    return any(len({t.source for t in g}) > 1 or (limit is not None and len(g) > limit)
               for g in groups)


def plan_requests(groups: list[list[ToolDef]], plan: RuleSet, settings: RequestSettings,
                  per_tool: dict[str, list[str]] | None = None,
                  ) -> tuple[list[ToolResult], list[RequestPlan]]:
    """Each request planned with the plan's rules (the rules of its profile it leaves out
    are left out for every profile the planner uses); a request the planner refuses (too
    many tools) exits 2 with its message."""
    from ..requests import PlanError
    from ..requests import plan as make_request

    results: list[ToolResult] = []
    plans = []
    prefix: Any = settings.name_prefix
    left_out = [c for c in plan.profile.rules if c not in plan.codes]
    for group in groups:
        try:
            request = make_request(group, plan.profile.name, strict_first=settings.strict_first,
                                   name_prefix=prefix, ignore_rules=left_out,
                                   lossless_only=plan.lossless_only,
                                   per_tool_ignores=per_tool,
                                   client=plan.profile.client or None)
        except PlanError as exc:
            fail(str(exc))
        plans.append(request)
        results += [t.result for t in request.tools]
    return results, plans

