"""The commands' own work, apart from the typer app that declares them (cli.py)."""
