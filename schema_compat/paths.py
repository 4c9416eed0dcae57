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


def find(expression: str, document: Any) -> list[Path]:
    """Where a JSONPath the user wrote (`diff --path`) matches in `document`, as path tuples;
    ValueError, with jsonpath-ng's words, when it is not a JSONPath. jsonpath-ng is imported
    here only, on the first such option."""
    from jsonpath_ng import Child, Fields, Index, Root, This
    from jsonpath_ng.exceptions import JsonPathLexerError, JsonPathParserError
    from jsonpath_ng.ext.parser import parse  # the extended grammar: filters, too

    def keys(step: Any) -> Path:
        if isinstance(step, Child):
            return keys(step.left) + keys(step.right)
        if isinstance(step, Fields) and len(step.fields) == 1:
            return (step.fields[0],)
        if isinstance(step, Index):
            at = getattr(step, "indices", None) or (getattr(step, "index", None),)
            if len(at) == 1 and isinstance(at[0], int):
                return (at[0],)
        if isinstance(step, Root | This):
            return ()
        raise ValueError(f"cannot follow {step}")

    try:
        matches = parse(expression).find(document)
    except (JsonPathLexerError, JsonPathParserError, Exception) as exc:
        raise ValueError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    return [_from_start(keys(m.full_path), document) for m in matches]


def _from_start(path: Path, document: Any) -> Path:
    """`path` with each index counted from the start (`$.anyOf[-1]` is `anyOf[1]` of two):
    the changes name a node by its place from the start."""
    out: list[str | int] = []
    node = document
    for key in path:
        if isinstance(key, int) and key < 0 and isinstance(node, list):
            key += len(node)
        out.append(key)
        node = node[key]
    return tuple(out)
