"""The library API on inputs that never went through the file loader."""

from __future__ import annotations

from typing import Any

import pytest

from schema_compat import check, transform


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"x": node}}
    return node


@pytest.mark.parametrize("api", [check, transform], ids=["check", "transform"])
def test_ten_thousand_levels_deep_is_refused_not_a_recursion_error(api: Any) -> None:
    with pytest.raises(ValueError, match=r"tool 'deep': input schema nested deeper than 256"):
        api([{"name": "deep", "inputSchema": _deep(10_000)}])


def test_deep_but_allowed_schema_is_transformed() -> None:
    # 100 property levels are 201 JSON levels: under the limit, and walked in full.
    schema = _deep(100)
    schema["properties"]["x"]["anyOf"] = [{"type": "string"}, {"type": "null"}]
    result = transform([{"name": "ok", "inputSchema": schema}])[0]
    assert [c.code for c in result.changes] == ["UNI001"]
    assert result.transformed_schema["properties"]["x"]["nullable"] is True
