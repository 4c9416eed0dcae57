"""The commands' own work, apart from the typer app that declares them (cli.py).

cli.py gives each command the options the table in options.py lists for it; its body calls
the `run_*` function here with them, as the command's options record (`CheckOptions`, ...),
and, where a settings file may fill in the others, the names of those the command line set.
"""
