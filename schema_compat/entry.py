"""The console-script entry point: answers `--version`, and runs a plain `check`, before
typer is imported.

`schema-compat --version` is what scripts and CI run to probe the tool, and `check FILE` what
hooks and editors run on every save; importing typer (with the click it vendors) costs several
times Python's own start-up. So the plain version request is answered here, a `check` command
line that commands/check_argv.py can read for sure runs without typer, and every other command
line goes to the typer app in cli.py unchanged.

The objects that importing typer and the CLI creates (~30,000: modules, classes, functions)
live until the process exits, so the garbage collector is paused while they are made and then
told to leave them alone (`gc.freeze`): scanning them again and again, during the import, in
every later collection and at exit, cost ~10 ms of a `check` of one small file.
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from .commands.check import CheckOptions

_VERSION_FLAGS = (["--version"], ["-V"])


def main() -> None:
    """`schema-compat`: the version and a plain `check` are run here; all else is the typer
    CLI's."""
    args = sys.argv[1:]
    if args in _VERSION_FLAGS:
        sys.stdout.write(f"schema-compat {__version__}\n")
        return
    if args[:1] == ["check"]:
        gc.disable()
        try:
            from .commands.check_argv import parse_check
        finally:
            gc.enable()
        parsed = parse_check(args[1:])
        if parsed is not None:
            _check(*parsed)
            return
    gc.disable()
    try:
        from .cli import main as cli_main
    finally:
        gc.freeze()
        gc.enable()
    cli_main()


def _check(options: CheckOptions, given: frozenset[str]) -> None:
    """`check` without typer: the engine and the modules every check uses are imported with
    the collector paused, as typer is below; then the same run as cli.py's `check`."""
    gc.disable()
    try:
        from . import engine, extract, settings  # noqa: F401
        from .commands.check import run_check
        from .commands.common import run_guarded
    finally:
        gc.freeze()
        gc.enable()

    def command() -> None:
        sys.exit(run_check(options, given))

    run_guarded(command)
