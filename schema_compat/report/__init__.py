"""Report writers: one module per output format.

This package imports nothing on its own. `report.json` must stay free of rich (the
`--json` path is meant for agents and scripts, and has to be fast), so the terminal
writers in `report.text` and `report.diff` are only loaded when someone asks for them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = [
    "make_console",
    "render_check",
    "render_diff",
    "render_diff_text",
    "render_github",
    "render_json",
    "render_markdown",
    "render_sarif",
    "render_transform_summary",
    "report_json_schema",
    "report_to_dict",
    "reports_to_dict",
]

_WHERE = {
    "render_json": "json",
    "report_json_schema": "json",
    "report_to_dict": "json",
    "reports_to_dict": "json",
    "make_console": "text",
    "render_check": "text",
    "render_transform_summary": "text",
    "render_diff": "diff",
    "render_diff_text": "diff",
    "render_sarif": "sarif",
    "render_github": "github",
    "render_markdown": "markdown",
}


def __getattr__(name: str) -> Any:
    # Lazy on purpose: `from schema_compat.report import render_json` must not pull in rich.
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
