"""JSON Pointer resolution of local `$ref`s (RFC 6901 inside a URI fragment)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
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


_FRESH_JSONREF = """
import sys, urllib.parse
from schema_compat.schema.pointer import _jsonref, resolve_pointer
assert resolve_pointer({"a": [1, {"b": 2}]}, "/a/1/b") == 2
jsonref = _jsonref()
assert "urllib.request" not in sys.modules and "requests" not in sys.modules
# jsonref's own fetcher still reaches the real urlopen, imported when it is first called
with jsonref.urlopen(sys.argv[1]) as response:
    print(response.read().decode())
import urllib.request
assert urllib.request.__file__  # the real module, not the stand-in used during the import
"""


def test_jsonref_is_imported_with_urlopen_deferred_to_the_real_one(tmp_path: Path) -> None:
    """In a fresh interpreter: following a pointer imports neither urllib.request nor
    requests, and jsonref's `urlopen` (never used by us) still fetches when called."""
    target = tmp_path / "doc.json"
    target.write_text('{"ok": true}', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", _FRESH_JSONREF, target.as_uri()],
                          capture_output=True, text=True, check=False, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '{"ok": true}'
