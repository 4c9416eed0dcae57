"""The console-script entry point: answers `--version` before typer and rich are imported.

`schema-compat --version` is what scripts and CI run to probe the tool; importing typer (and
with it click and rich) costs several times Python's own start-up, so the plain version request
is answered here and every other command line goes to the typer app in cli.py unchanged.
"""

from __future__ import annotations

import sys

from . import __version__

_VERSION_FLAGS = (["--version"], ["-V"])


def main() -> None:
    """`schema-compat`: the version alone is printed here; all else is the typer CLI's."""
    if sys.argv[1:] in _VERSION_FLAGS:
        sys.stdout.write(f"schema-compat {__version__}\n")
        return
    from .cli import main as cli_main

    cli_main()
