"""JSON Pointers (RFC 6901) into one document: the node a `$ref`'s fragment names. Only the
document itself is read: a reference elsewhere is never fetched."""

from __future__ import annotations

from typing import Any


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The node a URI fragment's JSON Pointer (percent-decoded) names.

    Raises LookupError when a step names nothing: a missing key, an index that is not a
    non-negative integer without a sign or leading zero, or is out of range, or a step
    into a scalar or a string.
    """
    if not fragment:
        return document
    if "%" in fragment:  # urllib.parse (and the ipaddress it imports) only when needed
        from urllib.parse import unquote

        fragment = unquote(fragment)
    if not fragment.startswith("/"):
        raise LookupError(fragment)
    node = document
    for step in fragment[1:].split("/"):
        if isinstance(node, dict):
            key = step.replace("~1", "/").replace("~0", "~")
            if key not in node:
                raise LookupError(fragment)
            node = node[key]
        elif isinstance(node, list) and step.isascii() and step.isdigit() \
                and (step == "0" or step[0] != "0") and int(step) < len(node):
            node = node[int(step)]
        else:
            raise LookupError(fragment)
    return node
