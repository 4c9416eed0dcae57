"""Schema evolution: which changes between two versions of a server's tools break callers.

`compare_tools(old, new)` (tools.py) matches tools by name and reports each as added,
removed, breaking, compatible or unchanged, with findings of the checks in checks.py;
compare.py finds where one schema may refuse what another accepts, and document.py makes
the example values that show it, tested with jsonschema before any is reported.
"""
