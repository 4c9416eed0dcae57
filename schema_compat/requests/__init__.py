"""The request planner: what a client sends at once, made into a request the provider
accepts (strict budgets, unique valid names, tool counts), every decision with its reason.

    from schema_compat.requests import plan
    request = plan({"github": github_tools, "notion": notion_tools}, "anthropic-strict")
    request.tools        # each tool as sent: name, strict flag, transformed schema
    request.limits       # each request-level limit with its use ("strict tools 20/20")
    request.name_map     # sent name -> the tool's own name
    request.route(name)  # (server, the tool's own name) a call goes to
    provider_tools(request, "anthropic")  # the `tools` value of the request body

`transform` plans each request (request.py `plan`); `check` checks each tool as it is sent
and shows each request's limits (check.py). Names are settled in names.py; which tools stay
strict under a budget is LIM001's and LIM004's fix, `rules.limits.choose_strict`.
"""

from __future__ import annotations

# the request as it is sent (re-exported: the planner's users read requests with them)
from .bodies import TARGETS, mcp_listing, provider_tools
from .model import Decision, PlanError, PlannedTool, RequestLimit, RequestPlan
from .names import PREFIXES, NamePrefix
from .request import max_tools, plan

__all__ = ["PREFIXES", "TARGETS", "Decision", "NamePrefix", "PlanError", "PlannedTool",
           "RequestLimit", "RequestPlan", "max_tools", "mcp_listing", "plan", "provider_tools"]
