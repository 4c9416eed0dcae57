"""What rules of several families read, kept apart from any one family's file.

`ToolInfo` is the tool rules' view of one tool among the tools of a run: the naming rules
(NAM), the limits counted per request (LIM) and the engine, which builds it, all use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple


class ToolInfo(NamedTuple):
    """What tool rules look at: one tool among its siblings in the same run."""

    name: str
    description: str | None
    position: int  # 0-based position among all tools of the run
    # Names of the tools before this one (after renaming), as a set: asked "is it taken?" once
    # per tool, which over a listing of n tools must not cost n each time. The engine hands
    # over its running set; it is read during this tool's turn only.
    names_before: AbstractSet[str]
    total: int
    schema: Any = None  # the tool's schema (the transformed one when judging the result)
    # per-request sums of the tools before this one, for rules with a `tally`
    tallies_before: Mapping[str, int] = {}  # one shared default: read only, never mutated
