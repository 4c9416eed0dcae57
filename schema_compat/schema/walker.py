"""The one walker over a JSON Schema document.

Check walks top-down (`iter_nodes`), transform rewrites bottom-up (`rewrite`): children are
made valid before their parent looks at them, so a parent merging union branches sees
branches that are already in the provider's dialect. Both visit exactly the subschemas that
`keywords.py` names, and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..model import Path
from .keywords import HOLDS, LIST, MAP, ONE

T = TypeVar("T")

_HOLDERS = frozenset(HOLDS)


def children(node: Any) -> list[tuple[Path, Any]]:
    """Every direct subschema of `node`, as (relative path, child). The walks call this once
    per node, and most nodes (leaves) hold no keyword with subschemas at all, which one set
    test tells."""
    if not isinstance(node, dict) or _HOLDERS.isdisjoint(node):
        return []
    found: list[tuple[Path, Any]] = []
    add = found.append
    kind_of = HOLDS.get
    for key, value in node.items():
        kind = kind_of(key)
        if kind is None:
            continue
        if kind == MAP:
            if isinstance(value, dict):
                for name, sub in value.items():
                    if isinstance(sub, (dict, bool)):
                        add(((key, name), sub))
        elif kind == LIST:
            if isinstance(value, list):
                for i, sub in enumerate(value):
                    if isinstance(sub, (dict, bool)):
                        add(((key, i), sub))
        elif kind == ONE:
            if isinstance(value, (dict, bool)):
                add(((key,), value))
        elif key == "items" and isinstance(value, (dict, bool)):
            add(((key,), value))
        elif key == "items" and isinstance(value, list):
            for i, sub in enumerate(value):
                if isinstance(sub, (dict, bool)):
                    add(((key, i), sub))
        elif key == "dependencies" and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, (dict, bool)):
                    add(((key, name), sub))
    return found


def iter_nodes(schema: Any, base: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every schema node, parents before children, without recursion (any depth)."""
    for path, node, _ in iter_nodes_keyed(schema, base):
        yield path, node


def iter_nodes_keyed(schema: Any, base: Path = (), keyword: str | None = None,
                     ) -> Iterator[tuple[Path, Any, str | None]]:
    """Like `iter_nodes`, with the keyword that holds each node (`keyword` for `schema`
    itself: None for the root)."""
    stack: list[tuple[Path, Any, str | None]] = [(base, schema, keyword)]
    while stack:
        path, node, keyword = stack.pop()
        yield path, node, keyword
        for rel, child in children(node)[::-1]:  # (mypyc cannot compile reversed() here)
            stack.append((path + rel, child, str(rel[0])))


Visit = Callable[[Any, Path, "str | None", bool], tuple[Any, list[T]]]


def rewrite(node: Any, visit: Visit[T], path: Path = (), keyword: str | None = None,
            skip: frozenset[str] = frozenset(),
            skipped: Callable[[Any, Path, str], list[T]] | None = None,
            ) -> tuple[Any, list[T], bool]:
    """Rebuild `node` bottom-up: children first, then `visit(node, path, keyword, changed)`,
    which returns the new node and what it found there; `changed` says whether anything
    below the node was replaced (the node itself was then modified in place). The third
    result says whether anything in the subtree, the node included, was replaced.

    What the visits found comes back in top-down order (a node before its children, as
    `iter_nodes` meets them), so a pass that ends up changing nothing has made the findings
    of a check walk of its result. Subschemas under `skip` keywords are left as they are:
    the parent's rule removes and describes them whole, and describing them needs them as
    written; `skipped(subschema, path, keyword)` says what is found in one.
    `node` is modified in place where it is a dict, so callers pass a copy they own.
    Depth is bounded by the loader's nesting limit and the inliner's depth budget.
    """
    below: list[T] = []
    changed = False
    if isinstance(node, dict):
        for rel, child in children(node):
            if rel[0] in skip:
                if skipped is not None:
                    below += skipped(child, path + rel, str(rel[0]))
                continue
            new, found, changed_below = rewrite(child, visit, path + rel, str(rel[0]), skip,
                                                skipped)
            below += found
            if new is not child:
                set_child(node, rel, new)
                changed = True
            elif changed_below:
                changed = True
    new_node, own = visit(node, path, keyword, changed)
    if below:
        own = own + below
    return new_node, own, changed or new_node is not node


def kept_places(before: list[tuple[Path, Any]], after: list[tuple[Path, Any]],
                ) -> list[Path] | None:
    """The places (relative paths) of the subschemas of a node (`before`: its `children`)
    that a fix's result (`after`: its `children`) no longer holds; None where the result
    holds a subschema that the node did not hold at the same place (one made or moved) or
    holds them in another order (a walk would meet them in another order)."""
    dropped: list[Path] = []
    i = 0
    for rel, child in after:
        while i < len(before) and before[i][0] != rel:
            dropped.append(before[i][0])
            i += 1
        if i == len(before) or before[i][1] is not child:
            return None
        i += 1
    dropped.extend(rel for rel, _ in before[i:])
    return dropped


def set_child(node: dict[str, Any], rel: Path, value: Any) -> None:
    """Put `value` at `rel` (a path of one or two steps, as `children` gives) in `node`."""
    container: Any = node
    for key in rel[:-1]:
        container = container[key]
    container[rel[-1]] = value

