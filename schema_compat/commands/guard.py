"""How a whole command line runs: no traceback reaches the user, output that no stream can
encode is escaped, ^C ends with the exit status a shell expects, and a reader that leaves
early (`check | head -1`) changes nothing but where the rest of the output goes.

cli.py runs every command line through `run_guarded`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TextIO, cast

from .exits import EXIT_FINDINGS, EXIT_USAGE


def _escape_unencodable_output() -> None:
    """A schema may hold a lone surrogate (`"\\ud800"` is valid JSON) that no UTF-8 stream
    can encode. Written as a backslash escape, it reads as itself in a text report and is the
    same JSON string in a JSON one, where a strict stream would stop the run half way."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _quiet_stdout(stream: TextIO) -> None:
    """What is still written to `stream` (and what it holds unwritten) goes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a file (tests capture stdout)
        pass


class _ReaderMayLeave:
    """stdout while a command runs. Once the reader of a pipe has left (`check | head -1`,
    a pager quit), the rest of the output goes nowhere and the run goes on to its own exit
    status: stopped at the first write it could not make, it ended 1 (0 expected), or
    Python's 120 where that write was the final flush. Everything else is the stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _quiet_stdout(self._stream)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _quiet_stdout(self._stream)
        except ValueError:  # closed: nothing left to write
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run_guarded(command: Callable[[], object]) -> None:
    """Run a whole command line: no traceback ever reaches the user; SCHEMA_COMPAT_DEBUG=1
    shows one. A command ends by raising SystemExit with its exit status."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    _escape_unencodable_output()
    stdout = sys.stdout
    guarded = _ReaderMayLeave(stdout)
    sys.stdout = cast(TextIO, guarded)
    try:
        try:
            command()
        finally:
            guarded.flush()  # here, not in the interpreter's last flush, where it fails loudly
            sys.stdout = stdout
    except KeyboardInterrupt:  # as typer ends it: the shell has shown ^C
        sys.exit(130)
    except BrokenPipeError:
        # the reader left, and a write did not go through the guard above (none should):
        # the run's status is unknown, so not success (a pipeline with pipefail must not
        # read it so), and what is still buffered goes nowhere
        _quiet_stdout(stdout)
        sys.exit(EXIT_FINDINGS)
    except Exception as exc:  # a bug: say so in one line rather than dump a traceback
        if os.environ.get("SCHEMA_COMPAT_DEBUG"):
            raise
        print(f"schema-compat: internal error: {type(exc).__name__}: {exc} (rerun with "
              "SCHEMA_COMPAT_DEBUG=1 for the traceback and report it)", file=sys.stderr)
        sys.exit(EXIT_USAGE)
