"""JSON Pointer resolution of local `$ref`s (RFC 6901 inside a URI fragment)."""

from __future__ import annotations

from typing import Any

import pytest

from schema_compat.schema.pointer import resolve_pointer
from schema_compat.schema.refs import RefResolver

DOC: dict[str, Any] = {
    "$defs": {
        "a/b": {"type": "string"},
        "m~n": {"type": "integer"},
        "with space": {"type": "boolean"},
        "Item": {"type": "object"},
    },
    "prefixItems": [{"type": "null"}, {"type": "number"}],
    "leaf": "text",
}


@pytest.mark.parametrize(
    ("fragment", "expected"),
    [
        ("/$defs/a~1b", {"type": "string"}),
        ("/$defs/m~0n", {"type": "integer"}),
        ("/$defs/with%20space", {"type": "boolean"}),
        ("/prefixItems/1", {"type": "number"}),
        ("", DOC),
    ],
    ids=["escaped-slash", "escaped-tilde", "percent-decoded", "array-index", "whole-document"],
)
def test_pointer_names_the_node(fragment: str, expected: Any) -> None:
    assert resolve_pointer(DOC, fragment) == expected


@pytest.mark.parametrize(
    "fragment",
    ["/$defs/Missing", "/prefixItems/2", "/prefixItems/01", "/prefixItems/-1", "/leaf/0",
     "/prefixItems/x"],
    ids=["missing-key", "index-out-of-range", "leading-zero", "negative", "into-a-string",
         "non-numeric-index"],
)
def test_pointer_to_nothing_raises_lookup_error(fragment: str) -> None:
    with pytest.raises(LookupError):
        resolve_pointer(DOC, fragment)


def test_resolver_reports_a_dangling_pointer_as_unresolvable() -> None:
    resolver = RefResolver(DOC)
    assert resolver.resolve("#/$defs/Item").node is DOC["$defs"]["Item"]
    target = resolver.resolve("#/$defs/Nope")
    assert target.kind == "unresolvable"
    assert "#/$defs/Nope" in target.reason
    assert resolver.resolve("https://example.com/s.json#/x").kind == "remote"


