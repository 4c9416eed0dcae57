"""The console-script entry point: answers `--version` before typer and rich are imported.

`schema-compat --version` is what scripts and CI run to probe the tool; importing typer (and
with it click and rich) costs several times Python's own start-up, so the plain version request
is answered here and every other command line goes to the typer app in cli.py unchanged.

The objects that importing typer and the CLI creates (~30,000: modules, classes, functions)
live until the process exits, so the garbage collector is paused while they are made and then
told to leave them alone (`gc.freeze`): scanning them again and again, during the import, in
every later collection and at exit, cost ~10 ms of a `check` of one small file.
"""

from __future__ import annotations

import gc
import sys

from . import __version__

_VERSION_FLAGS = (["--version"], ["-V"])


def main() -> None:
    """`schema-compat`: the version alone is printed here; all else is the typer CLI's."""
    if sys.argv[1:] in _VERSION_FLAGS:
        sys.stdout.write(f"schema-compat {__version__}\n")
        return
    gc.disable()
    try:
        from .cli import main as cli_main
    finally:
        gc.freeze()
        gc.enable()
    cli_main()
