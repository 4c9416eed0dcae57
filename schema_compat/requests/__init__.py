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

from ..profiles import StrictBudget
from ..rules.limits import gain

# the request as it is sent (re-exported: the planner's users build requests with them)
from .bodies import TARGETS, mcp_listing, provider_tools
from .model import Decision, Limit, PlanError, PlannedTool, RequestPlan
from .names import PREFIXES, NamePrefix, server_name
from .request import PLANNER_CODES, max_tools, plan, request_limits

__all__ = ["PLANNER_CODES", "PREFIXES", "TARGETS", "Decision", "Limit",
           "NamePrefix", "PlanError", "PlannedTool", "RequestPlan", "StrictBudget", "gain",
           "max_tools", "mcp_listing", "plan", "provider_tools", "request_limits", "server_name"]
