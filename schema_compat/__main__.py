"""`python -m schema_compat`."""

from .cli import main

main()
