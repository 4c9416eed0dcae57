"""schema/inliner.py: a recursive definition is unrolled a few levels, then cut into a
placeholder that says what the deeper levels were. A definition that does not say its type
gets the type its keywords imply: an array's levels stay arrays."""

from __future__ import annotations

from typing import Any

import pytest

from schema_compat import transform
from schema_compat.schema.walker import iter_nodes


@pytest.mark.parametrize(("definition", "placeholder_type"), [
    ({"items": {"$ref": "#/$defs/T"}}, "array"),
    ({"properties": {"next": {"$ref": "#/$defs/T"}}}, "object"),
    ({"type": "array", "items": {"$ref": "#/$defs/T"}}, "array"),
])
def test_a_recursion_cut_keeps_the_type_the_definition_implies(definition: dict[str, Any],
                                                               placeholder_type: str) -> None:
    schema = {"type": "object", "properties": {"t": {"$ref": "#/$defs/T"}},
              "$defs": {"T": definition}}
    [result] = transform([{"name": "tree", "inputSchema": schema}], "gemini")
    cuts = [node for _, node in iter_nodes(result.transformed_schema)
            if isinstance(node, dict) and str(node.get("description", "")).startswith("A nested")]
    assert cuts and {node["type"] for node in cuts} == {placeholder_type}
    assert any("recursive `T` cut after" in c.description for c in result.changes)
