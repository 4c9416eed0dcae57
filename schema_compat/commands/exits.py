"""How a command ends: its exit statuses, the one-line error for bad usage or unreadable
input, and the status a report gives.

The contract (README, DESIGN.md): 0 nothing at or above --fail-on, 1 findings remain, 2 bad
usage or unreadable input, always with one line on stderr rather than a traceback.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from ..model import Report, SourceError


EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def fail(message: str, hint: str = "") -> NoReturn:
    """One line on stderr and exit 2: the contract for bad usage and unreadable input."""
    text = f"schema-compat: error: {message}"
    if hint:
        text += f" ({hint})"
    print(text, file=sys.stderr)
    raise SystemExit(EXIT_USAGE)


def print_errors(errors: list[SourceError]) -> None:
    for err in errors:
        print(f"schema-compat: error: {err.one_line()}", file=sys.stderr)


def exit_status(report: Report, fail_on: str, findings_of: str = "findings") -> int:
    """2 when a source could not be read, else 1 when a finding at or above `fail_on` is
    left in `findings_of` ("remaining" after a transform), else 0."""
    from ..model import SEVERITY_RANK

    threshold = SEVERITY_RANK[fail_on]
    worst = [f for r in report.results for f in getattr(r, findings_of)
             if SEVERITY_RANK[f.severity] >= threshold]
    if report.errors:
        return EXIT_USAGE
    return EXIT_FINDINGS if worst else EXIT_OK
