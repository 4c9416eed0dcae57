"""The console-script entry point: answers `--version`, and runs a plain `check`,
`transform`, `diff` or `proxy`, before typer is imported.

`schema-compat --version` is what scripts and CI run to probe the tool, and `check FILE` what
hooks and editors run on every save; importing typer (with the click it vendors) costs several
times Python's own start-up. So the plain version request is answered here, a command line
that commands/argv.py can read for sure runs without typer, and every other command line
goes to the typer app in cli.py unchanged.

The objects that importing typer and the CLI creates (modules, classes, functions) live
until the process exits, so the garbage collector is paused while they are made and then told
to leave them alone (`gc.freeze`) rather than scanning them again in every collection
(docs/performance.md, cold start).
"""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

from . import __version__

if TYPE_CHECKING:
    from collections.abc import Callable

    from .commands.argv import CommandLine

_VERSION_FLAGS = (["--version"], ["-V"])
_PLAIN_COMMANDS = (["check"], ["transform"], ["diff"])


def main() -> None:
    """`schema-compat`: the version, and a plain `check`, `transform` or `diff`, are run
    here; all else is the typer CLI's."""
    args = sys.argv[1:]
    if args in _VERSION_FLAGS:
        sys.stdout.write(f"schema-compat {__version__}\n")
        return
    if args[:1] == ["proxy"]:
        from .proxy.argv import read_proxy_line, run_proxy_line

        proxy_line = read_proxy_line(args[1:])
        if proxy_line is not None:  # the upstream starts before anything else is imported
            run_proxy_line(proxy_line)  # exits, unless typer is to name a wrong provider
    if args[:1] in _PLAIN_COMMANDS:
        gc.disable()
        try:
            from .commands.argv import read_command_line
        finally:
            gc.enable()
        line = read_command_line(args)
        if line is not None:
            _run_without_typer(line)
            return
    gc.disable()
    try:
        from .cli import main as cli_main
    finally:
        gc.freeze()
        gc.enable()
    cli_main()


def _run_without_typer(line: CommandLine) -> None:
    """The command's own run, as cli.py's typer command would call it. The engine and the
    modules every such command uses are imported with the collector paused, as typer is."""
    gc.disable()
    try:
        from . import engine, extract, settings  # noqa: F401
        from .commands.guard import run_guarded

        status = _command(line)
    finally:
        gc.freeze()
        gc.enable()

    def command() -> None:
        sys.exit(status())

    run_guarded(command)


def _command(line: CommandLine) -> Callable[[], int]:
    from .commands.inputs import options_of

    if line.command == "check":
        from .commands.check import CheckOptions, run_check

        return lambda: run_check(options_of(CheckOptions, line.values), line.given)
    if line.command == "transform":
        from .commands.transform import TransformOptions, run_transform

        return lambda: run_transform(options_of(TransformOptions, line.values), line.given)
    from .commands.diff import DiffOptions, run_diff

    return lambda: run_diff(options_of(DiffOptions, line.values), line.given)
