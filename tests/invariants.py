"""Invariants shared by the tests of every profile: one definition, so the core's tests and the
providers' tests hold transforms to the same rule."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from schema_compat.model import ToolResult
from schema_compat.schema.walker import iter_nodes


def keywords(schema: Any) -> set[str]:
    """Every key used by any schema node of `schema`."""
    return {k for _, node in iter_nodes(schema) if isinstance(node, dict) for k in node}


def assert_nothing_dropped_silently(results: Iterable[ToolResult]) -> None:
    """Every keyword that disappears has a change naming it (by path or in its text)."""
    for r in results:
        gone = keywords(r.tool.schema) - keywords(r.transformed_schema)
        # Keywords inside a subschema removed whole (`not`, `additionalProperties`, ...) go
        # with it; the change for the enclosing keyword accounts for them.
        removed_whole = {c.path[-1] for c in r.changes if c.path}
        for _, node in iter_nodes(r.tool.schema):
            if isinstance(node, dict):
                for key in removed_whole & set(node):
                    if isinstance(node[key], dict):
                        gone -= keywords(node[key])
        for keyword in gone:
            assert any(
                keyword in c.path or f"`{keyword}`" in c.description or
                (keyword in ("$ref", "$defs", "definitions") and c.code.startswith("REF"))
                for c in r.changes
            ), (r.tool.name, keyword)
