"""How a whole command line runs: no traceback reaches the user, output that no stream can
encode is escaped, ^C and a reader that leaves early end with the exit status a shell expects.

Both ways in (entry.py without typer, cli.py with it) run their command through
`run_guarded`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from .exits import EXIT_FINDINGS, EXIT_USAGE


def _escape_unencodable_output() -> None:
    """A schema may hold a lone surrogate (`"\\ud800"` is valid JSON) that no UTF-8 stream
    can encode. Written as a backslash escape, it reads as itself in a text report and is the
    same JSON string in a JSON one, where a strict stream would stop the run half way."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a file (tests capture stdout)
        pass


def run_guarded(command: Callable[[], object]) -> None:
    """Run a whole command line: no traceback ever reaches the user; SCHEMA_COMPAT_DEBUG=1
    shows one. A command ends by raising SystemExit with its exit status."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    _escape_unencodable_output()
    try:
        command()
    except KeyboardInterrupt:  # as typer ends it: the shell has shown ^C
        sys.exit(130)
    except BrokenPipeError:
        # `check --json | head`: the reader left. Exit 1 as typer does (a pipeline with
        # pipefail must not read it as success), and send what is still buffered nowhere,
        # so the interpreter's final flush does not complain on stderr.
        _quiet_stdout()
        sys.exit(EXIT_FINDINGS)
    except Exception as exc:  # a bug: say so in one line rather than dump a traceback
        if os.environ.get("SCHEMA_COMPAT_DEBUG"):
            raise
        print(f"schema-compat: internal error: {type(exc).__name__}: {exc} (rerun with "
              "SCHEMA_COMPAT_DEBUG=1 for the traceback and report it)", file=sys.stderr)
        sys.exit(EXIT_USAGE)
