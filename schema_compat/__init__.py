"""schema-compat: make MCP tool schemas acceptable to every LLM provider.

    from schema_compat import check, repair, transform
    results = transform(tools, "gemini")   # MCP tool dicts, ToolDefs or mcp.types.Tool

The public API is imported lazily so `import schema_compat` (and the CLI's start-up) stays
cheap; `check` and `transform` pull in the rule engine on first use. The result types are
frozen records (named tuples) from `schema_compat.model`, re-exported here for annotations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import ToolLike, check, load_tools, transform
    from .model import Change, Finding, Report, SourceError, ToolDef, ToolResult
    from .profiles import PROFILES
    from .repair_args import repair
    from .requests import plan

__all__ = [
    "PROFILES",
    "Change",
    "Finding",
    "Report",
    "SourceError",
    "ToolDef",
    "ToolLike",
    "ToolResult",
    "__version__",
    "check",
    "load_tools",
    "plan",
    "repair",
    "transform",
]

_API = ("check", "transform", "load_tools", "ToolLike")
_MODEL = ("Change", "Finding", "Report", "SourceError", "ToolDef", "ToolResult")


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        return getattr(api, name)
    if name in _MODEL:
        from . import model

        return getattr(model, name)
    if name == "PROFILES":
        from .profiles import PROFILES

        return PROFILES
    if name == "plan":  # the request planner: what a client sends at once
        from .requests import plan

        return plan
    if name == "repair":
        from .repair_args import repair

        return repair
    raise AttributeError(f"module 'schema_compat' has no attribute {name!r}")
