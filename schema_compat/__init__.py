"""schema-compat: make MCP tool schemas acceptable to every LLM provider.

The public API is imported lazily so `import schema_compat` (and the CLI's start-up) stays
cheap; `check` and `transform` pull in the rule engine on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import check, load_tools, transform
    from .profiles import PROFILES
    from .repair_args import repair

__all__ = ["PROFILES", "__version__", "check", "load_tools", "repair", "transform"]


def __getattr__(name: str) -> Any:
    if name in ("check", "transform", "load_tools"):
        from . import api

        return getattr(api, name)
    if name == "PROFILES":
        from .profiles import PROFILES

        return PROFILES
    if name == "repair":
        from .repair_args import repair

        return repair
    raise AttributeError(name)
