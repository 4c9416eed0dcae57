"""Report writers: one module per output format. `report.json` stays free of rich (the
`--json` path is meant for agents and scripts, and has to be fast): the terminal writers
are in `report.text` and `report.diff`."""
