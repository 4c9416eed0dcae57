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
from .styled import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

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


def render_matrix(by_provider: Mapping[str, Sequence[ToolResult]], console: Console, *,
                  lossless_only: bool = False) -> None:
    """Full provider names as column heads when the table fits the terminal that way;
    otherwise the short labels of the profiles (GEM, OAI-S, ...) with a key below. A source
    column appears when the tools come from more than one source, so that one tool name
    served twice gives two rows told apart; it names each source by the shortest end of its
    path that tells it from the others. Where a source column would make tool names wrap,
    each source heads its own rows instead. With `lossless_only` (the run refused every fix
    that is not lossless) the key says what the cells then mean."""
    from rich.cells import cell_len

    from ..profiles import get_profile

    data = matrix_to_dict(by_provider)
    providers = data["providers"]
    short = short_sources([row["source"] for row in data["rows"]])
    with_source = len(set(short.values())) > 1
    tool_width = max([len("total lossy"),
                      *(cell_len(printable(row["tool"])) for row in data["rows"])])
    source_width = max([len("source"), *(cell_len(printable(v)) for v in short.values())])
    labels = {p: p for p in providers}
    lead = tool_width + (source_width + _GAP if with_source else 0) + _GAP
    if lead + _cells_width(labels) > console.width:
        for p in providers:
            prof = get_profile(p)
            labels[p] = prof.label if prof else p
    for columns in _column_groups(providers, labels, console.width):
        shown = {p: labels[p] for p in columns}
        avail = console.width - _cells_width(shown) - _GAP
        grouped = with_source and tool_width + source_width + _GAP > avail
        width = tool_width
        if with_source and not grouped:
            avail -= _GAP
        if grouped:
            width += len("  ")  # tool names are indented under their source
        width = min(width, max(len("total lossy"), avail))
        console.print(_matrix_table({**data, "providers": columns}, shown,
                                    short if with_source else None, grouped, width,
                                    source_width))
    if any(labels[p] != p for p in providers):
        console.print("columns: " + ", ".join(f"{labels[p]} {p}" for p in providers),
                      style="dim")
    console.print(legend(lossless_only))


def legend(lossless_only: bool) -> str:
    """The key to the cells. With lossless-only a cell says what that run's transform does:
    fixed by lossless fixes, or not (the hinted or lossy fixes it would take are refused)."""
    if lossless_only:
        return ("✓ compatible as is · fix: fixable with lossless fixes · ✗ not with "
                "--lossless-only (hinted and lossy fixes refused; it may work without it)")
    return ("✓ compatible as is · fix: fixable with lossless or hinted fixes only · "
            "lossy: fixable, the accepted arguments change · ✗ cannot be made to work")


# Each column of the table (box.SIMPLE_HEAD, collapsed padding) takes two cells beside its
# own width.
_GAP = 2


def _cells_width(labels: dict[str, str]) -> int:
    return sum(max(len(label), 5) + _GAP for label in labels.values())


def _column_groups(providers: Sequence[str], labels: dict[str, str],
                   width: int) -> list[list[str]]:
    """The provider columns in the order given, cut into as few tables as keep each within
    `width` beside the narrowest tool column (with many profiles one table would not fit a
    terminal, and rich would squeeze the labels out of recognition), as evenly as they fit:
    each table then leaves its tool names as much room."""
    room = width - len("total lossy") - _GAP

    def fits(group: Sequence[str]) -> bool:
        return _cells_width({q: labels[q] for q in group}) <= room

    greedy: list[list[str]] = [[]]
    for p in providers:
        if greedy[-1] and not fits([*greedy[-1], p]):
            greedy.append([])
        greedy[-1].append(p)
    size = -(-len(providers) // len(greedy))
    even = [list(providers[i:i + size]) for i in range(0, len(providers), size)]
    return even if len(even) == len(greedy) and all(map(fits, even)) else greedy


def short_sources(sources: Sequence[str]) -> dict[str, str]:
    """Each source by the fewest trailing path parts that no other source ends with:
    `examples/mixed.json` and `tests/data/corpus/github.json` are `mixed.json` and
    `github.json`; a server's name stays as it is."""
    unique = list(dict.fromkeys(sources))
    parts = {s: s.replace("\\", "/").split("/") for s in unique}
    out: dict[str, str] = {}
    for s in unique:
        for n in range(1, len(parts[s]) + 1):
            tail = parts[s][-n:]
            if all(o == s or parts[o][-n:] != tail for o in unique):
                out[s] = "/".join(tail)
                break
        else:
            out[s] = s
    return out


def _matrix_table(data: dict[str, Any], labels: dict[str, str],
                  sources: dict[str, str] | None, grouped: bool, tool_width: int,
                  source_width: int) -> Table:
    """The matrix as a rich Table: the tool and source columns at the widths given (they
    fold what does not fit), the provider cells never wrap. With `grouped`, the sources
    are rows of their own above their tools' rows rather than a column."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    providers = data["providers"]
    table = Table(title="Compatibility by provider", box=box.SIMPLE_HEAD, pad_edge=False,
                  collapse_padding=True)
    table.add_column("tool", style="bold", overflow="fold", width=tool_width)
    column = sources is not None and not grouped
    if column:
        table.add_column("source", style="dim", overflow="fold", width=source_width)
    for p in providers:
        table.add_column(labels[p], justify="center", no_wrap=True,
                         width=max(len(labels[p]), 5))
    heading = None
    for row in data["rows"]:
        if sources is not None and grouped and row["source"] != heading:
            heading = row["source"]
            table.add_row(Text(printable(sources[heading]), style="dim italic"),
                          *([""] * len(providers)))
        name = Text(("  " if grouped else "") + printable(row["tool"]))
        where = [Text(printable(sources[row["source"]]))] if sources and column else []
        lead = [name, *where]
        table.add_row(*lead, *(Text(SYMBOLS[row["cells"][p]][0],
                                    style=SYMBOLS[row["cells"][p]][1])
                               for p in providers))
    table.add_section()
    for c in CELLS:
        symbol, style = SYMBOLS[c]
        table.add_row(Text(f"total {symbol}", style=style), *([""] if column else []),
                      *(str(data["totals"][p][c]) for p in providers))
    return table
