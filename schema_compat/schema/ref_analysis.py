"""Reference analysis: what the references of one document amount to before anything is
inlined: each reference's kind, which ones recurse, where `$defs` stand, and the size of
the fully inlined document.

The size is measured *before* inlining, because a few kilobytes of references that point
at each other twice per level inline to hundreds of megabytes. Apart from the inliner
(`inliner`) because the engine analyses every document on every pass, and inlines few.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..model import Path
from .refs import DEFS_KEYWORDS, RefResolver, RefTarget
from .walker import children

Kids = dict[int, list[tuple[Path, Any]]]  # id(node) -> children(node), for one document
# What a walk of a document found for its analysis: each object's children, the objects
# holding a `$ref` and where `$defs` / `definitions` stand, all in walk order.
Walk = tuple[Kids, list[tuple[Path, dict[str, Any]]], list[tuple[Path, str]]]


def _refs_below(node: Any, kids: Kids | None = None) -> Iterator[dict[str, Any]]:
    """`$ref` nodes inside `node`, not looking into its own `$defs` (they are only a store).
    `kids` holds the children of the nodes of a walk of the document already made."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            if "$ref" in cur:
                yield cur
            below = kids.get(id(cur)) if kids is not None else None
            for rel, child in children(cur) if below is None else below:
                if rel[0] not in DEFS_KEYWORDS:
                    stack.append(child)


class RefAnalysis:
    """What the references of one document look like before anything is inlined.

    A document without references is measured only when first asked (`measure`): one is
    analysed on every check and transform pass, and its size matters only when its
    `$defs` are to be dropped. A plain class, not a dataclass: `dataclasses` imports
    `inspect`, a few milliseconds of every `check`'s start-up.
    """

    __slots__ = ("defs", "kids", "kinds", "measure", "recursive", "resolver", "size")

    def __init__(self, *, kinds: dict[Path, RefTarget] | None = None,
                 recursive: set[Path] | None = None,
                 defs: list[tuple[Path, str]] | None = None,
                 size: tuple[int, int] | None = None,
                 measure: Callable[[], tuple[int, int]] | None = None,
                 resolver: RefResolver | None = None, kids: Kids | None = None) -> None:
        self.kinds: dict[Path, RefTarget] = {} if kinds is None else kinds
        self.recursive: set[Path] = set() if recursive is None else recursive
        # Where `$defs` / `definitions` stand, in walk order, found by the same walk as the
        # references (None when the analysis failed and found nothing).
        self.defs = defs
        self.size = size  # (expanded nodes, expanded depth) once measured
        self.measure = measure
        self.resolver = resolver
        # Each object's children, kept from the analysis's walk when the document has a
        # reference: the inliner, which walks it next, then need not work them out again.
        self.kids = kids

    def _size(self) -> tuple[int, int]:
        if self.size is None:
            assert self.measure is not None
            self.size = self.measure()
        return self.size

    @property
    def expanded_nodes(self) -> int:
        return self._size()[0]

    @property
    def expanded_depth(self) -> int:
        return self._size()[1]


def walk_for_analysis(schema: Any) -> Walk:
    """The walk `analyse` needs (that of `iter_nodes`, written out): it runs on every check
    and transform pass. Each object's children are kept for the walks after it (the
    document is not changed while it is analysed)."""
    kids: Kids = {}
    refs: list[tuple[Path, dict[str, Any]]] = []
    defs: list[tuple[Path, str]] = []
    todo: list[tuple[Path, Any]] = [((), schema)]
    while todo:
        path, node = todo.pop()
        if not isinstance(node, dict):
            continue
        for defs_key in DEFS_KEYWORDS:
            if defs_key in node:
                defs.append((path, defs_key))
        if "$ref" in node:
            refs.append((path, node))
        below = kids[id(node)] = children(node)
        for rel, child in below[::-1]:  # (mypyc cannot compile reversed() here)
            todo.append((path + rel, child))
    return kids, refs, defs


def analyse(schema: Any, resolver: RefResolver | None = None, *, unroll: int = 3,
            walk: Walk | None = None) -> RefAnalysis:
    """Classify every reference and estimate the size of the fully inlined schema.
    `walk`: what `walk_for_analysis` finds in `schema`, from a walk made already (the
    engine's check walk gathers it on the way)."""
    resolver = resolver or RefResolver(schema)
    kids, refs, defs = walk_for_analysis(schema) if walk is None else walk
    result = RefAnalysis(resolver=resolver, defs=defs)
    targets: dict[int, Any] = {}
    for path, node in refs:
        target = resolver.resolve(node["$ref"])
        result.kinds[path] = target
        if target.kind == "local":
            targets[id(target.node)] = target.node

    # Which targets reach themselves through references (a recursive schema)?
    edges: dict[int, set[int]] = {}
    for key, node in targets.items():
        out: set[int] = set()
        for ref_node in _refs_below(node, kids):
            t = resolver.resolve(ref_node["$ref"])
            if t.kind == "local":
                out.add(id(t.node))
        edges[key] = out
    cyclic: set[int] = set()
    for start in edges:
        seen: set[int] = set()
        stack = list(edges[start])
        while stack:
            cur = stack.pop()
            if cur == start:
                cyclic.add(start)
                break
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(edges.get(cur, ()))
    for path, target in result.kinds.items():
        if target.kind == "local" and id(target.node) in cyclic:
            result.recursive.add(path)

    if result.kinds:
        result.size = _measure(schema, resolver, cyclic, unroll, kids)
        result.kids = kids
    else:
        result.measure = lambda: _measure(schema, resolver, cyclic, unroll)
    return result


def _measure(schema: Any, resolver: RefResolver, cyclic: set[int], unroll: int,
             kids: Kids | None = None) -> tuple[int, int]:
    """(node count, depth) of the inlined document, memoised per target: linear in the input.

    A recursive target is counted as unrolled `unroll` times, as the inliner will do.
    """
    return _Sizes(resolver, cyclic, unroll, kids).measure(schema)


class _Sizes:
    """`_measure`'s memo and its recursive walk. A class, not a closure that calls itself:
    that is a reference cycle, left with everything it holds for the cyclic collector."""

    def __init__(self, resolver: RefResolver, cyclic: set[int], unroll: int,
                 kids: Kids | None) -> None:
        self.resolver = resolver
        self.cyclic = cyclic
        self.unroll = unroll
        self.kids = kids
        self.memo: dict[int, tuple[int, int]] = {}
        self.in_progress: set[int] = set()

    def measure(self, node: Any) -> tuple[int, int]:
        key = id(node)
        memo = self.memo
        if key in memo:
            return memo[key]
        if key in self.in_progress:
            return (1, 0)  # the back edge of a cycle: counted by the multiplier below
        self.in_progress.add(key)
        total, deepest = 1, 0
        if isinstance(node, dict):
            if "$ref" in node:
                target = self.resolver.resolve(node["$ref"])
                if target.kind == "local":
                    n, d = self.measure(target.node)
                    if id(target.node) in self.cyclic:
                        n, d = n * self.unroll, d * self.unroll
                    total += n
                    deepest = max(deepest, d)
            below = self.kids.get(key) if self.kids is not None else None
            for rel, child in children(node) if below is None else below:
                if rel[0] in DEFS_KEYWORDS:
                    continue
                n, d = self.measure(child)
                total += n
                deepest = max(deepest, d + 1)
        self.in_progress.discard(key)
        memo[key] = (total, deepest)
        return total, deepest
