"""Running a CLI entry point inside the test process, as a terminal would see it run."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from unittest import mock

REPO_ROOT = Path(__file__).resolve().parent.parent


def run_main(main: Callable[[], None], args: list[str] | tuple[str, ...],
             stdin: bytes = b"", env: Mapping[str, str] | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `schema-compat ARGS` run by `main` in-process, with
    SCHEMA_COMPAT_DEBUG=1: a bug raises here instead of becoming the one-line internal
    error, so the caller sees it. `env` is laid over the environment after the defaults."""
    out, err = io.StringIO(), io.StringIO()
    env = {"SCHEMA_COMPAT_DEBUG": "1", "NO_COLOR": "1", "COLUMNS": "100", **(env or {})}
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


def cli_in_process(*args: str, cwd: Path | str = REPO_ROOT, input: str = "",
                   columns: int = 200) -> subprocess.CompletedProcess[str]:
    """`schema-compat ARGS` run in-process in `cwd` with `input` on stdin, as `launch.cli`
    runs it in a process (200 columns, no colour): for tests that assert what the command
    says and writes, not how a process of its own behaves (its own stderr file descriptor,
    signals, its environment, a terminal). Saves the interpreter's start-up and the MCP SDK's import
    (most of a second of CPU) for each command; the servers it lists still run as
    processes of their own."""
    from schema_compat.entry import main

    with contextlib.chdir(cwd), mock.patch.dict(os.environ):
        os.environ.pop("FORCE_COLOR", None)
        code, out, err = run_main(main, list(args), input.encode(),
                                  env={"COLUMNS": str(columns)})
    return subprocess.CompletedProcess(["schema-compat", *args], code, out, err)
