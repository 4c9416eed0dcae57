"""A deep copy for JSON data, without `copy.deepcopy`'s generic dispatch.

Transform copies every schema it rewrites, so the copy is on the hot path (its cost is in
docs/performance.md, throughput). Dicts and lists are copied here; strings, numbers,
booleans and None are immutable and shared, as `deepcopy` shares them. Anything else (a
tuple or a custom object from an API caller) goes to `deepcopy` with the same memo, so the
copy is the one `deepcopy` makes, including a container that appears twice staying one
shared container.
"""

from __future__ import annotations

import copy
from typing import Any

# the types `json_copy` returns as they are (a caller may test first)
ATOMIC = frozenset({str, int, float, bool, type(None)})


def json_copy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    cls = type(value)
    if cls in ATOMIC:
        return value
    if memo is None:
        memo = {}
    found = memo.get(id(value))
    if found is not None:
        return found
    if cls is dict:
        out: dict[Any, Any] = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k] = v if type(v) in ATOMIC else json_copy(v, memo)
        return out
    if cls is list:
        items: list[Any] = []
        memo[id(value)] = items
        for v in value:
            items.append(v if type(v) in ATOMIC else json_copy(v, memo))
        return items
    return copy.deepcopy(value, memo)


def json_tree_copy(value: Any) -> Any:
    """`json_copy`, but an object or list met at two places becomes two copies: the
    transform rewrites its working copy in place, and a container standing at two places
    would be rewritten at both while the change is recorded at one (a caller of the library
    may hand in such a document; JSON text never makes one). Anything else goes to
    `deepcopy`, as in `json_copy`. Depth is bounded by the callers' nesting limits."""
    cls = type(value)
    if cls in ATOMIC:
        return value
    if cls is dict:
        return {k: v if type(v) in ATOMIC else json_tree_copy(v) for k, v in value.items()}
    if cls is list:
        return [v if type(v) in ATOMIC else json_tree_copy(v) for v in value]
    return copy.deepcopy(value)
