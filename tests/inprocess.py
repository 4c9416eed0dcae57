"""Running a CLI entry point inside the test process, as a terminal would see it run."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from unittest import mock


def run_main(main: Callable[[], None], args: list[str] | tuple[str, ...],
             stdin: bytes = b"") -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `schema-compat ARGS` run by `main` in-process, with
    SCHEMA_COMPAT_DEBUG=1: a bug raises here instead of becoming the one-line internal
    error, so the caller sees it."""
    out, err = io.StringIO(), io.StringIO()
    env = {"SCHEMA_COMPAT_DEBUG": "1", "NO_COLOR": "1", "COLUMNS": "100"}
    with mock.patch.object(sys, "argv", ["schema-compat", *args]), \
            mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin))), \
            mock.patch.dict(os.environ, env), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()
