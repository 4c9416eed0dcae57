"""The progress line shown while live servers are listed: where each server is (starting,
negotiating, listing), what a user waiting on slow servers wants to see, within the
terminal's width.
"""

from __future__ import annotations

from collections.abc import Sequence

from .config import ServerSpec
from .live_probe import Probe

_STAGE_WORDS = {"connect": "starting", "initialize": "negotiating", "tools/list": "listing"}


def progress_line(specs: Sequence[ServerSpec], probes: Sequence[Probe], done: Sequence[bool],
                   width: int) -> str:
    """One line on where each server is: what a user waiting on slow servers wants to see."""
    pending = [(spec, _STAGE_WORDS.get(probe.stage, probe.stage))
               for spec, probe, over in zip(specs, probes, done, strict=True) if not over]
    if len(specs) == 1:
        prefix = "Listing tools from "
        spec, stage = specs[0], _STAGE_WORDS.get(probes[0].stage, probes[0].stage)
        room = width - len(prefix) - len(stage) - 2
        line = f"{prefix}{_short(spec.name, room)}: {stage}"
    else:
        prefix = f"Listing tools ({len(specs) - len(pending)}/{len(specs)} done): waiting for "
        share = (width - len(prefix)) // max(len(pending), 1)
        line = prefix + ", ".join(f"{_short(spec.name, share - len(stage) - 5)} ({stage})"
                                  for spec, stage in pending)
    return line if len(line) <= width else line[:max(width - 1, 1)] + "…"


def _short(name: str, room: int) -> str:
    """`name` in `room` characters, at least 12: a command's end (its script, its
    package@version) tells servers apart."""
    room = max(room, 12)
    return name if len(name) <= room else "…" + name[-(room - 1):]
