"""`python -m schema_compat`: the same entry point as the `schema-compat` script."""

from .entry import main

main()
