"""The rich console every terminal output is printed on (reports, spinners), made in one
place so that NO_COLOR means no escapes at all, wherever the console is made."""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def make_console(
    *,
    stderr: bool = False,
    file: IO[str] | None = None,
    width: int | None = None,
    color: bool | None = None,
) -> Console:
    """A Console that honours NO_COLOR fully.

    rich alone only drops colours under NO_COLOR and still emits bold/dim escapes on a
    terminal; here NO_COLOR (or `color=False`) turns every escape off. `color=None` leaves
    the rest to rich: colour on a terminal, plain text through a pipe, FORCE_COLOR honoured.
    `color=True` forces colour even under NO_COLOR (an explicit `--color` beats the env).
    """
    from rich.console import Console

    if color is None and os.environ.get("NO_COLOR", ""):
        color = False
    if color is False:
        return Console(
            stderr=stderr,
            file=file,
            width=width,
            color_system=None,
            no_color=True,
            highlight=False,
            emoji=False,
        )
    return Console(
        stderr=stderr,
        file=file,
        width=width,
        force_terminal=True if color else None,
        no_color=False if color else None,
        highlight=False,
        emoji=False,
    )
