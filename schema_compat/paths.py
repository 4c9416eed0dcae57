"""Locations inside a schema: path tuples, JSONPath strings and JSON Pointers.

Rules and transforms work with path tuples; people and agents read JSONPath (what the
report shows) and JSON Pointer (what a program can follow without a JSONPath library).
Both strings are built here and nowhere else, so they always agree.
"""

from __future__ import annotations

import re
from typing import Any

from .model import Path

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Words the jsonpath-ng lexer reads as operators rather than field names.
_RESERVED = frozenset({"where", "wherenot"})


def jsonpath(path: Path) -> str:
    """`$.properties.files.items['$ref']`: keys jsonpath-ng would misread are quoted."""
    parts = ["$"]
    for key in path:
        if isinstance(key, int):
            parts.append(f"[{key}]")
        elif _PLAIN.match(key) and key not in _RESERVED:
            parts.append(f".{key}")
        else:
            escaped = key.replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"['{escaped}']")
    return "".join(parts)


def pointer(path: Path) -> str:
    """RFC 6901 JSON Pointer for the same location."""
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


def parse_pointer(text: str) -> list[str] | None:
    """Split a JSON Pointer into unescaped tokens; None when it is not a pointer."""
    if text == "":
        return []
    if not text.startswith("/"):
        return None
    return [tok.replace("~1", "/").replace("~0", "~") for tok in text[1:].split("/")]


def resolve(document: Any, path: Path) -> Any:
    """Follow a path tuple; KeyError/IndexError/TypeError when it leads nowhere."""
    node = document
    for key in path:
        node = node[key]
    return node


def parse_jsonpath(expression: str) -> Any:
    """Parse a user-supplied JSONPath (for --select style options); imported lazily."""
    import jsonpath_ng

    return jsonpath_ng.parse(expression)  # type: ignore[attr-defined]
