"""JSON Pointers (RFC 6901) into one document: the node a `$ref`'s fragment names.

Remote references are never fetched or read. jsonref follows the pointers that are not plain
key lookups (escapes, percent-encoding, array indexes), with a loader that refuses every URI.
It is imported on the first such pointer only: with the `requests` it imports when installed,
it costs ~35 ms, which the usual `#/$defs/Name` (read here as key lookups) never pays.
"""

from __future__ import annotations

from typing import Any


class RemoteRefRefused(Exception):
    """Raised by the loader handed to jsonref: nothing outside the document is read."""


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(uri)


def resolve_pointer(document: Any, fragment: str) -> Any:
    """The node a URI fragment's JSON Pointer (RFC 6901, percent-decoded) names.

    Raises LookupError when a step names nothing: a missing key, an index that is not a
    non-negative integer or is out of range, or a step into a scalar.
    """
    if not fragment:
        return document
    if "%" in fragment:  # urllib.parse (and the ipaddress it imports) only when needed
        from urllib.parse import unquote

        parts = unquote(fragment).split("/")[1:]
    else:
        parts = fragment.split("/")[1:]
    for part in parts:  # jsonref reads "01" as 1 and "-1" as the last item; RFC 6901 does not
        if part.startswith("-") or (part.isdigit() and len(part) > 1 and part[0] == "0"):
            raise LookupError(part)
    if fragment[1:2] != "/" and fragment[:1] == "/" and "%" not in fragment \
            and "~" not in fragment and fragment.isprintable():
        # The usual `#/$defs/Name`: when every step is a key of a plain object, jsonref
        # would make the same lookups (no escapes to decode, nothing its URI parsing would
        # strip), only through a proxy that costs ~50 µs per reference.
        node = document
        for part in fragment[1:].split("/"):
            if type(node) is not dict or part not in node:
                break
            node = node[part]
        else:
            return node
    import jsonref  # after the fast path: most references never need it (nor its import)

    proxy = jsonref.JsonRef({"$ref": "#" + fragment}, base_uri="", loader=_refuse,
                            load_on_repr=False, _store=jsonref.URIDict({"": document}))
    try:
        node = proxy.__subject__
    except jsonref.JsonRefError as exc:
        raise LookupError(fragment) from exc
    if isinstance(node, str) and isinstance(
            resolve_pointer(document, fragment.rsplit("/", 1)[0]), str):
        raise LookupError(fragment)  # jsonref indexes into strings; a pointer does not
    return node
