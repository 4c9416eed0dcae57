"""The console-script entry point: `schema-compat --version` is answered here, every other
command line is read by the typer app (cli.py).

`--version` is what scripts and CI run to probe the tool; importing typer (with the click it
vendors) costs several times Python's own start-up, so the plain version request is answered
before it is imported.
"""

from __future__ import annotations

import sys

from . import __version__


def main() -> None:
    """`schema-compat`: the version at once; anything else through the typer CLI."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        sys.stdout.write(f"schema-compat {__version__}\n")
        return
    from .cli import main as cli_main

    cli_main()
