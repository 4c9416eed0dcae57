"""The compatibility matrix: a row per tool, a column per provider.

Each cell says what it takes for that provider: `compatible` (accepted as is: no error
finding), `fixable` (lossless or hinted fixes only), `fixable-lossy`, or `incompatible`
(an error finding stays after transform). `matrix_to_dict` is the JSON form; `render_matrix`
draws the same with rich.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..model import ToolResult

if TYPE_CHECKING:
    from rich.console import Console

Cell = Literal["compatible", "fixable", "fixable-lossy", "incompatible"]
CELLS: tuple[Cell, ...] = ("compatible", "fixable", "fixable-lossy", "incompatible")
SYMBOLS: dict[str, tuple[str, str]] = {
    "compatible": ("✓", "green"), "fixable": ("fix", "cyan"),
    "fixable-lossy": ("lossy", "yellow"), "incompatible": ("✗", "red"),
}


def cell(result: ToolResult) -> Cell:
    status = result.fix_status
    if status == "unfixable":
        return "incompatible"
    if result.status == "COMPATIBLE":
        return "compatible"
    return "fixable-lossy" if status == "lossy" else "fixable"


def matrix_to_dict(by_provider: Mapping[str, Sequence[ToolResult]]) -> dict[str, Any]:
    """`{providers, rows: [{tool, source, cells: {provider: cell}}], totals, name_maps}`."""
    providers = list(by_provider)
    first = by_provider[providers[0]] if providers else []
    rows = []
    for i, r in enumerate(first):
        rows.append({"tool": r.tool.name, "source": r.tool.source,
                     "cells": {p: cell(by_provider[p][i]) for p in providers}})
    totals = {p: {c: sum(1 for r in by_provider[p] if cell(r) == c) for c in CELLS}
              for p in providers}
    name_maps = {p: {r.transformed_name: r.tool.name for r in by_provider[p]
                     if r.transformed_name != r.tool.name} for p in providers}
    return {"providers": providers, "rows": rows, "totals": totals, "name_maps": name_maps}


def render_matrix(by_provider: Mapping[str, Sequence[ToolResult]], console: Console) -> None:
    """Full provider names as column heads when they fit the terminal; otherwise the short
    labels of provider-rules.md (GEM, OAI-S, ...) with a key below, and the tool column
    folds long names."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from ..profiles import get_profile

    data = matrix_to_dict(by_provider)
    providers = data["providers"]
    tool_width = max((len(r["tool"]) for r in data["rows"]), default=4)
    tool_width = max(min(tool_width, 32), len("total lossy"))
    full = tool_width + sum(max(len(p), 5) + 3 for p in providers) + 1
    labels = {p: p for p in providers}
    if full > console.width:
        for p in providers:
            prof = get_profile(p)
            labels[p] = prof.label if prof else p
    table = Table(title="Compatibility by provider", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
    table.add_column("tool", style="bold", overflow="fold", min_width=min(tool_width, 16),
                     max_width=max(16, console.width - sum(max(len(labels[p]), 5) + 3
                                                          for p in providers)))
    for p in providers:
        table.add_column(labels[p], justify="center", no_wrap=True)
    for row in data["rows"]:
        table.add_row(row["tool"], *(Text(SYMBOLS[row["cells"][p]][0],
                                          style=SYMBOLS[row["cells"][p]][1])
                                     for p in providers))
    table.add_section()
    for c in CELLS:
        symbol, style = SYMBOLS[c]
        table.add_row(Text(f"total {symbol}", style=style),
                      *(str(data["totals"][p][c]) for p in providers))
    console.print(table)
    if any(labels[p] != p for p in providers):
        console.print("columns: " + ", ".join(f"{labels[p]} {p}" for p in providers),
                      style="dim")
    console.print("✓ compatible as is · fix: fixable with lossless or hinted fixes only · "
                  "lossy: fixable, the accepted arguments change · ✗ cannot be made to work")
